import { sql, type SQL } from 'drizzle-orm';
import { CardState, DsimRuleType, DsimSwitchReason, DsimSwitchState, dsim as api } from '@lynx/contract';
import type { Db, Executor } from '../../db/client.ts';
import type { SuperSimGateway, SuperSimProfile } from '../../operators/gateway.ts';
import { audit } from '../../platform/audit.ts';
import type { RequestContext } from '../../platform/context.ts';

/**
 * Operator switches of super SIMs (docs/super-sim.md): a switch record is written first (requested), then the vendor
 * platform is asked; its answer confirms the switch (the super SIM's current operator moves in the same transaction as
 * the record) or fails it with the vendor's reason. A request the vendor leaves pending is asked again by the sweep and
 * fails after DSIM_SWITCH_TIMEOUT_MINUTES. Strategies pick their super SIMs with one statement per rule type after each
 * usage feed window (runStrategies).
 */
type Row = Record<string, unknown>;
export const rowsOf = <T = Row>(r: unknown): T[] => ((r as { rows?: T[] }).rows ?? (r as T[]));
export const exec = async <T = Row>(ex: Executor, q: SQL): Promise<T[]> => rowsOf<T>(await ex.execute(q));
const SERVING = sql.raw(`${CardState.Test}, ${CardState.Activated}`);
/** Switches one strategy run asks for at most (the rest wait for the next window). */
export const STRATEGY_RUN_MAX = 2000;
/** A failed strategy switch is not asked again for this long (or the rule's N minutes when longer). */
const STRATEGY_RETRY_MINUTES = 10;
/** Switches of one strategy run in flight at once (on PostgreSQL: connections of the pool). */
const STRATEGY_PARALLEL = 4;

export const jobContext = (endpoint: string): RequestContext => ({ actor: null, lang: 'zh', ip: '-', endpoint, tokenHash: null, audited: false });

/** The profiles of a super SIM as the vendor needs them. */
async function profilesOf(ex: Executor, sn: string): Promise<Map<number, SuperSimProfile>> {
  const rows = await exec<{ operator_id: number; iccid: string; imsi: string | null; state: number }>(ex, sql`
    select m.operator_id, m.iccid, k.imsi, k.state from dsim_members m join cards k on k.iccid = m.iccid where m.sn = ${sn}`);
  return new Map(rows.map((r) => [Number(r.operator_id), {
    operatorId: Number(r.operator_id), iccid: r.iccid, imsi: r.imsi, serving: [CardState.Test, CardState.Activated].includes(Number(r.state) as 61 | 64),
  }]));
}

/** Writes a switch record in state requested (the caller has checked the super SIM and locked it). */
export async function insertSwitch(ex: Executor, a: {
  sn: string; from: number | null; to: number; reason: number; strategyId?: number | null; strategyName?: string | null; actor: string;
}): Promise<number> {
  const [r] = await exec<{ switch_id: string }>(ex, sql`insert into dsim_switches (sn, from_operator_id, to_operator_id, reason, strategy_id, strategy_name, actor)
    values (${a.sn}, ${a.from}, ${a.to}, ${a.reason}, ${a.strategyId ?? null}, ${a.strategyName ?? null}, ${a.actor})
    on conflict do nothing returning switch_id`);
  return r ? Number(r.switch_id) : 0;
}

