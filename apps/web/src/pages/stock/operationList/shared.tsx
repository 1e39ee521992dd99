import { Progress } from 'antd';
import type { TFunction } from 'i18next';
import { currentLang } from '../../../locales/i18n.ts';
import { Operator, StockBatchState, StockOpType, batch, type ResponseOf, type stock } from '@lynx/contract';

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

/** The card batch engine's types of the stock operations (20-23, in StockOpType order). */
const STOCK_BATCH_TYPES: readonly number[] = [batch.BatchType.StockIn, batch.BatchType.StockMatch, batch.BatchType.StockOut, batch.BatchType.StockScrap];
export const isStockBatchType = (type: number) => STOCK_BATCH_TYPES.includes(type);

/** A stock batch's operation as the card batch screens show it ("Stock in (China Mobile)", "Stock match" …). */
export function stockBatchText(type: number, params: Record<string, unknown>, t: TFunction): string {
  const op = ['in', 'match', 'out', 'scrap'][STOCK_BATCH_TYPES.indexOf(type)] ?? 'in';
  return t(`stock.batchOp.${op}`, { operator: Operator.label(Number(params.operatorId), currentLang()) || '-' });
}

/** A stock batch opens on the stock operations screen (the primary place); null for any other batch. */
export const stockBatchPath = (b: { type: number; batchId: string }) => (isStockBatchType(b.type) ? `/stock/operationList/detail/${b.batchId}` : null);
