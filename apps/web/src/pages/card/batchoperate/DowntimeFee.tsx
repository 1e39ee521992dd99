import type { ReactNode } from 'react';
import { Alert, Card, Skeleton, Table, Tag, Typography } from 'antd';
import { useQuery, type QueryClient } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { batch, formatCount, formatMoney, moneyToFen } from '@lynx/contract';
import { call } from '../../../request/http.ts';
import { Section } from '../../../components/Section.tsx';
import { MoneyCell } from '../../business/capital/shared.tsx';
import { chargesDowntime, downtimeRule, type BatchDowntimeFee, type BatchSummary, type DowntimeFeePlan } from './scope.ts';

/**
 * What deactivating a batch's cards costs: the downtime maintenance fee per plan of its valid cards, the monthly
 * total once the free months have passed, and the rule. Shown for deactivation batches only (the caller checks
 * `batch.isDeactivation`); `framed`: a page section (the batch's detail) or a card inside the new-batch flow.
 */
export function DowntimeFee({ batchId, framed }: { batchId: string; framed: 'section' | 'card' }) {
  const { t } = useTranslation();
  const F = (k: string, o?: Record<string, unknown>) => t(`batch.downtime.${k}`, o);
  const fee = useQuery({
    queryKey: [batch.getBatchShutDownFee.name, { batchId }],
    queryFn: ({ signal }) => call(batch.getBatchShutDownFee, { batchId }, { signal, silent: true }),
  });
  const d = fee.data;
  // nothing valid: nothing will be deactivated (the flow already says so)
  if (fee.isError || (d && (!d.applies || !d.cards))) return null;
  const rule = downtimeRule(d?.list ?? []);
  const money = (label: string) => t('money.withCurrency', { label });
  const body: ReactNode = !d ? null : rule.key === 'none' ? (
    <Alert type="success" showIcon title={F('none')} description={F('scope')} data-testid="batch-downtime-none" />
  ) : (
    <>
      <Table<DowntimeFeePlan>
        size="small" pagination={false} dataSource={d.list} rowKey={(r) => r.goodsReleaseId ?? 0} scroll={{ x: 'max-content' }}
        columns={[
          { title: F('plan'), dataIndex: 'planName', render: (v: string | null) => v ?? <Typography.Text type="secondary">{F('noPlan')}</Typography.Text> },
          { title: F('cards'), dataIndex: 'cards', width: 90, align: 'right', render: (v: number) => formatCount(v) },
          {
            title: money(F('fee')), dataIndex: 'downtimeFee', width: 170, align: 'right',
            render: (v: string, r) => (chargesDowntime(r) ? <MoneyCell v={v} /> : <Tag color="green" style={{ marginInlineEnd: 0 }}>{F('free')}</Tag>),
          },
          { title: F('freeMonths'), dataIndex: 'freeMonths', width: 110, align: 'right', render: (v: number, r) => (chargesDowntime(r) ? v : '-') },
          {
            title: money(F('monthly')), dataIndex: 'monthlyTotal', width: 210, align: 'right',
            render: (v: string, r) => (chargesDowntime(r) ? <MoneyCell v={v} /> : '-'),
          },
        ]}
        summary={() => (
          <Table.Summary.Row>
            <Table.Summary.Cell index={0}><Typography.Text strong>{F('total')}</Typography.Text></Table.Summary.Cell>
            <Table.Summary.Cell index={1} align="right">{formatCount(d.cards)}</Table.Summary.Cell>
            <Table.Summary.Cell index={2} />
            <Table.Summary.Cell index={3} />
            <Table.Summary.Cell index={4} align="right">
              <Typography.Text strong data-testid="batch-downtime-total"><MoneyCell v={d.monthlyTotal} /></Typography.Text>
            </Table.Summary.Cell>
          </Table.Summary.Row>
        )}
      />
      <Typography.Paragraph type="secondary" style={{ margin: '8px 0 0' }}>
        {F(rule.key, { n: rule.n })}
        <br />
        {F('scope')}
      </Typography.Paragraph>
    </>
  );
  if (framed === 'section') return <Section title={F('title')} testId="batch-downtime">{fee.isLoading ? <Skeleton active paragraph={{ rows: 2 }} /> : body}</Section>;
  return <Card size="small" title={F('title')} loading={fee.isLoading} data-testid="batch-downtime">{body}</Card>;
}

/**
 * The confirmation's word on the downtime fee of a deactivation batch, from the summary the flow or the detail has
 * already shown (nothing when it was not loaded or nothing is charged).
 */
export function downtimeConfirmNote(qc: QueryClient, b: Pick<BatchSummary, 'batchId' | 'type' | 'params'>, t: TFunction): string | null {
  if (!batch.isDeactivation(b)) return null;
  const fee = qc.getQueryData<BatchDowntimeFee>([batch.getBatchShutDownFee.name, { batchId: b.batchId }]);
  if (!fee?.applies || (moneyToFen(fee.monthlyTotal) ?? 0n) <= 0n) return null;
  return t('batch.downtime.confirmNote', { total: formatMoney(fee.monthlyTotal) });
}