/** Ends an open switch: succeeded moves the super SIM to the target operator in the same transaction. */
export async function finishSwitch(db: Db, ctx: RequestContext, switchId: number, state: number, code: string | null, message: string | null): Promise<void> {
  await db.transaction(async (tx) => {
    const [w] = await exec<{ sn: string; from_operator_id: number | null; to_operator_id: number; cust_id: number | null; root_cust_id: number | null }>(tx, sql`
      update dsim_switches w set state = ${state}, fail_code = ${code}, fail_reason = ${message}, done_at = now()
      from dsims d where w.switch_id = ${switchId} and w.state = ${DsimSwitchState.Requested} and d.sn = w.sn
      returning w.sn, w.from_operator_id, w.to_operator_id, d.cust_id, d.root_cust_id`);
    if (!w) return;
    if (state === DsimSwitchState.Succeeded) {
      await tx.execute(sql`update dsims set current_operator_id = ${w.to_operator_id}, switched_at = now(), updated_at = now() where sn = ${w.sn}`);
    }
    await audit(tx, ctx, {
      entity: 'dsimSwitch', entityId: switchId, custId: w.cust_id, rootCustId: w.root_cust_id,
      before: { sn: w.sn, operatorId: w.from_operator_id },
      after: { sn: w.sn, state, operatorId: state === DsimSwitchState.Succeeded ? w.to_operator_id : w.from_operator_id, code, message },
    });
  });
}

/** Asks the vendor for an open switch and records its answer; a pending answer leaves the record open. */
export async function executeSwitch(db: Db, gateway: SuperSimGateway, ctx: RequestContext, switchId: number): Promise<void> {
  const [w] = await exec<{ sn: string; from_operator_id: number | null; to_operator_id: number; request_id: string | null }>(db, sql`
    select sn, from_operator_id, to_operator_id, request_id from dsim_switches where switch_id = ${switchId} and state = ${DsimSwitchState.Requested}`);
  if (!w) return;
  const profiles = await profilesOf(db, w.sn);
  const to = profiles.get(Number(w.to_operator_id));
  if (!to) return finishSwitch(db, ctx, switchId, DsimSwitchState.Failed, 'NO_PROFILE', 'the super SIM has no profile of the target operator');
  const r = await gateway.requestSwitch({
    sn: w.sn, from: w.from_operator_id == null ? null : (profiles.get(Number(w.from_operator_id)) ?? null), to, clientRef: `dsim-switch-${switchId}`,
  });
  if (!r.ok) return finishSwitch(db, ctx, switchId, DsimSwitchState.Failed, r.code, r.message);
  await db.execute(sql`update dsim_switches set request_id = ${r.data.requestId} where switch_id = ${switchId}`);
  if (r.data.state === 'confirmed') return finishSwitch(db, ctx, switchId, DsimSwitchState.Succeeded, null, null);
  if (r.data.state === 'failed') return finishSwitch(db, ctx, switchId, DsimSwitchState.Failed, r.data.code, r.data.message);
}

/**
 * Open switches: asks the vendor again; one still unanswered after the timeout (or one the vendor no longer knows)
 * fails with the reason.
 */
export async function sweepOpenSwitches(db: Db, gateway: SuperSimGateway, now: Date): Promise<{ finished: number }> {
  const ctx = jobContext('job:dsim-strategy');
  const open = await exec<{ switch_id: string; request_id: string | null; late: boolean }>(db, sql`
    select switch_id, request_id, requested_at < ${now.toISOString()}::timestamptz - ${`${api.DSIM_SWITCH_TIMEOUT_MINUTES} minutes`}::interval as late
    from dsim_switches where state = ${DsimSwitchState.Requested} order by switch_id limit 1000`);
  let finished = 0;
  for (const o of open) {
    const id = Number(o.switch_id);
    if (!o.request_id) {
      // written but never sent (the process stopped in between): send it now, or give up when late
      if (o.late) await finishSwitch(db, ctx, id, DsimSwitchState.Failed, 'TIMEOUT', 'the switch request was not sent in time');
      else await executeSwitch(db, gateway, ctx, id);
      finished++;
      continue;
    }
    const r = await gateway.querySwitch(o.request_id);
    if (r.ok && r.data.state === 'confirmed') await finishSwitch(db, ctx, id, DsimSwitchState.Succeeded, null, null);
    else if (r.ok && r.data.state === 'failed') await finishSwitch(db, ctx, id, DsimSwitchState.Failed, r.data.code, r.data.message);
    else if (!r.ok && !r.retryable) await finishSwitch(db, ctx, id, DsimSwitchState.Failed, r.code, r.message);
    else if (o.late) {
      await finishSwitch(db, ctx, id, DsimSwitchState.Failed, 'TIMEOUT', `the vendor platform did not confirm the switch within ${api.DSIM_SWITCH_TIMEOUT_MINUTES} minutes`);
    } else continue;
    finished++;
  }
  return { finished };
}

