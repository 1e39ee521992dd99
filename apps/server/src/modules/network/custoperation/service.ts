import { sql, type SQL } from 'drizzle-orm';
import { ErrorCode, Operator, businessDay, businessToday, getBusinessTimeZone, custoperation as api, type BodyOf } from '@lynx/contract';
import type { Db } from '../../../db/client.ts';
import { AppError, notFound } from '../../../platform/errors.ts';
import { isChannel, isStaff, type Actor } from '../../../platform/context.ts';
import { pageOf } from '../../../platform/paging.ts';
import { BUILT_IN_ACCOUNT_NAME } from '../../billing/operator/operator-bill-fetch.ts';
import { addDay, billingPeriod, businessDayStartMs, daysBetween, HOUR_MS } from '../../usage/usage-time.ts';

/**
 * Shortcuts › China Unicom account operation (6030000; docs/decisions.md "Issue 15: Unicom account operation").
 *
 * Rows are grouped from the stored daily usage (card_usage_daily, China Unicom rows of the range) joined to the cards'
 * current basic plan, in one statement: (plan, day) groups, then the plan's name and first zone and the day's alarm
 * count. The range is at most 31 days, so a page is cut from a bounded set (plans × days). The account is the one
 * that serves China Unicom's cards (its first access configuration, 0 = the built-in network): the operator's other
 * accounts have no cards and no rows. Alarm messages are the pool rule's events of China Unicom pools.
 */
const CU = Operator.ChinaUnicom;
const { CUST_OPERATION_MAX_DAYS, CUST_OPERATION_DEFAULT_DAYS, CUST_OPERATION_ALARMS_MAX, POOL_ALARM_TYPES } = api;
type Row = Record<string, unknown>;
const rowsOf = <T>(r: unknown): T[] => ((r as { rows?: T[] }).rows ?? (r as T[]));
const n = (v: unknown) => Number(v ?? 0);
const list = (xs: readonly number[]) => sql.raw(xs.join(', '));

/** The viewer's rows of a table with cust_id / root_cust_id: staff all; a first-level customer its tree; else itself. */
export function tenantOf(actor: Actor, alias: string): SQL {
  const col = (name: string) => sql.raw(`${alias}.${name}`);
  if (isStaff(actor)) return sql`true`;
  if (isChannel(actor)) return actor.rootCustId == null ? sql`false` : sql`${col('root_cust_id')} = ${actor.rootCustId}`;
  return actor.custId == null ? sql`false` : sql`${col('cust_id')} = ${actor.custId}`;
}

/** The date range asked for, defaulting to the last 7 days up to today; refused when reversed or too long. */
export function operationRange(startDate: string | undefined, endDate: string | undefined, today: string): { from: string; to: string } {
  const to = endDate ?? (startDate ? [addDay(startDate, CUST_OPERATION_DEFAULT_DAYS - 1), today].sort()[0] : today);
  const from = startDate ?? addDay(to, -(CUST_OPERATION_DEFAULT_DAYS - 1));
  if (to < from) throw new AppError(ErrorCode.UsageRangeReversed, undefined, 200, { field: 'endDate' });
  if (daysBetween(from, to) + 1 > CUST_OPERATION_MAX_DAYS) {
    throw new AppError(ErrorCode.UsageRangeTooLong, { max: CUST_OPERATION_MAX_DAYS }, 200, { field: 'startDate' });
  }
  return { from, to };
}

/** China Unicom's billing period holding a business day (from its billing day, the 26th: spec §9), as days. */
export function unicomPeriod(day: string, billingDay: number): { from: string; to: string } {
  const p = billingPeriod(businessDayStartMs(day) + HOUR_MS, billingDay);
  return { from: businessDay(p.start.getTime()), to: addDay(businessDay(p.end.getTime()), -1) };
}

interface ServingAccount { operAccountId: number; accountName: string }

export class CustOperationService {
  constructor(private db: Db) {}

  private async exec<T = Row>(q: SQL): Promise<T[]> {
    return rowsOf<T>(await this.db.execute(q));
  }

  /** The account China Unicom's cards are served through: its first access configuration, else the built-in network. */
  async servingAccount(): Promise<ServingAccount> {
    const [a] = await this.exec<{ oper_account_id: number; account_name: string }>(sql`select oper_account_id, account_name from operator_accounts
      where operator_id = ${CU} order by oper_account_id limit 1`);
    return a ? { operAccountId: n(a.oper_account_id), accountName: a.account_name } : { operAccountId: 0, accountName: BUILT_IN_ACCOUNT_NAME };
  }

