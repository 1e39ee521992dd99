// The "pool-usage" rule (docs/pools.md): counts a pool's quota and usage in its current cycle and blocks or
// unblocks it. A pool's cycle is its operator's billing period (China Unicom's starts on the 26th); its quota the
// sum of its members' basic plan quotas; its usage the sum of their daily usage over the cycle's China days. Each
// check runs in one transaction with the pool row locked, so two checks at once (two processes, the feed's check
// and a user's refresh) record every event once.
import { and, eq, inArray, sql } from 'drizzle-orm';
import { pool as api } from '@lynx/contract';
import type { Db, Executor, Tx } from '../../db/client.ts';
import { operators } from '../account/tables.ts';
import { rows } from '../usage/usage-write.ts';
import { MB } from '../usage/usage-plans.ts';
import { billingPeriod, businessDay } from '../usage/usage-time.ts';
import { cardPoolEvents, cardPools } from './pool-tables.ts';
import { POOL_JOIN_REFUSED_STATES } from './pool-members.ts';

const { PoolState, PoolExhaustAction, PoolEventType } = api;
export type PoolRow = typeof cardPools.$inferSelect;

/** The actor of the rule's events and of its blocks (card_pools.blocked_by). */
export const POOL_RULE = 'pool-usage';
export const POOL_CHECK_QUEUE = 'pool-usage-check';

export interface PoolMeasure {
  cycle: { start: Date; end: Date };
  members: number;
  quotaBytes: number;
  usedBytes: number;
}

/** The SQL of a card's quota contribution: its basic plan's quota in bytes, null without one. */
export const planQuotaBytesSql = (quotaMb: unknown) => sql`case when ${quotaMb} > 0 then round(${quotaMb} * ${MB})::bigint end`;

/** The pool's cycle at `now`: its operator's billing period. */
export async function poolCycle(ex: Executor, operatorId: number, now: Date): Promise<{ start: Date; end: Date }> {
  const [op] = await ex.select({ billingDay: operators.billingDay }).from(operators).where(eq(operators.operatorId, operatorId));
  return billingPeriod(now.getTime(), op?.billingDay ?? 1);
}

/** The China days of a cycle (a cycle starting within a day counts that whole day). */
export const cycleDayRange = (c: { start: Date; end: Date }) => ({ from: businessDay(c.start.getTime()), to: businessDay(c.end.getTime() - 1) });

/**
 * Members, quota and usage of a pool in its cycle at `now`: two statements over the pool's cards (partial index). A
 * member that has since been invalidated or retired stays in the pool until it is removed, but adds no quota.
 */
export async function measurePool(ex: Executor, pool: Pick<PoolRow, 'poolId' | 'operatorId'>, now: Date): Promise<PoolMeasure> {
  const cycle = await poolCycle(ex, pool.operatorId, now);
  const days = cycleDayRange(cycle);
  const [q] = rows<{ members: number; quota: string | number }>(await ex.execute(sql`
    select count(*)::int as members,
      coalesce(sum(case when c.state <> all(${sql.param([...POOL_JOIN_REFUSED_STATES])}::smallint[]) then ${planQuotaBytesSql(sql`b.quota_mb`)} end), 0) as quota
    from cards c left join basic_plans b on b.goods_release_id = c.goods_release_id
    where c.pool_id = ${pool.poolId}`));
  const [u] = rows<{ used: string | number }>(await ex.execute(sql`
    select coalesce(sum(d.bytes), 0) as used
    from cards c join card_usage_daily d on d.iccid = c.iccid and d.day >= ${days.from}::date and d.day <= ${days.to}::date
    where c.pool_id = ${pool.poolId}`));
  return { cycle, members: Number(q.members), quotaBytes: Number(q.quota), usedBytes: Number(u.used) };
}

export interface PoolEventInput {
  type: number;
  reason?: string | null;
  actor: string;
}

/** Records events with the pool's numbers as measured. */
export async function recordPoolEvents(ex: Executor, poolId: number, m: PoolMeasure, events: PoolEventInput[], at: Date): Promise<void> {
  if (!events.length) return;
  await ex.insert(cardPoolEvents).values(events.map((e) => ({
    poolId, type: e.type, usedBytes: m.usedBytes, quotaBytes: m.quotaBytes, memberCount: m.members, reason: e.reason ?? null, actor: e.actor, at,
  })));
}

/** The snapshot columns of a measure. */
export const snapshotOf = (m: PoolMeasure, now: Date) => ({
  cycleStart: m.cycle.start, cycleEnd: m.cycle.end, quotaBytes: m.quotaBytes, usedBytes: m.usedBytes, memberCount: m.members, usageCheckedAt: now,
});

/**
 * The rule on one pool, inside `tx` (the pool row is locked here; a caller that already holds the lock, such as a
 * join batch's chunk, passes its own transaction). Answers the pool after the check, or null when it is gone.
 *  - a block by the rule ends when a new cycle begins (CycleUnblocked), or when the quota is back at or above the
 *    usage or the action is no longer "block" (QuotaUnblocked); a manual block is never lifted here;
 *  - the threshold alert is recorded once per cycle when usage reaches alert_percent of a non-zero quota;
 *  - usage above the quota with the action "block" blocks a normal pool (QuotaBlocked).
 */
