// Test cards (/card/testcard/*): the caller's cards in the test state (61) with their test end, test quota and
// test usage, and "update test card" (spec singleCard): end the test, or extend it. Ending a test is a state
// change and goes through the lifecycle engine (applyCardAction). Extending it changes no state: it moves the
// test end (within spec §4's "test plus inventory period at most 12 months") and the scheduler's next deadline,
// computed by the engine's nextDeadline(), under the same row lock the engine uses.
import { and, asc, count, desc, eq, gte, inArray, lt, or, sql, type SQL } from 'drizzle-orm';
import { CardChangeSource, CardState, ErrorCode, cardcat, type BodyOf, type Lang, businessDayStart, businessDayEnd, formatDate } from '@lynx/contract';
import type { Db, Executor } from '../../../db/client.ts';
import { AppError, notFound } from '../../../platform/errors.ts';
import { audit } from '../../../platform/audit.ts';
import { canSeeTenant, tenantFilter, type Actor, type SessionContext } from '../../../platform/context.ts';
import { iso, pageOf } from '../../../platform/paging.ts';
import { customers } from '../../account/tables.ts';
import { basicPlans } from '../../plan/plan-tables.ts';
import { cardHistory, cards } from '../card-tables.ts';
import { iccidSearch } from '../list/iccid-prefix.ts';
import { applyCardAction, snapshotOf, type CardServiceDeps } from '../lifecycle/card-service.ts';
import { nextDeadline } from '../lifecycle/engine.ts';
import { addBusinessMonths, addDays } from '../lifecycle/time.ts';
import { testUsageKb } from './usage.ts';

const { TEST_PLUS_SILENT_MAX_MONTHS } = cardcat;
type CardRow = typeof cards.$inferSelect;
type ListQuery = BodyOf<typeof cardcat.getTestCardListPage>;

/** Dates on the screen are days in the business time zone. */

/** When each card last entered the test state (its history; an extension is 61 → 61 and does not count). */
async function testStarts(ex: Executor, iccids: string[]): Promise<Map<string, Date>> {
  if (!iccids.length) return new Map();
  const rows = (await ex.execute(sql`
    select distinct on (iccid) iccid, at from ${cardHistory}
    where iccid = any(${sql.param(iccids)}::text[]) and to_state = ${CardState.Test} and from_state is distinct from ${CardState.Test}
    order by iccid, at desc`)) as unknown as { rows: { iccid: string; at: Date | string }[] };
  return new Map(rows.rows.map((r) => [r.iccid, new Date(r.at)]));
}

/** The latest test end allowed: test start + 12 months − the plan's inventory (silent) period. */
export function latestTestEnd(testStart: Date, silentPeriodMonths: number): Date {
  return addBusinessMonths(testStart, Math.max(0, TEST_PLUS_SILENT_MAX_MONTHS - silentPeriodMonths));
}

/**
 * The new test end of an extension by `days`, counted from the current test end (or from now when that has
 * passed and the scheduler has not ended the test yet), or the refusal.
 */
export function extendedTestEnd(
  card: { state: number; testEndAt: Date | null }, testStart: Date, silentPeriodMonths: number, days: number, now: Date,
): { ok: true; end: Date } | { ok: false; error: ErrorCode; params: Record<string, string | number> } {
  if (card.state !== CardState.Test) {
    return { ok: false, error: ErrorCode.TestCardNotInTest, params: { stateZh: CardState.label(card.state, 'zh'), stateEn: CardState.label(card.state, 'en') } };
  }
  const from = card.testEndAt && card.testEndAt > now ? card.testEndAt : now;
  const end = addDays(from, days);
  const latest = latestTestEnd(testStart, silentPeriodMonths);
  if (end > latest) return { ok: false, error: ErrorCode.TestPeriodTooLong, params: { months: TEST_PLUS_SILENT_MAX_MONTHS, latest: formatDate(latest) } };
  return { ok: true, end };
}

export class TestCardService {
  constructor(private deps: CardServiceDeps) {}

  private get db(): Db {
    return this.deps.db;
  }

