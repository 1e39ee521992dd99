import { describe, it, expect } from 'vitest';
import {
  BillLineCategory, CHARGE_TIMING_OF, ChargeTiming, OverageGrade, PlanGoodsType, PlanUseUpAction, fenToMoney, zonedTime,
} from '@lynx/contract';
import { quotaBytesOfMb, splitTax, taxRateBp, priceFen, bytesOf } from '../src/modules/billing/rating/amounts.ts';
import {
  OVERAGE_STEP_BYTES, chargedDowntimeMonths, cycleFeeLine, cycleOutOfPlan, downtimeFeeLine, lineAsText, oneOffFeeLine,
  outOfPlanSteps, packFeeLine, prepaidFeeLine, rateCardPeriod, sumLines, testFeeLine, testOutOfPlan,
  type RatingPlan, type UsageSpan,
} from '../src/modules/billing/rating/rating.ts';
import { periodByKey } from '../src/modules/billing/rating/periods.ts';

// Issue 14: rating rules (docs/billing.md, docs/decisions.md "Issue 14: rating"). Money in fen, usage in bytes.

const KB = 1024n;
const MB = 1024n * KB;
const GB = 1024n * MB;
const at = (y: number, mo: number, d: number, h = 0, mi = 0, s = 0) => zonedTime(y, mo, d, h, mi, s);
const ms = (d: Date, n: number) => new Date(d.getTime() + n);

/** The seed's "车载 4G 月付 10GB": 39.90 a month, 10 GB, overdraw at 0.29 per MB, 100 KB free test, 3.00 downtime after 1 month, 6 % VAT. */
const monthly: RatingPlan = {
  goodsType: PlanGoodsType.Monthly, quotaMb: 10240, useUpAction: PlanUseUpAction.Overdraw, overageGrade: OverageGrade.PerMb,
  overagePrice: '0.29', testQuotaKb: 100, testPrice: '0', downtimeFee: '3', downtimeFreeMonths: 1, taxRate: 6,
};
const prepaid: RatingPlan = { ...monthly, goodsType: PlanGoodsType.Prepaid, quotaMb: 2048, useUpAction: PlanUseUpAction.BlockUntilCycleEnd };
const testPlan: RatingPlan = { ...monthly, goodsType: PlanGoodsType.Test, quotaMb: 0, testQuotaKb: 1024, testPrice: '9.99', overageGrade: OverageGrade.Per10Mb, overagePrice: '1' };
const pack: RatingPlan = { ...monthly, goodsType: PlanGoodsType.Supplementary, quotaMb: 5120, downtimeFee: '0', taxRate: 13 };

const use = (start: Date, end: Date, usedBytes: bigint, packQuotaBytes = 0n): UsageSpan => ({ start, end, usedBytes, packQuotaBytes });
const QUOTA_10G = 10n * GB;

describe('amounts', () => {
  it.each([
    // incl fen, tax rate % → excl, tax (prices include VAT; excl = incl / (1 + rate) half up; tax = the rest)
    [100n, 6, 94n, 6n],
    [106n, 6, 100n, 6n],
    [3990n, 6, 3764n, 226n],
    [29n, 6, 27n, 2n],
    [1n, 6, 1n, 0n],
    [100n, 13, 88n, 12n],
    [100n, 9, 92n, 8n],
    [100n, 6.5, 94n, 6n],
    [100n, 0, 100n, 0n],
    [0n, 6, 0n, 0n],
    // exact halves (only reachable with rates like 60 % or 100 %): rounded up
    [4n, 60, 3n, 1n], // 2.5 → 3
    [12n, 60, 8n, 4n], // 7.5 → 8
    [3n, 60, 2n, 1n], // 1.875 → 2
    [1n, 100, 1n, 0n], // 0.5 → 1
  ])('%s fen at a rate of %s splits into %s + %s', (incl, rate, excl, tax) => {
    expect(splitTax(incl, rate)).toEqual({ exclFen: excl, taxFen: tax, inclFen: incl });
  });

  it('reads tax rates, prices, quotas and usage exactly, refusing what the columns cannot hold', () => {
    expect(taxRateBp(6)).toBe(600n);
    expect(taxRateBp('6.5')).toBe(650n);
    expect(taxRateBp(0.01)).toBe(1n);
    expect(() => taxRateBp(6.555)).toThrow(RangeError);
    expect(() => taxRateBp(-1)).toThrow(RangeError);
    expect(priceFen('39.90')).toBe(3990n);
    expect(priceFen('0.29')).toBe(29n);
    expect(priceFen(null)).toBe(0n);
    expect(() => priceFen('1.005')).toThrow(RangeError);
    expect(() => priceFen('-1')).toThrow(RangeError);
    expect(() => splitTax(-1n, 6)).toThrow(RangeError);
    // round(quota_mb × 1048576), as migration 0019 computes cycle_quota_bytes
    expect(quotaBytesOfMb(10240)).toBe(QUOTA_10G);
    expect(quotaBytesOfMb(0.5)).toBe(512n * KB);
    expect(quotaBytesOfMb(0.01)).toBe(10486n); // 10485.76
    expect(quotaBytesOfMb('0.05')).toBe(52429n); // 52428.8
    expect(quotaBytesOfMb(0)).toBe(0n);
    expect(bytesOf(5)).toBe(5n);
    expect(() => bytesOf(1.5)).toThrow(RangeError);
    expect(() => bytesOf(-1n)).toThrow(RangeError);
  });
});

