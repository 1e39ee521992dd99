import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { sql } from 'drizzle-orm';
import { getTableConfig } from 'drizzle-orm/pg-core';
import {
  BILL_RUN_MAX_FAILURES, BillLineCategory, BillRunState, ErrorCode, OneOffFeeState, Operator, OverageGrade, PlanGoodsType, PlanUseUpAction, businessDay, zonedTime,
} from '@lynx/contract';
import { backends, startTestApp, HD, HD_SZ, type TestApp } from '../../../../test/harness.ts';
import { AppError } from '../../../platform/errors.ts';
import { prepaidFeeLine, rateCardPeriod, lineAsText, type CardPeriodUsage, type RatingPlan } from '../rating/rating.ts';
import { periodByKey } from '../rating/periods.ts';
import { billRunRow, continueBillRun, startBillRun, runPeriods } from './bill-run.ts';
import { chunkSql } from './bill-run-sql.ts';
import { continueBillRuns } from './bill-run-jobs.ts';
import * as tables from './bill-tables.ts';
import { rateEventCharges, recordEventCharges } from '../charges/charges.ts';
import { cardCharges, cardChargeItems } from '../charges/charge-tables.ts';
import type { CardSnapshot } from '../../card/lifecycle/engine.ts';

// The bill run's SQL against the pure rating (rateCardPeriod) on varied cards of one period, its resumability and
// its refusals. Period '2026-10': China Mobile and China Telecom 2026-10-01 … 10-31, China Unicom 09-26 … 10-25.

const KEY = '2026-10';
const NOW = zonedTime(2026, 11, 5).getTime();
const MB = 1_048_576;
const at = (mo: number, d: number, h = 0, mi = 0, s = 0) => zonedTime(2026, mo, d, h, mi, s);
const day = (d: Date) => businessDay(d.getTime());

interface PlanDef extends RatingPlan { code: string; salePrice: string; cycleUnit?: number; cycleValue?: number }
const base: Omit<PlanDef, 'code' | 'goodsType' | 'salePrice'> = {
  quotaMb: 10240, useUpAction: PlanUseUpAction.Overdraw, overageGrade: OverageGrade.PerMb, overagePrice: '0.29', testQuotaKb: 100,
  testPrice: '0', downtimeFee: '3', downtimeFreeMonths: 1, taxRate: 6,
};
const PLANS: Record<string, PlanDef> = {
  monthly: { ...base, code: 'BR-M', goodsType: PlanGoodsType.Monthly, salePrice: '39.90', testPrice: '5' },
  per10: { ...base, code: 'BR-M10', goodsType: PlanGoodsType.Monthly, salePrice: '10', quotaMb: 100.01, overageGrade: OverageGrade.Per10Mb, overagePrice: '2.50', taxRate: 6.5 },
  free0: { ...base, code: 'BR-M0', goodsType: PlanGoodsType.Monthly, salePrice: '1.05', downtimeFreeMonths: 0, downtimeFee: '2.99', taxRate: 9 },
  prepaid: { ...base, code: 'BR-P', goodsType: PlanGoodsType.Prepaid, salePrice: '199', quotaMb: 2048, overageGrade: OverageGrade.Per100Mb, overagePrice: '20' },
  prepaidBlock: { ...base, code: 'BR-PB', goodsType: PlanGoodsType.Prepaid, salePrice: '199', quotaMb: 2048, useUpAction: PlanUseUpAction.BlockUntilCycleEnd },
  days: { ...base, code: 'BR-D', goodsType: PlanGoodsType.Prepaid, salePrice: '30', quotaMb: 100, overageGrade: OverageGrade.PerGb, overagePrice: '7.77', cycleUnit: 2, cycleValue: 10 },
  test: { ...base, code: 'BR-T', goodsType: PlanGoodsType.Test, salePrice: '20', quotaMb: 0, testQuotaKb: 1024, testPrice: '9.99', overageGrade: OverageGrade.Per10Mb, overagePrice: '1' },
  pack: { ...base, code: 'BR-PK', goodsType: PlanGoodsType.Supplementary, salePrice: '15', quotaMb: 512 },
};

interface Hist { from: number; to: number; at: Date }
interface CardDef {
  n: number;
  plan: keyof typeof PLANS | null;
  op?: number;
  sub?: boolean;
  state: number;
  activatedAt?: Date;
  contract?: [Date, Date];
  testEndAt?: Date;
  history?: Hist[];
  /** [first day, last day, bytes a day] */
  usage?: [string, string, number][];
  packAt?: Date;
  /** what rating gets, given the usage sum over days */
  rating?: (sum: (from: Date, to: Date) => number) => Omit<CardPeriodUsage, 'plan' | 'salePrice'>;
}

