// The usage feed (docs/usage.md): per operator, pulls the usage of its cards from the operator's gateway window by
// window and stores sessions, daily totals and the per-customer rollup; updates the cards' online status, last
// session and first use; applies the plans' action after use-up. A window is [watermark, window_to); a run claims
// the operator's feed with a lease (so two processes never work the same feed), works through the cards in ICCID
// chunks saving a cursor after each (a crash resumes there), then moves the watermark. After downtime it catches up
// window by window. Everything it writes is keyed and merged, so doing a window again changes nothing.
import crypto from 'node:crypto';
import { and, asc, eq, gt, gte, inArray, or, sql } from 'drizzle-orm';
import { CardState } from '@lynx/contract';
import type { Db, Executor } from '../../db/client.ts';
import type { GatewayAccount, OperatorGateway, SessionRecord, DailyUsageRecord, UsageCard } from '../../operators/gateway.ts';
import { createSimulatorGateway, simulatorSecretFor } from '../../operators/simulator.ts';
import { gatewayOfAccount } from '../network/opconfig/service.ts';
import { secretBoxFor, type SecretBox } from '../network/opconfig/secrets.ts';
import { operatorAccounts } from '../network/opconfig/tables.ts';
import { cardZoneBlocks, cards } from '../card/card-tables.ts';
import { usageFeeds } from './usage-tables.ts';
import { apnOf, usageOperators, usagePlans, type UsageOperator, type UsagePlan } from './usage-plans.ts';
import { applyUseUpActions, quotaBars, releaseQuotaBlocks, type QuotaCard, type UsageDeps } from './usage-quota.ts';
import { anyIccid, closeUnreportedSessions, rows, writeCardActivity, writeDaily, writeSessions, type CardTenant } from './usage-write.ts';
import { ensureUsagePartitions } from './usage-partitions.ts';
import { poolBars } from '../pool/pool-usage.ts';
import { superSimBars } from '../dsim/dsim-usage.ts';
import { HOUR_MS, businessDay, businessDayStartMs, floorMinute } from './usage-time.ts';

const yieldToEventLoop = () => new Promise((resolve) => setImmediate(resolve));

/** Cards per chunk: one gateway call and a handful of statements each. */
export const FEED_CHUNK = 5_000;
/** The longest window one pass covers while catching up (bounds how far usage can pass a quota before the action). */
export const FEED_STEP_MS = 6 * HOUR_MS;
const LEASE_MS = 10 * 60_000;
/** A window ending less than this before the clock is live: it decides the cards' online flag. */
const LIVE_MS = 15 * 60_000;

export type { UsageDeps };

export interface WindowStats {
  cards: number;
  sessions: number;
  days: number;
  exhausted: string[];
  released: string[];
}

export interface FeedRunResult {
  operatorId: number;
  /** false: not due, or another process holds the feed */
  ran: boolean;
  windows: number;
  watermark: string | null;
  error: string | null;
  stats: WindowStats;
}

export type FeedCard = QuotaCard & { msisdn: string | null; custId: number | null; rootCustId: number | null; online: boolean; poolJoinedAt: Date | null };

class FeedError extends Error {}

const boxes = new WeakMap<object, SecretBox>();
const boxOf = (deps: UsageDeps) => {
  let box = boxes.get(deps.config);
  if (!box) boxes.set(deps.config, (box = secretBoxFor(deps.config)));
  return box;
};

/** The built-in simulator, the platform's default network for an operator without an access configuration. */
export function builtInSimulatorAccount(operatorId: number): GatewayAccount {
  const appKey = `LYNX-BUILTIN-FEED-${operatorId}`;
  return {
    operAccountId: 0, operatorId, accountName: 'built-in network simulator', endpointUrl: 'https://simulator.lynx.invalid/openapi', apiVersion: 'v2',
    credentials: { appKey, appSecret: simulatorSecretFor(appKey), password: null }, simFailureRate: 0, simFailIccidPattern: null,
  };
}

/** The gateway an operator's usage comes through: its first (oldest) access configuration, as for card changes. */
export async function feedGateway(deps: UsageDeps, operatorId: number): Promise<OperatorGateway> {
  const [account] = await deps.db.select().from(operatorAccounts).where(eq(operatorAccounts.operatorId, operatorId))
    .orderBy(asc(operatorAccounts.operAccountId)).limit(1);
  if (!account) return createSimulatorGateway(builtInSimulatorAccount(operatorId));
  let gateway: OperatorGateway | null;
  try {
    gateway = gatewayOfAccount(boxOf(deps), account);
  } catch {
    throw new FeedError(`the credentials of access configuration ${account.accountName} cannot be opened (secret key changed?)`);
  }
  if (!gateway) throw new FeedError(`the gateway adapter ${account.adapter} of access configuration ${account.accountName} is not installed`);
  return gateway;
}

