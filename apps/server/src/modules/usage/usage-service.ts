// Usage queries: one card's cycle and days, its sessions, the traffic detail query and the Home overview. Tenancy
// comes from the session: usage rows carry the tenant that held the card when it was used, and every query filters
// on it (tenantFilter); one card's endpoints also check the card itself, answering 20005 outside the scope.
import { and, asc, desc, eq, gte, inArray, lt, lte, sql, type Column, type SQL } from 'drizzle-orm';
import { CardState, ErrorCode, usage as api, type BodyOf } from '@lynx/contract';
import type { Db } from '../../db/client.ts';
import { AppError, notFound } from '../../platform/errors.ts';
import { canSeeTenant, isChannel, isStaff, tenantFilter, type Actor } from '../../platform/context.ts';
import { iso, pageOf } from '../../platform/paging.ts';
import { customers } from '../account/tables.ts';
import { cards } from '../card/card-tables.ts';
import { cardQuotaExhaustions, cardSessions, cardUsageDaily, cardUsageDailyCust, usageFeeds } from './usage-tables.ts';
import { usageOperators, usagePlans } from './usage-plans.ts';
import { cycleDays, cycleOf, cycleUsage, quotasOf } from './usage-quota.ts';
import { SESSION_RETENTION_MONTHS } from './usage-partitions.ts';
import { DAY_MS, addDay, businessDay, businessDayStartMs, businessMonth, daysBetween, monthFirstDay } from './usage-time.ts';

type FlowQuery = BodyOf<typeof api.getFlowDailyPage>;
type Key = { a: string; b: string; c?: string };

const num = (v: unknown) => Number(v ?? 0);
/** How long the Home overview's cards-by-state counts of a scope are reused. */
export const STATE_COUNT_TTL_MS = 30_000;
const sumOf = (col: SQL | unknown) => sql<string>`coalesce(sum(${col}), 0)`;

/** The days of a range, both included. */
function dayList(from: string, to: string): string[] {
  const out: string[] = [];
  for (let d = from; d <= to; d = addDay(d, 1)) out.push(d);
  return out;
}

export class UsageService {
  /** last row key of an export's previous page, so a long export reads by key instead of by offset */
  private exportCursor = new Map<string, Key>();
  private stateCounts = new Map<string, { at: number; value: { total: number; states: { state: number; count: number }[] } }>();

  constructor(private db: Db) {}

  /** The card, when the caller may see it (20005 otherwise, exactly like a missing card). */
  private async card(iccid: string, actor: Actor) {
    const [row] = await this.db.select().from(cards).where(eq(cards.iccid, iccid));
    if (!row || !canSeeTenant(actor, row)) throw notFound();
    return row;
  }

  // ---- one card ------------------------------------------------------------------------------------------------