const span = (sum: (a: Date, b: Date) => number, start: Date, end: Date, pack = 0) => ({ start, end, usedBytes: sum(start, end), packQuotaBytes: pack });
const h = (from: number, to: number, d: Date): Hist => ({ from, to, at: d });

const CARDS: CardDef[] = [
  // a monthly card all month: one fee (the customer's price), 3 MB + 1 byte over → 4 steps
  { n: 1, plan: 'monthly', state: 64, activatedAt: at(8, 10), contract: [at(8, 10), at(9, 1)], history: [h(60, 64, at(8, 10))],
    usage: [['2026-10-01', '2026-10-31', 0], ['2026-10-02', '2026-10-02', 10240 * MB + 3 * MB + 1]],
    rating: (s) => ({ cycles: [span(s, at(10, 1), at(11, 1))] }) },
  // exactly the quota: no overage
  { n: 2, plan: 'monthly', state: 64, activatedAt: at(8, 10), contract: [at(8, 10), at(9, 1)], history: [h(60, 64, at(8, 10))],
    usage: [['2026-10-05', '2026-10-05', 10240 * MB]], rating: (s) => ({ cycles: [span(s, at(10, 1), at(11, 1))] }) },
  // per 10 MB at the step boundary (quota 100.01 MB rounds half up to bytes), 6.5 % tax
  { n: 3, plan: 'per10', sub: true, state: 64, activatedAt: at(7, 1), contract: [at(7, 1), at(8, 1)], history: [h(60, 64, at(7, 1))],
    usage: [['2026-10-03', '2026-10-03', Math.round(100.01 * MB) + 10 * MB]], rating: (s) => ({ cycles: [span(s, at(10, 1), at(11, 1))] }) },
  { n: 4, plan: 'per10', state: 64, activatedAt: at(7, 1), contract: [at(7, 1), at(8, 1)], history: [h(60, 64, at(7, 1))],
    usage: [['2026-10-03', '2026-10-03', Math.round(100.01 * MB) + 10 * MB + 1]], rating: (s) => ({ cycles: [span(s, at(10, 1), at(11, 1))] }) },
  // tested from 5 Oct (priced test), activated 20 Oct 10:00: test fee, test excess, a full fee for the part month, its excess
  { n: 5, plan: 'monthly', state: 64, activatedAt: at(10, 20, 10), contract: [at(10, 20, 10), at(11, 1)],
    history: [h(60, 61, at(10, 5, 8)), h(61, 64, at(10, 20, 10))],
    usage: [['2026-10-05', '2026-10-31', 400 * MB]],
    rating: (s) => ({ test: span(s, at(10, 5, 8), at(10, 20, 10)), cycles: [span(s, at(10, 20, 10), at(11, 1))] }) },
  // China Unicom, activated 28 Sep: its September cycle and October's on the '2026-10' bill, September's excess
  { n: 6, plan: 'monthly', op: Operator.ChinaUnicom, state: 64, activatedAt: at(9, 28, 9), contract: [at(9, 28, 9), at(10, 1)],
    history: [h(60, 64, at(9, 28, 9))], usage: [['2026-09-28', '2026-10-31', 500 * MB]],
    rating: (s) => ({ cycles: [span(s, at(9, 28, 9), at(10, 1)), span(s, at(10, 1), at(11, 1))] }) },
  // China Unicom at the boundary: 25 Oct 23:59:59 is in '2026-10', 26 Oct 00:00 in '2026-11'
  { n: 7, plan: 'monthly', op: Operator.ChinaUnicom, state: 64, activatedAt: at(10, 25, 23, 59, 59), contract: [at(10, 25, 23, 59, 59), at(11, 1)],
    history: [h(62, 64, at(10, 25, 23, 59, 59))], rating: (s) => ({ cycles: [span(s, at(10, 25, 23, 59, 59), at(11, 1))] }) },
  { n: 8, plan: 'monthly', op: Operator.ChinaUnicom, state: 64, activatedAt: at(10, 26), contract: [at(10, 26), at(11, 1)],
    history: [h(62, 64, at(10, 26))], rating: (s) => ({ cycles: [span(s, at(10, 26), at(11, 1))] }) },
  // deactivated 15 Aug 10:00, one free month: September's month is on September's bill, October's (15 Oct) here
  { n: 9, plan: 'monthly', state: 65, activatedAt: at(6, 1), contract: [at(6, 1), at(7, 1)], history: [h(60, 64, at(6, 1)), h(64, 65, at(8, 15, 10))],
    rating: () => ({ downtimes: [{ since: at(8, 15, 10), until: null }] }) },
  // no free month, deactivated 30 Sep 10:00: its second month starts 30 Oct 10:00
  { n: 10, plan: 'free0', state: 65, activatedAt: at(6, 1), contract: [at(6, 1), at(7, 1)], history: [h(60, 64, at(6, 1)), h(64, 65, at(9, 30, 10))],
    rating: () => ({ downtimes: [{ since: at(9, 30, 10), until: null }] }) },
  // reactivated exactly when the charged month would start: nothing (and no fee at the month start: it was down then)
  { n: 11, plan: 'free0', state: 64, activatedAt: at(6, 1), contract: [at(6, 1), at(7, 1)],
    history: [h(60, 64, at(6, 1)), h(64, 65, at(9, 30, 10)), h(65, 64, at(10, 30, 10))],
    rating: () => ({ downtimes: [{ since: at(9, 30, 10), until: at(10, 30, 10) }] }) },
  // prepaid overdraw, per 100 MB: the cycle 15 Sep – 15 Oct ends here, 250 MB over → 3 steps
  { n: 12, plan: 'prepaid', state: 64, activatedAt: at(7, 15, 9), contract: [at(7, 15, 9), zonedTime(2027, 7, 15, 9)], history: [h(60, 64, at(7, 15, 9))],
    usage: [['2026-09-15', '2026-09-15', 2048 * MB + 250 * MB]], rating: (s) => ({ cycles: [span(s, at(9, 15, 9), at(10, 15, 9))] }) },
  // the same with an event pack of 512 MB ordered in the cycle: within quota
  { n: 13, plan: 'prepaid', state: 64, activatedAt: at(7, 15, 9), contract: [at(7, 15, 9), zonedTime(2027, 7, 15, 9)], history: [h(60, 64, at(7, 15, 9))],
    usage: [['2026-09-15', '2026-09-15', 2048 * MB + 250 * MB]], packAt: at(9, 20),
    rating: (s) => ({ cycles: [span(s, at(9, 15, 9), at(10, 15, 9), 512 * MB)] }) },
  // prepaid blocking at the quota: the excess is unbilled
  { n: 14, plan: 'prepaidBlock', state: 64, activatedAt: at(7, 15, 9), contract: [at(7, 15, 9), zonedTime(2027, 7, 15, 9)], history: [h(60, 64, at(7, 15, 9))],
    usage: [['2026-09-20', '2026-09-20', 2048 * MB + 7]], rating: (s) => ({ cycles: [span(s, at(9, 15, 9), at(10, 15, 9))] }) },
  // 10-day cycles from 25 Sep: three end in October, two of them over (per GB)
  { n: 15, plan: 'days', state: 64, activatedAt: at(9, 25), contract: [at(9, 25), at(12, 25)], history: [h(60, 64, at(9, 25))],
    usage: [['2026-09-26', '2026-09-26', 100 * MB + 1], ['2026-10-16', '2026-10-16', 1200 * MB]],
    rating: (s) => ({ cycles: [span(s, at(9, 25), at(10, 5)), span(s, at(10, 5), at(10, 15)), span(s, at(10, 15), at(10, 25))] }) },
  // a test plan whose test started in October: its customer's price as the fee; the test has not ended
  { n: 16, plan: 'test', sub: true, state: 61, testEndAt: zonedTime(2027, 1, 10, 8), history: [h(60, 61, at(10, 10, 8))], usage: [['2026-10-10', '2026-10-31', 5 * MB]],
    rating: (s) => ({ test: span(s, at(10, 10, 8), zonedTime(2027, 1, 10, 8)) }) },
  // a base plan's test from September, ended 3 Oct: the fee was September's, the excess is October's
  { n: 17, plan: 'monthly', state: 63, history: [h(60, 61, at(9, 10)), h(61, 63, at(10, 3))], usage: [['2026-09-10', '2026-10-03', 300 * 1024]],
    rating: (s) => ({ test: span(s, at(9, 10), at(10, 3)) }) },
  // tax rounding at 9 %: 1.05 → 0.96 + 0.09
  { n: 18, plan: 'free0', state: 64, activatedAt: at(3, 3), contract: [at(3, 3), at(4, 1)], history: [h(60, 64, at(3, 3))],
    rating: (s) => ({ cycles: [span(s, at(10, 1), at(11, 1))] }) },
  // without history (written by hand): activated, its state is today's
  { n: 19, plan: 'monthly', state: 64, activatedAt: at(5, 5), contract: [at(5, 5), at(6, 1)], usage: [['2026-10-09', '2026-10-09', 10 * MB]],
    rating: (s) => ({ cycles: [span(s, at(10, 1), at(11, 1))] }) },
  // no plan, or platform stock: not billed
  { n: 20, plan: null, state: 64, activatedAt: at(5, 5) },
  // a prepaid contract started in October: its term, charged at the event, is listed on the bill
  { n: 22, plan: 'prepaid', state: 64, activatedAt: at(10, 12, 9), contract: [at(10, 12, 9), zonedTime(2027, 10, 12, 9)], history: [h(60, 64, at(10, 12, 9))],
    rating: () => ({}) },
];

