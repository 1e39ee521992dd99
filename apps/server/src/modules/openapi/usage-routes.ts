import type { FastifyInstance } from 'fastify';
import { sql, type SQL } from 'drizzle-orm';
import { apiservice as api, businessDay, type BodyOf, type Lang } from '@lynx/contract';
import { bind } from '../../platform/http.ts';
import type { AppDeps } from '../../app.ts';
import { FieldError } from '../../platform/errors.ts';
import { isStaff, type Actor, type SessionContext } from '../../platform/context.ts';
import { pageOf } from '../../platform/paging.ts';

type CustomerFor = (ctx: Pick<SessionContext, 'actor' | 'lang'>, custId: number | undefined) => Promise<{ custId: number }>;
type UsageQuery = BodyOf<typeof api.getApiUsagePage>;

const { API_USAGE_MAX_DAYS } = api;
const DAY_MS = 86_400_000;
const DEFAULT_DAYS = 30;
const rowsOf = <T>(r: unknown): T[] => ((r as { rows?: T[] }).rows ?? (r as T[]));
const dayNumber = (day: string) => Date.parse(`${day}T00:00:00Z`) / DAY_MS;
const dayOf = (n: number) => new Date(n * DAY_MS).toISOString().slice(0, 10);

/** The days asked for: the last 30 business days unless told; at most API_USAGE_MAX_DAYS; start not after end. */
export function usageRange(q: { startDay?: string; endDay?: string }, now = Date.now()): { startDay: string; endDay: string } {
  const valid = (field: string, day: string | undefined) => {
    if (day !== undefined && (Number.isNaN(dayNumber(day)) || dayOf(dayNumber(day)) !== day)) {
      throw new FieldError(field, { zh: '不是有效的日期', en: 'is not a valid date' });
    }
  };
  valid('startDay', q.startDay);
  valid('endDay', q.endDay);
  const endDay = q.endDay ?? businessDay(now);
  const startDay = q.startDay ?? dayOf(dayNumber(endDay) - (DEFAULT_DAYS - 1));
  const span = dayNumber(endDay) - dayNumber(startDay) + 1;
  if (span < 1) throw new FieldError('endDay', { zh: '结束日期不能早于开始日期', en: 'must not be before the start date' });
  if (span > API_USAGE_MAX_DAYS) {
    throw new FieldError('endDay', { zh: `查询范围最多 ${API_USAGE_MAX_DAYS} 天`, en: `the range may span at most ${API_USAGE_MAX_DAYS} days` });
  }
  return { startDay, endDay };
}

/** Open API usage per key and day (counted by signed-calls.ts), for the API manager and its export. */
export function usageRoutes(app: FastifyInstance, deps: AppDeps, customerFor: CustomerFor) {
  const { db } = deps;

  const page = async (q: UsageQuery, actor: Actor, lang: Lang) => {
    const p = pageOf(q);
    const { startDay, endDay } = usageRange(q);
    // like the whitelist: a named customer (or a customer's own) — staff without one see every customer
    const scope: SQL = q.custId !== undefined || !isStaff(actor)
      ? sql`u.cust_id = ${(await customerFor({ actor, lang }, q.custId)).custId}`
      : sql`true`;
    const where = sql`${scope} and u.day between ${startDay}::date and ${endDay}::date`;
    await deps.signedCalls.usage.flush();
    const [rows, [agg]] = await Promise.all([
      db.execute(sql`
        select to_char(u.day, 'YYYY-MM-DD') as day, u.cust_id, c.cust_name, u.app_key, u.calls, u.errors, u.refused
          from api_usage_daily u join customers c on c.cust_id = u.cust_id
         where ${where}
         order by u.day desc, c.cust_name, u.app_key
         limit ${p.limit} offset ${p.offset}`).then((r) => rowsOf<{ day: string; cust_id: number; cust_name: string; app_key: string; calls: number; errors: number; refused: number }>(r)),
      db.execute(sql`
        select count(*)::int as n, coalesce(sum(u.calls), 0)::int as calls, coalesce(sum(u.errors), 0)::int as errors, coalesce(sum(u.refused), 0)::int as refused
          from api_usage_daily u where ${where}`).then((r) => rowsOf<{ n: number; calls: number; errors: number; refused: number }>(r)),
    ]);
    return {
      list: rows.map((r) => ({ day: r.day, custId: r.cust_id, custName: r.cust_name, appKey: r.app_key, calls: r.calls, errors: r.errors, refused: r.refused })),
      total: agg.n, current: p.current, pageSize: p.pageSize,
      sum: { calls: agg.calls, errors: agg.errors, refused: agg.refused },
      startDay, endDay,
    };
  };

  bind(app, deps, api.getApiUsagePage, (q, ctx) => page(q, ctx.actor, ctx.lang));

  deps.exports.register(api.getApiUsagePage, {
    title: { zh: '开放 API 用量', en: 'Open API usage' },
    filters: {
      startDay: { title: { zh: '日期', en: 'Day' }, kind: 'date', to: 'endDay' },
      endDay: { title: { zh: '', en: '' }, hidden: true },
    },
    page: (q, actor) => page(q, actor, 'en'),
    columns: [
      { key: 'day', title: { zh: '日期', en: 'Day' } },
      { key: 'custName', title: { zh: '客户', en: 'Customer' } },
      { key: 'appKey', title: { zh: 'AppKey', en: 'AppKey' } },
      { key: 'calls', title: { zh: '调用次数', en: 'Calls' }, type: 'number' },
      { key: 'errors', title: { zh: '错误次数', en: 'Errors' }, type: 'number' },
      { key: 'refused', title: { zh: '拒绝次数', en: 'Refused' }, type: 'number' },
    ],
  });
}
