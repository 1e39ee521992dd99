// Fleet health for the Home overview (issue 12): active cards, online now, near / over quota, recent alerts and recent
// batch failures in the caller's tenant (staff: the platform; a channel customer: its tree; a second-level customer:
// itself). The card numbers are one pass over the tenant's cards with the card list's own filter predicates
// (card-filters.ts), so each number equals the total of the card list it opens.
import { and, desc, gte, gt, sql } from 'drizzle-orm';
import { CardState, home, businessDayStart } from '@lynx/contract';
import type { Db } from '../../db/client.ts';
import { isChannel, isStaff, tenantFilter, type Actor } from '../../platform/context.ts';
import { iso } from '../../platform/paging.ts';
import { cards } from '../card/card-tables.ts';
import { cardBatches } from '../card/batch/tables.ts';
import { cardPools } from '../pool/pool-tables.ts';
import { businessDay } from '../usage/usage-time.ts';
import { rows } from '../usage/usage-write.ts';
import { POOL_ALERT_EVENTS, alertCardsCondition, batchFailedCondition } from './card-filters.ts';
import { quotaCountedAt, quotaLevelCondition } from './quota-levels.ts';

const { FleetScope, HomeAlertKind, HOME_RECENT_DAYS, HOME_RECENT_LIMIT } = home;
const DAY_MS = 86_400_000;
const n = (v: unknown) => Number(v ?? 0);
const cardTenant = (actor: Actor) => tenantFilter(actor, { custId: cards.custId, rootCustId: cards.rootCustId });

/** The first China day of the overview's recent window (today and the 6 days before). */
export const recentSince = (now: number) => businessDay(now - (HOME_RECENT_DAYS - 1) * DAY_MS);

interface AlertRow {
  kind: number;
  at: Date | string;
  pool_id: number | null;
  pool_name: string | null;
  iccid: string | null;
  used_bytes: string | number | null;
  quota_bytes: string | number | null;
  reason: string | null;
  change_type: number | null;
  total: string | number;
}

export class FleetHealthService {
  constructor(private db: Db) {}

  async health(actor: Actor, now = Date.now()) {
    const since = recentSince(now);
    const from = businessDayStart(since);
    const [counts, countedAt, alerts, batches] = await Promise.all([
      this.cardCounts(actor, from), quotaCountedAt(), this.recentAlerts(actor, from), this.recentBatchFailures(actor, from),
    ]);
    return {
      scope: isStaff(actor) ? FleetScope.Platform : isChannel(actor) ? FleetScope.Tree : FleetScope.Customer,
      activeCards: counts.active, onlineNow: counts.online, nearQuota: counts.near, overQuota: counts.over,
      quotaCountedAt: iso(countedAt), since,
      alerts: { cards: counts.alerted, events: alerts.total, list: alerts.list },
      batchFailures: { cards: counts.failed, batches: batches.total, list: batches.list },
    };
  }

  /** Every card number in one pass over the tenant's cards (the sets behind the filters are hashed once). */
  private async cardCounts(actor: Actor, from: Date) {
    const [r] = await this.db
      .select({
        active: sql<string>`count(*) filter (where ${cards.state} = ${CardState.Activated})`,
        online: sql<string>`count(*) filter (where ${cards.online})`,
        near: sql<string>`count(*) filter (where ${quotaLevelCondition('near')})`,
        over: sql<string>`count(*) filter (where ${quotaLevelCondition('over')})`,
        alerted: sql<string>`count(*) filter (where ${alertCardsCondition(actor, from)})`,
        failed: sql<string>`count(*) filter (where ${batchFailedCondition(actor, { from })})`,
      })
      .from(cards)
      .where(cardTenant(actor));
    return { active: n(r?.active), online: n(r?.online), near: n(r?.near), over: n(r?.over), alerted: n(r?.alerted), failed: n(r?.failed) };
  }

  /** The latest alerts of the window, newest first, with how many there are in all. */
  private async recentAlerts(actor: Actor, from: Date) {
    const at = from.toISOString();
    const kindOfPoolEvent = sql`case e.type when ${POOL_ALERT_EVENTS[0]} then ${HomeAlertKind.PoolThreshold} when ${POOL_ALERT_EVENTS[1]} then ${HomeAlertKind.PoolQuotaBlocked} else ${HomeAlertKind.PoolManualBlocked} end`;
    const list = rows<AlertRow>(await this.db.execute(sql`
      with ev as (
        select ${kindOfPoolEvent} as kind, e.at, e.pool_id, ${cardPools.name} as pool_name, null::text as iccid, e.used_bytes, e.quota_bytes, null::text as reason, null::int as change_type
        from card_pool_events e join ${cardPools} on ${cardPools.poolId} = e.pool_id
        where e.type in (${sql.join(POOL_ALERT_EVENTS.map((t) => sql`${t}`), sql`, `)}) and e.at >= ${at}::timestamptz
          and ${tenantFilter(actor, { custId: cardPools.custId, rootCustId: cardPools.rootCustId })}
        union all
        select ${HomeAlertKind.CardQuotaUsedUp}, x.exhausted_at, null, null, x.iccid, x.used_bytes, x.quota_bytes, null, null
        from card_quota_exhaustions x join ${cards} on ${cards.iccid} = x.iccid
        where x.exhausted_at >= ${at}::timestamptz and ${cardTenant(actor)}
        union all
        select ${HomeAlertKind.OperatorRefused}, f.created_at, null, null, f.iccid, null, null, f.failure_reason, f.change_type::int
        from card_change_failures f join ${cards} on ${cards.iccid} = f.iccid
        where f.created_at >= ${at}::timestamptz and ${cardTenant(actor)}
      )
      select ev.*, count(*) over () as total from ev order by at desc, kind, iccid limit ${HOME_RECENT_LIMIT}`));
    return {
      total: n(list[0]?.total),
      list: list.map((r) => ({
        kind: n(r.kind), at: new Date(r.at).toISOString(), poolId: r.pool_id, poolName: r.pool_name, iccid: r.iccid,
        usedBytes: r.used_bytes == null ? null : n(r.used_bytes), quotaBytes: r.quota_bytes == null ? null : n(r.quota_bytes), reason: r.reason,
        changeType: r.change_type == null ? null : n(r.change_type),
      })),
    };
  }

  /** The latest batches of the window with failed cards, newest first, with how many there are in all. */
  private async recentBatchFailures(actor: Actor, from: Date) {
    const list = await this.db
      .select({
        batchId: cardBatches.batchId, type: cardBatches.type, state: cardBatches.state, createdBy: cardBatches.createdBy,
        createdAt: cardBatches.createdAt, finishedAt: cardBatches.finishedAt, validCount: cardBatches.validCount,
        failedCount: cardBatches.failedCount, total: sql<string>`count(*) over ()`,
      })
      .from(cardBatches)
      .where(and(tenantFilter(actor, { custId: cardBatches.custId, rootCustId: cardBatches.rootCustId }), gte(cardBatches.createdAt, from), gt(cardBatches.failedCount, 0)))
      .orderBy(desc(cardBatches.createdAt))
      .limit(HOME_RECENT_LIMIT);
    return {
      total: n(list[0]?.total),
      list: list.map(({ total: _t, ...b }) => ({ ...b, createdAt: b.createdAt.toISOString(), finishedAt: iso(b.finishedAt) })),
    };
  }
}