const iccidOf = (n: number) => `898607799000000${String(n).padStart(5, '0')}`;

for (const backend of backends) {
  describe(`bill run (${backend})`, () => {
    let t: TestApp;
    const plan: Record<string, number> = {};
    let hd = 0;
    let hdSz = 0;
    const db = () => t.deps.db;
    const q = <T = Record<string, unknown>>(text: string, params: unknown[] = []) => t.database.sql.query<T>(text, params);
    const usageOf = new Map<string, Map<string, number>>();
    const sumOf = (iccid: string) => (from: Date, to: Date) => {
      const a = day(from);
      const b = businessDay(to.getTime() - 1);
      let s = 0;
      for (const [d, v] of usageOf.get(iccid) ?? []) if (d >= a && d <= b) s += v;
      return s;
    };

    beforeAll(async () => {
      t = await startTestApp(backend, {}, { jobs: false });
      [{ cust_id: hd }] = await q<{ cust_id: number }>('select cust_id from customers where cust_name = $1', [HD]);
      [{ cust_id: hdSz }] = await q<{ cust_id: number }>('select cust_id from customers where cust_name = $1', [HD_SZ]);
      // only these cards and customers: the demo's cards stay out of the comparison (they are billed too)
      for (const [name, p] of Object.entries(PLANS)) {
        const [{ id }] = await q<{ id: number }>(`
          insert into basic_plans (code, name, goods_type, tariff_type, sale_price, quota_mb, use_up_action, overage_grade, overage_price,
            test_quota_kb, test_price, downtime_fee, downtime_free_months, tax_rate, cycle_unit, cycle_value, created_by)
          values ($1, $1, $2, 0, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, 'test') returning goods_release_id id`,
        [p.code, p.goodsType, p.salePrice, p.quotaMb, p.useUpAction, p.overageGrade, p.overagePrice, p.testQuotaKb, p.testPrice, p.downtimeFee,
          p.downtimeFreeMonths, p.taxRate, p.cycleUnit ?? 1, p.cycleValue ?? 1]);
        plan[name] = id;
      }
      // HD buys the monthly plan cheaper than the list price; its second-level customer has its own test plan price
      await q(`insert into plan_releases (goods_release_id, cust_id, root_cust_id, sale_price, released_by) values ($1, $2, $2, '35.00', 'test')`, [plan.monthly, hd]);
      await q(`insert into plan_releases (goods_release_id, cust_id, root_cust_id, sale_price, released_by) values ($1, $2, $3, '20.00', 'test')`, [plan.test, hdSz, hd]);
      await q(`select usage_ensure_partitions('2026-06-01'::date, '2026-11-01'::date)`);
      for (const c of CARDS) {
        const iccid = iccidOf(c.n);
        const cust = c.sub ? hdSz : hd;
        await q(`insert into cards (iccid, state, operator_id, cust_id, root_cust_id, goods_release_id, activated_at, contract_start_at, contract_end_at, test_end_at, card_type_id)
          values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
        [iccid, c.state, c.op ?? Operator.ChinaMobile, cust, hd, c.plan ? plan[c.plan] : null, c.activatedAt ?? null, c.contract?.[0] ?? null,
          c.contract?.[1] ?? null, c.testEndAt ?? null, c.n % 2 ? null : 1]);
        for (const x of c.history ?? []) {
          await q(`insert into card_history (iccid, from_state, to_state, source, actor, at) values ($1, $2, $3, 1, 'test', $4)`, [iccid, x.from, x.to, x.at]);
        }
        const days = new Map<string, number>();
        for (const [from, to, bytes] of c.usage ?? []) {
          for (let d = Date.parse(`${from}T12:00:00Z`); d <= Date.parse(`${to}T12:00:00Z`); d += 86_400_000) {
            const k = new Date(d).toISOString().slice(0, 10);
            days.set(k, (days.get(k) ?? 0) + bytes);
          }
        }
        usageOf.set(iccid, days);
        for (const [k, bytes] of days) {
          await q(`insert into card_usage_daily (iccid, day, bytes, apn, operator_id, cust_id, root_cust_id) values ($1, $2, $3, 'cmiot', $4, $5, $6)`,
            [iccid, k, bytes, c.op ?? Operator.ChinaMobile, cust, hd]);
        }
        if (c.packAt) {
          await q(`insert into card_event_packs (iccid, pack_id, starts_at, ends_at) values ($1, $2, $3, $4)`, [iccid, plan.pack, c.packAt, at(10, 15, 9)]);
        }
      }
      // a platform-stock card with a plan
      await q(`insert into cards (iccid, state, operator_id, goods_release_id) values ($1, 64, 1, $2)`, [iccidOf(21), plan.monthly]);
      // one-off fees: on the customer, on a card, and one dated after the period (waits for the next bill)
      await q(`insert into one_off_fees (cust_id, root_cust_id, iccid, amount, tax_rate, reason, fee_day, created_by) values
        ($1, $1, null, '100.00', 6, 'setup', '2026-10-15', 'test'), ($1, $1, $2, '12.34', 13, 'repair', '2026-10-31', 'test'),
        ($1, $1, null, '50.00', 6, 'later', '2026-11-15', 'test')`, [hd, iccidOf(1)]);
      // card 22's prepaid term was charged when its contract started, by the card change (billing/charges)
      const start = at(10, 12, 9);
      const change = {
        row: { iccid: iccidOf(22), custId: hd, rootCustId: hd, operatorId: Operator.ChinaMobile, cardTypeId: 1 },
        next: { plan: { id: plan.prepaid, goodsType: PlanGoodsType.Prepaid, durationMonths: 12, cycleUnit: 1, cycleValue: 1 }, contractStartAt: start, contractMonths: 12 } as unknown as CardSnapshot,
        effects: [{ kind: 'cycleStarted' as const, start, end: at(11, 12, 9), index: 1 }],
      };
      await db().transaction(async (tx) => {
        const charges = await rateEventCharges(tx, [change], start);
        expect(charges.map((c) => [c.iccid, c.periodKey, String(c.inclFen)])).toEqual([[iccidOf(22), KEY, '19900']]);
        await recordEventCharges(tx, charges, { accountId: null, loginName: 'test' });
      });
      await q(`update usage_feeds set watermark = '2026-11-01 00:00:00+08'`);
    }, 180_000);
    afterAll(async () => {
      await t?.stop();
    });

    const linesOf = async (iccid: string) => (await q<Record<string, string | number>>(`
      select category, quantity::text quantity, unit_price::text unit_price, to_char(from_day, 'YYYY-MM-DD') from_day, to_char(to_day, 'YYYY-MM-DD') to_day,
        amount::text amount, tax::text tax, (amount - tax)::text excl
      from bill_lines where period_key = $1 and iccid = $2 and category <> 7 order by category, from_day`, [KEY, iccid]));

    const runAll = async (by = 'test', custId?: number, chunkCards = 4) => {
      const runId = await startBillRun(db(), { periodKey: KEY, by, custId }, NOW);
      const r = await continueBillRun(db(), runId, 'w1', { chunkCards });
      expect(r).toMatchObject({ claimed: true, state: BillRunState.Done });
      return runId;
    };
    const snapshot = async () => ({
      lines: await q(`select bill_id, iccid, category, from_day::text, to_day::text, ref_id, quantity::text, unit_price::text, amount::text, tax::text,
        used_bytes::text, quota_bytes::text from bill_lines where period_key = $1 order by 1, 2, 3, 4, 6`, [KEY]),
      bills: await q(`select bill_id, cust_id, card_count, line_count::text, total::text, tax::text, plan_fee::text, overage_fee::text, test_fee::text,
        downtime_fee::text, one_off_fee::text, amount_due::text, unbilled_over_bytes::text, period_from::text, period_to::text
        from bills where period_key = $1 order by 1`, [KEY]),
      summaries: await q(`select * from bill_summaries where bill_id in (select bill_id from bills where period_key = $1) order by 1, 2, 3, 4`, [KEY]),
    });

    it('refuses a period not closed, a feed not delivered, and a scope with nothing to bill', async () => {
      const early = await startBillRun(db(), { periodKey: KEY, by: 't' }, zonedTime(2026, 10, 31, 23, 59).getTime()).catch((e) => e);
      expect(early).toBeInstanceOf(AppError);
      expect(early).toMatchObject({ code: ErrorCode.BillPeriodNotReady, params: { period: KEY, day: '2026-11-01' } });
      await q(`update usage_feeds set watermark = '2026-10-31 06:00:00+08' where operator_id = 3`);
      const feed = await startBillRun(db(), { periodKey: KEY, by: 't' }, NOW).catch((e) => e);
      expect(feed).toMatchObject({ code: ErrorCode.BillUsageNotArrived, params: { period: KEY, last: '2026-10-30', need: '2026-10-31' } });
      // an operator without a feed row has no usage coming: its closed period is ready
      await q(`delete from usage_feeds where operator_id = 3`);
      const [{ n }] = await q<{ n: number }>(`select count(*)::int n from bill_runs`);
      expect(n).toBe(0);
      expect(await startBillRun(db(), { periodKey: KEY, by: 't', custId: 999_999 }, NOW).catch((e) => e)).toMatchObject({ code: ErrorCode.BillRunNothing });
    });

    it('rates every card as rateCardPeriod does', async () => {
      const runId = await runAll();
      for (const c of CARDS) {
        const iccid = iccidOf(c.n);
        const got = await linesOf(iccid);
        if (!c.plan || !c.rating) {
          expect(got, iccid).toEqual([]);
          continue;
        }
        const p = PLANS[c.plan];
        const salePrice = c.plan === 'monthly' ? '35.00' : c.plan === 'test' && c.sub ? '20.00' : p.salePrice;
        const op = c.op ?? Operator.ChinaMobile;
        const want = rateCardPeriod(periodByKey(KEY, op === Operator.ChinaUnicom ? 26 : 1), { plan: p, salePrice, ...c.rating(sumOf(iccid)) });
        // the prepaid term (category 2) is rating's prepaidFeeLine, charged at the event: checked apart below
        expect(got.filter((l) => Number(l.category) !== BillLineCategory.PrepaidPlanFee), `card ${c.n}`).toEqual(want.lines.map((l) => {
          const x = lineAsText(l);
          return { category: x.category, quantity: x.quantity, unit_price: x.unitPrice, from_day: x.from, to_day: x.to, amount: x.amount, tax: x.tax, excl: x.amountExclTax };
        }));
      }
      // the cases are what they claim to be
      const cat = async (n: number) => (await linesOf(iccidOf(n))).map((l) => `${l.category}:${l.quantity}:${l.amount}`);
      expect(await cat(1)).toEqual(['1:1:35.00', '3:4:1.16']);
      expect(await cat(3)).toEqual(['1:1:10.00', '3:1:2.50']);
      expect(await cat(4)).toEqual(['1:1:10.00', '3:2:5.00']);
      expect(await cat(5)).toEqual(['1:1:35.00', '3:6400:1856.00', '4:1:5.00']);
      expect(await cat(7)).toEqual(['1:1:35.00']);
      expect(await cat(8)).toEqual([]);
      expect(await cat(9)).toEqual(['5:1:3.00']);
      expect(await cat(10)).toEqual(['5:1:2.99']);
      expect(await cat(11)).toEqual([]);
      expect(await cat(12)).toEqual(['3:3:60.00']);
      expect(await cat(15)).toEqual(['3:1:7.77', '3:2:15.54']);
      expect(await cat(16)).toEqual(['4:1:20.00']);
      const term = prepaidFeeLine(PLANS.prepaid, PLANS.prepaid.salePrice, { start: at(10, 12, 9), end: zonedTime(2027, 10, 12, 9) });
      expect(await linesOf(iccidOf(22))).toEqual([term].map((l) => {
        const x = lineAsText(l!);
        return { category: x.category, quantity: x.quantity, unit_price: x.unitPrice, from_day: x.from, to_day: x.to, amount: x.amount, tax: x.tax, excl: x.amountExclTax };
      }));
      expect(await cat(22)).toEqual(['2:1:199.00']);
      for (const n of [12, 13, 14, 15]) expect((await cat(n)).filter((l) => l.startsWith('2:')), `card ${n}: its contract started before October`).toEqual([]);
      expect((await linesOf(iccidOf(18)))[0]).toMatchObject({ amount: '1.05', tax: '0.09', excl: '0.96' });

      // the bills: totals are sums of their lines; the one-off fees due are on HD's bill, the later one waits
      const bills = await q<Record<string, string>>(`select b.*, (select count(*) from bill_lines l where l.period_key = b.period_key and l.bill_id = b.bill_id)::int n,
        (select sum(amount)::text from bill_lines l where l.period_key = b.period_key and l.bill_id = b.bill_id) s
        from bills b where period_key = $1`, [KEY]);
      for (const b of bills) {
        expect(Number(b.line_count), b.bill_no).toBe(Number(b.n));
        expect(b.total, b.bill_no).toBe(b.s ?? '0.00');
        expect(b.amount_due).toBe(b.total);
      }
      const mine = bills.find((b) => Number(b.cust_id) === hd)!;
      expect(mine.bill_no).toBe(`B202610${String(hd).padStart(8, '0')}`);
      expect(mine.one_off_fee).toBe('112.34');
      expect(String(mine.unbilled_over_bytes)).toBe('7');
      expect(await q(`select period_from::text f, period_to::text t from bills where bill_id = $1`, [mine.bill_id])).toEqual([{ f: '2026-09-26', t: '2026-10-31' }]);
      const fees = await q<{ reason: string; state: number; bill_id: number | null }>(`select reason, state, bill_id from one_off_fees order by fee_id`);
      expect(fees.map((f) => [f.reason, f.state, f.bill_id === null ? null : Number(f.bill_id)])).toEqual([
        ['setup', OneOffFeeState.Billed, Number(mine.bill_id)], ['repair', OneOffFeeState.Billed, Number(mine.bill_id)], ['later', OneOffFeeState.Pending, null]]);
      const [fee] = await q<Record<string, string>>(`select amount::text, tax::text, iccid from bill_lines where period_key = $1 and category = 7 and iccid = $2`, [KEY, iccidOf(1)]);
      expect(fee).toEqual({ amount: '12.34', tax: '1.42', iccid: iccidOf(1) });
      // breakdowns: by plan, operator and card type, each adding up to the bill
      const sums = await q<{ dim: number; s: string }>(`select dim, sum(amount)::text s from bill_summaries where bill_id = $1 group by dim order by dim`, [mine.bill_id]);
      expect(sums).toEqual([1, 2, 3].map((dim) => ({ dim, s: mine.total })));
      const run = await billRunRow(db(), runId);
      expect(run).toMatchObject({ runId, periodKey: KEY, custId: null, state: BillRunState.Done, step: 3, finishedAt: expect.any(String) });
      expect(run.cardsDone).toBe(run.cardsTotal);
      expect(run.linesWritten).toBe(Number((await q<{ n: string }>(`select count(*) n from bill_lines where period_key = $1`, [KEY]))[0].n));
    });

    it('writes a chunk done twice once, and resumes a run killed after two chunks with the same result', async () => {
      const before = await snapshot();
      const runId = await startBillRun(db(), { periodKey: KEY, by: 'crash' }, NOW);
      expect((await snapshot()).lines.length).toBe(0);
      expect(await startBillRun(db(), { periodKey: KEY, by: 'again' }, NOW).catch((e) => e)).toMatchObject({ code: ErrorCode.BillRunRunning });
      expect(await startBillRun(db(), { periodKey: KEY, by: 'again', custId: hd }, NOW).catch((e) => e)).toMatchObject({ code: ErrorCode.BillRunRunning });
      expect(await continueBillRun(db(), runId, 'w1', { chunkCards: 4, maxChunks: 2 })).toMatchObject({ claimed: true, chunks: 2, state: BillRunState.Running });
      // the first chunk again (as a worker that lost its lease would): nothing new
      const [{ n: linesNow }] = await q<{ n: number }>(`select count(*)::int n from bill_lines where period_key = $1`, [KEY]);
      const p = runPeriods(KEY, await q(`select operator_id, billing_day from operators`));
      const [first] = await q<{ hi: string }>(`select max(iccid) hi from (select iccid from cards where cust_id is not null and goods_release_id is not null order by iccid limit 4) x`);
      await t.deps.db.transaction(async (tx) => {
        const r = await tx.execute(chunkSql({ periodKey: KEY, runId, lo: '', hi: first.hi, custId: null, ops: p.ops, monthStart: p.monthStart.toISOString(), monthEnd: p.monthEnd.toISOString(), timeZone: t.config.timeZone }));
        const [row] = ((r as { rows?: unknown[] }).rows ?? r) as { lines: number }[];
        expect(row.lines).toBe(0);
        tx.rollback();
      }).catch((e) => { if (!/rollback/i.test(String(e?.message ?? e))) throw e; });
      expect((await q<{ n: number }>(`select count(*)::int n from bill_lines where period_key = $1`, [KEY]))[0].n).toBe(linesNow);
      // killed: the lease is still held, so another worker waits; once it has run out, the other worker finishes
      await q(`update bill_runs set lease_until = now() + interval '1 minute' where run_id = $1`, [runId]);
      await q(`update bill_runs set lease_owner = 'dead' where run_id = $1`, [runId]);
      expect(await continueBillRun(db(), runId, 'w2', { chunkCards: 4 })).toMatchObject({ claimed: false });
      await q(`update bill_runs set lease_until = now() - interval '1 second' where run_id = $1`, [runId]);
      expect(await continueBillRun(db(), runId, 'w2', { chunkCards: 4 })).toMatchObject({ claimed: true, state: BillRunState.Done });
      const after = await snapshot();
      expect(after.lines).toEqual(before.lines);
      expect(after.bills).toEqual(before.bills);
      expect(after.summaries).toEqual(before.summaries);
    });

    it('re-runs one customer\'s unpublished bill, and refuses a published one', async () => {
      const before = await snapshot();
      await q(`update card_usage_daily set bytes = bytes + $2 where iccid = $1 and day = '2026-10-02'`, [iccidOf(1), 10 * MB]);
      await runAll('rerun', hdSz);
      const after = await snapshot();
      // only HD's own bill changes (card 1 is HD's): HD_SZ's is the same
      expect(after.bills.filter((b) => Number(b.cust_id) !== hd)).toEqual(before.bills.filter((b) => Number(b.cust_id) !== hd));
      await runAll('rerun', hd);
      const [l] = (await linesOf(iccidOf(1))).filter((x) => x.category === BillLineCategory.OutOfPlanUsage);
      expect(l.quantity).toBe('14');
      const fees = await q<{ state: number }>(`select state from one_off_fees where reason in ('setup', 'repair')`);
      expect(fees.every((f) => f.state === OneOffFeeState.Billed)).toBe(true);
      await q(`update bills set published = true where period_key = $1 and cust_id = $2`, [KEY, hd]);
      expect(await startBillRun(db(), { periodKey: KEY, by: 't', custId: hd }, NOW).catch((e) => e)).toMatchObject({ code: ErrorCode.BillPublished });
      // a whole-period run leaves the published bill alone
      const published = (await snapshot()).lines.filter((x) => Number(x.bill_id) === Number(after.bills.find((b) => Number(b.cust_id) === hd)!.bill_id));
      await runAll('all again');
      const kept = (await snapshot()).lines.filter((x) => Number(x.bill_id) === Number(after.bills.find((b) => Number(b.cust_id) === hd)!.bill_id));
      expect(kept).toEqual(published);
      // the job's turn continues every running run
      const runId = await startBillRun(db(), { periodKey: KEY, by: 'job', custId: hdSz }, NOW);
      await continueBillRuns({ db: db() });
      expect(await billRunRow(db(), runId)).toMatchObject({ state: BillRunState.Done, custId: hdSz, custName: HD_SZ });
    });

    it('a run that keeps failing gives up after BILL_RUN_MAX_FAILURES attempts; a new run may then start', async () => {
      const runId = await startBillRun(db(), { periodKey: KEY, by: 'broken', custId: hdSz }, NOW);
      // the totals step cannot write its breakdowns
      await q('alter table bill_summaries rename to bill_summaries_away');
      try {
        for (let i = 1; i <= BILL_RUN_MAX_FAILURES; i++) {
          await expect(continueBillRun(db(), runId, `w${i}`, { chunkCards: 4 })).rejects.toThrow();
          const row = await billRunRow(db(), runId);
          expect(row.state, `after ${i} failures`).toBe(i < BILL_RUN_MAX_FAILURES ? BillRunState.Running : BillRunState.Failed);
          expect(row.error).toMatch(/bill_summaries/);
        }
        expect(await continueBillRun(db(), runId, 'late')).toMatchObject({ claimed: false });
      } finally {
        await q('alter table bill_summaries_away rename to bill_summaries');
      }
      const again = await startBillRun(db(), { periodKey: KEY, by: 'again', custId: hdSz }, NOW);
      expect(await continueBillRun(db(), again, 'w1')).toMatchObject({ state: BillRunState.Done });
    });

    it('declares in Drizzle exactly the columns the migration made', async () => {
      const cols = await q<{ t: string; c: string }>(`select table_name t, column_name c from information_schema.columns where table_schema = 'public'
        and table_name in ('bill_runs', 'bills', 'bill_lines', 'bill_summaries', 'one_off_fees', 'bill_write_offs', 'card_charges', 'card_charge_items')`);
      const have = new Set(cols.map((r) => `${r.t}.${r.c}`));
      const declared = new Set<string>();
      for (const table of [tables.billRuns, tables.bills, tables.billLines, tables.billSummaries, tables.oneOffFees, tables.billWriteOffs, cardCharges, cardChargeItems]) {
        const cfg = getTableConfig(table);
        for (const col of cfg.columns) declared.add(`${cfg.name}.${col.name}`);
      }
      expect([...declared].sort()).toEqual([...have].sort());
      // the typed tables read what the run wrote
      const [b] = await db().select().from(tables.bills).where(sql`${tables.bills.custId} = ${hd} and ${tables.bills.periodKey} = ${KEY}`);
      expect(typeof b.total).toBe('string');
    });
  });
}
