import { Progress } from 'antd';
import { StockBatchState, StockOpType, type ResponseOf, type stock } from '@lynx/contract';

export type StockOpRow = ResponseOf<typeof stock.getStockOpPage>['list'][number];

export const STATE_COLORS: Record<number, string> = {
  [StockBatchState.Validated]: 'warning', [StockBatchState.Running]: 'processing', [StockBatchState.Done]: 'success', [StockBatchState.Cancelled]: 'default',
};

/** The :param segment of /stock/operationList/list/:param? ↔ the operation type. */
export const TYPE_PARAM: Record<string, number> = { in: StockOpType.In, match: StockOpType.Match, out: StockOpType.Out, scrap: StockOpType.Scrap };

export const POLL_MS = 2000;

export function OpProgress({ b }: { b: StockOpRow }) {
  const base = b.valid || 1;
  const pct = b.state === StockBatchState.Done ? 100 : Math.floor((b.processed / base) * 100);
  return <Progress percent={pct} size="small" status={b.state === StockBatchState.Running ? 'active' : b.failed > 0 ? 'exception' : undefined} style={{ minWidth: 120 }} />;
}