  async cardUsage(b: BodyOf<typeof api.getCardUsage>, actor: Actor, now = Date.now()) {
    const card = await this.card(b.iccid, actor);
    const [operators, plans] = await Promise.all([
      usageOperators(this.db), usagePlans(this.db, card.goodsReleaseId != null ? [card.goodsReleaseId] : []),
    ]);
    const plan = card.goodsReleaseId != null ? plans.get(card.goodsReleaseId) : undefined;
    const cycle = cycleOf(card, operators.get(card.operatorId)?.billingDay ?? 1, now);
    const cd = cycleDays(cycle);
    const today = businessDay(now);
    const from = b.from ?? cd.from;
    const to = b.to ?? (cd.to < today ? cd.to : today);
    if (to < from) throw new AppError(ErrorCode.UsageRangeReversed, undefined, 200, { field: 'to' });
    if (daysBetween(from, to) + 1 > api.CARD_USAGE_MAX_DAYS) throw new AppError(ErrorCode.UsageRangeTooLong, { max: api.CARD_USAGE_MAX_DAYS }, 200, { field: 'from' });

    const [rows, quotas, used, exhausted, feed] = await Promise.all([
      this.db.select().from(cardUsageDaily)
        .where(and(eq(cardUsageDaily.iccid, card.iccid), gte(cardUsageDaily.day, from), lte(cardUsageDaily.day, to),
          tenantFilter(actor, { custId: cardUsageDaily.custId, rootCustId: cardUsageDaily.rootCustId })))
        .orderBy(asc(cardUsageDaily.day)),
      quotasOf(this.db, [card], plans, new Date(now)),
      // the cycle's usage is the card's own fact (what its quota is measured against)
      cycleUsage(this.db, [{ iccid: card.iccid, ...cd }]),
      this.db.select({ at: cardQuotaExhaustions.exhaustedAt }).from(cardQuotaExhaustions)
        .where(and(eq(cardQuotaExhaustions.iccid, card.iccid), eq(cardQuotaExhaustions.cycleStart, cycle.start))),
      this.db.select({ at: usageFeeds.watermark }).from(usageFeeds).where(eq(usageFeeds.operatorId, card.operatorId)),
    ]);
    const byDay = new Map(rows.map((r) => [r.day, r]));
    const days = dayList(from, to).map((day) => {
      const r = byDay.get(day);
      return {
        day, bytes: num(r?.bytes), bytesUp: num(r?.bytesUp), bytesDown: num(r?.bytesDown), sms: num(r?.sms), voiceSeconds: num(r?.voiceSeconds),
        sessions: num(r?.sessions),
      };
    });
    const total = days.reduce((t, d) => ({
      day: `${from}~${to}`, bytes: t.bytes + d.bytes, bytesUp: t.bytesUp + d.bytesUp, bytesDown: t.bytesDown + d.bytesDown, sms: t.sms + d.sms,
      voiceSeconds: t.voiceSeconds + d.voiceSeconds, sessions: t.sessions + d.sessions,
    }), { day: '', bytes: 0, bytesUp: 0, bytesDown: 0, sms: 0, voiceSeconds: 0, sessions: 0 });
    const quota = quotas.get(card.iccid) ?? null;
    const usedBytes = used.get(card.iccid) ?? 0;
    return {
      iccid: card.iccid, cycleStart: cycle.start.toISOString(), cycleEnd: cycle.end.toISOString(), cycleKind: cycle.contract ? 'contract' as const : 'billing' as const,
      planName: plan?.name ?? null, quotaBytes: quota, usedBytes, remainingBytes: quota === null ? null : Math.max(0, quota - usedBytes),
      useUpAction: plan?.useUpAction ?? null, exhaustedAt: iso(exhausted[0]?.at), fedUntil: iso(feed[0]?.at), from, to, days, total,
    };
  }

  async cardSessions(b: BodyOf<typeof api.getCardSessions>, actor: Actor, now = Date.now()) {
    const card = await this.card(b.iccid, actor);
    const plans = await usagePlans(this.db, card.goodsReleaseId != null ? [card.goodsReleaseId] : []);
    const list = await this.db.select().from(cardSessions)
      .where(and(
        eq(cardSessions.iccid, card.iccid), gte(cardSessions.startedAt, new Date(now - api.CARD_SESSIONS_DAYS * DAY_MS)),
        tenantFilter(actor, { custId: cardSessions.custId, rootCustId: cardSessions.rootCustId }),
      ))
      .orderBy(desc(cardSessions.startedAt), desc(cardSessions.sessionId))
      .limit(api.CARD_SESSIONS_LIMIT);
    const apns = new Map<string, { apn: string; online: boolean; lastSessionAt: string | null }>();
    for (const a of card.goodsReleaseId != null ? (plans.get(card.goodsReleaseId)?.apns ?? []) : []) apns.set(a, { apn: a, online: false, lastSessionAt: null });
    for (const s of [...list].reverse()) {
      const e = apns.get(s.apn) ?? { apn: s.apn, online: false, lastSessionAt: null };
      e.lastSessionAt = s.startedAt.toISOString();
      e.online = card.online && s.endedAt === null;
      apns.set(s.apn, e);
    }
    return {
      online: card.online, lastSessionAt: iso(card.lastSessionAt), apns: [...apns.values()],
      list: list.map((s) => ({
        sessionId: s.sessionId, startedAt: s.startedAt.toISOString(), endedAt: iso(s.endedAt),
        durationSeconds: Math.max(0, Math.round(((s.endedAt ?? s.reportedAt).getTime() - s.startedAt.getTime()) / 1000)),
        apn: s.apn, rat: s.rat, cell: s.cell, bytesUp: num(s.bytesUp), bytesDown: num(s.bytesDown), bytes: num(s.bytesUp) + num(s.bytesDown),
      })),
    };
  }