describe('out-of-plan usage', () => {
  it.each([
    // grade, bytes beyond the quota → steps (rounded up to the grade's step)
    [OverageGrade.PerMb, 0n, 0n],
    [OverageGrade.PerMb, 1n, 1n],
    [OverageGrade.PerMb, MB, 1n],
    [OverageGrade.PerMb, MB + 1n, 2n],
    [OverageGrade.Per10Mb, KB, 1n],
    [OverageGrade.Per10Mb, 10n * MB, 1n],
    [OverageGrade.Per10Mb, 10n * MB + 1n, 2n],
    [OverageGrade.Per100Mb, 1n, 1n],
    [OverageGrade.Per100Mb, 100n * MB, 1n],
    [OverageGrade.Per100Mb, 250n * MB, 3n],
    [OverageGrade.PerGb, 1n, 1n],
    [OverageGrade.PerGb, GB, 1n],
    [OverageGrade.PerGb, GB + 1n, 2n],
    [OverageGrade.PerGb, 1000n * MB, 1n], // 1 GB = 1024 MB, not 1000
  ])('grade %i: %s bytes over → %s steps', (grade, over, steps) => {
    expect(outOfPlanSteps(over, grade)).toBe(steps);
  });

  it('has a step for every grade and refuses an unknown one', () => {
    expect(Object.keys(OVERAGE_STEP_BYTES).map(Number).sort()).toEqual([...OverageGrade.values].sort());
    expect(() => outOfPlanSteps(1n, 99)).toThrow(RangeError);
  });

  const nov = [at(2026, 11, 1), at(2026, 12, 1)] as const;
  it.each([
    // grade, price, bytes used in a 10 GB cycle → steps, amount incl. tax
    [OverageGrade.PerMb, '0.29', QUOTA_10G, null, null],
    [OverageGrade.PerMb, '0.29', QUOTA_10G + 1n, 1n, '0.29'],
    [OverageGrade.PerMb, '0.29', QUOTA_10G + 3n * MB, 3n, '0.87'],
    [OverageGrade.Per10Mb, '2.50', QUOTA_10G + KB, 1n, '2.50'], // 1 KB over on a per-10-MB grade = one step
    [OverageGrade.Per10Mb, '2.50', QUOTA_10G + 10n * MB, 1n, '2.50'],
    [OverageGrade.Per10Mb, '2.50', QUOTA_10G + 10n * MB + 1n, 2n, '5.00'],
    [OverageGrade.Per100Mb, '20', QUOTA_10G + 100n * MB - 1n, 1n, '20.00'],
    [OverageGrade.Per100Mb, '20', QUOTA_10G + 100n * MB + KB, 2n, '40.00'],
    [OverageGrade.PerGb, '150', QUOTA_10G + GB, 1n, '150.00'],
    [OverageGrade.PerGb, '150', QUOTA_10G + GB + KB, 2n, '300.00'],
  ])('grade %i at %s, %s bytes used → %s steps, %s', (grade, price, used, steps, amount) => {
    const o = cycleOutOfPlan({ ...monthly, overageGrade: grade, overagePrice: price }, use(nov[0], nov[1], used));
    expect(o.line?.quantity ?? null).toBe(steps);
    expect(o.line ? fenToMoney(o.line.inclFen) : null).toBe(amount);
    expect(o.unbilledBytes).toBe(0n);
    if (o.line) expect([o.line.category, o.line.from, o.line.to]).toEqual([BillLineCategory.OutOfPlanUsage, '2026-11-01', '2026-11-30']);
  });

  it('adds the event packs of the cycle to the quota', () => {
    const used = QUOTA_10G + 5n * GB;
    expect(cycleOutOfPlan(monthly, use(at(2026, 11, 1), at(2026, 12, 1), used, 5n * GB)).overBytes).toBe(0n);
    expect(cycleOutOfPlan(monthly, use(at(2026, 11, 1), at(2026, 12, 1), used + 1n, 5n * GB)).line?.quantity).toBe(1n);
  });

  it.each([
    // use-up action, grade, price → charged?
    [PlanUseUpAction.Overdraw, OverageGrade.PerMb, '0.29', true],
    [PlanUseUpAction.NextStatus, OverageGrade.PerMb, '0.29', false],
    [PlanUseUpAction.BlockUntilCycleEnd, OverageGrade.PerMb, '0.29', false],
    [PlanUseUpAction.Overdraw, null, '0.29', false],
    [PlanUseUpAction.Overdraw, OverageGrade.PerMb, null, false],
  ])('use-up action %i (grade %s, price %s): charged %s, otherwise reported unbilled', (action, grade, price, charged) => {
    const o = cycleOutOfPlan({ ...monthly, useUpAction: action, overageGrade: grade, overagePrice: price }, use(at(2026, 11, 1), at(2026, 12, 1), QUOTA_10G + 7n));
    expect(o.overBytes).toBe(7n);
    expect(o.line !== null).toBe(charged);
    expect(o.unbilledBytes).toBe(charged ? 0n : 7n);
  });

  it('sees nothing beyond a quota of 0 MB (no quota) and charges nothing at a price of 0', () => {
    expect(cycleOutOfPlan({ ...monthly, quotaMb: 0 }, use(at(2026, 11, 1), at(2026, 12, 1), 100n * GB))).toEqual({ line: null, overBytes: 0n, unbilledBytes: 0n });
    expect(cycleOutOfPlan({ ...monthly, overagePrice: '0' }, use(at(2026, 11, 1), at(2026, 12, 1), QUOTA_10G + 1n)).line).toBeNull();
  });
});

