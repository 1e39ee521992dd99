// Quota of a card's cycle and the plan's action after use-up (spec §3, §4): when the usage of the current cycle
// passes the plan's quota (plus the event packs running in it), the feed applies the plan's action once per card
// and cycle through the card lifecycle engine — "enter next status immediately" deactivates the card, "block until
// cycle end" blocks the plan's zones until the next cycle (or until an event pack lifts the quota again).
import { and, eq, gt, isNull, or, sql } from 'drizzle-orm';
import { CardChangeSource, CardState, ErrorCode, PlanUseUpAction, formatSize, type Bilingual } from '@lynx/contract';
import type { Db, Executor } from '../../db/client.ts';
import type { Config } from '../../config.ts';
import { AppError } from '../../platform/errors.ts';
import { applyCardAction, type CardActor } from '../card/lifecycle/card-service.ts';
import { cardZoneBlocks } from '../card/card-tables.ts';
import { cardQuotaExhaustions } from './usage-tables.ts';
import { MB, type UsageOperator, type UsagePlan } from './usage-plans.ts';
import { billingPeriod, businessDay } from './usage-time.ts';
import { anyIccid, rows } from './usage-write.ts';

/** The system actor of use-up actions: recorded in the card's history and on the zone blocks it sets. */
export const QUOTA_ACTOR = 'usage-quota';
const SYSTEM: CardActor = { kind: 'system', source: CardChangeSource.Rule, actor: QUOTA_ACTOR };

export interface UsageDeps {
  db: Db;
  config: Pick<Config, 'secretKey' | 'dataDir'>;
}

export interface QuotaCard {
  iccid: string;
  state: number;
  operatorId: number;
  goodsReleaseId: number | null;
  cycleStartAt: Date | null;
  cycleEndAt: Date | null;
  updatedAt: Date;
  /** the data pool the card is in: the pool's rule applies instead of the plan's use-up action (modules/pool) */
  poolId?: number | null;
}

export interface Cycle {
  start: Date;
  end: Date;
  /** true: the card's contract cycle; false: the operator's billing period (no contract yet) */
  contract: boolean;
}

/** The cycle a card is in at `at`: its contract cycle, else the operator's billing period. */
export function cycleOf(card: Pick<QuotaCard, 'cycleStartAt' | 'cycleEndAt'>, billingDay: number, at: number): Cycle {
  const s = card.cycleStartAt?.getTime();
  const e = card.cycleEndAt?.getTime();
  if (s !== undefined && e !== undefined && s <= at && at < e) return { start: card.cycleStartAt!, end: card.cycleEndAt!, contract: true };
  return { ...billingPeriod(at, billingDay), contract: false };
}

/** The China days a cycle covers: a cycle starting within a day counts that whole day. */
export const cycleDays = (c: Cycle): { from: string; to: string } => ({ from: businessDay(c.start.getTime()), to: businessDay(c.end.getTime() - 1) });

/** Bytes the event packs running at `at` add to each card's quota. */
export async function packQuotas(ex: Executor, iccids: string[], at: Date): Promise<Map<string, number>> {
  if (iccids.length === 0) return new Map();
  const list = rows<{ iccid: string; mb: string | number }>(await ex.execute(sql`
    select p.iccid, sum(b.quota_mb) as mb
    from card_event_packs p join basic_plans b on b.goods_release_id = p.pack_id
    where p.iccid = any(${sql.param(iccids)}::text[]) and p.starts_at <= ${at.toISOString()}::timestamptz and p.ends_at > ${at.toISOString()}::timestamptz
    group by p.iccid`));
  return new Map(list.map((r) => [r.iccid, Math.round(Number(r.mb) * MB)]));
}