  where(q: Omit<ListQuery, 'current' | 'pageSize' | 'sortField' | 'sortOrder'>, actor: Actor): SQL {
    const w: SQL[] = [eq(cards.state, CardState.Test), tenantFilter(actor, { custId: cards.custId, rootCustId: cards.rootCustId })];
    if (q.iccid) w.push(iccidSearch(cards.iccid, q.iccid));
    if (q.msisdn) w.push(eq(cards.msisdn, q.msisdn));
    if (q.custId !== undefined) w.push(or(eq(cards.custId, q.custId), eq(cards.rootCustId, q.custId))!);
    if (q.operatorId !== undefined) w.push(eq(cards.operatorId, q.operatorId));
    if (q.testEndFrom) w.push(gte(cards.testEndAt, businessDayStart(q.testEndFrom)));
    if (q.testEndTo) w.push(lt(cards.testEndAt, businessDayEnd(q.testEndTo)));
    return and(...w)!;
  }

  private order(q: ListQuery): SQL[] {
    if (q.sortField === 'iccid') return [q.sortOrder === 'descend' ? desc(cards.iccid) : asc(cards.iccid)];
    const dir = q.sortField === 'testEndAt' && q.sortOrder === 'descend' ? sql.raw('desc nulls last') : sql.raw('asc nulls last');
    return [sql`${cards.testEndAt} ${dir}`, asc(cards.iccid)];
  }

  /** Soonest test end first: the partial index (test_end_at, iccid) where state = 61 serves it. */
  async list(q: ListQuery, actor: Actor) {
    const p = pageOf(q);
    const cond = this.where(q, actor);
    const [rows, [{ n }]] = await Promise.all([
      this.db.select().from(cards).where(cond).orderBy(...this.order(q)).limit(p.limit).offset(p.offset),
      this.db.select({ n: count() }).from(cards).where(cond),
    ]);
    const list = (await this.decorate(this.db, rows)).map(({ silentPeriodMonths: _s, ...r }) => r);
    return { list, total: Number(n), current: p.current, pageSize: p.pageSize };
  }

  private async decorate(ex: Executor, rows: CardRow[]) {
    const custIds = [...new Set(rows.map((r) => r.custId).filter((v): v is number => v != null))];
    const planIds = [...new Set(rows.map((r) => r.goodsReleaseId).filter((v): v is number => v != null))];
    const [custs, plans, starts] = await Promise.all([
      custIds.length ? ex.select({ id: customers.custId, name: customers.custName }).from(customers).where(inArray(customers.custId, custIds)) : [],
      planIds.length
        ? ex.select({ id: basicPlans.goodsReleaseId, name: basicPlans.name, quota: basicPlans.testQuotaKb, silent: basicPlans.silentPeriodMonths })
          .from(basicPlans).where(inArray(basicPlans.goodsReleaseId, planIds))
        : [],
      testStarts(ex, rows.map((r) => r.iccid)),
    ]);
    const custName = new Map(custs.map((c) => [c.id, c.name]));
    const plan = new Map(plans.map((p) => [p.id, p]));
    const used = await testUsageKb(ex, rows.map((r) => ({ iccid: r.iccid, since: starts.get(r.iccid) ?? null })));
    return rows.map((r) => {
      const pl = r.goodsReleaseId != null ? plan.get(r.goodsReleaseId) : undefined;
      return {
        iccid: r.iccid, msisdn: r.msisdn, imsi: r.imsi, operatorId: r.operatorId, state: r.state, custId: r.custId,
        custName: r.custId != null ? (custName.get(r.custId) ?? null) : null, goodsReleaseId: r.goodsReleaseId, planName: pl?.name ?? null,
        testStartAt: iso(starts.get(r.iccid)), testEndAt: iso(r.testEndAt), testQuotaKb: pl ? pl.quota : null,
        testUsedKb: used.get(r.iccid) ?? null, online: r.online,
        silentPeriodMonths: pl?.silent ?? 0,
      };
    });
  }