describe('goods types', () => {
  const nov = periodByKey('2026-11', 1);

  it('monthly: the sale price per cycle, in full for a cycle that starts mid-month', () => {
    const whole = cycleFeeLine(monthly, '39.90', { start: at(2026, 11, 1), end: at(2026, 12, 1) })!;
    const part = cycleFeeLine(monthly, '39.90', { start: at(2026, 11, 20, 14, 30), end: at(2026, 12, 1) })!;
    expect(lineAsText(whole)).toEqual({
      category: BillLineCategory.PlanFee, quantity: '1', unitPrice: '39.90', from: '2026-11-01', to: '2026-11-30',
      amountExclTax: '37.64', tax: '2.26', amount: '39.90',
    });
    expect([part.inclFen, part.from, part.to]).toEqual([3990n, '2026-11-20', '2026-11-30']);
    expect(CHARGE_TIMING_OF[BillLineCategory.PlanFee]).toBe(ChargeTiming.OnBill);
  });

  it('prepaid: no fee on the bill; the term is withheld at its event, per term', () => {
    expect(cycleFeeLine(prepaid, '199', { start: at(2026, 11, 1), end: at(2026, 12, 1) })).toBeNull();
    const term = { start: at(2026, 11, 20, 9), end: at(2027, 11, 20, 9) };
    const one = prepaidFeeLine(prepaid, '199', term)!;
    expect(lineAsText(one)).toMatchObject({ category: BillLineCategory.PrepaidPlanFee, quantity: '1', amount: '199.00', amountExclTax: '187.74', tax: '11.26', from: '2026-11-20', to: '2027-11-20' });
    const three = prepaidFeeLine(prepaid, '199', { start: term.start, end: at(2029, 11, 20, 9) }, 3)!;
    expect([three.quantity, three.inclFen, three.exclFen, three.taxFen]).toEqual([3n, 59700n, 56321n, 3379n]);
    expect(() => prepaidFeeLine(monthly, '39.90', term)).toThrow(RangeError);
    expect(() => prepaidFeeLine(prepaid, '199', term, 0)).toThrow(RangeError);
    expect(CHARGE_TIMING_OF[BillLineCategory.PrepaidPlanFee]).toBe(ChargeTiming.AtEvent);
    // on the period's bill a prepaid card gets only what its cycles' usage adds (its plan blocks at the quota here)
    const r = rateCardPeriod(nov, { plan: prepaid, salePrice: '199', cycles: [use(at(2026, 10, 20, 9), at(2026, 11, 20, 9), 3n * GB)] });
    expect(r.lines).toEqual([]);
    expect(r.unbilledOverBytes).toBe(GB);
  });

  it('prepaid with overdraw: a cycle of 30 days is billed its overage in the period it ends in', () => {
    const plan = { ...prepaid, useUpAction: PlanUseUpAction.Overdraw };
    const cycle = use(at(2026, 11, 15), at(2026, 12, 15), 2n * GB + 1n);
    expect(rateCardPeriod(nov, { plan, salePrice: '199', cycles: [cycle] }).lines).toEqual([]);
    const dec = rateCardPeriod(periodByKey('2026-12', 1), { plan, salePrice: '199', cycles: [cycle] });
    expect(dec.lines.map(lineAsText)).toMatchObject([{ category: BillLineCategory.OutOfPlanUsage, quantity: '1', amount: '0.29', from: '2026-11-15', to: '2026-12-14' }]);
  });

  it('supplementary: charged when ordered, at the pack price and its own tax rate', () => {
    const l = packFeeLine(pack, '15', { start: at(2026, 11, 20, 10), end: at(2026, 12, 1) }, 2)!;
    expect(lineAsText(l)).toMatchObject({ category: BillLineCategory.PackFee, quantity: '2', unitPrice: '15.00', amount: '30.00', amountExclTax: '26.55', tax: '3.45', from: '2026-11-20', to: '2026-11-30' });
    expect(() => packFeeLine(monthly, '15', { start: at(2026, 11, 20), end: at(2026, 12, 1) })).toThrow(RangeError);
    expect(CHARGE_TIMING_OF[BillLineCategory.PackFee]).toBe(ChargeTiming.AtEvent);
  });

  it('one-off fees carry their own amount and rate', () => {
    expect(lineAsText(oneOffFeeLine('100', 6, { start: at(2026, 11, 3), end: at(2026, 11, 4) })!)).toMatchObject({ category: BillLineCategory.OneOffFee, amount: '100.00', amountExclTax: '94.34', tax: '5.66', from: '2026-11-03', to: '2026-11-03' });
  });

  it('every category has a charge timing', () => {
    for (const c of BillLineCategory.values) expect(ChargeTiming.has(CHARGE_TIMING_OF[c])).toBe(true);
  });
});