  // ---- traffic detail query -------------------------------------------------------------------------------------

  /** The searched range: both ends China days, defaults the last 7 days, at most FLOW_QUERY_MAX_DAYS. */
  private range(q: FlowQuery, now: number): { start: string; end: string } {
    const today = businessDay(now);
    const end = q.endDate ?? (q.startDate ? [addDay(q.startDate, api.FLOW_QUERY_MAX_DAYS - 1), today].sort()[0] : today);
    const start = q.startDate ?? addDay(end, -6);
    if (end < start) throw new AppError(ErrorCode.UsageRangeReversed, undefined, 200, { field: 'endDate' });
    if (daysBetween(start, end) + 1 > api.FLOW_QUERY_MAX_DAYS) throw new AppError(ErrorCode.UsageRangeTooLong, { max: api.FLOW_QUERY_MAX_DAYS }, 200, { field: 'startDate' });
    return { start, end };
  }

  /** The card and customer filters as conditions on a usage table; null when nothing can match. */
  private async scope(q: FlowQuery, actor: Actor, cols: { iccid: Column; custId: Column; rootCustId: Column }) {
    const w: SQL[] = [tenantFilter(actor, { custId: cols.custId, rootCustId: cols.rootCustId })];
    let byCard = false;
    if (q.iccid) {
      w.push(eq(cols.iccid, q.iccid));
      byCard = true;
    }
    if (q.msisdn) {
      const found = await this.db.select({ iccid: cards.iccid }).from(cards).where(eq(cards.msisdn, q.msisdn)).limit(100);
      if (found.length === 0) return null;
      w.push(inArray(cols.iccid, found.map((f) => f.iccid)));
      byCard = true;
    }
    if (q.custId !== undefined) {
      const [c] = await this.db.select({ rootCustId: customers.rootCustId }).from(customers).where(eq(customers.custId, q.custId));
      if (!c) return null;
      // a first-level customer means its whole tree; a second-level customer itself
      w.push(c.rootCustId === q.custId ? sql`${cols.rootCustId} = ${q.custId}` : sql`${cols.custId} = ${q.custId}`);
    }
    return { where: w, byCard };
  }

  /** Totals of the whole result from the per-customer rollup (a few rows per day), unless a card filter makes it small. */
  private async rollupTotals(q: FlowQuery, actor: Actor, r: { start: string; end: string }) {
    const w: SQL[] = [
      tenantFilter(actor, { custId: cardUsageDailyCust.custId, rootCustId: cardUsageDailyCust.rootCustId }),
      gte(cardUsageDailyCust.day, r.start), lte(cardUsageDailyCust.day, r.end),
    ];
    if (q.custId !== undefined) {
      const [c] = await this.db.select({ rootCustId: customers.rootCustId }).from(customers).where(eq(customers.custId, q.custId));
      w.push(c && c.rootCustId === q.custId ? eq(cardUsageDailyCust.rootCustId, q.custId) : eq(cardUsageDailyCust.custId, q.custId));
    }
    const [t] = await this.db
      .select({ cards: sumOf(cardUsageDailyCust.cards), sessions: sumOf(cardUsageDailyCust.sessions), bytes: sumOf(cardUsageDailyCust.bytes) })
      .from(cardUsageDailyCust).where(and(...w));
    return { rows: num(t.cards), sessions: num(t.sessions), bytes: num(t.bytes) };
  }

