import { Progress, Tooltip } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { formatSize } from '@lynx/contract';

/** What the cycle usage columns read of a card list row (carddata.CardRow). */
export interface CycleUsageRow {
  cycleUsedKb: number;
  cycleQuotaKb: number | null;
  cycleUsedPercent: number | null;
  cycleFrom: string | null;
  cycleTo: string | null;
}

const ORANGE = '#fa8c16';

/** % of the quota used as a small bar: orange from 80 %, red above 100 %; a dash without a quota (never 0 %). */
export function UsedPercent({ percent, noQuota }: { percent: number | null; noQuota: string }) {
  if (percent === null) return <Tooltip title={noQuota}><span data-testid="cycle-pct-none">-</span></Tooltip>;
  const over = percent > 100;
  return (
    <Progress
      size="small" percent={Math.min(percent, 100)} status={over ? 'exception' : 'normal'} strokeColor={over ? undefined : percent >= 80 ? ORANGE : undefined}
      format={() => <span style={{ color: over ? '#cf1322' : undefined, whiteSpace: 'nowrap' }}>{`${percent.toFixed(percent >= 100 ? 0 : 1)} %`}</span>}
      style={{ margin: 0, minWidth: 110 }} data-testid="cycle-pct"
    />
  );
}

/**
 * The card list's cycle usage columns: used this cycle (with the cycle's days as a tooltip), the quota and the share
 * used; usage and % sort on the server (sortField cycleUsedKb / cycleUsedPercent). Sizes scale their unit (formatSize).
 */
export function CycleUsageColumns<T extends CycleUsageRow>(L: (k: string, o?: Record<string, unknown>) => string): ColumnsType<T> {
  return [
    {
      title: L('cycleUsed'), dataIndex: 'cycleUsedKb', sorter: true, width: 150, align: 'right',
      render: (v: number, r: T) => (
        <Tooltip title={r.cycleFrom && r.cycleTo ? L('cycleRange', { from: r.cycleFrom, to: r.cycleTo }) : undefined}>
          <span style={{ whiteSpace: 'nowrap' }}>{formatSize(v * 1024)}</span>
        </Tooltip>
      ),
    },
    {
      title: L('cycleQuota'), dataIndex: 'cycleQuotaKb', width: 130, align: 'right',
      render: (v: number | null) => <span style={{ whiteSpace: 'nowrap' }}>{v === null ? '-' : formatSize(v * 1024)}</span>,
    },
    {
      title: L('cycleUsedPercent'), dataIndex: 'cycleUsedPercent', sorter: true, width: 160,
      render: (v: number | null) => <UsedPercent percent={v} noQuota={L('noQuota')} />,
    },
  ];
}