describe('test periods', () => {
  const test = (used: bigint) => use(at(2026, 11, 10, 8), at(2027, 2, 10, 8), used);

  it.each([
    // plan, used bytes → fee, out-of-plan steps
    ['a base plan with a free test (100 KB)', monthly, 100n * KB, null, null],
    ['a base plan, 1 byte over the test quota (per MB)', monthly, 100n * KB + 1n, null, 1n],
    ['a base plan with a priced test', { ...monthly, testPrice: '5' }, 0n, '5.00', null],
    ['a test plan: its sale price (not its test price)', testPlan, MB, '20.00', null],
    ['a test plan, 1 KB over its 1024 KB on a per-10-MB grade', testPlan, MB + KB, '20.00', 1n],
    ['a plan without an out-of-plan price: test excess unbilled', { ...monthly, overagePrice: null }, MB, null, null],
  ])('%s', (_name, plan, used, fee, steps) => {
    expect(testFeeLine(plan, '20', test(used)) ? fenToMoney(testFeeLine(plan, '20', test(used))!.inclFen) : null).toBe(fee);
    expect(testOutOfPlan(plan, test(used)).line?.quantity ?? null).toBe(steps);
  });

  it('charges the fee in the period the test starts and the excess in the one it ends; then the plan prices apply', () => {
    const plan = { ...monthly, testPrice: '5' };
    const t = test(100n * KB + MB);
    const nov = rateCardPeriod(periodByKey('2026-11', 1), { plan, salePrice: '39.90', test: t });
    expect(nov.lines.map((l) => [l.category, fenToMoney(l.inclFen)])).toEqual([[BillLineCategory.TestFee, '5.00']]);
    expect(rateCardPeriod(periodByKey('2026-12', 1), { plan, salePrice: '39.90', test: t }).lines).toEqual([]);
    // the test ended 2027-02-10 08:00; the card was activated then: its first cycle runs to March
    const feb = rateCardPeriod(periodByKey('2027-02', 1), {
      plan, salePrice: '39.90', test: t, cycles: [use(at(2027, 2, 10, 8), at(2027, 3, 1), 0n)],
    });
    expect(feb.lines.map((l) => [l.category, l.quantity, fenToMoney(l.inclFen)])).toEqual([
      [BillLineCategory.PlanFee, 1n, '39.90'],
      [BillLineCategory.OutOfPlanUsage, 1n, '0.29'],
    ]);
  });
});

