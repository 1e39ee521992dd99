// Rating: a card's plan and usage turned into bill lines (docs/billing.md; rules and why in docs/decisions.md
// "Issue 14: rating"). Pure and exact (fen and bytes as bigint). The monthly bill run does the same in set-based SQL
// over the whole fleet and is checked against these functions; card changes (activation, renewal, plan change, pack
// orders) call the event functions directly to know what to withhold. Rating says how much; the customer's payment model
// (prepaid: withheld at the event; postpaid: the bill is written off) says how it is collected, so it is not read here.
import { BillLineCategory, OverageGrade, PlanGoodsType, PlanUseUpAction, businessDay, fenToMoney } from '@lynx/contract';
import type { basicPlans } from '../../plan/plan-tables.ts';
import { addBusinessMonths } from '../../card/lifecycle/time.ts';
import { KB_BYTES, MB_BYTES, bytesOf, divCeil, priceFen, quotaBytesOfMb, splitTax, type TaxSplit } from './amounts.ts';
import type { BillingPeriod } from './periods.ts';

/** The plan facts rating reads: columns of `basic_plans` exactly as Drizzle reads them (prices as exact text). */
export type RatingPlan = Pick<
  typeof basicPlans.$inferSelect,
  'goodsType' | 'quotaMb' | 'useUpAction' | 'overageGrade' | 'overagePrice' | 'testQuotaKb' | 'testPrice' | 'downtimeFee' |
  'downtimeFreeMonths' | 'taxRate'
>;

/** A stretch of time: start inclusive, end exclusive (as cycles are stored). */
export interface Span {
  start: Date;
  end: Date;
}

/** A cycle (or test period) and the card's usage in it: bytes over its business days, and what event packs added. */
export interface UsageSpan extends Span {
  usedBytes: bigint | number;
  /** quota the event packs running in the span added (bytes); 0 when none */
  packQuotaBytes?: bigint | number;
}

/**
 * One interval a card spent deactivated (state 65; a forced shutdown, 68, is the platform's act and costs nothing);
 * `until` null = still deactivated. Each deactivation starts its own free period.
 */
export interface Downtime {
  since: Date;
  until: Date | null;
}

export interface BillLine extends TaxSplit {
  category: BillLineCategory;
  /** cycles, terms, grade steps, months or packs */
  quantity: bigint;
  /** price of one (fen, tax included) */
  unitFen: bigint;
  /** the business days the line charges for (inclusive) */
  from: string;
  to: string;
}

/** Bytes of one step of each out-of-plan grade (1 GB = 1024 MB, the product's size base). */
export const OVERAGE_STEP_BYTES: Readonly<Record<number, bigint>> = {
  [OverageGrade.PerMb]: MB_BYTES,
  [OverageGrade.Per10Mb]: 10n * MB_BYTES,
  [OverageGrade.Per100Mb]: 100n * MB_BYTES,
  [OverageGrade.PerGb]: 1024n * MB_BYTES,
};

const daysOf = (s: Span) => ({ from: businessDay(s.start.getTime()), to: businessDay(s.end.getTime() - 1) });

/** quantity × unit price, tax split at the line's tax rate; null when the amount is zero (a free item is no line). */
function line(category: BillLineCategory, quantity: bigint, unitFen: bigint, taxRate: number, span: Span): BillLine | null {
  const incl = quantity * unitFen;
  if (incl === 0n) return null;
  return { category, quantity, unitFen, ...splitTax(incl, taxRate), ...daysOf(span) };
}

/** Out-of-plan grade steps for `overBytes` beyond the quota: rounded up, so 1 byte over is one whole step. */
export function outOfPlanSteps(overBytes: bigint, grade: number): bigint {
  const step = OVERAGE_STEP_BYTES[grade];
  if (step === undefined) throw new RangeError(`${grade} is not an out-of-plan grade`);
  return overBytes <= 0n ? 0n : divCeil(overBytes, step);
}

/**
 * A monthly plan's fee for one cycle: the customer's sale price in full, whatever part of the month the cycle covers.
 * No proration by day: the lifecycle counts the first cycle after a mid-month activation as a contract month and gives
 * it the whole quota, so it is sold as one. Null for other goods types: a prepaid plan is paid when its term starts
 * (`prepaidFeeLine`), a test plan by its test fee.
 */
export function cycleFeeLine(plan: RatingPlan, salePrice: string, cycle: Span): BillLine | null {
  if (plan.goodsType !== PlanGoodsType.Monthly) return null;
  return line(BillLineCategory.PlanFee, 1n, priceFen(salePrice), plan.taxRate, cycle);
}

/**
 * What to withhold when a prepaid plan's contract starts or is extended (activation, plan change, renewal,
 * auto-renewal): the customer's sale price per term (the plan's duration, at least one month, as the lifecycle engine
 * counts a renewal period) × `terms`. `span` is the contract stretch paid for. Nothing of a term is refunded when a
 * plan change cuts it short.
 */