  private async billingDay(): Promise<number> {
    const [o] = await this.exec<{ billing_day: number }>(sql`select billing_day from operators where operator_id = ${CU}`);
    return o ? n(o.billing_day) : 26;
  }

  /**
   * The (plan, day) groups of the range with amounts, plan and zone names and alarm counts; `extra` narrows the cards
   * (a plan), `zone` the plan's first zone by a part of its name.
   */
  private grouped(actor: Actor, from: string, to: string, plan: number | undefined, zone: string | undefined): SQL {
    const tz = getBusinessTimeZone();
    const usage = sql`select u.day, c.goods_release_id, count(*) as cards, sum(u.bytes) as bytes, sum(u.sms) as sms,
        sum(u.voice_seconds) as voice_seconds, sum(u.sessions) as sessions
      from card_usage_daily u join cards c on c.iccid = u.iccid
      where u.operator_id = ${CU} and u.day >= ${from}::date and u.day <= ${to}::date and ${tenantOf(actor, 'u')}
        and c.goods_release_id is not null${plan !== undefined ? sql` and c.goods_release_id = ${plan}` : sql``}
      group by u.day, c.goods_release_id`;
    // alarms per plan and business day: events of China Unicom pools in the viewer's scope, for each plan the pool's members are on
    const alarms = sql`select pl.goods_release_id, (e.at at time zone ${tz})::date as day, count(*) as alarms
      from card_pool_events e join card_pools p on p.pool_id = e.pool_id
      join lateral (select distinct m.goods_release_id from cards m where m.pool_id = p.pool_id and m.goods_release_id is not null) pl on true
      where p.operator_id = ${CU} and ${tenantOf(actor, 'p')} and e.type in (${list(POOL_ALARM_TYPES)})
        and e.at >= ${new Date(businessDayStartMs(from)).toISOString()}::timestamptz and e.at < ${new Date(businessDayStartMs(addDay(to, 1))).toISOString()}::timestamptz
      group by 1, 2`;
    // a part of the name: the user's % and _ are letters, not wildcards
    const like = zone ? `%${zone.replace(/[\\%_]/g, '\\$&')}%` : '';
    const zoneWhere = zone ? sql` and (z.zone_name ilike ${like} or coalesce(z.zone_name_en, '') ilike ${like})` : sql``;
    return sql`select g.day::text as query_date, g.goods_release_id, bp.name as plan_name, bp.code as plan_code, bp.quota_mb,
        z.zone_name, z.zone_name_en, g.cards, g.bytes, g.sms, g.voice_seconds, g.sessions, coalesce(a.alarms, 0) as alarms
      from (${usage}) g join basic_plans bp on bp.goods_release_id = g.goods_release_id
      left join lateral (select zone_name, zone_name_en from plan_zones pz where pz.goods_release_id = g.goods_release_id order by pz.sort, pz.zone_id limit 1) z on true
      left join (${alarms}) a on a.goods_release_id = g.goods_release_id and a.day = g.day
      where true${zoneWhere}`;
  }

  private rowOut(r: Row, account: ServingAccount) {
    return {
      operAccountId: account.operAccountId, accountName: account.accountName, goodsReleaseId: n(r.goods_release_id),
      ratePlanName: String(r.plan_name), ratePlanCode: String(r.plan_code), quotaMb: n(r.quota_mb),
      zoneName: (r.zone_name as string | null) ?? null, zoneNameEn: (r.zone_name_en as string | null) ?? null, queryDate: String(r.query_date),
      ...amounts(r),
    };
  }