const ACTIVE = CardState.Activated;
const TEST = CardState.Test;
const serving = (state: number | null | undefined) => state === ACTIVE || state === TEST;

/**
 * The periods from `from` on in which each card may use the network: from its state history (test or active),
 * cut where a block bars it; the last period stays open (to null). `from` is the start of the window's first day:
 * the operator reports each day's counters from its start.
 */
export async function servicePeriods(ex: Executor, chunk: FeedCard[], bars: Map<string, Bar[]>, from: Date, to: Date): Promise<Map<string, UsageCard['service']>> {
  const iccids = chunk.map((c) => c.iccid);
  // per card: the last change up to `from` (the state then), and every change after it, oldest first
  const history = rows<{ iccid: string; at: Date | string; from_state: number | null; to_state: number; later: boolean }>(await ex.execute(sql`
    select * from (
      select distinct on (iccid) iccid, at, from_state, to_state, false as later from card_history
      where iccid = any(${sql.param(iccids)}::text[]) and at <= ${from.toISOString()}::timestamptz and to_state is not null
      order by iccid, at desc
    ) b
    union all
    select iccid, at, from_state, to_state, true from card_history
    where iccid = any(${sql.param(iccids)}::text[]) and at > ${from.toISOString()}::timestamptz and to_state is not null
    order by iccid, later, at`));
  const before = history.filter((h) => !h.later);
  const after = history.filter((h) => h.later).map((h) => ({ iccid: h.iccid, at: new Date(h.at), fromState: h.from_state, toState: Number(h.to_state) }));
  const stateAt = new Map(before.map((b) => [b.iccid, Number(b.to_state)]));
  const changes = new Map<string, { at: number; from: number | null; to: number }[]>();
  for (const h of after) {
    const list = changes.get(h.iccid) ?? [];
    list.push({ at: h.at.getTime(), from: h.fromState == null ? null : Number(h.fromState), to: h.toState });
    changes.set(h.iccid, list);
  }
  const out = new Map<string, UsageCard['service']>();
  const f = from.getTime();
  const t = to.getTime();
  for (const card of chunk) {
    const later = changes.get(card.iccid) ?? [];
    // the state at the window start: the last change before it, else what the first later change left, else now
    let state = stateAt.get(card.iccid) ?? later[0]?.from ?? card.state;
    let start = f;
    const segments: { from: number; to: number; state: number }[] = [];
    for (const c of later) {
      if (c.at >= t) break;
      segments.push({ from: start, to: c.at, state });
      start = c.at;
      state = c.to;
    }
    segments.push({ from: start, to: Infinity, state });
    const periods: UsageCard['service'] = [];
    for (const seg of segments) {
      if (!serving(seg.state) || seg.to <= seg.from) continue;
      const test = seg.state === TEST;
      for (const s of withoutBars(seg, bars.get(card.iccid) ?? [])) {
        const prev = periods[periods.length - 1];
        if (prev && prev.test === test && prev.to?.getTime() === s.from) prev.to = s.to === Infinity ? null : new Date(s.to);
        else periods.push({ from: new Date(s.from), to: s.to === Infinity ? null : new Date(s.to), test });
      }
    }
    if (periods.length) out.set(card.iccid, periods);
  }
  return out;
}

type Bar = { from: number; to: number };

/** The parts of a period outside the bars. */
function withoutBars(period: Bar, bars: Bar[]): Bar[] {
  let parts = [period];
  for (const b of bars) {
    parts = parts.flatMap((p) => (b.to <= p.from || b.from >= p.to ? [p] : [
      ...(b.from > p.from ? [{ from: p.from, to: b.from }] : []),
      ...(b.to < p.to ? [{ from: b.to, to: p.to }] : []),
    ]));
  }
  return parts;
}

/**
 * When blocks bar each card from the network: from the moment any zone was blocked by a deactivation, or every zone
 * of its plan was blocked (by a user, a rule or the use-up action); while its data pool is blocked; and the use-up blocks of "block until cycle
 * end", including released ones while they lasted (so a window done after the release still leaves that time out);
 * and a super SIM's member card while another profile of its super SIM is the current one (modules/dsim/dsim-usage.ts).
 */