interface Candidate { sn: string; current: number; target: number; strategy_id: number; strategy_name: string }

/** Common conditions of a strategy candidate: no open switch, no strategy attempt that failed recently. */
const quiet = (now: string) => sql`not exists (select 1 from dsim_switches w where w.sn = d.sn and (w.state = ${DsimSwitchState.Requested}
    or (w.reason = ${DsimSwitchReason.Strategy} and w.state = ${DsimSwitchState.Failed}
      and w.requested_at > ${now}::timestamptz - greatest(${STRATEGY_RETRY_MINUTES}, coalesce((s.params->>'minutes')::int, 0)) * interval '1 minute')))`;

/**
 * NoSession: the current profile's card has had no data session for N minutes (its last session, or the last switch,
 * or the super SIM's arrival, whichever is latest, is N minutes or more before `now`) → the next serving member in
 * operator order after the current one.
 */
export async function noSessionCandidates(ex: Executor, now: Date, limit = STRATEGY_RUN_MAX): Promise<Candidate[]> {
  const t = now.toISOString();
  return exec<Candidate>(ex, sql`
    select d.sn, d.current_operator_id as current, s.strategy_id, s.strategy_name, nx.operator_id as target
    from dsims d
    join dsim_strategies s on s.strategy_id = d.strategy_id and s.rule_type = ${DsimRuleType.NoSession}
    join dsim_members m on m.sn = d.sn and m.operator_id = d.current_operator_id
    join cards k on k.iccid = m.iccid
    cross join lateral (select m2.operator_id from dsim_members m2 join cards k2 on k2.iccid = m2.iccid
      where m2.sn = d.sn and m2.operator_id <> d.current_operator_id and k2.state in (${SERVING})
      order by (m2.operator_id - d.current_operator_id + 3) % 3 limit 1) nx
    where greatest(k.last_session_at, d.switched_at, d.created_at) <= ${t}::timestamptz - (s.params->>'minutes')::int * interval '1 minute'
      and ${quiet(t)}
    order by d.sn limit ${limit}`);
}

/** Cost: the first operator of the strategy's order (cheapest first) that has a serving member, when not the current one. */
export async function costCandidates(ex: Executor, now: Date, limit = STRATEGY_RUN_MAX): Promise<Candidate[]> {
  const t = now.toISOString();
  return exec<Candidate>(ex, sql`
    select d.sn, d.current_operator_id as current, s.strategy_id, s.strategy_name, c.operator_id as target
    from dsims d
    join dsim_strategies s on s.strategy_id = d.strategy_id and s.rule_type = ${DsimRuleType.Cost}
    cross join lateral (select m2.operator_id from jsonb_array_elements_text(s.params->'operatorOrder') with ordinality o(op, i)
      join dsim_members m2 on m2.sn = d.sn and m2.operator_id = o.op::int
      join cards k2 on k2.iccid = m2.iccid and k2.state in (${SERVING})
      order by o.i limit 1) c
    where c.operator_id <> d.current_operator_id and ${quiet(t)}
    order by d.sn limit ${limit}`);
}