  /** MSISDN and customer names of one page, looked up by key. */
  private async decorate<R extends { iccid: string; custId: number | null }>(rows: R[]) {
    const iccids = [...new Set(rows.map((r) => r.iccid))];
    const custIds = [...new Set(rows.map((r) => r.custId).filter((v): v is number => v != null))];
    const [cardRows, custRows] = await Promise.all([
      iccids.length ? this.db.select({ iccid: cards.iccid, msisdn: cards.msisdn }).from(cards).where(inArray(cards.iccid, iccids)) : [],
      custIds.length ? this.db.select({ id: customers.custId, name: customers.custName }).from(customers).where(inArray(customers.custId, custIds)) : [],
    ]);
    const msisdn = new Map(cardRows.map((c) => [c.iccid, c.msisdn]));
    const name = new Map(custRows.map((c) => [c.id, c.name]));
    return rows.map((r) => ({ ...r, msisdn: msisdn.get(r.iccid) ?? null, custName: r.custId != null ? (name.get(r.custId) ?? null) : null }));
  }

  async flowDaily(q: FlowQuery, actor: Actor, opts: { now?: number; after?: Key } = {}) {
    const p = pageOf(q);
    const r = this.range(q, opts.now ?? Date.now());
    const empty = { list: [], total: 0, current: p.current, pageSize: p.pageSize, startDate: r.start, endDate: r.end, totalBytes: 0 };
    const s = await this.scope(q, actor, cardUsageDaily);
    if (!s) return empty;
    const cond = and(...s.where, gte(cardUsageDaily.day, r.start), lte(cardUsageDaily.day, r.end))!;
    const keyed = opts.after ? and(cond, sql`(${cardUsageDaily.day} < ${opts.after.a}::date or (${cardUsageDaily.day} = ${opts.after.a}::date and ${cardUsageDaily.iccid} > ${opts.after.b}))`)! : cond;
    const [rows, totals] = await Promise.all([
      this.db.select().from(cardUsageDaily).where(keyed).orderBy(desc(cardUsageDaily.day), asc(cardUsageDaily.iccid))
        .limit(p.limit).offset(opts.after ? 0 : p.offset),
      s.byCard
        ? this.db.select({ rows: sql<string>`count(*)`, bytes: sumOf(cardUsageDaily.bytes) }).from(cardUsageDaily).where(cond)
          .then(([t]) => ({ rows: num(t.rows), bytes: num(t.bytes) }))
        : this.rollupTotals(q, actor, r),
    ]);
    const list = await this.decorate(rows.map((d) => ({
      day: d.day, iccid: d.iccid, custId: d.custId, operatorId: d.operatorId, apn: d.apn, bytes: num(d.bytes), bytesUp: num(d.bytesUp),
      bytesDown: num(d.bytesDown), sms: d.sms, voiceSeconds: d.voiceSeconds, sessions: d.sessions,
    })));
    return { list, total: totals.rows, current: p.current, pageSize: p.pageSize, startDate: r.start, endDate: r.end, totalBytes: totals.bytes };
  }

  async flowSessions(q: FlowQuery, actor: Actor, opts: { now?: number; after?: Key } = {}) {
    const now = opts.now ?? Date.now();
    const p = pageOf(q);
    const r = this.range(q, now);
    const kept = monthFirstDay(businessMonth(now), -SESSION_RETENTION_MONTHS);
    if (r.start < kept) throw new AppError(ErrorCode.UsageSessionsExpired, { from: kept }, 200, { field: 'startDate' });
    const empty = { list: [], total: 0, current: p.current, pageSize: p.pageSize, startDate: r.start, endDate: r.end, totalBytes: 0 };
    const s = await this.scope(q, actor, cardSessions);
    if (!s) return empty;
    const cond = and(...s.where, gte(cardSessions.startedAt, new Date(businessDayStartMs(r.start))), lt(cardSessions.startedAt, new Date(businessDayStartMs(addDay(r.end, 1)))))!;
    const a = opts.after;
    const keyed = a
      ? and(cond, sql`(${cardSessions.startedAt} < ${a.a}::timestamptz or (${cardSessions.startedAt} = ${a.a}::timestamptz and (${cardSessions.iccid}, ${cardSessions.sessionId}) > (${a.b}, ${a.c ?? ''})))`)!
      : cond;
    const [rows, totals] = await Promise.all([
      this.db.select().from(cardSessions).where(keyed).orderBy(desc(cardSessions.startedAt), asc(cardSessions.iccid), asc(cardSessions.sessionId))
        .limit(p.limit).offset(a ? 0 : p.offset),
      s.byCard
        ? this.db.select({ rows: sql<string>`count(*)`, bytes: sql<string>`coalesce(sum(${cardSessions.bytesUp} + ${cardSessions.bytesDown}), 0)` })
          .from(cardSessions).where(cond).then(([t]) => ({ rows: num(t.rows), bytes: num(t.bytes) }))
        : this.rollupTotals(q, actor, r).then((t) => ({ rows: t.sessions, bytes: t.bytes })),
    ]);
    const list = await this.decorate(rows.map((x) => ({
      sessionId: x.sessionId, iccid: x.iccid, custId: x.custId, operatorId: x.operatorId, apn: x.apn, startedAt: x.startedAt.toISOString(),
      endedAt: iso(x.endedAt), durationSeconds: Math.max(0, Math.round(((x.endedAt ?? x.reportedAt).getTime() - x.startedAt.getTime()) / 1000)),
      rat: x.rat, cell: x.cell, bytes: num(x.bytesUp) + num(x.bytesDown), bytesUp: num(x.bytesUp), bytesDown: num(x.bytesDown),
    })));
    return { list, total: totals.rows, current: p.current, pageSize: p.pageSize, startDate: r.start, endDate: r.end, totalBytes: totals.bytes };
  }

