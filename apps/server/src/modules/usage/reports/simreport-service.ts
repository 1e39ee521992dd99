import { sql, type SQL } from 'drizzle-orm';
import { ReportPeriod, businessDayStartMs, businessToday, simreport, type BodyOf, type simreport as api } from '@lynx/contract';
import type { Db } from '../../../db/client.ts';
import { invalid, notFound } from '../../../platform/errors.ts';
import { isChannel, isStaff, type Actor } from '../../../platform/context.ts';
import { pageOf } from '../../../platform/paging.ts';
import { customerScope, moneyCustomer } from '../../money/capital-service.ts';
import { billScope } from '../../billing/bills/bill-sql.ts';
import { addDay, daysBetween, monthFirstDay } from '../usage-time.ts';

const { CARD_REPORT_CLOSING_STATES, CARD_REPORT_STATE_GROUPS, USAGE_REPORT_MAX_DAYS, USAGE_REPORT_MAX_MONTHS } = simreport;
const rowsOf = <T>(r: unknown): T[] => ((r as { rows?: T[] }).rows ?? (r as T[]));
type Row = Record<string, unknown>;
const n = (v: unknown) => Number(v ?? 0);
const list = (xs: readonly number[]) => sql.raw(xs.join(', '));

/**
 * The viewer's rows of a table with cust_id / root_cust_id (alias `a`), narrowed to one customer when named. Cards in
 * the platform's stock have a null customer (0 in the usage rollup): only staff see them, as customer 0.
 */
async function scopeOf(db: Db, actor: Actor, custId: number | undefined, alias: string): Promise<SQL> {
  const col = (name: string) => sql.raw(`${alias}.${name}`);
  if (custId === 0) {
    if (!isStaff(actor)) throw notFound();
    return sql`coalesce(${col('cust_id')}, 0) = 0`;
  }
  if (custId !== undefined) {
    const c = await moneyCustomer(db, actor, custId);
    return sql`${col('cust_id')} = ${c.custId}`;
  }
  if (isStaff(actor)) return sql`true`;
  if (isChannel(actor)) return actor.rootCustId == null ? sql`false` : sql`${col('root_cust_id')} = ${actor.rootCustId}`;
  return actor.custId == null ? sql`false` : sql`${col('cust_id')} = ${actor.custId}`;
}

/** The instant a business day starts, as an ISO string for a timestamptz bound. */
const startOf = (day: string) => new Date(businessDayStartMs(day)).toISOString();

const COUNT_KEYS = ['cards', 'beforeUse', 'activated', 'deactivated', 'closed', 'newCards', 'activatedInMonth', 'closedInMonth', 'bytes', 'sms'] as const;
type Counts = Record<(typeof COUNT_KEYS)[number], number> & { fee: string | null };
const CARD_SORTS = new Set<string>([...COUNT_KEYS, 'custName', 'fee']);

export type CardReportRow = Counts & { custId: number; custName: string | null; level: number; parentCustName: string | null };

/** The sum of rows' counts; the fee is null only when no row has a bill. */
export function sumCounts(rows: readonly Counts[]): Counts {
  const out = Object.fromEntries(COUNT_KEYS.map((k) => [k, 0])) as unknown as Counts;
  let fen: bigint | null = null;
  for (const r of rows) {
    for (const k of COUNT_KEYS) out[k] += r[k];
    if (r.fee != null) fen = (fen ?? 0n) + BigInt(r.fee.replace('.', ''));
  }
  if (fen == null) out.fee = null;
  else {
    const neg = fen < 0n;
    const abs = (neg ? -fen : fen).toString().padStart(3, '0');
    out.fee = `${neg ? '-' : ''}${abs.slice(0, -2)}.${abs.slice(-2)}`;
  }
  return out;
}

/** The usage report's range: the days asked for (by month: the whole months they touch), refused past the limits. */
export function usageRange(type: number, startDate: string | undefined, endDate: string | undefined, today: string): { from: string; to: string } {
  const monthly = type === ReportPeriod.Monthly;
  let to = endDate ?? today;
  let from = startDate ?? (monthly ? monthFirstDay(to.slice(0, 7), -(6 - 1)) : `${to.slice(0, 8)}01`);
  if (from > to) throw invalid('startDate', { zh: '开始日期不能晚于结束日期', en: 'the start date must not be after the end date' });
  if (monthly) {
    from = monthFirstDay(from.slice(0, 7));
    to = addDay(monthFirstDay(to.slice(0, 7), 1), -1);
    const months = (Number(to.slice(0, 4)) - Number(from.slice(0, 4))) * 12 + Number(to.slice(5, 7)) - Number(from.slice(5, 7)) + 1;
    if (months > USAGE_REPORT_MAX_MONTHS) {
      throw invalid('endDate', { zh: `按月查询最多 ${USAGE_REPORT_MAX_MONTHS} 个月，请缩小日期范围`, en: `by month, at most ${USAGE_REPORT_MAX_MONTHS} months: choose a shorter range` });
    }
  } else if (daysBetween(from, to) + 1 > USAGE_REPORT_MAX_DAYS) {
    throw invalid('endDate', { zh: `按日查询最多 ${USAGE_REPORT_MAX_DAYS} 天，请缩小日期范围或按月查看`, en: `by day, at most ${USAGE_REPORT_MAX_DAYS} days: choose a shorter range or view by month` });
  }
  return { from, to };
}