export async function barringOf(
  ex: Executor, chunk: FeedCard[], plans: Map<number, UsagePlan>, operators: Map<number, UsageOperator>, since: Date, to: Date,
): Promise<Map<string, Bar[]>> {
  const iccids = chunk.map((c) => c.iccid);
  const [blocks, quota, pools, superSims] = await Promise.all([
    ex.select().from(cardZoneBlocks).where(anyIccid(cardZoneBlocks.iccid, iccids)),
    quotaBars(ex, chunk, operators, since, to),
    poolBars(ex, chunk.map((c) => ({ iccid: c.iccid, poolId: c.poolId ?? null, poolJoinedAt: c.poolJoinedAt })), (id) => operators.get(id)?.billingDay ?? 1),
    superSimBars(ex, iccids, since, to),
  ]);
  const out = new Map<string, Bar[]>();
  const bar = (iccid: string, from: number, until = Infinity) => out.set(iccid, [...(out.get(iccid) ?? []), { from, to: until }]);
  // a blocked pool bars its member cards (modules/pool)
  for (const [iccid, b] of pools) bar(iccid, b.from, b.to);
  // a super SIM's device uses one profile at a time: its other members cannot attach meanwhile
  for (const [iccid, list] of superSims) for (const b of list) bar(iccid, b.from, b.to);
  for (const [iccid, list] of quota) for (const b of list) bar(iccid, b.from.getTime(), b.to?.getTime() ?? Infinity);
  const byCard = new Map<string, typeof blocks>();
  for (const b of blocks) byCard.set(b.iccid, [...(byCard.get(b.iccid) ?? []), b]);
  for (const card of chunk) {
    const list = byCard.get(card.iccid);
    if (!list) continue;
    for (const b of list) if (b.byDeactivation) bar(card.iccid, b.blockedAt.getTime());
    const zones = card.goodsReleaseId != null ? (plans.get(card.goodsReleaseId)?.zoneIds ?? []) : [];
    if (zones.length > 0) {
      const blocked = list.filter((b) => b.kind === 'zone' && zones.includes(b.targetId));
      if (new Set(blocked.map((b) => b.targetId)).size === zones.length) bar(card.iccid, Math.max(...blocked.map((b) => b.blockedAt.getTime())));
    }
  }
  return out;
}

/** Keeps one record per key (the largest counters), so a gateway repeating itself cannot break the upserts. */
function dedupe(sessions: SessionRecord[], daily: DailyUsageRecord[]) {
  const s = new Map<string, SessionRecord>();
  for (const x of sessions) {
    const k = `${x.iccid}|${x.startedAt.getTime()}|${x.sessionId}`;
    const had = s.get(k);
    if (!had || x.bytesUp + x.bytesDown >= had.bytesUp + had.bytesDown) s.set(k, x);
  }
  const d = new Map<string, DailyUsageRecord>();
  for (const x of daily) {
    const k = `${x.iccid}|${x.day}`;
    const had = d.get(k);
    d.set(k, had ? {
      ...x, bytesUp: Math.max(had.bytesUp, x.bytesUp), bytesDown: Math.max(had.bytesDown, x.bytesDown), sms: Math.max(had.sms, x.sms),
      voiceSeconds: Math.max(had.voiceSeconds, x.voiceSeconds), sessions: Math.max(had.sessions, x.sessions),
    } : x);
  }
  return { sessions: [...s.values()], daily: [...d.values()] };
}

interface WindowContext {
  deps: UsageDeps;
  operatorId: number;
  gateway: OperatorGateway;
  operators: Map<number, UsageOperator>;
}