  /** One page for a download task, read by key from the previous page's last row (no deep OFFSET). */
  async exportPage(kind: 'daily' | 'session', q: FlowQuery, actor: Actor) {
    const { current = 1, pageSize: _s, ...filters } = q;
    const key = (n: number) => `${kind}|${actor.accountId}|${JSON.stringify(filters)}|${n}`;
    const after = current > 1 ? this.exportCursor.get(key(current - 1)) : undefined;
    if (after) this.exportCursor.delete(key(current - 1));
    if (kind === 'daily') {
      const page = await this.flowDaily(q, actor, { after });
      const last = page.list[page.list.length - 1];
      if (last) this.remember(key(current), { a: last.day, b: last.iccid });
      return page;
    }
    const page = await this.flowSessions(q, actor, { after });
    const last = page.list[page.list.length - 1];
    if (last) this.remember(key(current), { a: last.startedAt, b: last.iccid, c: last.sessionId });
    return page;
  }

  private remember(k: string, v: Key) {
    if (this.exportCursor.size > 1000) this.exportCursor.clear();
    this.exportCursor.set(k, v);
  }

  // ---- Home overview --------------------------------------------------------------------------------------------

  /**
   * Counting a million cards by state takes a few hundred milliseconds even along an index, so a scope's counts are
   * kept for STATE_COUNT_TTL_MS: reloading the dashboard is instant and a change shows within that time.
   */
  async homeCardStates(actor: Actor) {
    const scope = isStaff(actor) ? 'all' : isChannel(actor) ? `root:${actor.rootCustId}` : `cust:${actor.custId}`;
    const hit = this.stateCounts.get(scope);
    if (hit && Date.now() - hit.at < STATE_COUNT_TTL_MS) return hit.value;
    const value = await this.countStates(actor);
    if (this.stateCounts.size > 10_000) this.stateCounts.clear();
    this.stateCounts.set(scope, { at: Date.now(), value });
    return value;
  }

  private async countStates(actor: Actor) {
    const rows = await this.db
      .select({ state: cards.state, n: sql<string>`count(*)` })
      .from(cards)
      .where(tenantFilter(actor, { custId: cards.custId, rootCustId: cards.rootCustId }))
      .groupBy(cards.state);
    const count = new Map(rows.map((r) => [r.state, num(r.n)]));
    const states = CardState.values.map((state) => ({ state, count: count.get(state) ?? 0 }));
    return { total: states.reduce((s, x) => s + x.count, 0), states };
  }

  private month(q: { month?: string }, now: number) {
    const month = q.month ?? businessMonth(now);
    const first = monthFirstDay(month);
    const last = addDay(monthFirstDay(month, 1), -1);
    const today = businessDay(now);
    return { month, first, last: last < today ? last : today, previous: { first: monthFirstDay(month, -1), last: addDay(first, -1) } };
  }

