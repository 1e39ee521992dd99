// The card list filters behind the Home overview's numbers (issue 12; contract: home.HomeCardFilters). The overview
// counts cards with exactly these predicates, so a number and the list it opens always agree. Each predicate is on
// `cards`; the card's own tenant filter is the caller's (the card list's where(), the overview's scope).
import { and, eq, gte, sql, type SQL } from 'drizzle-orm';
import { batch, home, pool, type BodyOf, type carddata, businessDayStart } from '@lynx/contract';
import type { Db } from '../../db/client.ts';
import { tenantFilter, type Actor } from '../../platform/context.ts';
import { rows } from '../usage/usage-write.ts';
import { cards } from '../card/card-tables.ts';
import { cardBatches, cardBatchItems } from '../card/batch/tables.ts';
import { cardPools, cardPoolEvents } from '../pool/pool-tables.ts';
import { cardQuotaExhaustions } from '../usage/usage-tables.ts';
import { cardChangeFailures } from '../network/opconfig/tables.ts';
import { quotaLevelCondition } from './quota-levels.ts';

type Filters = Pick<BodyOf<typeof carddata.getSimListPage>, keyof typeof home.HomeCardFilters>;

/** Pool events that are alerts: the threshold reached and the blocks (unblocks are their resolution). */
export const POOL_ALERT_EVENTS = [pool.PoolEventType.ThresholdReached, pool.PoolEventType.QuotaBlocked, pool.PoolEventType.ManualBlocked] as const;

/** The start of a China day as an instant. */

const poolTenant = (actor: Actor) => tenantFilter(actor, { custId: cardPools.custId, rootCustId: cardPools.rootCustId });
const batchTenant = (actor: Actor) => tenantFilter(actor, { custId: cardBatches.custId, rootCustId: cardBatches.rootCustId });

/** The pools (that the caller may see) with a threshold or block event since `from`. */
const alertPools = (actor: Actor, at: string) => sql`
  select e.pool_id from ${cardPoolEvents} e join ${cardPools} on ${cardPools.poolId} = e.pool_id
  where e.type in (${sql.join(POOL_ALERT_EVENTS.map((t) => sql`${t}`), sql`, `)}) and e.at >= ${at}::timestamptz and ${poolTenant(actor)}`;

/** Those pools' ids, looked up before a card list query (see alertCardsCondition). */
export async function alertPoolIds(db: Db, actor: Actor, from: Date): Promise<number[]> {
  const list = rows<{ pool_id: number }>(await db.execute(alertPools(actor, from.toISOString())));
  return [...new Set(list.map((r) => Number(r.pool_id)))];
}

/**
 * Cards a recent alert is about: cards of a pool (that the caller may see) with a threshold or block event since
 * `from`, cards whose quota ran out since then, and cards an operator refused a change for since then.
 * With `poolIds` looked up first (the card list): without alerted pools the few alerted cards are joined by key
 * (a semi-join), with them the pools' cards are matched by their pool id; without (the overview's one-pass count)
 * both sets are subqueries probed per card.
 */
export function alertCardsCondition(actor: Actor, from: Date, poolIds?: number[]): SQL {
  const at = from.toISOString();
  const alertedCards = sql`${cards.iccid} in (
    select x.iccid from ${cardQuotaExhaustions} x where x.exhausted_at >= ${at}::timestamptz
    union all select f.iccid from ${cardChangeFailures} f where f.created_at >= ${at}::timestamptz)`;
  if (poolIds === undefined) return sql`(${cards.poolId} in (${alertPools(actor, at)}) or ${alertedCards})`;
  if (poolIds.length === 0) return alertedCards;
  return sql`(${cards.poolId} = any(${sql.param(poolIds)}::int[]) or ${alertedCards})`;
}

/** Cards with a failed item in a batch (that the caller may see) created since `from`, or in one given batch. */
export function batchFailedCondition(actor: Actor, opts: { from?: Date; batchId?: string }): SQL {
  const which = and(
    opts.from ? gte(cardBatches.createdAt, opts.from) : undefined,
    opts.batchId ? eq(cardBatches.batchId, opts.batchId) : undefined,
  );
  return sql`${cards.iccid} in (
    select ${cardBatchItems.iccid} from ${cardBatchItems} join ${cardBatches} on ${cardBatches.batchId} = ${cardBatchItems.batchId}
    where ${cardBatchItems.status} = ${batch.BatchItemStatus.Failed} and ${which} and ${batchTenant(actor)})`;
}

/** What a card list query looks up before it runs (resolveHomeFilters). */
export interface HomeFilterFacts {
  alertPoolIds?: number[];
}

/** Looks up what the filters' best plan depends on (the alerted pools), in one small query; nothing when unused. */
export async function resolveHomeFilters(db: Db, q: Filters, actor: Actor): Promise<HomeFilterFacts> {
  return q.alertsFrom ? { alertPoolIds: await alertPoolIds(db, actor, businessDayStart(q.alertsFrom)) } : {};
}

/** The overview's filters of a card list query, as predicates on `cards`. */
export function homeCardConditions(q: Filters, actor: Actor, facts: HomeFilterFacts = {}): SQL[] {
  const w: SQL[] = [];
  if (q.quotaLevel) w.push(quotaLevelCondition(q.quotaLevel));
  if (q.alertsFrom) w.push(alertCardsCondition(actor, businessDayStart(q.alertsFrom), facts.alertPoolIds));
  if (q.batchFailedFrom) w.push(batchFailedCondition(actor, { from: businessDayStart(q.batchFailedFrom) }));
  if (q.failedBatchId) w.push(batchFailedCondition(actor, { batchId: q.failedBatchId }));
  return w;
}
