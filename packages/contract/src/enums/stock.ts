import { defineEnum } from './define.ts';

// Physical stock (issue 16, spec §4 "Stock"; docs/stock.md).

/** Whether a stock item's three codes (ICCID, IMSI, MSISDN) are bound into a card. */
export const StockMatchState = defineEnum({
  NotMatched: { value: 1, zh: '未配卡', en: 'Not matched' },
  Matching: { value: 2, zh: '配卡中', en: 'Matching' },
  Matched: { value: 3, zh: '已配卡', en: 'Matched' },
  Scrapped: { value: 4, zh: '已报废', en: 'Scrapped' },
});

/** Whether a stock item has left the warehouse (out = its card was allocated to a customer). */
export const StockOutState = defineEnum({
  NotOut: { value: 1, zh: '未出库', en: 'Not out' },
  Outgoing: { value: 2, zh: '出库中', en: 'Outgoing' },
  Out: { value: 3, zh: '已出库', en: 'Out' },
  Scrapped: { value: 4, zh: '已报废', en: 'Scrapped' },
});

export const StockBalanceType = defineEnum({
  Postpaid: { value: 1, zh: '后付费', en: 'Postpaid' },
  Prepaid: { value: 2, zh: '预付费', en: 'Prepaid' },
});

/** A stock operation (one durable batch). */
export const StockOpType = defineEnum({
  In: { value: 1, zh: '入库', en: 'Stock in' },
  Match: { value: 2, zh: '配卡', en: 'Match' },
  Out: { value: 3, zh: '出库', en: 'Stock out' },
  Scrap: { value: 4, zh: '报废', en: 'Scrap' },
});

export const StockBatchState = defineEnum({
  Validated: { value: 1, zh: '待确认', en: 'Validated' },
  Running: { value: 2, zh: '执行中', en: 'Running' },
  Done: { value: 3, zh: '已完成', en: 'Done' },
  Cancelled: { value: 4, zh: '已取消', en: 'Cancelled' },
});

export const StockVerdict = defineEnum({
  Valid: { value: 1, zh: '可执行', en: 'Valid' },
  Invalid: { value: 2, zh: '不可执行', en: 'Invalid' },
});

export const StockItemStatus = defineEnum({
  Pending: { value: 1, zh: '待执行', en: 'Pending' },
  Succeeded: { value: 2, zh: '成功', en: 'Succeeded' },
  Failed: { value: 3, zh: '失败', en: 'Failed' },
  Skipped: { value: 4, zh: '未执行', en: 'Skipped' },
});

export const StockChangeKind = defineEnum({
  Received: { value: 1, zh: '入库', en: 'Received' },
  Updated: { value: 2, zh: '修改', en: 'Updated' },
  Matched: { value: 3, zh: '配卡', en: 'Matched' },
  Outgoing: { value: 4, zh: '出库中', en: 'Outgoing' },
  Out: { value: 5, zh: '已出库（已分配）', en: 'Out (allocated)' },
  Scrapped: { value: 6, zh: '报废', en: 'Scrapped' },
  MatchFailed: { value: 7, zh: '配卡失败', en: 'Match failed' },
});
