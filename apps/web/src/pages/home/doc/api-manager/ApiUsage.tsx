import { Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { Dayjs } from 'dayjs';
import { apiservice, formatCount, type ResponseOf } from '@lynx/contract';
import { SearchTable, type SearchField } from '../../../../components/SearchTable.tsx';
import { useSearchTable } from '../../../../components/useSearchTable.ts';
import { zoneLabel } from '../../../../components/businessTime.ts';

type UsageRow = ResponseOf<typeof apiservice.getApiUsagePage>['list'][number];
const u = (key: string) => `doc.api.usage.${key}`;
const COUNTS = ['calls', 'errors', 'refused'] as const;

/** Search form → filters: the date range as business days. */
export function usageFilters(v: Record<string, any>): Record<string, unknown> {
  const { range, ...rest } = v as { range?: [Dayjs, Dayjs] | null } & Record<string, unknown>;
  return { ...rest, ...(range?.[0] ? { startDay: range[0].format('YYYY-MM-DD'), endDay: range[1].format('YYYY-MM-DD') } : {}) };
}

/**
 * Tab "API usage": signed calls per key and business day (the last 30 days unless a range is chosen): calls, of
 * which refused before running and answered with an error; totals over the range; export.
 */
export function ApiUsage({ custId }: { custId: number | undefined }) {
  const { t } = useTranslation();
  const table = useSearchTable(apiservice.getApiUsagePage, { fixed: custId === undefined ? undefined : { custId }, transform: usageFilters });
  const data = table.query.data;
  const fields: SearchField[] = [{ name: 'range', label: t(u('range')), type: 'dateRange' }];
  return (
    <>
      <Typography.Paragraph type="secondary">{t(u('intro'), { zone: zoneLabel() })}</Typography.Paragraph>
      <SearchTable<UsageRow>
        table={table}
        title={(
          <span style={{ display: 'inline-flex', alignItems: 'center', gap: 12 }}>
            {t(u('title'))}
            {data && <Typography.Text type="secondary" style={{ fontSize: 13, fontWeight: 'normal' }} data-testid="api-usage-range">{`${data.startDay} ~ ${data.endDay}`}</Typography.Text>}
          </span>
        )}
        rowKey={(r) => `${r.day}|${r.custId}|${r.appKey}`}
        exportSource={apiservice.getApiUsagePage}
        emptyHint={t(u('empty'))}
        fields={fields}
        summary={() => (data && table.list.length > 0 ? (
          <Table.Summary fixed>
            <Table.Summary.Row data-testid="api-usage-totals">
              <Table.Summary.Cell index={0} colSpan={3}><Typography.Text strong>{t(u('total'))}</Typography.Text></Table.Summary.Cell>
              {COUNTS.map((k, i) => (
                <Table.Summary.Cell key={k} index={i + 3} align="right"><Typography.Text strong>{formatCount(data.sum[k])}</Typography.Text></Table.Summary.Cell>
              ))}
            </Table.Summary.Row>
          </Table.Summary>
        ) : null)}
        columns={[
          { title: t(u('day')), dataIndex: 'day', width: 120 },
          { title: t('doc.api.customer'), dataIndex: 'custName', width: 220, ellipsis: true },
          { title: t('doc.api.key.appKey'), dataIndex: 'appKey', width: 200, render: (v: string) => <Typography.Text code>{v}</Typography.Text> },
          ...COUNTS.map((k) => ({ title: t(u(k)), dataIndex: k, key: k, width: 120, align: 'right' as const, render: (v: number) => formatCount(v) })),
        ]}
      />
    </>
  );
}
