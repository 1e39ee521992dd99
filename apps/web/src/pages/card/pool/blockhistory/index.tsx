import { Space, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import type { Dayjs } from 'dayjs';
import { formatDateTime, formatSize, pool, type ResponseOf, formatCount, withZoneLabel } from '@lynx/contract';
import { SearchTable, type SearchField } from '../../../../components/SearchTable.tsx';
import { useSearchTable } from '../../../../components/useSearchTable.ts';
import { StatusTag } from '../../../../components/StatusTag.tsx';
import { call } from '../../../../request/http.ts';
import { POOL_EVENT_COLORS, POOL_STATE_COLORS, poolDetailPath } from '../shared.tsx';
import { usePageTitle } from '../../../../layout/pageTitle.ts';

type EventRow = ResponseOf<typeof pool.getPoolEventPage>['list'][number];
const { PoolEventType, PoolState } = pool;

/** Search form → filters: one event type as the types list, the date range as days. */
export function eventFilters(v: Record<string, any>): Record<string, unknown> {
  const { type, range, ...rest } = v as { type?: number; range?: [Dayjs, Dayjs] | null } & Record<string, unknown>;
  return {
    ...rest,
    ...(type ? { types: [type] } : {}),
    ...(range?.[0] ? { from: range[0].format('YYYY-MM-DD'), to: range[1].format('YYYY-MM-DD') } : {}),
  };
}

/** /card/pool/blockhistory/:poolId: a pool's blocks, unblocks and threshold alerts, newest first. */
export default function PoolBlockHistory() {
  const { t } = useTranslation();
  const poolId = Number(useParams().poolId);
  const detail = useQuery({
    queryKey: [pool.getPoolDetail.name, poolId],
    queryFn: ({ signal }) => call(pool.getPoolDetail, { poolId }, { signal, silent: true }),
    enabled: Number.isInteger(poolId) && poolId > 0,
  });
  const table = useSearchTable(pool.getPoolEventPage, { fixed: { poolId }, transform: eventFilters });
  const H = (k: string, o?: Record<string, unknown>) => t(`pool.history.${k}`, o);
  const p = detail.data;
  usePageTitle(p?.name);
  const fields: SearchField[] = [
    { name: 'type', label: H('type'), type: 'enum', enumOf: PoolEventType },
    { name: 'range', label: H('range'), type: 'dateRange' },
  ];
  return (
    <>
      <div className="lx-card" style={{ display: 'flex', alignItems: 'center', gap: 12, flexWrap: 'wrap' }}>
        <Typography.Title level={5} style={{ margin: 0 }}>{p ? H('of', { name: p.name }) : H('title')}</Typography.Title>
        {p && <StatusTag enumOf={PoolState} value={p.state} colors={POOL_STATE_COLORS} />}
        <Space style={{ marginLeft: 'auto' }}><Link to={poolDetailPath(poolId)}>{H('back')}</Link></Space>
      </div>
      <SearchTable<EventRow>
        table={table}
        title={H('title')}
        rowKey="eventId"
        emptyHint={H('emptyHint')}
        fields={fields}
        columns={[
          { title: withZoneLabel(H('at')), dataIndex: 'at', width: 170, render: (v: string) => formatDateTime(v) },
          { title: H('type'), dataIndex: 'type', width: 190, render: (v: number) => <StatusTag enumOf={PoolEventType} value={v} colors={POOL_EVENT_COLORS} /> },
          {
            title: H('usage'), key: 'usage', width: 210,
            render: (_: unknown, e) => (e.usedBytes == null && e.quotaBytes == null ? '-' : `${formatSize(e.usedBytes)} / ${formatSize(e.quotaBytes)}`),
          },
          { title: H('members'), dataIndex: 'memberCount', width: 100, align: 'right', render: (v: number | null) => (v == null ? '-' : formatCount(v)) },
          { title: H('reason'), dataIndex: 'reason', ellipsis: true, render: (v: string | null) => v ?? '-' },
          { title: H('actor'), dataIndex: 'actor', width: 140 },
        ]}
      />
    </>
  );
}
