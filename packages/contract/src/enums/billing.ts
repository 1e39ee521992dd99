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