/** Signal: the vendor's report; the current profile under the threshold → the serving member with the best signal, if better. */
export async function signalCandidates(ex: Executor, gateway: SuperSimGateway, now: Date, limit = STRATEGY_RUN_MAX): Promise<Candidate[]> {
  const t = now.toISOString();
  const sims = await exec<{ sn: string; current: number; strategy_id: number; strategy_name: string; min_signal: number; ops: number[] }>(ex, sql`
    select d.sn, d.current_operator_id as current, s.strategy_id, s.strategy_name, (s.params->>'minSignal')::int as min_signal,
      array(select m2.operator_id::int from dsim_members m2 join cards k2 on k2.iccid = m2.iccid
        where m2.sn = d.sn and (k2.state in (${SERVING}) or m2.operator_id = d.current_operator_id) order by m2.operator_id) as ops
    from dsims d join dsim_strategies s on s.strategy_id = d.strategy_id and s.rule_type = ${DsimRuleType.Signal}
    where ${quiet(t)} order by d.sn limit ${limit}`);
  const out: Candidate[] = [];
  for (let i = 0; i < sims.length; i += 1000) {
    const chunk = sims.slice(i, i + 1000);
    const r = await gateway.querySignals({ sns: chunk.map((s) => ({ sn: s.sn, operatorIds: s.ops.map(Number) })) });
    if (!r.ok) continue;
    const bySn = new Map(r.data.map((x) => [x.sn, x.signals]));
    for (const s of chunk) {
      const signals = bySn.get(s.sn) ?? [];
      const cur = signals.find((x) => x.operatorId === Number(s.current));
      if (!cur || cur.dbm >= Number(s.min_signal)) continue;
      const best = signals.filter((x) => x.operatorId !== Number(s.current)).sort((a, b) => b.dbm - a.dbm)[0];
      if (best && best.dbm > cur.dbm) out.push({ sn: s.sn, current: Number(s.current), target: best.operatorId, strategy_id: s.strategy_id, strategy_name: s.strategy_name });
    }
  }
  return out;
}

/**
 * The strategy step after a usage feed window: the open switches are swept, then the candidates of every rule type
 * (one statement each) get a switch record and are asked of the vendor. Returns counts.
 */
export async function runStrategies(db: Db, gateway: SuperSimGateway, now = new Date()) {
  const ctx = jobContext('job:dsim-strategy');
  const swept = await sweepOpenSwitches(db, gateway, now);
  const candidates = [
    ...(await noSessionCandidates(db, now)),
    ...(await costCandidates(db, now)),
    ...(await signalCandidates(db, gateway, now)),
  ].slice(0, STRATEGY_RUN_MAX);
  let switched = 0;
  let failed = 0;
  const one = async (c: Candidate) => {
    const id = await insertSwitch(db, {
      sn: c.sn, from: Number(c.current), to: Number(c.target), reason: DsimSwitchReason.Strategy, strategyId: c.strategy_id, strategyName: c.strategy_name,
      actor: 'strategy',
    });
    if (!id) return;
    await executeSwitch(db, gateway, ctx, id);
    const [w] = await exec<{ state: number }>(db, sql`select state from dsim_switches where switch_id = ${id}`);
    if (Number(w?.state) === DsimSwitchState.Succeeded) switched++;
    else if (Number(w?.state) === DsimSwitchState.Failed) failed++;
  };
  // distinct super SIMs, so a few vendor calls at once (the vendor's round trip dominates); PGlite queues them anyway
  for (let i = 0; i < candidates.length; i += STRATEGY_PARALLEL) await Promise.all(candidates.slice(i, i + STRATEGY_PARALLEL).map(one));
  return { swept: swept.finished, candidates: candidates.length, switched, failed };
}

/**
 * The job's entry: once per usage feed watermark (the claim is the insert of the run row), whichever process comes
 * first; the sweep of open switches runs every time.
 */
export async function runStrategiesAfterFeed(db: Db, gateway: SuperSimGateway, now = new Date()) {
  const [feed] = await exec<{ w: string | null }>(db, sql`select max(watermark)::text as w from usage_feeds`);
  const key = `feed:${feed?.w ?? 'none'}`;
  const claimed = await exec(db, sql`insert into dsim_strategy_runs (run_key) values (${key}) on conflict do nothing returning run_key`);
  if (!claimed.length) return { key, ran: false, swept: (await sweepOpenSwitches(db, gateway, now)).finished };
  const r = await runStrategies(db, gateway, now);
  await db.execute(sql`update dsim_strategy_runs set finished_at = now(), candidates = ${r.candidates}, switched = ${r.switched}, failed = ${r.failed}
    where run_key = ${key}`);
  return { key, ran: true, ...r };
}
