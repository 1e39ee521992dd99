// Evaluation runs of the automation rules (docs/automation.md "Evaluation"): a scheduled scan on the 5th, 15th and 25th
// (every live rule), a check after each usage feed window (the threshold and event types), or a run by hand. Like the
// bill run: the cards are walked in ICCID order, AUTO_RULE_CHUNK_CARDS per transaction; in each, every rule's
// triggering cards are recorded set-based (the key rule × card × period makes a card count once, whatever runs at the
// same time), their notifications queued and their card actions applied through the card service, and the run's
// cursor moves in the same commit; the run is worked under a lease, so a killed process's run is resumed from its
// cursor by the next worker.
import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import {
  AUTO_RULE_CHUNK_CARDS, AUTO_RULE_THRESHOLD_TYPES, AutoRuleDeliveryState, AutoRuleRunKind, AutoRuleRunState,
} from '@lynx/contract';
import type { Db, Executor } from '../../../db/client.ts';
import type { CardServiceDeps } from '../../card/lifecycle/card-service.ts';
import { rows } from '../sql.ts';
import { applyRuleActions } from './actions.ts';
import { FEED_OVERLAP_MS, dayOf, engineRule, excludedPlans, incremental, triggerSql, type EngineRule } from './rule-sql.ts';

/** A run not renewed for this long is taken over by the next worker (each chunk renews it). */
export const AUTO_RULE_LEASE_MS = 120_000;

export interface EngineDeps extends CardServiceDeps {
  db: Db;
}

export interface RunOptions {
  owner?: string;
  chunkCards?: number;
  /** stop after this many chunks (tests: a run interrupted half way) */
  maxChunks?: number;
}

export interface RunResult {
  runId: number;
  state: number;
  cardsTriggered: number;
  /** false when another worker holds the run */
  worked: boolean;
}

const liveRules = (types: readonly number[] | null) => sql`select * from autorules
  where deleted_at is null and enabled and status = 2 ${types ? sql`and rule_type = any(${`{${types.join(',')}}`}::int[])` : sql``}
  order by rule_id`;

/**
 * Creates the run of `key` if there is none (the rules it covers fixed now, with one trigger record per rule), and
 * answers its id. A second caller with the same key gets the same run.
 */
export async function createRun(
  db: Db, a: { kind: number; key: string; asOf: Date; changedSince?: Date | null; feedsFrom?: Date | null; ruleIds?: number[] },
): Promise<number | null> {
  return db.transaction(async (tx) => {
    const [existing] = await rows<{ run_id: number }>(tx, sql`select run_id from autorule_runs where run_key = ${a.key}`);
    if (existing) return Number(existing.run_id);
    const types = a.kind === AutoRuleRunKind.FeedWindow ? AUTO_RULE_THRESHOLD_TYPES : null;
    let rules = (await rows(tx, liveRules(types))).map(engineRule);
    if (a.ruleIds) rules = rules.filter((r) => a.ruleIds!.includes(r.ruleId));
    if (rules.length === 0) return null;
    const ids = rules.map((r) => r.ruleId);
    const [run] = await rows<{ run_id: number }>(tx, sql`insert into autorule_runs (kind, run_key, as_of, changed_since, feeds_from, rule_ids)
      values (${a.kind}, ${a.key}, ${a.asOf.toISOString()}::timestamptz, ${a.changedSince?.toISOString() ?? null}::timestamptz,
        ${a.feedsFrom?.toISOString() ?? null}::timestamptz, ${`{${ids.join(',')}}`}::int[])
      on conflict (run_key) do nothing returning run_id`);
    if (!run) {
      const [other] = await rows<{ run_id: number }>(tx, sql`select run_id from autorule_runs where run_key = ${a.key}`);
      return Number(other.run_id);
    }
    await tx.execute(sql`insert into autorule_alarms (run_id, rule_id, owner_cust_id, owner_root_cust_id, triggered_at)
      select ${run.run_id}, r.rule_id, r.owner_cust_id, r.owner_root_cust_id, ${a.asOf.toISOString()}::timestamptz
      from autorules r where r.rule_id = any(${`{${ids.join(',')}}`}::int[])`);
    return Number(run.run_id);
  });
}

/** Claims a running run under a lease; null when another worker holds it or it is finished. */
async function claim(db: Db, runId: number, owner: string) {
  const [run] = await rows(db, sql`update autorule_runs set lease_owner = ${owner},
      lease_until = now() + ${`${AUTO_RULE_LEASE_MS / 1000} seconds`}::interval
    where run_id = ${runId} and state = ${AutoRuleRunState.Running} and (lease_until is null or lease_until < now() or lease_owner = ${owner})
    returning *`);
  return run ?? null;
}

/**
 * A feed run's chunk: the cards that can have crossed a usage condition since the previous check — their usage moved
 * after `since` (cards.usage_moved_at, set by the feed's writer in the statement that moves the cycle usage, whatever
 * day the window wrote: a lagging feed's late days too) or a card history row after `since` (a state or plan change).
 * Both through an index (migration 0059): the check reads what changed, not every card.
 */