  async page(q: BodyOf<typeof api.getCustOperationPage>, actor: Actor) {
    const p = pageOf(q);
    const { from, to } = operationRange(q.startDate, q.endDate, businessToday());
    const account = await this.servingAccount();
    const zero = { cards: 0, bytes: 0, sms: 0, voiceSeconds: 0, sessions: 0, alarms: 0 };
    // another account of the operator serves no cards: nothing to sum
    if (q.operAccountId !== undefined && q.operAccountId !== account.operAccountId) {
      return { startDate: from, endDate: to, totals: zero, list: [], total: 0, current: p.current, pageSize: p.pageSize };
    }
    const g = this.grouped(actor, from, to, q.goodsReleaseId, q.zoneName?.trim() || undefined);
    const [rows, [tot]] = await Promise.all([
      this.exec(sql`select * from (${g}) r order by r.query_date desc, r.bytes desc, r.goods_release_id limit ${p.limit} offset ${p.offset}`),
      this.exec(sql`select count(*) as k, coalesce(sum(cards), 0) as cards, coalesce(sum(bytes), 0) as bytes, coalesce(sum(sms), 0) as sms,
        coalesce(sum(voice_seconds), 0) as voice_seconds, coalesce(sum(sessions), 0) as sessions, coalesce(sum(alarms), 0) as alarms from (${g}) t`),
    ]);
    return {
      startDate: from, endDate: to, totals: amounts(tot),
      list: rows.map((r) => this.rowOut(r, account)), total: n(tot.k), current: p.current, pageSize: p.pageSize,
    };
  }

  async options(actor: Actor) {
    const account = await this.servingAccount();
    const [accounts, plans] = await Promise.all([
      this.exec<{ oper_account_id: number; account_name: string }>(sql`select oper_account_id, account_name from operator_accounts
        where operator_id = ${CU} order by oper_account_id`),
      // the China Unicom plans the viewer's cards are on (an index walk of the viewer's cards, grouped)
      this.exec<{ goods_release_id: number; name: string; code: string }>(sql`select bp.goods_release_id, bp.name, bp.code from basic_plans bp
        where bp.operator_id = ${CU} and exists (select 1 from cards c where c.goods_release_id = bp.goods_release_id and ${tenantOf(actor, 'c')})
        order by bp.name, bp.goods_release_id`),
    ]);
    const list = accounts.map((a) => ({ operAccountId: n(a.oper_account_id), accountName: a.account_name, servesCards: n(a.oper_account_id) === account.operAccountId }));
    if (account.operAccountId === 0) list.unshift({ operAccountId: 0, accountName: account.accountName, servesCards: true });
    return { accounts: list, plans: plans.map((x) => ({ goodsReleaseId: n(x.goods_release_id), name: x.name, code: x.code })) };
  }

  /**
   * The plan a detail names: a China Unicom basic plan of that name with cards in the viewer's scope (names are not
   * unique: the lowest id). A wrong account, plan or zone name is "not found", as is a plan outside the viewer's cards.
   */
  private async detailKey(q: { accountName: string; ratePlanName: string; zoneName: string; queryDate: string }, actor: Actor) {
    const account = await this.servingAccount();
    if (q.accountName !== account.accountName) throw notFound();
    const [plan] = await this.exec<{ goods_release_id: number }>(sql`select bp.goods_release_id from basic_plans bp
      where bp.operator_id = ${CU} and bp.name = ${q.ratePlanName}
        and exists (select 1 from cards c where c.goods_release_id = bp.goods_release_id and ${tenantOf(actor, 'c')})
        and exists (select 1 from plan_zones pz where pz.goods_release_id = bp.goods_release_id and pz.zone_name = ${q.zoneName}
          and pz.zone_id = (select z1.zone_id from plan_zones z1 where z1.goods_release_id = bp.goods_release_id order by z1.sort, z1.zone_id limit 1))
      order by bp.goods_release_id limit 1`);
    if (!plan) throw notFound();
    return { account, planId: n(plan.goods_release_id) };
  }