/** The bytes each card used in its cycle's days (one indexed range per card). */
export async function cycleUsage(ex: Executor, items: { iccid: string; from: string; to: string }[]): Promise<Map<string, number>> {
  if (items.length === 0) return new Map();
  const min = items.reduce((m, i) => (i.from < m ? i.from : m), items[0].from);
  const max = items.reduce((m, i) => (i.to > m ? i.to : m), items[0].to);
  const list = rows<{ iccid: string; bytes: string | number }>(await ex.execute(sql`
    select d.iccid, sum(d.bytes) as bytes
    from card_usage_daily d
    join unnest(${sql.param(items.map((i) => i.iccid))}::text[], ${sql.param(items.map((i) => i.from))}::date[], ${sql.param(items.map((i) => i.to))}::date[])
      as u (iccid, from_day, to_day) on d.iccid = u.iccid and d.day >= u.from_day and d.day <= u.to_day
    where d.day >= ${min}::date and d.day <= ${max}::date
    group by d.iccid`));
  return new Map(list.map((r) => [r.iccid, Number(r.bytes)]));
}

/** Quota of each card's cycle in bytes (plan plus running event packs); cards without a quota are left out. */
export async function quotasOf(ex: Executor, cards: QuotaCard[], plans: Map<number, UsagePlan>, at: Date): Promise<Map<string, number>> {
  const withQuota = cards.filter((c) => c.goodsReleaseId != null && plans.get(c.goodsReleaseId)?.quotaBytes != null);
  const packs = await packQuotas(ex, withQuota.map((c) => c.iccid), at);
  return new Map(withQuota.map((c) => [c.iccid, plans.get(c.goodsReleaseId!)!.quotaBytes! + (packs.get(c.iccid) ?? 0)]));
}

const noteOf = (used: number, quota: number): Bilingual => ({
  zh: `流量用尽：本周期已用 ${formatSize(used)}，额度 ${formatSize(quota)}`,
  en: `quota used up: ${formatSize(used)} of ${formatSize(quota)} this cycle`,
});
const EVENT_PACK_LIFTED: Bilingual = { zh: '加油包增加了额度', en: 'an event pack raised the quota' };
const NEW_CYCLE: Bilingual = { zh: '新周期开始', en: 'a new cycle began' };
const failureOf = (e: unknown) => (e instanceof AppError ? `${e.code}: ${e.message_('en')}` : String((e as Error)?.message ?? e)).slice(0, 500);

/** When a system action happens: the end of the window, not before the card's last change, never in the future. */
const actionTime = (card: QuotaCard, at: Date) => new Date(Math.min(Date.now(), Math.max(at.getTime(), card.updatedAt.getTime())));

/**
 * Applies the plan's action after use-up to the active cards of this chunk whose cycle usage passed the quota
 * (cards in a data pool share the pool's quota: the pool's rule applies to them instead, modules/pool).
 * Each card is done in its own transaction that first records the exhaustion (primary key card + cycle), so the
 * action happens once per card and cycle even with two feed processes; a refusal by the lifecycle engine is
 * recorded on the exhaustion. Returns the cards acted on.
 */
