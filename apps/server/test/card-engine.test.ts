import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { CardActionKind, CardChangeSource, CardState, ErrorCode, Operator, PlanRenewalMode } from '@lynx/contract';
import { backends, startTestApp, type TestApp } from './harness.ts';
import { applyCardAction, loadCardPlan, SYNC_FAILED_NOTE, type CardActor } from '../src/modules/card/lifecycle/card-service.ts';
import { runDueCards } from '../src/modules/card/lifecycle/scheduler.ts';
import { simulatorSecretFor } from '../src/operators/simulator.ts';
import { AppError } from '../src/platform/errors.ts';

const SYSTEM: CardActor = { kind: 'system', source: CardChangeSource.Rule, actor: 'rule:test' };
/** 10:00 China time on a given day */
const cst = (ymd: string, hm = '10:00') => new Date(`${ymd}T${hm}:00+08:00`);

type CardCols = {
  state: number; goods_release_id: number | null; contract_start_at: Date | null; contract_months: number; cycles_used: number;
  cycle_start_at: Date | null; cycle_end_at: Date | null; contract_end_at: Date | null; next_deadline_at: Date | null;
  pending_plan_id: number | null; pending_plan_effective_at: Date | null; test_end_at: Date | null; silent_end_at: Date | null;
};

describe.each(backends)('card lifecycle engine on stored cards (%s)', (backend) => {
  let t: TestApp;
  let monthly: number;
  let prepaid: number;
  let zones: number;
  let seq = 0;

  beforeAll(async () => {
    // no background scheduler: the tests drive time themselves
    t = await startTestApp(backend, {}, { jobs: false });
    const plans = await t.database.sql.query<{ goods_release_id: number; code: string }>(
      `select goods_release_id, code from basic_plans where code in ('CTCC-M10G', 'CTCC-P2G12')`);
    monthly = plans.find((p) => p.code === 'CTCC-M10G')!.goods_release_id;
    prepaid = plans.find((p) => p.code === 'CTCC-P2G12')!.goods_release_id;
    zones = Number((await t.database.sql.query<{ n: string }>('select count(*) n from plan_zones where goods_release_id = $1', [monthly]))[0].n);
  });
  afterAll(() => t?.stop());

  const card = async (o: { state: number; plan?: number | null; renewal?: number; prefix?: string; testEnd?: Date; operatorId?: number }) => {
    seq++;
    const iccid = `${o.prefix ?? '8986031100'}${String(seq).padStart(10, '0')}`;
    await t.database.sql.query(
      `insert into cards (iccid, msisdn, imsi, state, operator_id, goods_release_id, operation_mode, renewal_mode, test_end_at, next_deadline_at)
       values ($1, $2, $3, $4, $5, $6, 1, $7, $8, $8)`,
      [iccid, `10649${String(seq).padStart(8, '0')}`, `4600311${String(seq).padStart(8, '0')}`, o.state, o.operatorId ?? Operator.ChinaTelecom,
        o.plan === undefined ? monthly : o.plan, o.renewal ?? PlanRenewalMode.NoRenew, o.testEnd ?? null],
    );
    return iccid;
  };
  const row = async (iccid: string) => (await t.database.sql.query<CardCols>('select * from cards where iccid = $1', [iccid]))[0];
  const history = (iccid: string) =>
    t.database.sql.query<{ action: number; from_state: number; to_state: number; source: number; plan_id: number | null; reason: string | null; note_zh: string | null; note_en: string | null }>(
      'select action, from_state, to_state, source, plan_id, reason, note_zh, note_en from card_history where iccid = $1 order by at, action', [iccid]);
  const blocks = async (iccid: string) =>
    (await t.database.sql.query<{ kind: string; target_id: number; by_deactivation: boolean }>('select * from card_zone_blocks where iccid = $1', [iccid]));

  it('activation starts the contract: cycle and contract ends stored, next deadline at the cycle end', async () => {
    const iccid = await card({ state: CardState.ActivationReady });
    const now = cst('2027-03-10');
    const r = await applyCardAction(t.deps, SYSTEM, iccid, { type: 'activate' }, { now });
    expect(r).toMatchObject({ fromState: CardState.ActivationReady, toState: CardState.Activated });
    const c = await row(iccid);
    expect(c.state).toBe(CardState.Activated);
    expect(c.contract_start_at).toEqual(now);
    expect(c.contract_months).toBe(12);
    expect(c.cycles_used).toBe(1);
    expect(c.cycle_start_at).toEqual(now);
    expect(c.cycle_end_at).toEqual(cst('2027-04-01', '00:00'));
    expect(c.contract_end_at).toEqual(cst('2028-03-01', '00:00'));
    expect(c.next_deadline_at).toEqual(cst('2027-04-01', '00:00'));
    expect((await history(iccid))[0]).toMatchObject({ action: CardActionKind.Activate, source: CardChangeSource.Rule });
  });

  it('the scheduler catches up cycles after downtime, and ends a contract without renewal by deactivating and blocking all zones', async () => {
    const iccid = await card({ state: CardState.ActivationReady });
    await applyCardAction(t.deps, SYSTEM, iccid, { type: 'activate' }, { now: cst('2027-03-10') });
    // months later: the cycles roll forward in one run
    let stats = await runDueCards(t.deps, { now: cst('2027-06-15') });
    expect(stats.applied).toBeGreaterThanOrEqual(1);
    let c = await row(iccid);
    expect(c.cycles_used).toBe(4);
    expect(c.cycle_start_at).toEqual(cst('2027-06-01', '00:00'));
    expect(c.next_deadline_at).toEqual(cst('2027-07-01', '00:00'));
    // a second run at the same time does nothing to this card
    await runDueCards(t.deps, { now: cst('2027-06-15') });
    expect((await row(iccid)).cycles_used).toBe(4);
    // past the contract end (2028-03-01) with renewal off
    stats = await runDueCards(t.deps, { now: cst('2028-03-02') });
    c = await row(iccid);
    expect(c.state).toBe(CardState.Deactivated);
    expect(c.next_deadline_at).toBeNull();
    const h = await history(iccid);
    expect(h[h.length - 1]).toMatchObject({ action: CardActionKind.ContractEnded, to_state: CardState.Deactivated, source: CardChangeSource.Schedule });
    const b = await blocks(iccid);
    expect(b).toHaveLength(zones);
    expect(b.every((x) => x.by_deactivation)).toBe(true);
    // activating again permits the zones the deactivation blocked
    await applyCardAction(t.deps, SYSTEM, iccid, { type: 'activate' }, { now: cst('2028-03-05') });
    expect(await blocks(iccid)).toHaveLength(0);
    expect((await row(iccid)).contract_start_at).toEqual(cst('2028-03-05'));
  });

  it('auto-renew adds a period at the contract end instead of deactivating', async () => {
    const iccid = await card({ state: CardState.ActivationReady, renewal: PlanRenewalMode.AutoRenew });
    await applyCardAction(t.deps, SYSTEM, iccid, { type: 'activate' }, { now: cst('2027-03-10') });
    await runDueCards(t.deps, { now: cst('2028-03-02') });
    const c = await row(iccid);
    expect(c.state).toBe(CardState.Activated);
    expect(c.contract_months).toBe(24);
    expect(c.contract_end_at).toEqual(cst('2029-03-01', '00:00'));
    expect((await history(iccid)).some((h) => h.action === CardActionKind.ContractRenewed)).toBe(true);
  });

  it('test period → silent period → activation, caught up in time order by one scheduler run', async () => {
    const iccid = await card({ state: CardState.Test, testEnd: cst('2027-01-01', '00:00') });
    await runDueCards(t.deps, { now: cst('2027-09-01') });
    const c = await row(iccid);
    expect(c.state).toBe(CardState.Activated);
    const h = await history(iccid);
    expect(h.map((x) => x.action)).toEqual([CardActionKind.TestExpired, CardActionKind.SilentExpired]);
    expect(h.every((x) => x.source === CardChangeSource.Schedule)).toBe(true);
    // the silent period of CTCC-M10G is 6 months: the contract starts when it ends
    expect(c.contract_start_at).toEqual(cst('2027-07-01', '00:00'));
  });

  it('a plan change on an active card waits for the cycle end; renewal is refused meanwhile; the scheduler applies it', async () => {
    const iccid = await card({ state: CardState.ActivationReady });
    await applyCardAction(t.deps, SYSTEM, iccid, { type: 'activate' }, { now: cst('2027-03-10') });
    const target = await loadCardPlan(t.deps.db, prepaid);
    const sameApns = JSON.stringify([...target.apns].sort()) === JSON.stringify([...(await loadCardPlan(t.deps.db, monthly)).apns].sort());
    if (!sameApns) {
      await expect(applyCardAction(t.deps, SYSTEM, iccid, { type: 'changePlan', plan: target }, { now: cst('2027-03-12') }))
        .rejects.toMatchObject({ code: ErrorCode.CardPlanApnMismatch });
      return;
    }
    await applyCardAction(t.deps, SYSTEM, iccid, { type: 'changePlan', plan: target }, { now: cst('2027-03-12') });
    let c = await row(iccid);
    expect(c.pending_plan_id).toBe(prepaid);
    expect(c.pending_plan_effective_at).toEqual(cst('2027-04-01', '00:00'));
    await expect(applyCardAction(t.deps, SYSTEM, iccid, { type: 'renew', periods: 1 }, { now: cst('2027-03-13') }))
      .rejects.toMatchObject({ code: ErrorCode.CardRenewalChangePending });
    // one change per month
    await expect(applyCardAction(t.deps, SYSTEM, iccid, { type: 'changePlan', plan: await loadCardPlan(t.deps.db, monthly) }, { now: cst('2027-03-20') }))
      .rejects.toBeInstanceOf(AppError);
    await runDueCards(t.deps, { now: cst('2027-04-01', '00:05') });
    c = await row(iccid);
    expect(c.goods_release_id).toBe(prepaid);
    expect(c.pending_plan_id).toBeNull();
    expect(c.contract_start_at).toEqual(cst('2027-04-01', '00:00'));
    const h = await history(iccid);
    expect(h.filter((x) => x.action === CardActionKind.PlanChanged)).toEqual([expect.objectContaining({ plan_id: prepaid, source: CardChangeSource.Schedule })]);
  });

  it('block and permit a zone; permit is refused for a deactivated card with the spec message', async () => {
    const iccid = await card({ state: CardState.ActivationReady });
    await applyCardAction(t.deps, SYSTEM, iccid, { type: 'activate' }, { now: cst('2027-03-10') });
    await applyCardAction(t.deps, SYSTEM, iccid, { type: 'block', target: { kind: 'region', id: 86 } });
    expect(await blocks(iccid)).toEqual([expect.objectContaining({ kind: 'region', target_id: 86, by_deactivation: false })]);
    await applyCardAction(t.deps, SYSTEM, iccid, { type: 'permit', target: { kind: 'region', id: 86 } });
    expect(await blocks(iccid)).toHaveLength(0);
    await applyCardAction(t.deps, SYSTEM, iccid, { type: 'deactivate' });
    await expect(applyCardAction(t.deps, SYSTEM, iccid, { type: 'permit', target: { kind: 'region', id: 86 } }))
      .rejects.toMatchObject({ code: ErrorCode.CardPermitDeactivated });
  });

  it('event packs only on active cards; the pack ends with the base cycle', async () => {
    const iccid = await card({ state: CardState.ActivationReady });
    await expect(applyCardAction(t.deps, SYSTEM, iccid, { type: 'orderEventPack', packId: 1 })).rejects.toMatchObject({ code: ErrorCode.CardNotActiveForOrder });
    const now = new Date();
    await applyCardAction(t.deps, SYSTEM, iccid, { type: 'activate' }, { now });
    await applyCardAction(t.deps, SYSTEM, iccid, { type: 'orderEventPack', packId: 7 }, { now });
    const [p] = await t.database.sql.query<{ pack_id: number; ends_at: Date }>('select pack_id, ends_at from card_event_packs where iccid = $1', [iccid]);
    expect(p.pack_id).toBe(7);
    expect(p.ends_at).toEqual((await row(iccid)).cycle_end_at);
  });

  it('a time-driven change the operator refuses is applied anyway and kept as a card change failure for retry', async () => {
    const key = `LYNXKEYENGINE${backend === 'postgres' ? 'PG' : 'PL'}`;
    const [acc] = await t.database.sql.query<{ n: string }>('select count(*) n from operator_accounts where operator_id = $1', [Operator.ChinaUnicom]);
    if (Number(acc.n) === 0) {
      const admin = await t.login('admin');
      const saved = await t.call('network/operatorsAccount/save', {
        operatorId: Operator.ChinaUnicom, accountName: '引擎演练', endpointUrl: 'https://api.unicom.example.com/openapi', apiVersion: 'v2',
        adapter: 'simulator', appKey: key, appSecret: simulatorSecretFor(key), password: 'Plain-Password-Engine-2026', simFailIccidPattern: '8986019900*',
      }, { token: admin });
      expect(saved.body.success).toBe(true);
    }
    const iccid = await card({ state: CardState.Test, testEnd: cst('2027-01-01', '00:00'), prefix: '8986019900', operatorId: Operator.ChinaUnicom });
    await runDueCards(t.deps, { now: cst('2027-01-02') });
    expect((await row(iccid)).state).toBe(CardState.Inventory);
    const h = await history(iccid);
    expect(h[0]).toMatchObject({ reason: null, note_zh: SYNC_FAILED_NOTE.zh, note_en: SYNC_FAILED_NOTE.en });
    const f = await t.database.sql.query('select 1 from card_change_failures where iccid = $1', [iccid]);
    expect(f.length).toBe(1);
  });

  it('every due card is changed exactly once when two schedulers run at the same time', async () => {
    const due = await Promise.all(Array.from({ length: 60 }, () => card({ state: CardState.Test, testEnd: cst('2027-02-01', '00:00'), prefix: '8986031199' })));
    const now = cst('2027-02-02');
    let other: TestApp | null = null;
    let second = t;
    if (backend === 'postgres') {
      // a second server process on the same database
      other = await startTestApp('postgres', {}, { jobs: false, databaseUrl: t.config.databaseUrl! });
      second = other;
    }
    try {
      const [a, b] = await Promise.all([runDueCards(t.deps, { now, concurrency: 4 }), runDueCards(second.deps, { now, concurrency: 4 })]);
      expect(a.failed + b.failed).toBe(0);
      for (const iccid of due) {
        const h = await history(iccid);
        expect(h.filter((x) => x.action === CardActionKind.TestExpired)).toHaveLength(1);
        expect((await row(iccid)).state).toBe(CardState.Inventory);
      }
    } finally {
      await other?.stop();
    }
  });
});