  private rollupScope(actor: Actor, from: string, to: string): SQL {
    return and(
      tenantFilter(actor, { custId: cardUsageDailyCust.custId, rootCustId: cardUsageDailyCust.rootCustId }),
      gte(cardUsageDailyCust.day, from), lte(cardUsageDailyCust.day, to),
    )!;
  }

  async homeMonthUsage(q: BodyOf<typeof api.getHomeMonthUsage>, actor: Actor, now = Date.now()) {
    const m = this.month(q, now);
    const [days, [prev]] = await Promise.all([
      m.first <= m.last
        ? this.db
          .select({
            day: cardUsageDailyCust.day, bytes: sumOf(cardUsageDailyCust.bytes), sms: sumOf(cardUsageDailyCust.sms),
            voice: sumOf(cardUsageDailyCust.voiceSeconds), sessions: sumOf(cardUsageDailyCust.sessions),
          })
          .from(cardUsageDailyCust).where(this.rollupScope(actor, m.first, m.last)).groupBy(cardUsageDailyCust.day)
        : Promise.resolve([]),
      this.db.select({ bytes: sumOf(cardUsageDailyCust.bytes) }).from(cardUsageDailyCust).where(this.rollupScope(actor, m.previous.first, m.previous.last)),
    ]);
    const byDay = new Map(days.map((d) => [d.day, d]));
    const series = m.first <= m.last ? dayList(m.first, m.last).map((day) => ({ day, bytes: num(byDay.get(day)?.bytes) })) : [];
    const total = (f: (d: (typeof days)[number]) => unknown) => days.reduce((s, d) => s + num(f(d)), 0);
    return {
      month: m.month, bytes: total((d) => d.bytes), sms: total((d) => d.sms), voiceSeconds: total((d) => d.voice), sessions: total((d) => d.sessions),
      previousBytes: num(prev?.bytes), days: series,
    };
  }

  async homeTopCustomers(q: BodyOf<typeof api.getHomeTopCustomers>, actor: Actor, now = Date.now()) {
    const m = this.month(q, now);
    // staff rank first-level customers (each with its tree); a channel customer ranks itself and its second-level customers
    const col = isStaff(actor) ? cardUsageDailyCust.rootCustId : cardUsageDailyCust.custId;
    const bytes = sql<string>`sum(${cardUsageDailyCust.bytes})`;
    const rows = m.first <= m.last
      ? await this.db.select({ custId: col, bytes })
        .from(cardUsageDailyCust)
        .where(and(this.rollupScope(actor, m.first, m.last), sql`${col} <> 0`))
        .groupBy(col).orderBy(desc(bytes), asc(col)).limit(api.HOME_TOP_N)
      : [];
    const names = rows.length
      ? await this.db.select({ id: customers.custId, name: customers.custName }).from(customers).where(inArray(customers.custId, rows.map((r) => r.custId)))
      : [];
    const name = new Map(names.map((n) => [n.id, n.name]));
    return { month: m.month, list: rows.map((r) => ({ custId: r.custId, custName: name.get(r.custId) ?? `#${r.custId}`, bytes: num(r.bytes) })) };
  }

  async homeTopLinks(q: BodyOf<typeof api.getHomeTopLinks>, actor: Actor, now = Date.now()) {
    const m = this.month(q, now);
    const bytes = sql<string>`sum(${cardUsageDailyCust.bytes})`;
    const rows = m.first <= m.last
      ? await this.db.select({ operatorId: cardUsageDailyCust.operatorId, apn: cardUsageDailyCust.apn, bytes, sessions: sumOf(cardUsageDailyCust.sessions) })
        .from(cardUsageDailyCust).where(this.rollupScope(actor, m.first, m.last))
        .groupBy(cardUsageDailyCust.operatorId, cardUsageDailyCust.apn)
        .orderBy(desc(bytes), asc(cardUsageDailyCust.operatorId), asc(cardUsageDailyCust.apn)).limit(api.HOME_TOP_N)
      : [];
    return { month: m.month, list: rows.map((r) => ({ operatorId: r.operatorId, apn: r.apn, bytes: num(r.bytes), sessions: num(r.sessions) })) };
  }
}
