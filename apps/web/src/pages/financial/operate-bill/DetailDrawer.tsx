import { Alert, Button, Descriptions, Drawer, Empty, Result, Skeleton, Space, Table, Typography } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { BillLineCategory, Operator, formatCount, formatDateTime, formatSize, operatebill, withZoneLabel, type ResponseOf } from '@lynx/contract';
import { call } from '../../../request/http.ts';
import { StatusTag } from '../../../components/StatusTag.tsx';
import { Section } from '../../../components/Section.tsx';
import { MoneyCell } from '../../business/capital/shared.tsx';
import { CATEGORY_COLORS, WithHelp } from '../../billing/bill/shared.tsx';
import { OperatorBillState, STATE_COLORS, tariffText, useAccountName } from './shared.tsx';
import { ChannelBillCell, mayReconcile, useReconcileOperatorBill } from './reconcile.tsx';

type Detail = ResponseOf<typeof operatebill.getOperatorBillDetail>;

/** One operator bill: its summary and tariff, the carrier's breakdown by plan, and the revenue of the same cards by category. */
export function OperatorBillDetailDrawer({ operatorBillId, onClose }: { operatorBillId: number | null; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const nameOf = useAccountName();
  const F = (k: string) => t(`operatebill.f.${k}`);
  const D = (k: string, o?: Record<string, unknown>) => t(`operatebill.detail.${k}`, o);
  const M = (label: string) => t('money.withCurrency', { label });
  const q = useQuery({
    queryKey: [operatebill.getOperatorBillDetail.name, operatorBillId],
    queryFn: ({ signal }) => call(operatebill.getOperatorBillDetail, { operatorBillId: operatorBillId! }, { signal, silent: true }),
    enabled: operatorBillId !== null,
  });
  const qc = useQueryClient();
  const { canReconcile, reconcile } = useReconcileOperatorBill(() => {
    void q.refetch();
    void qc.invalidateQueries({ queryKey: [operatebill.getOperatorBillListPage.name] });
  });
  const d: Detail | undefined = q.data;
  const b = d?.bill;
  const fetched = b && (b.state === OperatorBillState.Fetched || b.state === OperatorBillState.Confirmed);
  return (
    <Drawer open={operatorBillId !== null} onClose={onClose} size={920} destroyOnHidden data-testid="operate-bill-detail"
      title={b ? D('title', { account: nameOf(b.operAccountId, b.accountName), period: b.periodKey }) : F('period')}>
      {q.isError && <Result status="warning" subTitle={t('operatebill.loadFailed')} />}
      {!q.isError && !d && <Skeleton active />}
      {d && b && (
        <>
          {!fetched && <Alert type="info" showIcon style={{ marginBottom: 12 }} title={D('notFetched')} />}
          <Descriptions bordered size="small" column={{ xs: 1, md: 2 }} items={[
            { key: 'op', label: F('operator'), children: Operator.label(b.operatorId, lang) },
            { key: 'acc', label: <WithHelp label={F('account')} help={t('operatebill.help.account')} />, children: nameOf(b.operAccountId, b.accountName) },
            { key: 'period', span: 2, label: <WithHelp label={F('period')} help={t('operatebill.help.period')} />, children: D('periodDays', { key: b.periodKey, from: b.periodFrom, to: b.periodTo }) },
            { key: 'state', label: <WithHelp label={F('state')} help={t('operatebill.help.state')} />, children: <StatusTag enumOf={OperatorBillState} value={b.state} colors={STATE_COLORS} /> },
            ...(b.lastError ? [{ key: 'err', span: 2, label: F('lastError'), children: <Typography.Text type="danger">{t('operatebill.failedAt', { reason: b.lastError, n: b.attempts })}</Typography.Text> }] : []),
            ...(b.nextAttemptAt && b.state === OperatorBillState.Failed ? [{ key: 'next', label: withZoneLabel(F('nextAttempt')), children: formatDateTime(b.nextAttemptAt) }] : []),
            { key: 'ref', label: F('billRef'), children: b.billRef ?? '-' },
            { key: 'tariff', span: 2, label: F('tariff'), children: tariffText(t, b.tariff) },
            { key: 'cards', label: F('cards'), children: formatCount(b.cards) },
            { key: 'data', label: F('data'), children: formatSize(b.dataBytes) },
            { key: 'sms', label: F('sms'), children: formatCount(b.sms) },
            { key: 'cost', label: <WithHelp label={M(F('cost'))} help={t('operatebill.help.cost')} />, children: <MoneyCell v={fetched ? b.cost : null} /> },
            { key: 'tax', label: M(F('costTax')), children: <MoneyCell v={fetched ? b.costTax : null} /> },
            { key: 'rev', label: <WithHelp label={M(F('revenue'))} help={t('operatebill.help.revenue')} />, children: b.periodBilled ? <MoneyCell v={b.revenue} /> : <Typography.Text type="secondary">{t('operatebill.notBilled')}</Typography.Text> },
            { key: 'margin', label: <WithHelp label={M(F('margin'))} help={t('operatebill.help.margin')} />, children: <span data-testid="operate-bill-detail-margin"><MoneyCell v={b.margin} />{b.marginPct !== null ? ` · ${b.marginPct}%` : ''}</span> },
            { key: 'at', label: withZoneLabel(F('fetchedAt')), children: b.fetchedAt ? formatDateTime(b.fetchedAt) : '-' },
            ...(b.confirmedAt ? [{ key: 'conf', label: withZoneLabel(F('confirmedAt')), children: `${formatDateTime(b.confirmedAt)} · ${b.confirmedBy ?? ''}` }] : []),
            ...(fetched ? [{
              key: 'recon', span: 2, label: <WithHelp label={F('reconciliation')} help={t('operatebill.help.reconciliation')} />,
              children: (
                <Space wrap>
                  <ChannelBillCell r={b} />
                  {canReconcile && mayReconcile(b) && (
                    <Button size="small" onClick={() => reconcile(b)} data-testid="operate-bill-detail-reconcile">{t('operatebill.action.reconcile')}</Button>
                  )}
                </Space>
              ),
            }] : []),
          ]} />
          <Section title={D('plans')} testId="operate-bill-plans">
            <Table size="small" rowKey="planCode" pagination={false} dataSource={d.plans} scroll={{ x: 'max-content' }}
              locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={D('noPlans')} /> }}
              columns={[
                { title: D('planCode'), dataIndex: 'planCode', width: 140, render: (v: string) => v || D('noPlan') },
                { title: D('planName'), dataIndex: 'planName', width: 200, ellipsis: true, render: (v: string | null) => v ?? '-' },
                { title: F('cards'), dataIndex: 'cards', width: 90, align: 'right', render: (v: number) => formatCount(v) },
                { title: F('data'), dataIndex: 'dataBytes', width: 110, align: 'right', render: (v: number) => formatSize(v) },
                { title: F('sms'), dataIndex: 'sms', width: 80, align: 'right', render: (v: number) => formatCount(v) },
                { title: M(D('cardFee')), dataIndex: 'cardFee', width: 130, align: 'right', render: (v: string) => <MoneyCell v={v} /> },
                { title: M(D('dataFee')), dataIndex: 'dataFee', width: 130, align: 'right', render: (v: string) => <MoneyCell v={v} /> },
                { title: M(D('smsFee')), dataIndex: 'smsFee', width: 120, align: 'right', render: (v: string) => <MoneyCell v={v} /> },
                { title: M(F('cost')), dataIndex: 'cost', width: 140, align: 'right', render: (v: string) => <MoneyCell v={v} /> },
              ]} />
          </Section>
          <Section title={D('revenue')} testId="operate-bill-revenue">
            <Table size="small" rowKey="category" pagination={false} dataSource={d.revenue} scroll={{ x: 'max-content' }}
              locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={D('noRevenue')} /> }}
              columns={[
                { title: D('category'), dataIndex: 'category', width: 200, render: (v: number) => <StatusTag enumOf={BillLineCategory} value={v} colors={CATEGORY_COLORS} /> },
                { title: F('cards'), dataIndex: 'cards', width: 90, align: 'right', render: (v: number) => formatCount(v) },
                { title: M(F('revenue')), dataIndex: 'revenue', width: 150, align: 'right', render: (v: string) => <MoneyCell v={v} /> },
                { title: M(F('revenueTax')), dataIndex: 'revenueTax', width: 150, align: 'right', render: (v: string) => <MoneyCell v={v} /> },
              ]} />
          </Section>
        </>
      )}
    </Drawer>
  );
}