/**
 * Report › Monthly SIM report and Report › Data usage, read for the viewer's scope. Card counts by state come from one
 * group-by (cust_id, state) over the cards (an index-only scan of cards_cust_state_ix); the month's usage from the
 * per-customer daily rollup card_usage_daily_cust; fees from the month's bills.
 */
export class SimReportService {
  constructor(private db: Db) {}

  private async exec<T = Row>(q: SQL): Promise<T[]> {
    return rowsOf<T>(await this.db.execute(q));
  }

  /** Every customer row of the month in the viewer's scope (customers are few: the page is cut here). */
  async cardRows(q: { month?: string; custId?: number }, actor: Actor): Promise<{ month: string; rows: CardReportRow[] }> {
    const month = q.month ?? businessToday().slice(0, 7);
    const firstDay = monthFirstDay(month);
    const nextFirst = monthFirstDay(month, 1);
    const from = startOf(firstDay);
    const to = startOf(nextFirst);
    const cardScope = await scopeOf(this.db, actor, q.custId, 'c');
    const usageScope = await scopeOf(this.db, actor, q.custId, 'u');
    const g = CARD_REPORT_STATE_GROUPS;
    const [states, moves, closed, usage, fees] = await Promise.all([
      // grouped by (cust_id, state) first: an index-only scan of cards_cust_state_ix, however many cards
      this.exec(sql`select coalesce(cust_id, 0) as cust_id, sum(k) as cards,
          sum(k) filter (where state in (${list(g.beforeUse)})) as before_use, sum(k) filter (where state in (${list(g.activated)})) as activated,
          sum(k) filter (where state in (${list(g.deactivated)})) as deactivated, sum(k) filter (where state in (${list(g.closed)})) as closed
        from (select c.cust_id, c.state, count(*) as k from cards c where ${cardScope} group by 1, 2) s group by 1`),
      this.exec(sql`select coalesce(c.cust_id, 0) as cust_id,
          count(*) filter (where c.created_at >= ${from}::timestamptz and c.created_at < ${to}::timestamptz) as new_cards,
          count(*) filter (where c.activated_at >= ${from}::timestamptz and c.activated_at < ${to}::timestamptz) as activated_in_month
        from cards c where ${cardScope} and ((c.created_at >= ${from}::timestamptz and c.created_at < ${to}::timestamptz)
          or (c.activated_at >= ${from}::timestamptz and c.activated_at < ${to}::timestamptz)) group by 1`),
      this.exec(sql`select coalesce(c.cust_id, 0) as cust_id, count(distinct h.iccid) as closed_in_month
        from card_history h join cards c on c.iccid = h.iccid
        where h.to_state in (${list(CARD_REPORT_CLOSING_STATES)}) and h.at >= ${from}::timestamptz and h.at < ${to}::timestamptz and ${cardScope}
        group by 1`),
      this.exec(sql`select u.cust_id, sum(u.bytes) as bytes, sum(u.sms) as sms from card_usage_daily_cust u
        where u.day >= ${firstDay}::date and u.day < ${nextFirst}::date and ${usageScope} group by u.cust_id`),
      q.custId === 0 ? Promise.resolve([]) : this.exec(sql`select b.cust_id, sum(b.total)::numeric(16, 2)::text as fee from bills b
        where b.period_key = ${month} and ${billScope(actor)}${q.custId !== undefined ? sql` and b.cust_id = ${q.custId}` : sql``} group by b.cust_id`),
    ]);
    const by = new Map<number, CardReportRow>();
    const row = (id: number): CardReportRow => {
      let r = by.get(id);
      if (!r) {
        r = { custId: id, custName: null, level: 0, parentCustName: null, ...(Object.fromEntries(COUNT_KEYS.map((k) => [k, 0])) as unknown as Counts), fee: null };
        by.set(id, r);
      }
      return r;
    };
    for (const s of states) Object.assign(row(n(s.cust_id)), { cards: n(s.cards), beforeUse: n(s.before_use), activated: n(s.activated), deactivated: n(s.deactivated), closed: n(s.closed) });
    for (const m of moves) Object.assign(row(n(m.cust_id)), { newCards: n(m.new_cards), activatedInMonth: n(m.activated_in_month) });
    for (const c of closed) row(n(c.cust_id)).closedInMonth = n(c.closed_in_month);
    for (const u of usage) Object.assign(row(n(u.cust_id)), { bytes: n(u.bytes), sms: n(u.sms) });
    for (const f of fees) row(n(f.cust_id)).fee = String(f.fee);
    const ids = [...by.keys()].filter((id) => id !== 0);
    if (ids.length) {
      const names = await this.exec<{ cust_id: number; cust_name: string; level: number; parent_cust_name: string | null }>(sql`
        select c.cust_id, c.cust_name, c.level, pc.cust_name as parent_cust_name
        from customers c left join customers pc on pc.cust_id = c.parent_cust_id
        where c.cust_id in (${sql.join(ids.map((id) => sql`${id}`), sql`, `)}) and ${customerScope(actor)}`);
      const seen = new Set<number>();
      for (const c of names) {
        seen.add(n(c.cust_id));
        Object.assign(by.get(n(c.cust_id))!, { custName: c.cust_name, level: n(c.level), parentCustName: c.parent_cust_name });
      }
      // belt and braces: a row of a customer the viewer cannot see never leaves the server
      for (const id of ids) if (!seen.has(id)) by.delete(id);
    }
    if (!isStaff(actor)) by.delete(0);
    return { month, rows: [...by.values()] };
  }