/** One chunk of cards through one window: pull, write (one transaction), then the use-up actions. */
async function processChunk(ctx: WindowContext, chunk: FeedCard[], from: Date, to: Date, stats: WindowStats): Promise<void> {
  const { deps, operators } = ctx;
  const plans = await usagePlans(deps.db, chunk.map((c) => c.goodsReleaseId).filter((id): id is number => id != null));
  // a new cycle (or an event pack) lifts the use-up blocks before this window's usage is asked for
  const released = await releaseQuotaBlocks(deps, chunk, plans, operators, to);
  stats.released.push(...released);
  const since = new Date(businessDayStartMs(businessDay(from.getTime())));
  const bars = await barringOf(deps.db, chunk, plans, operators, since, to);
  const periods = await servicePeriods(deps.db, chunk, bars, since, to);

  const tenants = new Map<string, CardTenant>();
  const asked: UsageCard[] = [];
  for (const c of chunk) {
    const plan = c.goodsReleaseId != null ? plans.get(c.goodsReleaseId) : undefined;
    const apn = apnOf(c.iccid, plan, operators.get(c.operatorId));
    tenants.set(c.iccid, { iccid: c.iccid, operatorId: c.operatorId, custId: c.custId, rootCustId: c.rootCustId, apn });
    const service = periods.get(c.iccid);
    if (service) asked.push({ iccid: c.iccid, msisdn: c.msisdn, operatorId: c.operatorId, service, apn, networkTypes: plan?.networkTypes ?? [] });
  }
  let sessions: SessionRecord[] = [];
  let daily: DailyUsageRecord[] = [];
  if (asked.length > 0) {
    const res = await ctx.gateway.pullUsage({ cards: asked, from, to });
    if (!res.ok) throw new FeedError(`${res.code}: ${res.message}`);
    ({ sessions, daily } = dedupe(res.data.sessions, res.data.daily));
  }
  const iccids = chunk.map((c) => c.iccid);
  const stillOpen = sessions.filter((s) => s.endedAt === null).map((s) => s.sessionId);
  await deps.db.transaction(async (tx) => {
    await writeSessions(tx, sessions, tenants, to);
    await closeUnreportedSessions(tx, iccids, stillOpen, from, to);
    await writeDaily(tx, daily, tenants);
    await writeCardActivity(tx, iccids, sessions, to.getTime() >= Date.now() - LIVE_MS);
  });
  stats.cards += chunk.length;
  stats.sessions += sessions.length;
  stats.days += daily.length;
  const used = new Set(daily.filter((d) => d.bytesUp + d.bytesDown > 0).map((d) => d.iccid));
  stats.exhausted.push(...(await applyUseUpActions(deps, chunk.filter((c) => used.has(c.iccid)), plans, operators, to)));
}

const emptyStats = (): WindowStats => ({ cards: 0, sessions: 0, days: 0, exhausted: [], released: [] });

/**
 * Feeds one window [from, to) for the cards of one operator, in ICCID chunks after `after`. `onChunk` is told the
 * last ICCID done and may stop the window (a lost lease) by answering false. Used by the feed job, and directly by
 * seeding tools that fill a long period in one window.
 */
export async function runUsageWindow(
  deps: UsageDeps, operatorId: number, from: Date, to: Date,
  opts: { after?: string | null; chunk?: number; onChunk?: (lastIccid: string) => Promise<boolean>; gateway?: OperatorGateway } = {},
): Promise<WindowStats> {
  const ctx: WindowContext = {
    deps, operatorId, gateway: opts.gateway ?? (await feedGateway(deps, operatorId)), operators: await usageOperators(deps.db),
  };
  const stats = emptyStats();
  let after = opts.after ?? '';
  for (;;) {
    const chunk: FeedCard[] = await deps.db
      .select({
        iccid: cards.iccid, msisdn: cards.msisdn, state: cards.state, operatorId: cards.operatorId, custId: cards.custId, rootCustId: cards.rootCustId,
        goodsReleaseId: cards.goodsReleaseId, online: cards.online, cycleStartAt: cards.cycleStartAt, cycleEndAt: cards.cycleEndAt, updatedAt: cards.updatedAt,
        poolId: cards.poolId, poolJoinedAt: cards.poolJoinedAt,
      })
      .from(cards)
      // serving cards, cards shown online, and cards changed since the window began (their usage before the change)
      .where(and(
        eq(cards.operatorId, operatorId), gt(cards.iccid, after),
        or(inArray(cards.state, [ACTIVE, TEST]), eq(cards.online, true), gte(cards.updatedAt, from)),
      ))
      .orderBy(asc(cards.iccid))
      .limit(opts.chunk ?? FEED_CHUNK);
    if (chunk.length === 0) break;
    await processChunk(ctx, chunk, from, to, stats);
    // the embedded database runs in this thread: let requests and timers in between chunks
    await yieldToEventLoop();
    after = chunk[chunk.length - 1].iccid;
    if (opts.onChunk && !(await opts.onChunk(after))) throw new FeedError('the feed lease was lost to another process');
  }
  return stats;
}

const ensured = new WeakMap<object, string>();
/** Partitions for the months around `now`, checked once a day per process and database. */
async function ensurePartitionsDaily(db: Db, now: number): Promise<void> {
  const day = businessDay(now);
  if (ensured.get(db) === day) return;
  await ensureUsagePartitions(db, now);
  ensured.set(db, day);
}

/** The demo database's feeds start this many days back, so the first feed runs fill the last month (docs/usage.md). */
export const DEMO_USAGE_DAYS = 30;
export const demoUsageStart = (now = Date.now()): Date => new Date(businessDayStartMs(businessDay(now - DEMO_USAGE_DAYS * 86_400_000)));

/** The feed rows of a fresh installation: each operator's feed starts at `watermark` (the demo seed starts it 30 days back). */
export async function startUsageFeeds(ex: Executor, operatorIds: number[], watermark: Date): Promise<void> {
  if (operatorIds.length === 0) return;
  await ex.insert(usageFeeds).values(operatorIds.map((operatorId) => ({ operatorId, watermark }))).onConflictDoNothing();
}