export async function applyUseUpActions(
  deps: UsageDeps, cards: QuotaCard[], plans: Map<number, UsagePlan>, operators: Map<number, UsageOperator>, at: Date,
): Promise<string[]> {
  const acting = cards.filter((c) => {
    const plan = c.goodsReleaseId != null ? plans.get(c.goodsReleaseId) : undefined;
    return c.state === CardState.Activated && c.poolId == null && plan?.quotaBytes != null
      && (plan.useUpAction === PlanUseUpAction.NextStatus || plan.useUpAction === PlanUseUpAction.BlockUntilCycleEnd);
  });
  if (acting.length === 0) return [];
  const cycles = new Map(acting.map((c) => [c.iccid, cycleOf(c, operators.get(c.operatorId)?.billingDay ?? 1, at.getTime())]));
  const done = await deps.db
    .select({ iccid: cardQuotaExhaustions.iccid, cycleStart: cardQuotaExhaustions.cycleStart })
    .from(cardQuotaExhaustions)
    .where(anyIccid(cardQuotaExhaustions.iccid, acting.map((c) => c.iccid)));
  const already = new Set(done.filter((d) => d.cycleStart.getTime() === cycles.get(d.iccid)?.start.getTime()).map((d) => d.iccid));
  const open = acting.filter((c) => !already.has(c.iccid));
  if (open.length === 0) return [];
  const [quotas, used] = await Promise.all([
    quotasOf(deps.db, open, plans, at),
    cycleUsage(deps.db, open.map((c) => ({ iccid: c.iccid, ...cycleDays(cycles.get(c.iccid)!) }))),
  ]);
  const acted: string[] = [];
  for (const card of open) {
    const quota = quotas.get(card.iccid);
    const usedBytes = used.get(card.iccid) ?? 0;
    if (quota === undefined || usedBytes <= quota) continue;
    const plan = plans.get(card.goodsReleaseId!)!;
    const cycle = cycles.get(card.iccid)!;
    const when = actionTime(card, at);
    const applied = await deps.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(cardQuotaExhaustions)
        .values({ iccid: card.iccid, cycleStart: cycle.start, exhaustedAt: when, usedBytes, quotaBytes: quota, action: plan.useUpAction })
        .onConflictDoNothing()
        .returning({ iccid: cardQuotaExhaustions.iccid });
      if (!row) return false;
      const note = noteOf(usedBytes, quota);
      try {
        await tx.transaction(async (sp) => {
          if (plan.useUpAction === PlanUseUpAction.NextStatus) {
            await applyCardAction(deps, SYSTEM, card.iccid, { type: 'deactivate' }, { tx: sp, note, now: when });
          } else {
            for (const zoneId of plan.zoneIds) {
              await applyCardAction(deps, SYSTEM, card.iccid, { type: 'block', target: { kind: 'zone', id: zoneId } }, { tx: sp, note, now: when });
            }
          }
        });
      } catch (e) {
        await tx.update(cardQuotaExhaustions).set({ failure: failureOf(e) })
          .where(and(eq(cardQuotaExhaustions.iccid, card.iccid), eq(cardQuotaExhaustions.cycleStart, cycle.start)));
      }
      return true;
    });
    if (applied) acted.push(card.iccid);
  }
  return acted;
}

/**
 * "Block until cycle end": permits again the zones the use-up action blocked once the card is in a later cycle, or
 * when event packs lifted its quota above the usage. A deactivated card keeps them until it is active again (the
 * engine refuses permits for it); a card that can no longer be permitted (invalidated, retired, frozen) is given
 * up on. Returns the cards released.
 */