  async cardReport(q: BodyOf<typeof api.getCardReportPage>, actor: Actor) {
    const p = pageOf(q);
    const { month, rows } = await this.cardRows(q, actor);
    const field = q.sortField && CARD_SORTS.has(q.sortField) ? q.sortField : 'cards';
    const dir = q.sortOrder === 'ascend' ? 1 : -1;
    const key = (r: CardReportRow): number | string => (field === 'custName' ? (r.custName ?? '') : field === 'fee' ? Number(r.fee ?? -Infinity) : r[field as keyof Counts] as number);
    rows.sort((a, b) => {
      const x = key(a);
      const y = key(b);
      return (x < y ? -1 : x > y ? 1 : 0) * dir || a.custId - b.custId;
    });
    return { month, totals: sumCounts(rows), list: rows.slice(p.offset, p.offset + p.limit), total: rows.length, current: p.current, pageSize: p.pageSize };
  }

  /** Usage per period, customer and operator from the daily rollup; cards with usage of a month: its busiest day's. */
  async usage(type: number, q: BodyOf<typeof api.getDayFlow>, actor: Actor) {
    const p = pageOf(q);
    const { from, to } = usageRange(type, q.startDate, q.endDate, businessToday());
    const where = sql.join([
      sql`u.day >= ${from}::date and u.day <= ${to}::date`,
      await scopeOf(this.db, actor, q.custId, 'u'),
      ...(q.operatorId !== undefined ? [sql`u.operator_id = ${q.operatorId}`] : []),
      ...(q.apn !== undefined ? [sql`u.apn = ${q.apn}`] : []),
    ], sql` and `);
    const period = sql.raw(type === ReportPeriod.Monthly ? `to_char(u.day, 'YYYY-MM')` : `u.day::text`);
    // one row per day, customer and operator first (the APNs summed), so a month's cards are a maximum over days
    const daily = sql`select u.day, ${period} as period, u.cust_id, u.operator_id, sum(u.bytes) as bytes, sum(u.sms) as sms,
      sum(u.voice_seconds) as voice_seconds, sum(u.sessions) as sessions, sum(u.cards) as cards
      from card_usage_daily_cust u where ${where} group by u.day, u.cust_id, u.operator_id`;
    const grouped = sql`select period, cust_id, operator_id, sum(bytes) as bytes, sum(sms) as sms, sum(voice_seconds) as voice_seconds,
      sum(sessions) as sessions, max(cards) as cards from (${daily}) u group by period, cust_id, operator_id`;
    const [rows, [tot], [{ k }]] = await Promise.all([
      this.exec(sql`select g.*, c.cust_name, o.name_zh, o.name_en from (${grouped}) g
        left join customers c on c.cust_id = g.cust_id left join operators o on o.operator_id = g.operator_id
        order by g.period desc, g.bytes desc, g.cust_id, g.operator_id limit ${p.limit} offset ${p.offset}`),
      this.exec(sql`select coalesce(sum(bytes), 0) as bytes, coalesce(sum(sms), 0) as sms, coalesce(sum(voice_seconds), 0) as voice_seconds,
        coalesce(sum(sessions), 0) as sessions, coalesce((select max(c) from (select sum(cards) as c from (${daily}) d group by day) m), 0) as cards
        from (${daily}) t`),
      this.exec<{ k: string }>(sql`select count(*) as k from (${grouped}) y`),
    ]);
    const amounts = (r: Row) => ({ bytes: n(r.bytes), sms: n(r.sms), voiceSeconds: n(r.voice_seconds), sessions: n(r.sessions), cards: n(r.cards) });
    return {
      startDate: from, endDate: to, totals: amounts(tot),
      list: rows.map((r) => ({
        period: String(r.period), custId: n(r.cust_id), custName: (r.cust_name as string | null) ?? null,
        operatorId: n(r.operator_id), operatorName: { zh: String(r.name_zh ?? r.operator_id), en: String(r.name_en ?? r.operator_id) }, ...amounts(r),
      })),
      total: n(k), current: p.current, pageSize: p.pageSize,
    };
  }
}