/**
 * One run of the usage feed for every operator (or those given) that is due: its last window ended at least
 * `intervalMs` ago. Catches up window by window (at most FEED_STEP_MS each) until `now`, or until `budgetMs` is
 * spent (the next run goes on). A failing gateway leaves the watermark where it is and records the error.
 */
export async function runUsageFeed(
  deps: UsageDeps,
  opts: { now?: Date; intervalMs?: number; budgetMs?: number; owner?: string; operatorIds?: number[]; log?: (err: unknown, operatorId: number) => void } = {},
): Promise<FeedRunResult[]> {
  const now = floorMinute((opts.now ?? new Date()).getTime());
  const started = Date.now();
  const budget = opts.budgetMs ?? 4 * 60_000;
  const owner = opts.owner ?? `${process.pid}-${crypto.randomBytes(4).toString('hex')}`;
  await ensurePartitionsDaily(deps.db, now);
  const operators = [...(await usageOperators(deps.db)).keys()].filter((id) => !opts.operatorIds || opts.operatorIds.includes(id));
  // a new operator's feed starts now: there is no history to fetch
  await startUsageFeeds(deps.db, operators, new Date(now));
  const results: FeedRunResult[] = [];
  for (const operatorId of operators) {
    const result: FeedRunResult = { operatorId, ran: false, windows: 0, watermark: null, error: null, stats: emptyStats() };
    results.push(result);
    const dueBefore = new Date(now - (opts.intervalMs ?? 0));
    const [feed] = await deps.db
      .update(usageFeeds)
      .set({ leaseOwner: owner, leaseUntil: sql`now() + ${`${LEASE_MS / 1000} seconds`}::interval`, lastRunAt: new Date(), updatedAt: new Date() })
      .where(and(
        eq(usageFeeds.operatorId, operatorId),
        sql`(${usageFeeds.leaseUntil} is null or ${usageFeeds.leaseUntil} < now())`,
        sql`(${usageFeeds.windowTo} is not null or ${usageFeeds.watermark} <= ${dueBefore.toISOString()}::timestamptz)`,
        sql`${usageFeeds.watermark} < ${new Date(now).toISOString()}::timestamptz`,
      ))
      .returning();
    if (!feed) continue;
    result.ran = true;
    const mine = and(eq(usageFeeds.operatorId, operatorId), eq(usageFeeds.leaseOwner, owner));
    let watermark = feed.watermark;
    let windowTo = feed.windowTo;
    let cursor = feed.cursorIccid;
    try {
      const gateway = await feedGateway(deps, operatorId);
      while (watermark.getTime() < now) {
        if (!windowTo) {
          windowTo = new Date(Math.min(now, watermark.getTime() + FEED_STEP_MS));
          await deps.db.update(usageFeeds).set({ windowTo, cursorIccid: null, updatedAt: new Date() }).where(mine);
        }
        const stats = await runUsageWindow(deps, operatorId, watermark, windowTo, {
          after: cursor, gateway,
          onChunk: async (last) => {
            const kept = await deps.db.update(usageFeeds)
              .set({ cursorIccid: last, leaseUntil: sql`now() + ${`${LEASE_MS / 1000} seconds`}::interval`, updatedAt: new Date() })
              .where(mine).returning({ id: usageFeeds.operatorId });
            return kept.length > 0;
          },
        });
        for (const k of ['cards', 'sessions', 'days'] as const) result.stats[k] += stats[k];
        result.stats.exhausted.push(...stats.exhausted);
        result.stats.released.push(...stats.released);
        watermark = windowTo;
        windowTo = null;
        cursor = null;
        result.windows++;
        const moved = await deps.db.update(usageFeeds)
          .set({ watermark, windowTo: null, cursorIccid: null, lastError: null, updatedAt: new Date() }).where(mine).returning({ id: usageFeeds.operatorId });
        if (moved.length === 0) throw new FeedError('the feed lease was lost to another process');
        if (Date.now() - started > budget) break;
        await yieldToEventLoop();
      }
    } catch (err) {
      result.error = String((err as Error)?.message ?? err).slice(0, 500);
      opts.log?.(err, operatorId);
      await deps.db.update(usageFeeds).set({ lastError: result.error, updatedAt: new Date() }).where(mine);
    } finally {
      await deps.db.update(usageFeeds).set({ leaseOwner: null, leaseUntil: null }).where(mine);
    }
    result.watermark = watermark.toISOString();
  }
  return results;
}