export function prepaidFeeLine(plan: RatingPlan, salePrice: string, span: Span, terms = 1): BillLine | null {
  if (plan.goodsType !== PlanGoodsType.Prepaid) throw new RangeError(`goods type ${plan.goodsType} is not prepaid`);
  if (!Number.isSafeInteger(terms) || terms < 1) throw new RangeError(`${terms} is not a number of terms`);
  return line(BillLineCategory.PrepaidPlanFee, BigInt(terms), priceFen(salePrice), plan.taxRate, span);
}

/**
 * A supplementary pack's fee, charged when it is ordered: the customer's sale price of the pack × `count`, at the
 * pack's own tax rate. `span` is the pack's validity (it ends with the base cycle).
 */
export function packFeeLine(pack: RatingPlan, salePrice: string, span: Span, count = 1): BillLine | null {
  if (pack.goodsType !== PlanGoodsType.Supplementary) throw new RangeError(`goods type ${pack.goodsType} is not a supplementary pack`);
  if (!Number.isSafeInteger(count) || count < 1) throw new RangeError(`${count} is not a number of packs`);
  return line(BillLineCategory.PackFee, BigInt(count), priceFen(salePrice), pack.taxRate, span);
}

/** A one-off fee staff put on a customer or card (tax included, at the given rate), for the day it applies to. */
export function oneOffFeeLine(amount: string, taxRate: number, span: Span): BillLine | null {
  return line(BillLineCategory.OneOffFee, 1n, priceFen(amount), taxRate, span);
}

export interface OutOfPlan {
  line: BillLine | null;
  /** usage beyond the quota (bytes) */
  overBytes: bigint;
  /** of it, not charged: the plan does not overdraw, or has no out-of-plan grade or price */
  unbilledBytes: bigint;
}

/**
 * Usage beyond a quota, rated by the out-of-plan grade: steps rounded up × the out-of-plan price. A quota of 0 bytes
 * is no quota (the plans' rule), so nothing is beyond it. Only `charge` decides whether the excess is billed.
 */
function beyondQuota(plan: RatingPlan, usage: UsageSpan, quotaBytes: bigint, charge: boolean): OutOfPlan {
  const used = bytesOf(usage.usedBytes);
  const quota = quotaBytes === 0n ? null : quotaBytes + bytesOf(usage.packQuotaBytes ?? 0);
  const overBytes = quota === null || used <= quota ? 0n : used - quota;
  if (overBytes === 0n) return { line: null, overBytes, unbilledBytes: 0n };
  if (!charge || plan.overageGrade == null || plan.overagePrice == null) return { line: null, overBytes, unbilledBytes: overBytes };
  const steps = outOfPlanSteps(overBytes, plan.overageGrade);
  return { line: line(BillLineCategory.OutOfPlanUsage, steps, priceFen(plan.overagePrice), plan.taxRate, usage), overBytes, unbilledBytes: 0n };
}

/**
 * A cycle's usage beyond the plan's quota plus the event packs of the cycle. Charged only when the plan's use-up
 * action is "overdraw" (spec §4): the other actions stop the card at the quota, and what slips past before the action
 * lands is the platform's latency, not a purchase (reported as unbilled for the operator-bill reconciliation).
 */
export const cycleOutOfPlan = (plan: RatingPlan, usage: UsageSpan): OutOfPlan =>
  beyondQuota(plan, usage, quotaBytesOfMb(plan.quotaMb), plan.useUpAction === PlanUseUpAction.Overdraw);

/**
 * The test period's fee: a test plan (goods type 10) is sold for its test period, so its fee is the customer's sale
 * price; a base plan's test period costs the plan's test price (0: free, the usual "100 KB free").
 */
export function testFeeLine(plan: RatingPlan, salePrice: string, test: Span): BillLine | null {
  const fee = plan.goodsType === PlanGoodsType.Test ? salePrice : plan.testPrice;
  return line(BillLineCategory.TestFee, 1n, priceFen(fee), plan.taxRate, test);
}

/**
 * Test usage beyond the test quota (KB): billed at the plan's out-of-plan grade and price when it has them, whatever
 * the use-up action (nothing stops a test card at its test quota; the test price covers the quota only).
 */
export const testOutOfPlan = (plan: RatingPlan, usage: UsageSpan): OutOfPlan =>
  beyondQuota(plan, { ...usage, packQuotaBytes: 0 }, BigInt(plan.testQuotaKb) * KB_BYTES, true);

/**
 * The downtime months of one deactivation that start in the period and are charged: month k (1-based) of a downtime
 * starts k − 1 calendar months after the deactivation (business time, the day clamped to the month's end); the
 * first `freeMonths` are free; a month is charged when it starts while the card is still deactivated.
 */