  async detail(iccid: string, actor: Actor, lang: Lang) {
    const [row] = await this.db.select().from(cards).where(eq(cards.iccid, iccid));
    if (!row || !canSeeTenant(actor, row)) throw notFound();
    const [{ silentPeriodMonths, ...card }] = await this.decorate(this.db, [row]);
    const history = await this.db
      .select()
      .from(cardHistory)
      .where(eq(cardHistory.iccid, iccid))
      .orderBy(desc(cardHistory.at))
      .limit(50);
    const start = card.testStartAt ? new Date(card.testStartAt) : null;
    return {
      card,
      latestTestEnd: row.state === CardState.Test && start ? latestTestEnd(start, silentPeriodMonths).toISOString() : null,
      silentPeriodMonths,
      history: history.map((h) => ({
        at: h.at.toISOString(), fromState: h.fromState, toState: h.toState, action: h.action, source: h.source, actor: h.actor, reason: h.reason, note: lang === 'en' ? h.noteEn : h.noteZh,
      })),
    };
  }

  /** End the test (lifecycle engine: test → inventory) or extend it by one of the spec's validity choices. */
  async update(b: BodyOf<typeof cardcat.updateTestCard>, ctx: SessionContext) {
    const reason = b.reason?.trim() ? b.reason.trim() : null;
    if (b.action === 'end') {
      const [card] = await this.db.select({ state: cards.state, custId: cards.custId, rootCustId: cards.rootCustId }).from(cards).where(eq(cards.iccid, b.iccid));
      if (!card || !canSeeTenant(ctx.actor, card)) throw notFound();
      if (card.state !== CardState.Test) {
        throw new AppError(ErrorCode.TestCardNotInTest, { stateZh: CardState.label(card.state, 'zh'), stateEn: CardState.label(card.state, 'en') });
      }
      const r = await applyCardAction(this.deps, { kind: 'user', ctx }, b.iccid, { type: 'endTest' }, { reason });
      const [after] = await this.db.select({ testEndAt: cards.testEndAt }).from(cards).where(eq(cards.iccid, b.iccid));
      return { iccid: r.iccid, state: r.toState, testEndAt: iso(after?.testEndAt) };
    }
    if (!b.days) throw new AppError(ErrorCode.TestCardExtendDaysRequired, undefined, 200, { field: 'days' });
    const days = b.days;
    return this.db.transaction(async (tx) => {
      const [row] = await tx.select().from(cards).where(eq(cards.iccid, b.iccid)).for('update');
      if (!row || !canSeeTenant(ctx.actor, row)) throw notFound();
      const snapshot = await snapshotOf(tx, row);
      const now = new Date();
      const start = (await testStarts(tx, [row.iccid])).get(row.iccid) ?? row.createdAt;
      const res = extendedTestEnd(row, start, snapshot.plan?.silentPeriodMonths ?? 0, days, now);
      if (!res.ok) throw new AppError(res.error, res.params);
      const deadline = nextDeadline({ ...snapshot, testEndsAt: res.end });
      const [after] = await tx
        .update(cards)
        .set({ testEndAt: res.end, nextDeadlineAt: deadline, updatedAt: now })
        .where(eq(cards.iccid, row.iccid))
        .returning();
      await tx.insert(cardHistory).values({
        iccid: row.iccid, fromState: row.state, toState: row.state, action: null, source: CardChangeSource.User, actor: ctx.actor.loginName,
        reason, noteZh: `测试期延长 ${days} 天，至 ${formatDate(res.end)}`, noteEn: `test period extended by ${days} days, to ${formatDate(res.end)}`, at: now,
      });
      await audit(tx, ctx, {
        entity: 'card', entityId: row.iccid, custId: row.custId, rootCustId: row.rootCustId,
        before: { testEndAt: row.testEndAt, nextDeadlineAt: row.nextDeadlineAt },
        after: { action: 'extendTest', days, testEndAt: after.testEndAt, nextDeadlineAt: after.nextDeadlineAt, reason },
      });
      return { iccid: row.iccid, state: row.state, testEndAt: iso(after.testEndAt) };
    });
  }

}