async function touchedCards(tx: Executor, lo: string, hi: string, since: Date, asOf: Date): Promise<string[]> {
  const t = sql`${since.toISOString()}::timestamptz`;
  const list = await rows<{ iccid: string }>(tx, sql`select c.iccid from cards c
      where c.usage_moved_at > ${t} and c.iccid > ${lo} and c.iccid <= ${hi}
    union
    select h.iccid from card_history h where h.at > ${t} and h.at <= ${asOf.toISOString()}::timestamptz and h.iccid > ${lo} and h.iccid <= ${hi}`);
  return list.map((r) => r.iccid);
}

/** One chunk of one rule: records the new triggers, queues their notifications, applies the action. */
async function evaluateRule(
  deps: EngineDeps, tx: Executor, rule: EngineRule, alarmId: number, args: Parameters<typeof triggerSql>[1],
): Promise<number> {
  const channels = rule.channels;
  const delivery = channels.length
    ? sql`, dlv as (insert into autorule_deliveries (alarm_id, rule_id, iccid, channel, state, next_at)
          select ${alarmId}, ${rule.ruleId}, i.iccid, ch.channel, ${AutoRuleDeliveryState.Pending}, now()
          from ins i cross join unnest(${`{${channels.join(',')}}`}::smallint[]) as ch (channel)
          on conflict do nothing returning 1)`
    : sql``;
  const [res] = await rows<{ n: number; iccids: string[] | null }>(tx, sql`with cand as (${triggerSql(rule, args)}),
    ins as (insert into autorule_alarm_cards (rule_id, iccid, period_key, alarm_id, cust_id, root_cust_id, value, event_at, triggered_at)
      select ${rule.ruleId}, cand.iccid, cand.period_key, ${alarmId}, cand.cust_id, cand.root_cust_id, cand.value, cand.event_at,
        ${args.asOf.toISOString()}::timestamptz
      from cand
      -- the cards recorded before are passed over by a read of the key (the conflict clause still keeps a card
      -- another run records meanwhile to once, without an insert attempt per recorded card on every run)
      where not exists (select 1 from autorule_alarm_cards k where k.rule_id = ${rule.ruleId} and k.iccid = cand.iccid and k.period_key = cand.period_key)
      order by cand.iccid, cand.period_key on conflict do nothing returning iccid, period_key) ${delivery}
    select (select count(*) from ins)::int as n, (select array_agg(distinct iccid order by iccid) from ins) as iccids`);
  const n = Number(res?.n ?? 0);
  if (n === 0) return 0;
  await tx.execute(sql`update autorule_alarms set cards = cards + ${n} where alarm_id = ${alarmId}`);
  await applyRuleActions(deps, tx, rule, alarmId, res.iccids ?? [], args.asOf);
  return n;
}

/**
 * Works a run to its end (or until `maxChunks`): claims it, then chunk by chunk from its cursor. Answers what it did;
 * `worked` false when another worker holds it. Safe to call again after a crash at any point.
 */