describe('downtime maintenance fee', () => {
  const since = at(2026, 1, 15, 10);
  const months = (until: Date | null, free: number, key: string, day = 1) =>
    chargedDowntimeMonths({ since, until }, free, periodByKey(key, day)).map((m) => m.start.getTime());

  it.each([
    // until, free months, period → months charged in the period
    [at(2026, 2, 15, 10), 1, '2026-02', 0], // reactivated exactly when the first charged month would start
    [ms(at(2026, 2, 15, 10), 1), 1, '2026-02', 1], // still deactivated at that instant
    [null, 1, '2026-01', 0], // the free month
    [null, 1, '2026-02', 1],
    [null, 0, '2026-01', 1], // no free period: the month of the deactivation is charged
    [null, 3, '2026-03', 0], // months 1-3 free: 01-15 … 04-14
    [null, 3, '2026-04', 1], // month 4 from 04-15
    [at(2026, 3, 1), 1, '2026-03', 0],
    [null, 1, '2025-12', 0], // before the deactivation
  ] as const)('until %s with %i free months, in %s: %i month(s)', (until, free, key, n) => {
    expect(months(until, free, key)).toHaveLength(n);
  });

  it('counts months from the deactivation, the day clamped to short months', () => {
    const d = { since: at(2026, 1, 31, 12), until: null };
    const starts = (key: string) => chargedDowntimeMonths(d, 0, periodByKey(key, 1)).map((m) => m.start.getTime());
    expect(starts('2026-02')).toEqual([at(2026, 2, 28, 12).getTime()]);
    expect(starts('2026-03')).toEqual([at(2026, 3, 31, 12).getTime()]);
    expect(starts('2026-04')).toEqual([at(2026, 4, 30, 12).getTime()]);
  });

  it('charges 3.00 a month after the free month, over a year 11 months', () => {
    let total = 0n;
    for (let m = 1; m <= 12; m++) {
      const key = `2026-${String(m).padStart(2, '0')}`;
      const r = rateCardPeriod(periodByKey(key, 1), { plan: monthly, salePrice: '39.90', downtimes: [{ since: at(2026, 1, 1), until: null }] });
      expect(r.lines.length).toBe(m === 1 ? 0 : 1);
      total += r.totals.inclFen;
    }
    expect(total).toBe(11n * 300n);
    const l = downtimeFeeLine(monthly, { since, until: null }, periodByKey('2026-02', 1))!;
    expect(lineAsText(l)).toMatchObject({ category: BillLineCategory.DowntimeFee, quantity: '1', amount: '3.00', amountExclTax: '2.83', tax: '0.17', from: '2026-02-15', to: '2026-03-15' });
    expect(downtimeFeeLine({ ...monthly, downtimeFee: '0' }, { since, until: null }, periodByKey('2026-05', 1))).toBeNull();
  });

  it('restarts the free period at each deactivation', () => {
    const r = rateCardPeriod(periodByKey('2026-06', 1), {
      plan: monthly, salePrice: '39.90',
      downtimes: [{ since: at(2026, 1, 10), until: at(2026, 6, 5) }, { since: at(2026, 6, 20), until: null }],
    });
    // the first stop's month from 2026-06-10 starts after it ended; the second stop's first month is free
    expect(r.lines).toEqual([]);
    const may = rateCardPeriod(periodByKey('2026-05', 1), { plan: monthly, salePrice: '39.90', downtimes: [{ since: at(2026, 1, 10), until: at(2026, 6, 5) }] });
    expect(may.totals.inclFen).toBe(300n);
  });
});