export function chargedDowntimeMonths(d: Downtime, freeMonths: number, period: Pick<BillingPeriod, 'start' | 'end'>): Span[] {
  const months: Span[] = [];
  const stop = Math.min(period.end.getTime(), d.until?.getTime() ?? Infinity);
  for (let k = Math.max(0, freeMonths); ; k++) {
    const start = addBusinessMonths(d.since, k);
    if (start.getTime() >= stop) break;
    if (start.getTime() >= period.start.getTime()) months.push({ start, end: addBusinessMonths(d.since, k + 1) });
  }
  return months;
}

/** The downtime maintenance fee of one deactivation for the months of it that start in the period. */
export function downtimeFeeLine(plan: RatingPlan, d: Downtime, period: Pick<BillingPeriod, 'start' | 'end'>): BillLine | null {
  const months = chargedDowntimeMonths(d, plan.downtimeFreeMonths, period);
  if (!months.length) return null;
  const span = { start: months[0].start, end: months[months.length - 1].end };
  return line(BillLineCategory.DowntimeFee, BigInt(months.length), priceFen(plan.downtimeFee), plan.taxRate, span);
}

/** What one card did with one plan during one billing period, as the bill run gathers it. */
export interface CardPeriodUsage {
  plan: RatingPlan;
  /** the customer's price of the plan (`plan_releases.sale_price` of the card's customer) */
  salePrice: string;
  /** the plan cycles the lifecycle started for the card (its `cycleStarted` cycles) that touch the period, with usage */
  cycles?: readonly UsageSpan[];
  /** the card's test period on this plan, when it touches the period (end: when it ended or will end) */
  test?: UsageSpan | null;
  /** the card's deactivations on this plan that touch the period */
  downtimes?: readonly Downtime[];
}

export interface CardPeriodRating {
  /** the bill lines of the period, in category order */
  lines: BillLine[];
  /** the sums of the lines */
  totals: TaxSplit;
  /** usage beyond the quota not charged (see `cycleOutOfPlan`), for reconciliation with the operator's bill */
  unbilledOverBytes: bigint;
}

const ms = (d: Date) => d.getTime();
const startsIn = (p: Span, s: Span) => ms(p.start) <= ms(s.start) && ms(s.start) < ms(p.end);
// a span ends in the period when its last instant does: period start < end ≤ period end
const endsIn = (p: Span, s: Span) => ms(p.start) < ms(s.end) && ms(s.end) <= ms(p.end);

/**
 * The bill lines of one card for one period (what goes on the period's bill; prepaid fees and packs are charged at
 * their event instead). A fee belongs to the period its cycle, test period or downtime month starts in; usage beyond
 * a quota to the period its cycle or test period ends in, when the cycle's usage is complete. A card that changed
 * plans in the period is rated once per plan, with the cycles of each.
 */
export function rateCardPeriod(period: Pick<BillingPeriod, 'start' | 'end'>, u: CardPeriodUsage): CardPeriodRating {
  const lines: BillLine[] = [];
  let unbilled = 0n;
  const add = (l: BillLine | null) => { if (l) lines.push(l); };
  const over = (o: OutOfPlan) => { add(o.line); unbilled += o.unbilledBytes; };
  for (const c of u.cycles ?? []) {
    if (startsIn(period, c)) add(cycleFeeLine(u.plan, u.salePrice, c));
    if (endsIn(period, c)) over(cycleOutOfPlan(u.plan, c));
  }
  if (u.test) {
    if (startsIn(period, u.test)) add(testFeeLine(u.plan, u.salePrice, u.test));
    if (endsIn(period, u.test)) over(testOutOfPlan(u.plan, u.test));
  }
  for (const d of u.downtimes ?? []) add(downtimeFeeLine(u.plan, d, period));
  lines.sort((a, b) => a.category - b.category || a.from.localeCompare(b.from));
  return { lines, totals: sumLines(lines), unbilledOverBytes: unbilled };
}

/** The sums of bill lines (each line was rounded on its own: the totals are sums, never re-rounded). */
export function sumLines(lines: readonly TaxSplit[]): TaxSplit {
  const t = { exclFen: 0n, taxFen: 0n, inclFen: 0n };
  for (const l of lines) {
    t.exclFen += l.exclFen;
    t.taxFen += l.taxFen;
    t.inclFen += l.inclFen;
  }
  return t;
}

/** A bill line as the wire carries money: decimal strings with two decimals (`MoneyText`). */
export function lineAsText(l: BillLine) {
  return {
    category: l.category, quantity: l.quantity.toString(), unitPrice: fenToMoney(l.unitFen), from: l.from, to: l.to,
    amountExclTax: fenToMoney(l.exclFen), tax: fenToMoney(l.taxFen), amount: fenToMoney(l.inclFen),
  };
}