  async detail(q: BodyOf<typeof api.getCustOperationDetail>, actor: Actor) {
    const { account, planId } = await this.detailKey(q, actor);
    const day = q.queryDate;
    const period = unicomPeriod(day, await this.billingDay());
    const [[row], [sums], alarms] = await Promise.all([
      this.exec(this.grouped(actor, day, day, planId, undefined)),
      this.exec(sql`select count(distinct u.iccid) as cards, coalesce(sum(u.bytes), 0) as bytes
        from card_usage_daily u join cards c on c.iccid = u.iccid
        where u.operator_id = ${CU} and u.day >= ${period.from}::date and u.day <= ${day}::date and ${tenantOf(actor, 'u')} and c.goods_release_id = ${planId}`),
      this.exec(sql`select e.event_id, e.pool_id, p.name as pool_name, e.type, e.at, e.used_bytes, e.quota_bytes, e.member_count, p.alert_percent
        from card_pool_events e join card_pools p on p.pool_id = e.pool_id
        where p.operator_id = ${CU} and ${tenantOf(actor, 'p')} and e.type in (${list(POOL_ALARM_TYPES)})
          and exists (select 1 from cards m where m.pool_id = p.pool_id and m.goods_release_id = ${planId})
          and e.at >= ${new Date(businessDayStartMs(period.from)).toISOString()}::timestamptz
          and e.at < ${new Date(businessDayStartMs(addDay(day, 1))).toISOString()}::timestamptz
        order by e.at desc, e.event_id desc limit ${CUST_OPERATION_ALARMS_MAX}`),
    ]);
    const [plan] = await this.exec<{ name: string; code: string; quota_mb: string; zone_name: string | null; zone_name_en: string | null }>(sql`
      select bp.name, bp.code, bp.quota_mb, z.zone_name, z.zone_name_en from basic_plans bp
      left join lateral (select zone_name, zone_name_en from plan_zones pz where pz.goods_release_id = bp.goods_release_id order by pz.sort, pz.zone_id limit 1) z on true
      where bp.goods_release_id = ${planId}`);
    // a day without usage still has a row (zeros): the detail is of the plan on that day
    const out = row ? this.rowOut(row, account) : this.rowOut({
      goods_release_id: planId, plan_name: plan.name, plan_code: plan.code, quota_mb: plan.quota_mb, zone_name: plan.zone_name,
      zone_name_en: plan.zone_name_en, query_date: day,
    }, account);
    const quotaBytes = Math.round(n(plan.quota_mb) * 1024 * 1024);
    return {
      row: out, periodFrom: period.from, periodTo: period.to, periodCards: n(sums.cards), periodBytes: n(sums.bytes),
      pooledQuotaBytes: quotaBytes * n(sums.cards),
      alarms: alarms.map((a) => ({
        eventId: n(a.event_id), poolId: n(a.pool_id), poolName: String(a.pool_name), type: n(a.type), at: new Date(a.at as string).toISOString(),
        usedBytes: a.used_bytes == null ? null : n(a.used_bytes), quotaBytes: a.quota_bytes == null ? null : n(a.quota_bytes),
        memberCount: a.member_count == null ? null : n(a.member_count), alertPercent: n(a.alert_percent),
      })),
    };
  }

  /** The day's cards of the plan, busiest first, with their usage of the period up to the day; pages by iccid order within bytes. */
  async cards(q: BodyOf<typeof api.getCustOperationCardPage>, actor: Actor) {
    const p = pageOf(q);
    const { planId } = await this.detailKey(q, actor);
    const day = q.queryDate;
    const period = unicomPeriod(day, await this.billingDay());
    const base = sql`from card_usage_daily u join cards c on c.iccid = u.iccid
      where u.operator_id = ${CU} and u.day = ${day}::date and ${tenantOf(actor, 'u')} and c.goods_release_id = ${planId}`;
    const [rows, [{ k }]] = await Promise.all([
      this.exec(sql`select u.iccid, c.msisdn, u.cust_id, cu.cust_name, u.bytes, u.sms, u.sessions,
          (select coalesce(sum(pd.bytes), 0) from card_usage_daily pd where pd.iccid = u.iccid and pd.day >= ${period.from}::date and pd.day <= ${day}::date) as period_bytes
        from card_usage_daily u join cards c on c.iccid = u.iccid left join customers cu on cu.cust_id = u.cust_id
        where u.operator_id = ${CU} and u.day = ${day}::date and ${tenantOf(actor, 'u')} and c.goods_release_id = ${planId}
        order by u.bytes desc, u.iccid limit ${p.limit} offset ${p.offset}`),
      this.exec<{ k: string }>(sql`select count(*) as k ${base}`),
    ]);
    return {
      list: rows.map((r) => ({
        iccid: String(r.iccid), msisdn: (r.msisdn as string | null) ?? null, custId: r.cust_id == null ? null : n(r.cust_id),
        custName: (r.cust_name as string | null) ?? null, bytes: n(r.bytes), sms: n(r.sms), sessions: n(r.sessions), periodBytes: n(r.period_bytes),
      })),
      total: n(k), current: p.current, pageSize: p.pageSize,
    };
  }
}

const amounts = (r: Row) => ({
  cards: n(r.cards), bytes: n(r.bytes), sms: n(r.sms), voiceSeconds: n(r.voice_seconds), sessions: n(r.sessions), alarms: n(r.alarms),
});