export async function releaseQuotaBlocks(
  deps: UsageDeps, cards: QuotaCard[], plans: Map<number, UsagePlan>, operators: Map<number, UsageOperator>, at: Date,
): Promise<string[]> {
  if (cards.length === 0) return [];
  const open = await deps.db
    .select()
    .from(cardQuotaExhaustions)
    .where(and(
      anyIccid(cardQuotaExhaustions.iccid, cards.map((c) => c.iccid)), isNull(cardQuotaExhaustions.releasedAt),
      eq(cardQuotaExhaustions.action, PlanUseUpAction.BlockUntilCycleEnd),
    ));
  if (open.length === 0) return [];
  const byIccid = new Map(cards.map((c) => [c.iccid, c]));
  const sameCycle = open.filter((e) => {
    const c = byIccid.get(e.iccid)!;
    return cycleOf(c, operators.get(c.operatorId)?.billingDay ?? 1, at.getTime()).start.getTime() === e.cycleStart.getTime();
  });
  // in the same cycle only an event pack (a larger quota) lifts the block
  const quotas = await quotasOf(deps.db, sameCycle.map((e) => byIccid.get(e.iccid)!), plans, at);
  const lifted = new Set(sameCycle.filter((e) => (quotas.get(e.iccid) ?? Infinity) > e.usedBytes).map((e) => e.iccid));
  const sameCycleIds = new Set(sameCycle.map((e) => e.iccid));
  const due = open.filter((e) => !sameCycleIds.has(e.iccid) || lifted.has(e.iccid));

  const released: string[] = [];
  for (const e of due) {
    const card = byIccid.get(e.iccid)!;
    if (card.state === CardState.Deactivated) continue;
    const when = actionTime(card, at);
    await deps.db.transaction(async (tx) => {
      const [still] = await tx.select().from(cardQuotaExhaustions)
        .where(and(eq(cardQuotaExhaustions.iccid, e.iccid), eq(cardQuotaExhaustions.cycleStart, e.cycleStart), isNull(cardQuotaExhaustions.releasedAt)))
        .for('update', { skipLocked: true });
      if (!still) return;
      const zones = await tx.select({ id: cardZoneBlocks.targetId }).from(cardZoneBlocks)
        .where(and(eq(cardZoneBlocks.iccid, e.iccid), eq(cardZoneBlocks.kind, 'zone'), eq(cardZoneBlocks.blockedBy, QUOTA_ACTOR), eq(cardZoneBlocks.byDeactivation, false)));
      let failure: string | null = null;
      try {
        await tx.transaction(async (sp) => {
          for (const z of zones) {
            await applyCardAction(deps, SYSTEM, e.iccid, { type: 'permit', target: { kind: 'zone', id: z.id } }, {
              tx: sp, now: when, note: lifted.has(e.iccid) ? EVENT_PACK_LIFTED : NEW_CYCLE,
            });
          }
        });
      } catch (err) {
        if (err instanceof AppError && err.code === ErrorCode.CardPermitDeactivated) throw err;
        failure = failureOf(err);
      }
      await tx.update(cardQuotaExhaustions).set({ releasedAt: when, ...(failure ? { failure } : {}) })
        .where(and(eq(cardQuotaExhaustions.iccid, e.iccid), eq(cardQuotaExhaustions.cycleStart, e.cycleStart)));
      released.push(e.iccid);
    }).catch((err) => {
      if (!(err instanceof AppError && err.code === ErrorCode.CardPermitDeactivated)) throw err;
    });
  }
  return released;
}

/**
 * The times use-up blocks bar each card: an open block of the current cycle from its exhaustion on, and blocks
 * released after `since` from their exhaustion to their release.
 */
export async function quotaBars(
  ex: Executor, cards: QuotaCard[], operators: Map<number, UsageOperator>, since: Date, at: Date,
): Promise<Map<string, { from: Date; to: Date | null }[]>> {
  if (cards.length === 0) return new Map();
  const list = await ex
    .select({
      iccid: cardQuotaExhaustions.iccid, cycleStart: cardQuotaExhaustions.cycleStart, exhaustedAt: cardQuotaExhaustions.exhaustedAt,
      releasedAt: cardQuotaExhaustions.releasedAt,
    })
    .from(cardQuotaExhaustions)
    .where(and(
      anyIccid(cardQuotaExhaustions.iccid, cards.map((c) => c.iccid)), eq(cardQuotaExhaustions.action, PlanUseUpAction.BlockUntilCycleEnd),
      or(isNull(cardQuotaExhaustions.releasedAt), gt(cardQuotaExhaustions.releasedAt, since)),
    ));
  const byIccid = new Map(cards.map((c) => [c.iccid, c]));
  const out = new Map<string, { from: Date; to: Date | null }[]>();
  for (const e of list) {
    const c = byIccid.get(e.iccid)!;
    // an open block of an earlier cycle is released before the window is fed
    if (!e.releasedAt && cycleOf(c, operators.get(c.operatorId)?.billingDay ?? 1, at.getTime()).start.getTime() !== e.cycleStart.getTime()) continue;
    out.set(e.iccid, [...(out.get(e.iccid) ?? []), { from: e.exhaustedAt, to: e.releasedAt }]);
  }
  return out;
}