describe('a card in a China Unicom period (26th to 25th)', () => {
  const dec = periodByKey('2026-12', 26); // 2026-11-26 … 2026-12-25
  const jan = periodByKey('2027-01', 26); // 2026-12-26 … 2027-01-25
  // activated 2026-11-28: the activation month's cycle runs to 2026-12-01, then natural months
  const cycles = [
    use(at(2026, 11, 28, 9), at(2026, 12, 1), QUOTA_10G + 2n * MB),
    use(at(2026, 12, 1), at(2027, 1, 1), QUOTA_10G + 5n * MB),
    use(at(2027, 1, 1), at(2027, 2, 1), 0n),
  ];

  it('charges each cycle that starts in the period in full and the excess of each cycle that ended in it', () => {
    const r = rateCardPeriod(dec, { plan: monthly, salePrice: '39.90', cycles });
    expect(r.lines.map((l) => [l.category, l.quantity, fenToMoney(l.inclFen), l.from, l.to])).toEqual([
      [BillLineCategory.PlanFee, 1n, '39.90', '2026-11-28', '2026-11-30'],
      [BillLineCategory.PlanFee, 1n, '39.90', '2026-12-01', '2026-12-31'],
      [BillLineCategory.OutOfPlanUsage, 2n, '0.58', '2026-11-28', '2026-11-30'],
    ]);
    const j = rateCardPeriod(jan, { plan: monthly, salePrice: '39.90', cycles });
    expect(j.lines.map((l) => [l.category, l.quantity, fenToMoney(l.inclFen), l.from])).toEqual([
      [BillLineCategory.PlanFee, 1n, '39.90', '2027-01-01'],
      [BillLineCategory.OutOfPlanUsage, 5n, '1.45', '2026-12-01'],
    ]);
  });

  it('puts a cycle starting at 26th 00:00 in the new period and one at 25th 23:59:59 in the old', () => {
    const late = use(at(2026, 12, 25, 23, 59, 59), at(2027, 1, 1), 0n);
    const onTime = use(at(2026, 12, 26), at(2027, 1, 1), 0n);
    expect(rateCardPeriod(dec, { plan: monthly, salePrice: '39.90', cycles: [late] }).lines).toHaveLength(1);
    expect(rateCardPeriod(jan, { plan: monthly, salePrice: '39.90', cycles: [late] }).lines).toHaveLength(0);
    expect(rateCardPeriod(dec, { plan: monthly, salePrice: '39.90', cycles: [onTime] }).lines).toHaveLength(0);
    expect(rateCardPeriod(jan, { plan: monthly, salePrice: '39.90', cycles: [onTime] }).lines).toHaveLength(1);
    // a cycle ending exactly at the period's end is complete within it
    const ending = use(at(2026, 11, 26), dec.end, QUOTA_10G + 1n);
    expect(rateCardPeriod(dec, { plan: monthly, salePrice: '39.90', cycles: [ending] }).lines.map((l) => l.category)).toEqual([BillLineCategory.PlanFee, BillLineCategory.OutOfPlanUsage]);
    expect(rateCardPeriod(jan, { plan: monthly, salePrice: '39.90', cycles: [ending] }).lines).toEqual([]);
  });
});

describe('totals and big numbers', () => {
  it('rounds tax per line and sums the lines, never re-rounding the total', () => {
    // three lines of 0.29: each 0.27 + 0.02; the total 0.87 would round to 0.82 + 0.05 on its own
    const lines = [1, 2, 3].map(() => splitTax(29n, 6));
    expect(sumLines(lines)).toEqual({ exclFen: 81n, taxFen: 6n, inclFen: 87n });
    expect(splitTax(87n, 6)).toEqual({ exclFen: 82n, taxFen: 5n, inclFen: 87n });
  });

  it('keeps a 12-digit price exact', () => {
    const l = cycleFeeLine(monthly, '999999999999.99', { start: at(2026, 11, 1), end: at(2026, 12, 1) })!;
    expect(lineAsText(l)).toMatchObject({ amount: '999999999999.99', amountExclTax: '943396226415.08', tax: '56603773584.91' });
    // a terabyte over at that price per MB: 1,048,576 steps, far past 2^53 fen
    const o = cycleOutOfPlan({ ...monthly, overagePrice: '999999999999.99' }, use(at(2026, 11, 1), at(2026, 12, 1), QUOTA_10G + 1024n * GB));
    expect(o.line!.quantity).toBe(1_048_576n);
    expect(lineAsText(o.line!)).toMatchObject({ amount: '1048575999999989514.24', amountExclTax: '989222641509424070.04', tax: '59353358490565444.20' });
    const r = rateCardPeriod(periodByKey('2026-11', 1), { plan: { ...monthly, overagePrice: '999999999999.99' }, salePrice: '999999999999.99', cycles: [use(at(2026, 11, 1), at(2026, 12, 1), QUOTA_10G + 1024n * GB)] });
    expect(fenToMoney(r.totals.inclFen)).toBe('1048576999999989514.23');
    expect(r.totals.exclFen + r.totals.taxFen).toBe(r.totals.inclFen);
  });
});
