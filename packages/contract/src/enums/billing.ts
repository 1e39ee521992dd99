// Enums of charging and bills (issue 14, docs/billing.md). The categories of a bill line and when each is charged
// are ours (docs/decisions.md "Issue 14: rating").
import { defineEnum } from './define.ts';

/**
 * What a bill line charges for. One category per price of the plan (spec §3), as a carrier's bill groups its
 * charges: recurring plan fees, usage, one-off fees. The bill's "per-category expenses" sum lines by this.
 */
export const BillLineCategory = defineEnum({
  /** a monthly plan's fee for a cycle (charged on the period's bill) */
  PlanFee: { value: 1, zh: '套餐月费', en: 'Plan fee' },
  /** a prepaid plan's fee for a contract term (withheld at activation, renewal and plan change) */
  PrepaidPlanFee: { value: 2, zh: '预付费套餐费', en: 'Prepaid plan fee' },
  /** usage beyond the quota of an "overdraw" plan, per out-of-plan grade step */
  OutOfPlanUsage: { value: 3, zh: '套外流量费', en: 'Out-of-plan usage' },
  /** the test period's fee (a base plan's test price, or a test plan's price) */
  TestFee: { value: 4, zh: '测试期费用', en: 'Test-period fee' },
  /** a deactivated card's monthly fee after the free months */
  DowntimeFee: { value: 5, zh: '停机保号费', en: 'Downtime maintenance fee' },
  /** a supplementary pack (event, add-on, overage, value-added), charged when ordered */
  PackFee: { value: 6, zh: '加油包/叠加包费', en: 'Supplementary pack fee' },
  /** a one-off fee put on a customer or card by staff, charged in the next bill */
  OneOffFee: { value: 7, zh: '一次性费用', en: 'One-off fee' },
});
export type BillLineCategory = (typeof BillLineCategory.values)[number];

/** When a category's money is due: at the event that causes it, or on the period's bill. */
export const ChargeTiming = defineEnum({
  /** at activation, renewal, plan change or order (a prepaid customer's balance is withheld then) */
  AtEvent: { value: 1, zh: '发生时扣费', en: 'Charged at the event' },
  /** on the bill of the billing period */
  OnBill: { value: 2, zh: '出账时计费', en: 'Charged on the bill' },
});
export type ChargeTiming = (typeof ChargeTiming.values)[number];

/** When each category is charged. */
export const CHARGE_TIMING_OF: Readonly<Record<BillLineCategory, ChargeTiming>> = {
  [BillLineCategory.PlanFee]: ChargeTiming.OnBill,
  [BillLineCategory.PrepaidPlanFee]: ChargeTiming.AtEvent,
  [BillLineCategory.OutOfPlanUsage]: ChargeTiming.OnBill,
  [BillLineCategory.TestFee]: ChargeTiming.OnBill,
  [BillLineCategory.DowntimeFee]: ChargeTiming.OnBill,
  [BillLineCategory.PackFee]: ChargeTiming.AtEvent,
  [BillLineCategory.OneOffFee]: ChargeTiming.OnBill,
};

/**
 * A bill's status (spec §4). Stored: 1 while unpublished or nothing is due, 2 published with money due, 3 written
 * off. Overdue (4, 5) is computed when read from the due date (published day + BILL_DUE_DAYS): a bill written off
 * after its due date is 4, one still unpaid past it is 5.
 */
export const BillStatus = defineEnum({
  Normal: { value: 1, zh: '正常', en: 'Normal' },
  ToWriteOff: { value: 2, zh: '待核销', en: 'To be written off' },
  WrittenOff: { value: 3, zh: '已核销', en: 'Written off' },
  OverdueWrittenOff: { value: 4, zh: '逾期已核销', en: 'Overdue, written off' },
  OverdueNotWrittenOff: { value: 5, zh: '逾期未核销', en: 'Overdue, not written off' },
});
export type BillStatus = (typeof BillStatus.values)[number];

export const BillPublishState = defineEnum({
  Unpublished: { value: 0, zh: '未发布', en: 'Unpublished' },
  Published: { value: 1, zh: '已发布', en: 'Published' },
});
export type BillPublishState = (typeof BillPublishState.values)[number];

/** A bill run: the set-based pass that rates every card of a period (or re-rates one customer's unpublished bill). */
export const BillRunState = defineEnum({
  Running: { value: 1, zh: '出账中', en: 'Running' },
  Done: { value: 2, zh: '已完成', en: 'Done' },
  Failed: { value: 3, zh: '失败', en: 'Failed' },
});
export type BillRunState = (typeof BillRunState.values)[number];

/** One-off fee states (6090000). */
export const OneOffFeeState = defineEnum({
  Pending: { value: 1, zh: '待出账', en: 'Pending' },
  Billed: { value: 2, zh: '已出账', en: 'Billed' },
  Cancelled: { value: 3, zh: '已取消', en: 'Cancelled' },
});
export type OneOffFeeState = (typeof OneOffFeeState.values)[number];

/** Breakdowns of a bill (bill_summaries.dim). */
export const BillSummaryDim = defineEnum({
  Plan: { value: 1, zh: '按套餐', en: 'By plan' },
  Operator: { value: 2, zh: '按运营商', en: 'By operator' },
  CardType: { value: 3, zh: '按卡类型', en: 'By card type' },
});
export type BillSummaryDim = (typeof BillSummaryDim.values)[number];

/** A published bill is due this many days after the day it is published (docs/decisions.md "Issue 14: bills"). */
export const BILL_DUE_DAYS = 15;
/** A bill's card lines filtered by ICCID are counted up to this many (`totalCapped` beyond). */
export const BILL_LINES_COUNT_CAP = 10_000;
/** A bill run that fails this many times in a row is marked failed and no longer retried. */
export const BILL_RUN_MAX_FAILURES = 5;
/** A bill run's card chunk: lines and cursor committed together. */
export const BILL_RUN_CHUNK_CARDS = 20_000;

/**
 * What a charge at the event was caused by (card_charges.event; docs/billing.md "Charges at the event"): a prepaid
 * plan's contract starting (activation, the end of the silent period, a plan change taking effect), a renewal by hand
 * or by the contract's automatic renewal, or a supplementary pack ordered.
 */
export const ChargeEvent = defineEnum({
  ContractStart: { value: 1, zh: '套餐生效（激活/变更）', en: 'Plan started (activation or change)' },
  Renewal: { value: 2, zh: '续费', en: 'Renewal' },
  AutoRenewal: { value: 3, zh: '自动续约', en: 'Automatic renewal' },
  PackOrder: { value: 4, zh: '订购加油包', en: 'Pack ordered' },
});
export type ChargeEvent = (typeof ChargeEvent.values)[number];

/**
 * How a charge at the event is collected: a prepaid customer's balance is withheld in the card change's transaction; a
 * postpaid customer pays it on the period's bill; a prepaid customer whose balance could not cover a change the
 * platform made by itself (an automatic renewal, the end of a silent period) pays it on the bill too.
 */
export const ChargeState = defineEnum({
  Withheld: { value: 1, zh: '已扣缴', en: 'Withheld' },
  OnBill: { value: 2, zh: '计入账单（后付费）', en: 'On the bill (postpaid)' },
  OnBillShort: { value: 3, zh: '余额不足，计入账单', en: 'Balance too low: on the bill' },
});
export type ChargeState = (typeof ChargeState.values)[number];