export async function checkPoolIn(tx: Tx, poolId: number, now: Date): Promise<PoolRow | null> {
  const [pool] = await tx.select().from(cardPools).where(eq(cardPools.poolId, poolId)).for('update');
  if (!pool) return null;
  // a check that waited for the lock while a later one ran (e.g. across a cycle start) must not undo it
  if (pool.usageCheckedAt && pool.usageCheckedAt.getTime() > now.getTime()) return pool;
  const m = await measurePool(tx, pool, now);
  const events: PoolEventInput[] = [];
  let state = pool.state;
  let blockedAt = pool.blockedAt;
  let blockedBy = pool.blockedBy;
  let alerted = pool.alertedCycleStart;
  const byRule = state === PoolState.Blocked && blockedBy === POOL_RULE;
  if (byRule && blockedAt! < m.cycle.start) {
    events.push({ type: PoolEventType.CycleUnblocked, actor: POOL_RULE });
    state = PoolState.Normal;
  } else if (byRule && (m.usedBytes <= m.quotaBytes || m.quotaBytes === 0 || pool.exhaustAction !== PoolExhaustAction.Block)) {
    // (the event type says why; the used / quota columns of the event show the numbers)
    events.push({ type: PoolEventType.QuotaUnblocked, actor: POOL_RULE });
    state = PoolState.Normal;
  }
  if (state === PoolState.Normal) {
    blockedAt = null;
    blockedBy = null;
  }
  if (m.quotaBytes > 0 && m.usedBytes * 100 >= m.quotaBytes * pool.alertPercent && alerted?.getTime() !== m.cycle.start.getTime()) {
    events.push({ type: PoolEventType.ThresholdReached, actor: POOL_RULE, reason: `${pool.alertPercent}%` });
    alerted = m.cycle.start;
  }
  // a pool without any quota (its members' plans have none) is never blocked for use-up
  if (state === PoolState.Normal && m.quotaBytes > 0 && m.usedBytes > m.quotaBytes && pool.exhaustAction === PoolExhaustAction.Block) {
    events.push({ type: PoolEventType.QuotaBlocked, actor: POOL_RULE });
    state = PoolState.Blocked;
    blockedAt = now;
    blockedBy = POOL_RULE;
  }
  await recordPoolEvents(tx, poolId, m, events, now);
  const [after] = await tx
    .update(cardPools)
    .set({ ...snapshotOf(m, now), state, blockedAt, blockedBy, alertedCycleStart: alerted, ...(events.length ? { updatedAt: now } : {}) })
    .where(eq(cardPools.poolId, poolId))
    .returning();
  return after;
}

/** The rule on one pool in its own transaction. */
export function checkPool(deps: { db: Db }, poolId: number, now = new Date()): Promise<PoolRow | null> {
  return deps.db.transaction((tx) => checkPoolIn(tx, poolId, now));
}

/**
 * The rule on every pool with members or a block: after each usage feed run that brought new usage (every 5 minutes
 * by default), and every 15 minutes on its own (cycle starts while no usage comes). One failing pool
 * is logged and the others go on; the embedded database runs in this thread, so it yields between pools.
 */
export async function checkAllPools(
  deps: { db: Db }, opts: { now?: Date; log?: (err: unknown, poolId: number) => void } = {},
): Promise<{ checked: number; failed: number }> {
  const ids = await deps.db
    .select({ id: cardPools.poolId })
    .from(cardPools)
    .where(sql`${cardPools.memberCount} > 0 or ${cardPools.state} = ${PoolState.Blocked} or ${cardPools.usedBytes} > 0`)
    .orderBy(cardPools.poolId);
  let checked = 0;
  let failed = 0;
  for (const { id } of ids) {
    try {
      await checkPool(deps, id, opts.now ?? new Date());
      checked++;
    } catch (err) {
      failed++;
      opts.log?.(err, id);
    }
    await new Promise((resolve) => setImmediate(resolve));
  }
  return { checked, failed };
}

/**
 * When the network bars member cards of blocked pools (the usage feed leaves these times out): from the block, or
 * from the card's joining when later; a block by the rule ends with its cycle (the rule records the unblock on its
 * next check), a manual block lasts until someone lifts it. One query for a chunk of cards, none without members.
 */
export async function poolBars(
  ex: Executor, chunk: { iccid: string; poolId: number | null; poolJoinedAt: Date | null }[], billingDayOf: (operatorId: number) => number,
): Promise<Map<string, { from: number; to: number }>> {
  const ids = [...new Set(chunk.map((c) => c.poolId).filter((v): v is number => v != null))];
  const out = new Map<string, { from: number; to: number }>();
  if (!ids.length) return out;
  const blocked = await ex
    .select({ poolId: cardPools.poolId, blockedAt: cardPools.blockedAt, blockedBy: cardPools.blockedBy, operatorId: cardPools.operatorId })
    .from(cardPools)
    .where(and(inArray(cardPools.poolId, ids), eq(cardPools.state, PoolState.Blocked)));
  const byPool = new Map(blocked.map((p) => [p.poolId, p]));
  for (const c of chunk) {
    const p = c.poolId != null ? byPool.get(c.poolId) : undefined;
    if (!p?.blockedAt) continue;
    const from = Math.max(p.blockedAt.getTime(), c.poolJoinedAt?.getTime() ?? 0);
    const to = p.blockedBy === POOL_RULE ? billingPeriod(p.blockedAt.getTime(), billingDayOf(p.operatorId)).end.getTime() : Infinity;
    if (to > from) out.set(c.iccid, { from, to });
  }
  return out;
}