export async function continueRun(deps: EngineDeps, runId: number, opts: RunOptions = {}): Promise<RunResult> {
  const owner = opts.owner ?? `${process.pid}-${crypto.randomBytes(4).toString('hex')}`;
  const chunkCards = opts.chunkCards ?? AUTO_RULE_CHUNK_CARDS;
  const run = await claim(deps.db, runId, owner);
  if (!run) {
    const [r] = await rows(deps.db, sql`select state, cards_triggered from autorule_runs where run_id = ${runId}`);
    return { runId, state: Number(r?.state ?? 0), cardsTriggered: Number(r?.cards_triggered ?? 0), worked: false };
  }
  const asOf = new Date(run.as_of as string);
  const changedSince = run.changed_since == null ? null : new Date(run.changed_since as string);
  // a feed run's changes: after the previous check less the overlap (a feed transaction that committed late)
  const touchedSince = changedSince && new Date(changedSince.getTime() - FEED_OVERLAP_MS);
  const ruleIds = (run.rule_ids as number[]).map(Number);
  // a rule deleted or switched off while the run works is left alone from then on
  const alarms = new Map((await rows<{ rule_id: number; alarm_id: number }>(deps.db, sql`select rule_id, alarm_id from autorule_alarms where run_id = ${runId}`))
    .map((a) => [Number(a.rule_id), Number(a.alarm_id)]));
  const excluded = await excludedPlans(deps.db);
  let cursor = String(run.cursor_iccid ?? '');
  let chunks = 0;
  try {
    for (;;) {
      if (opts.maxChunks !== undefined && chunks >= opts.maxChunks) return { runId, state: AutoRuleRunState.Running, cardsTriggered: 0, worked: true };
      const [bound] = await rows<{ hi: string | null }>(deps.db, sql`select max(iccid) as hi from (select iccid from cards where iccid > ${cursor}
        order by iccid limit ${chunkCards}) x`);
      if (!bound?.hi) break;
      const hi = bound.hi;
      await deps.db.transaction(async (tx) => {
        // the lease is checked and the run row locked first: a worker that lost the run commits nothing
        const [mine] = await rows(tx, sql`update autorule_runs set cursor_iccid = ${hi}, chunks = chunks + 1,
            lease_until = now() + ${`${AUTO_RULE_LEASE_MS / 1000} seconds`}::interval
          where run_id = ${runId} and lease_owner = ${owner} and cursor_iccid = ${cursor} returning run_id`);
        if (!mine) throw new Error('the rule run was taken over by another worker');
        // the chunk's statements are many and short: compiling them (JIT) costs more than it saves
        await tx.execute(sql`set local jit = off`);
        const rules = (await rows(tx, sql`select * from autorules where rule_id = any(${`{${ruleIds.join(',')}}`}::int[])
          and deleted_at is null and enabled order by rule_id`)).map(engineRule);
        const touched = touchedSince && rules.some((r) => incremental(r, { changedSince }))
          ? await touchedCards(tx, cursor, hi, touchedSince, asOf) : null;
        let total = 0;
        for (const rule of rules) {
          const alarmId = alarms.get(rule.ruleId);
          if (alarmId === undefined) continue;
          total += await evaluateRule(deps, tx, rule, alarmId, { lo: cursor, hi, asOf, asOfDay: dayOf(asOf), changedSince, touched, excluded });
        }
        if (total) await tx.execute(sql`update autorule_runs set cards_triggered = cards_triggered + ${total} where run_id = ${runId}`);
      });
      cursor = hi;
      chunks++;
      await new Promise((r) => setImmediate(r));
    }
    await deps.db.transaction(async (tx) => {
      await tx.execute(sql`delete from autorule_alarms where run_id = ${runId} and cards = 0`);
      await tx.execute(sql`update autorule_runs set state = ${AutoRuleRunState.Done}, finished_at = now(), lease_owner = null, lease_until = null
        where run_id = ${runId} and lease_owner = ${owner}`);
    });
  } catch (err) {
    await deps.db.execute(sql`update autorule_runs set error = ${String((err as Error)?.message ?? err).slice(0, 500)}, lease_until = null
      where run_id = ${runId} and lease_owner = ${owner}`);
    throw err;
  }
  const [done] = await rows(deps.db, sql`select state, cards_triggered from autorule_runs where run_id = ${runId}`);
  return { runId, state: Number(done.state), cardsTriggered: Number(done.cards_triggered), worked: true };
}

/** Resumes every run left running whose lease has expired (a killed worker's). */
export async function resumeStaleRuns(deps: EngineDeps, opts: RunOptions = {}): Promise<RunResult[]> {
  const stale = await rows<{ run_id: number }>(deps.db, sql`select run_id from autorule_runs
    where state = ${AutoRuleRunState.Running} and (lease_until is null or lease_until < now()) order by run_id`);
  const out: RunResult[] = [];
  for (const s of stale) out.push(await continueRun(deps, Number(s.run_id), opts));
  return out;
}

/** The scheduled scan of a scan day (every live rule); answers null when no rule is live. */
export async function runScan(deps: EngineDeps, asOf: Date, opts: RunOptions = {}): Promise<RunResult | null> {
  const runId = await createRun(deps.db, { kind: AutoRuleRunKind.Scan, key: `scan:${dayOf(asOf)}`, asOf });
  return runId == null ? null : continueRun(deps, runId, opts);
}

/**
 * The check after the usage feed: when the feeds' watermark has moved past the last feed check, a run of the threshold
 * and event types at `asOf` over the usage that moved since that check.
 */
export async function runFeedCheck(deps: EngineDeps, asOf: Date, opts: RunOptions = {}): Promise<RunResult | null> {
  const [feed] = await rows<{ w: string | null; lo: string | null }>(deps.db, sql`select max(watermark) as w, min(watermark) as lo from usage_feeds`);
  const watermark = feed?.w == null ? null : new Date(feed.w);
  const [last] = await rows<{ as_of: string }>(deps.db, sql`select as_of from autorule_runs where kind = ${AutoRuleRunKind.FeedWindow}
    order by run_id desc limit 1`);
  const key = `feed:${watermark ? watermark.toISOString() : 'none'}`;
  const runId = await createRun(deps.db, {
    kind: AutoRuleRunKind.FeedWindow, key, asOf, changedSince: last ? new Date(last.as_of) : null, feedsFrom: feed?.lo == null ? null : new Date(feed.lo),
  });
  return runId == null ? null : continueRun(deps, runId, opts);
}

/** A run by hand of some rules at `asOf` (tests, the bench, an operator's re-check). */
export async function runRules(deps: EngineDeps, ruleIds: number[], asOf: Date, opts: RunOptions & { key?: string } = {}): Promise<RunResult | null> {
  const key = opts.key ?? `manual:${asOf.toISOString()}:${ruleIds.join(',')}:${crypto.randomBytes(3).toString('hex')}`;
  const runId = await createRun(deps.db, { kind: AutoRuleRunKind.Manual, key, asOf, ruleIds });
  return runId == null ? null : continueRun(deps, runId, opts);
}
