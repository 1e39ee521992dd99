import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import {
  CardState, ErrorCode, Operator, PlanCycleUnit, PlanGoodsType, PlanOperationMode, PlanRenewalMode, PlanUseUpAction, RoleType, TariffType, diagnose,
} from '@lynx/contract';
import { backends, ownerOf, startTestApp, type Owner, type TestApp } from './harness.ts';
import { simulatorSecretFor } from '../src/operators/simulator.ts';

const DIAG = 'shortcuts/diagnose/intelligent';
const ADVANCED = 'shortcuts/diagnose/advanced';
const RESET = 'shortcuts/diagnose/networkReset';
const RECORDS = 'shortcuts/diagnose/getRecordPage';
const RECORD = 'shortcuts/diagnose/getRecordDetail';
const CHANGE = 'core/sim/singleCard/changeStatus';
const V = diagnose.DiagnoseVerdict;
const DAY = 86_400_000;
const APP_KEY = 'LYNXKEY7731DIAG';

type Check = { key: string; verdict: number; explanation: { zh: string; en: string }; action: { zh: string; en: string } | null; actionKind: string; facts: { key: string; value: string | null }[] };

describe.each(backends)('card diagnosis on %s', (backend) => {
  let t: TestApp;
  let admin: string;
  let enterprise: string;
  let channel: string;
  let sub: string;
  let ent: Owner;
  let chan: Owner;
  let east: Owner;
  let proPlan: number;
  let zones: number[];
  let seq = 0;

  beforeAll(async () => {
    t = await startTestApp(backend);
    admin = await t.login('admin');
    enterprise = await t.login('enterprise');
    channel = await t.login('channel');
    sub = await t.login('subcustomer');
    ent = await ownerOf(t, 'enterprise');
    chan = await ownerOf(t, 'channel');
    east = await ownerOf(t, 'subcustomer');
    // a professional-version plan (diagnosis is for professional cards) with the demo APN and two zones
    const [p] = await t.database.sql.query<{ id: number }>(
      `insert into basic_plans (code, name, goods_type, tariff_type, sale_price, cycle_unit, cycle_value, duration_months, quota_mb, use_up_action,
         operator_id, operation_mode, renewal_mode, created_by)
       values ('PRO-DIAG-1G', '专业版诊断测试 1GB', $1, $2, 10, $3, 1, 12, 1024, $4, $5, $6, $7, 'test') returning goods_release_id id`,
      [PlanGoodsType.Monthly, TariffType.MonthlySingle, PlanCycleUnit.Month, PlanUseUpAction.BlockUntilCycleEnd, Operator.ChinaTelecom,
        PlanOperationMode.Professional, PlanRenewalMode.AutoRenew],
    );
    proPlan = p.id;
    await t.database.sql.query(`insert into plan_apns (goods_release_id, apn_id) select $1, apn_id from apns where apn_name = 'ctnet'`, [proPlan]);
    zones = [];
    // each zone with one of the demo's communication services (both enabled with a QoS): the professional network applies them
    for (const [name, service] of [['全国公网', '通用互联网数据'], ['企业专网', '企业云定向数据']]) {
      const [z] = await t.database.sql.query<{ id: number }>('insert into plan_zones (goods_release_id, zone_name) values ($1, $2) returning zone_id id', [proPlan, name]);
      zones.push(z.id);
      await t.database.sql.query(
        'insert into plan_zone_services (goods_release_id, zone_id, commserv_id) select $1, $2, commserv_id from comm_services where commserv_name = $3',
        [proPlan, z.id, service]);
    }
  });
  afterAll(() => t?.stop());

  /** A professional card straight in the table, in its current cycle when activated. */
  const card = async (o: { state?: number; mode?: number; owner?: Owner | null; operatorId?: number; online?: boolean; lastSessionHoursAgo?: number | null; plan?: number | null; prefix?: string } = {}) => {
    seq++;
    const iccid = `${o.prefix ?? '8986037700'}${String(seq).padStart(10, '0')}`;
    const state = o.state ?? CardState.Activated;
    const now = Date.now();
    const active = state === CardState.Activated || state === CardState.Deactivated;
    const cycleStart = new Date(now - 5 * DAY);
    const owner = o.owner === null ? null : (o.owner ?? ent);
    await t.database.sql.query(
      `insert into cards (iccid, msisdn, imsi, state, operator_id, cust_id, root_cust_id, goods_release_id, operation_mode, renewal_mode,
         activated_at, contract_start_at, contract_months, cycles_used, cycle_start_at, cycle_end_at, contract_end_at, online, last_session_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, 1, $10, $10, 12, 1, $11, $12, $13, $14, $15)`,
      [iccid, `10643${String(seq).padStart(8, '0')}`, `4601177${String(seq).padStart(8, '0')}`, state, o.operatorId ?? Operator.ChinaTelecom,
        owner?.cust_id ?? null, owner?.root_cust_id ?? null, o.plan === undefined ? proPlan : o.plan, o.mode ?? PlanOperationMode.Professional,
        active ? new Date(now - 40 * DAY) : null, active ? cycleStart : null, active ? new Date(now + 25 * DAY) : null, active ? new Date(now + 300 * DAY) : null,
        o.online ?? false, o.lastSessionHoursAgo == null ? null : new Date(now - o.lastSessionHoursAgo * 3_600_000)],
    );
    return iccid;
  };
  const checkOf = (data: { checks: Check[] }, key: string) => data.checks.find((c) => c.key === key)!;
  /** Another plan on China Telecom with the demo APN (and one zone when named), for the cards of one test. */
  const plan = async (o: { code: string; mode: number; zone?: string }) => {
    const name = o.mode === PlanOperationMode.Standard ? '标准版诊断测试 1GB' : `${o.code} 1GB`;
    const [p] = await t.database.sql.query<{ id: number }>(
      `insert into basic_plans (code, name, goods_type, tariff_type, sale_price, cycle_unit, cycle_value, duration_months, quota_mb, use_up_action,
         operator_id, operation_mode, renewal_mode, created_by)
       values ($1, $2, $3, $4, 10, $5, 1, 12, 1024, $6, $7, $8, $9, 'test') returning goods_release_id id`,
      [o.code, name, PlanGoodsType.Monthly, TariffType.MonthlySingle, PlanCycleUnit.Month, PlanUseUpAction.BlockUntilCycleEnd, Operator.ChinaTelecom, o.mode,
        PlanRenewalMode.AutoRenew],
    );
    await t.database.sql.query(`insert into plan_apns (goods_release_id, apn_id) select $1, apn_id from apns where apn_name = 'ctnet'`, [p.id]);
    if (o.zone) await t.database.sql.query('insert into plan_zones (goods_release_id, zone_name) values ($1, $2)', [p.id, o.zone]);
    return p.id;
  };
  const count = async (q: string, params: unknown[]) => Number((await t.database.sql.query<{ n: string }>(q, params))[0].n);
  const diagnosesOf = (iccid: string) => count('select count(*) n from card_diagnoses where iccid = $1', [iccid]);

  it('diagnoses standard-version cards with what needs no professional network; the professional-only check says so', async () => {
    const std = await plan({ code: 'STD-DIAG-1G', mode: PlanOperationMode.Standard });
    const iccid = await card({ mode: PlanOperationMode.Standard, plan: std, online: true, lastSessionHoursAgo: 0 });
    for (const lang of ['zh', 'en'] as const) {
      const r = await t.call(DIAG, { iccid }, { token: enterprise, lang });
      expect(r.body.success, r.body.msg).toBe(true);
      const d = r.body.data;
      expect(d).toMatchObject({ iccid, operationMode: PlanOperationMode.Standard, planName: '标准版诊断测试 1GB' });
      expect(d.checks.map((c: Check) => c.key)).toEqual([...diagnose.DIAGNOSE_CHECKS]);
      // state, plan and quota, zone blocks, last session and operator reachability run as for any card
      expect(checkOf(d, 'cardState').verdict).toBe(V.Ok);
      expect(checkOf(d, 'planQuota').verdict).toBe(V.Ok);
      expect(checkOf(d, 'planQuota').explanation.en).toContain('1 GB');
      expect(checkOf(d, 'zoneLimits').verdict).toBe(V.Ok);
      expect(checkOf(d, 'session').verdict).toBe(V.Ok);
      expect(checkOf(d, 'operator')).toMatchObject({ verdict: V.Warning, actionKind: 'accessConfig' });
      // the professional-only check: not applicable, and it says why instead of failing the diagnosis
      const policy = checkOf(d, 'policy');
      expect(policy).toMatchObject({ verdict: V.NotApplicable, action: null, actionKind: 'none' });
      expect(policy.explanation.zh).toContain('仅适用于专业版卡');
      expect(policy.explanation.en).toContain('Only for professional-version cards');
      expect(policy.facts).toEqual([expect.objectContaining({ key: 'operationMode', value: String(PlanOperationMode.Standard) })]);
      // "not applicable" never makes the overall verdict: the operator warning does
      expect(d.overall).toBe(V.Warning);
    }
    // a zone blocked on a standard card is found like on any card
    const [z] = await t.database.sql.query<{ id: number }>('insert into plan_zones (goods_release_id, zone_name) values ($1, $2) returning zone_id id', [std, '标准版区域']);
    await t.database.sql.query(`insert into card_zone_blocks (iccid, kind, target_id, blocked_by) values ($1, 'zone', $2, 'admin')`, [iccid, z.id]);
    expect(checkOf((await t.call(DIAG, { iccid }, { token: admin, lang: 'zh' })).body.data, 'zoneLimits').explanation.zh).toContain('标准版区域');
    // a card without a plan (or its operation mode) counts as standard and is diagnosed too
    const unset = await card({ plan: null });
    await t.database.sql.query('update cards set operation_mode = null where iccid = $1', [unset]);
    const bare = (await t.call(DIAG, { iccid: unset }, { token: admin })).body.data;
    expect(checkOf(bare, 'planQuota')).toMatchObject({ verdict: V.Problem, actionKind: 'changePlan' });
    expect(checkOf(bare, 'policy').verdict).toBe(V.NotApplicable);
    // each diagnosis is recorded and audited like a professional card's
    expect(await diagnosesOf(iccid)).toBe(3);
    expect(await count(`select count(*) n from audit_log where entity = 'cardDiagnosis' and after->>'iccid' = $1`, [iccid])).toBe(3);
    // the advanced diagnosis checks the operator's gateway for a standard card too (no access configuration here)
    expect(checkOf((await t.call(ADVANCED, { iccid }, { token: admin })).body.data, 'operator').actionKind).toBe('accessConfig');
  });

  it("professional cards: the communication policy the platform's network applies to them", async () => {
    const ok = checkOf((await t.call(DIAG, { iccid: await card({ online: true }) }, { token: admin, lang: 'en' })).body.data, 'policy');
    expect(ok.verdict).toBe(V.Ok);
    expect(ok.explanation.en).toContain('2 communication service(s) in 2 zone(s)');
    // a plan whose zones carry no data service: the professional network lets nothing through
    const empty = await plan({ code: 'PRO-DIAG-EMPTY', mode: PlanOperationMode.Professional, zone: '空区域' });
    const none = checkOf((await t.call(DIAG, { iccid: await card({ plan: empty }) }, { token: admin, lang: 'en' })).body.data, 'policy');
    expect(none).toMatchObject({ verdict: V.Problem, actionKind: 'commservConfig' });
    expect(none.explanation.en).toMatch(/no enabled data service/);
    // a directional data service without whitelist addresses, and a service without a QoS: warnings naming them
    const closed = await plan({ code: 'PRO-DIAG-CLOSED', mode: PlanOperationMode.Professional, zone: '封闭区域' });
    const [svc] = await t.database.sql.query<{ id: number }>(
      `insert into comm_services (commserv_name, commserv_type, directional, priority, whitelist, created_by) values ('封闭定向数据', 1, true, 3, '{}', 'test') returning commserv_id id`);
    await t.database.sql.query(
      `insert into plan_zone_services (goods_release_id, zone_id, commserv_id) select $1, zone_id, $2 from plan_zones where goods_release_id = $1`, [closed, svc.id]);
    const warn = checkOf((await t.call(DIAG, { iccid: await card({ plan: closed }) }, { token: admin, lang: 'zh' })).body.data, 'policy');
    expect(warn).toMatchObject({ verdict: V.Warning, actionKind: 'commservConfig' });
    expect(warn.explanation.zh).toContain('封闭定向数据（封闭区域）');
    await t.database.sql.query(`update comm_services set whitelist = '{10.0.0.1}' where commserv_id = $1`, [svc.id]);
    const noQos = checkOf((await t.call(DIAG, { iccid: await card({ plan: closed }) }, { token: admin, lang: 'en' })).body.data, 'policy');
    expect(noQos.verdict).toBe(V.Warning);
    expect(noQos.explanation.en).toContain('no QoS configured: 封闭定向数据 (封闭区域)');
  });

  it('refuses start-state cards as unsupported', async () => {
    const iccid = await card({ state: CardState.Start });
    const r = await t.call(DIAG, { iccid }, { token: admin, lang: 'en' });
    expect(r.body).toMatchObject({ success: false, errorCode: ErrorCode.CardStartStateUnsupported, msg: 'Cards in start state are not supported' });
  });

  it('diagnoses a healthy activated card: every check answered, the diagnosis recorded and audited', async () => {
    const iccid = await card({ online: true, lastSessionHoursAgo: 0 });
    const r = await t.call(DIAG, { iccid }, { token: enterprise, lang: 'zh' });
    expect(r.body.success).toBe(true);
    const d = r.body.data;
    expect(d).toMatchObject({ iccid, state: CardState.Activated, planName: '专业版诊断测试 1GB', advanced: false, diagnosedBy: 'enterprise' });
    expect(d.checks.map((c: Check) => c.key)).toEqual([...diagnose.DIAGNOSE_CHECKS]);
    for (const c of d.checks as Check[]) {
      expect(c.explanation.zh.length).toBeGreaterThan(3);
      expect(c.explanation.en.length).toBeGreaterThan(3);
    }
    expect(checkOf(d, 'cardState').verdict).toBe(V.Ok);
    expect(checkOf(d, 'planQuota').verdict).toBe(V.Ok);
    expect(checkOf(d, 'zoneLimits').verdict).toBe(V.Ok);
    expect(checkOf(d, 'session').verdict).toBe(V.Ok);
    // China Telecom has no access configuration in the demo data: changes stay on the platform
    const op = checkOf(d, 'operator');
    expect(op).toMatchObject({ verdict: V.Warning, actionKind: 'accessConfig' });
    expect(op.explanation.en).toMatch(/no access configuration/);
    expect(d.overall).toBe(V.Warning);
    expect(d.networkReset).toMatchObject({ supported: true, lastAt: null, nextAllowedAt: null });
    expect(d.stateActions).toEqual([{ action: 'deactivate', toState: CardState.Deactivated }]);

    const [rec] = await t.database.sql.query<{ diagnosis_id: string; login_name: string; overall: number; card_state: number; cust_id: number; result: { checks: Check[] } }>(
      'select diagnosis_id, login_name, overall, card_state, cust_id, result from card_diagnoses where iccid = $1', [iccid]);
    expect(rec).toMatchObject({ diagnosis_id: d.diagnosisId, login_name: 'enterprise', overall: V.Warning, card_state: CardState.Activated, cust_id: ent.cust_id });
    expect(rec.result.checks.map((c) => c.verdict)).toEqual(d.checks.map((c: Check) => c.verdict));
    expect(await count(`select count(*) n from audit_log where entity = 'cardDiagnosis' and entity_id = $1 and login_name = 'enterprise'`, [d.diagnosisId])).toBe(1);
  });

  it('a deactivated card: state and zones are problems, with change status suggested', async () => {
    const iccid = await card({ state: CardState.Deactivated });
    for (const z of zones) {
      await t.database.sql.query(`insert into card_zone_blocks (iccid, kind, target_id, by_deactivation, blocked_by) values ($1, 'zone', $2, true, 'admin')`, [iccid, z]);
    }
    const d = (await t.call(DIAG, { iccid }, { token: admin })).body.data;
    expect(checkOf(d, 'cardState')).toMatchObject({ verdict: V.Problem, actionKind: 'changeStatus' });
    const zone = checkOf(d, 'zoneLimits');
    expect(zone).toMatchObject({ verdict: V.Problem, actionKind: 'changeStatus' });
    expect(zone.explanation.en).toMatch(/all 2 zones/);
    expect(zone.facts.map((f) => f.key)).toEqual(zones.map((z) => `zone:${z}`));
    // a deactivated card is not expected to have sessions
    expect(checkOf(d, 'session').verdict).toBe(V.Ok);
    expect(d.overall).toBe(V.Problem);
    expect(d.networkReset.supported).toBe(false);
    expect(d.stateActions.map((a: { action: string }) => a.action)).toEqual(['activate']);
  });

  it('user zone blocks are a warning naming the zone; every zone blocked is a problem', async () => {
    const iccid = await card({ online: true });
    await t.database.sql.query(`insert into card_zone_blocks (iccid, kind, target_id, blocked_by) values ($1, 'zone', $2, 'admin')`, [iccid, zones[1]]);
    const one = checkOf((await t.call(DIAG, { iccid }, { token: admin, lang: 'zh' })).body.data, 'zoneLimits');
    expect(one).toMatchObject({ verdict: V.Warning, actionKind: 'permitZones' });
    expect(one.explanation.zh).toContain('企业专网');
    await t.database.sql.query(`insert into card_zone_blocks (iccid, kind, target_id, blocked_by) values ($1, 'zone', $2, 'admin'), ($1, 'network', 2, 'admin')`, [iccid, zones[0]]);
    const all = checkOf((await t.call(DIAG, { iccid }, { token: admin })).body.data, 'zoneLimits');
    expect(all.verdict).toBe(V.Problem);
    expect(all.explanation.en).toMatch(/Every zone of the plan is blocked/);
    expect(all.explanation.en).toContain('4G (network)');
  });

  it('states before activation and a card without a plan get their own verdicts', async () => {
    const ready = await card({ state: CardState.ActivationReady });
    const d = (await t.call(DIAG, { iccid: ready }, { token: admin })).body.data;
    expect(checkOf(d, 'cardState')).toMatchObject({ verdict: V.Warning, actionKind: 'changeStatus' });
    expect(checkOf(d, 'planQuota').verdict).toBe(V.Ok);
    const noPlan = await card({ plan: null });
    const p = checkOf((await t.call(DIAG, { iccid: noPlan }, { token: admin })).body.data, 'planQuota');
    expect(p).toMatchObject({ verdict: V.Problem, actionKind: 'changePlan' });
    // activated with its contract over: no valid cycle
    const ended = await card();
    await t.database.sql.query(`update cards set cycle_start_at = now() - interval '40 days', cycle_end_at = now() - interval '10 days' where iccid = $1`, [ended]);
    expect(checkOf((await t.call(DIAG, { iccid: ended }, { token: admin })).body.data, 'planQuota')).toMatchObject({ verdict: V.Problem, actionKind: 'renew' });
  });

  it('an activated card silent for more than 3 days suggests a network reset', async () => {
    const iccid = await card({ online: false, lastSessionHoursAgo: 100 });
    const s = checkOf((await t.call(DIAG, { iccid }, { token: admin })).body.data, 'session');
    expect(s).toMatchObject({ verdict: V.Warning, actionKind: 'networkReset' });
    const recent = await card({ online: false, lastSessionHoursAgo: 20 });
    expect(checkOf((await t.call(DIAG, { iccid: recent }, { token: admin })).body.data, 'session').verdict).toBe(V.Ok);
  });

  it("quota: this cycle's usage against the plan and its event packs", async () => {
    const iccid = await card({ online: true });
    const day = (ms: number) => new Date(ms + 8 * 3_600_000).toISOString().slice(0, 10);
    const usage = (d: string, mb: number) => t.database.sql.query(
      `insert into card_usage_daily (iccid, day, bytes_down, bytes, apn, operator_id, cust_id, root_cust_id) values ($1, $2, $3, $3, 'ctnet', $4, $5, $6)`,
      [iccid, d, mb * 1_048_576, Operator.ChinaTelecom, ent.cust_id, ent.root_cust_id]);
    // a day before the cycle does not count
    await usage(day(Date.now() - 20 * DAY), 5000);
    await usage(day(Date.now()), 900);
    const warn = checkOf((await t.call(DIAG, { iccid }, { token: admin, lang: 'en' })).body.data, 'planQuota');
    expect(warn).toMatchObject({ verdict: V.Warning, actionKind: 'orderEventPack' });
    expect(warn.explanation.en).toContain('87.9% of 1 GB');
    expect(warn.facts.find((f) => f.key === 'usedMb')?.value).toBe('900');
    await usage(day(Date.now() - DAY), 200);
    const out = checkOf((await t.call(DIAG, { iccid }, { token: admin, lang: 'zh' })).body.data, 'planQuota');
    expect(out).toMatchObject({ verdict: V.Problem, actionKind: 'orderEventPack' });
    expect(out.explanation.zh).toContain('本周期流量已用尽（1.07 GB / 1 GB）');
    // an event pack valid now adds its quota
    const [pack] = await t.database.sql.query<{ id: number }>(`select goods_release_id id from basic_plans where code = 'CTCC-EV5G'`);
    await t.database.sql.query(`insert into card_event_packs (iccid, pack_id, starts_at, ends_at) values ($1, $2, now() - interval '1 day', now() + interval '20 days')`, [iccid, pack.id]);
    const packed = checkOf((await t.call(DIAG, { iccid }, { token: admin })).body.data, 'planQuota');
    expect(packed.verdict).toBe(V.Ok);
    expect(packed.facts.find((f) => f.key === 'packsMb')?.value).toBe('5120');
  });

  it("sessions: the last session's APN against the plan's; an open session is online", async () => {
    const iccid = await card({ online: false });
    const session = (id: string, minutesAgo: number, apn: string, open: boolean) => t.database.sql.query(
      `insert into card_sessions (iccid, session_id, started_at, ended_at, reported_at, apn, bytes_up, bytes_down, operator_id, cust_id, root_cust_id)
       values ($1, $2, now() - make_interval(mins => $3), ${open ? 'null' : 'now() - make_interval(mins => $3 - 5)'}, now(), $4, 1000, 2000000, $5, $6, $7)`,
      [iccid, id, minutesAgo, apn, Operator.ChinaTelecom, ent.cust_id, ent.root_cust_id]);
    await session('s1', 120, 'ctnet', false);
    await session('s2', 30, 'wrong.apn', false);
    const wrong = checkOf((await t.call(DIAG, { iccid }, { token: admin, lang: 'en' })).body.data, 'session');
    expect(wrong).toMatchObject({ verdict: V.Problem, actionKind: 'checkDevice' });
    expect(wrong.explanation.en).toContain('"wrong.apn"');
    expect(wrong.facts.find((f) => f.key === 'sessions3d')?.value).toBe('2');
    await session('s3', 10, 'CTNET', true);
    const online = checkOf((await t.call(DIAG, { iccid }, { token: admin, lang: 'en' })).body.data, 'session');
    expect(online.verdict).toBe(V.Ok);
    expect(online.explanation.en).toMatch(/^The card is online; the current session started at .* on APN CTNET\.$/);
    expect(online.facts.find((f) => f.key === 'online')?.value).toBe('true');
  });

  it('network reset: once, then refused within 3 minutes with the spec message, allowed again after', async () => {
    const iccid = await card();
    const first = await t.call(RESET, { iccid }, { token: enterprise });
    expect(first.body.success).toBe(true);
    expect(first.body.data).toMatchObject({ iccid, sentToOperator: false, requestId: null });
    expect(new Date(first.body.data.nextAllowedAt).getTime() - new Date(first.body.data.resetAt).getTime()).toBe(3 * 60_000);
    const [row] = await t.database.sql.query<{ last_network_reset_at: Date }>('select last_network_reset_at from cards where iccid = $1', [iccid]);
    expect(new Date(row.last_network_reset_at).toISOString()).toBe(first.body.data.resetAt);

    for (const [lang, msg] of [['zh', '网络重置间隔不能少于 3 分钟'], ['en', 'Network reset is not possible more often than every 3 minutes']] as const) {
      const again = await t.call(RESET, { iccid }, { token: enterprise, lang });
      expect(again.body).toMatchObject({ success: false, errorCode: ErrorCode.CardNetworkResetTooSoon, msg });
    }
    // the diagnosis shows when the next reset is allowed
    const d = (await t.call(DIAG, { iccid }, { token: enterprise })).body.data;
    expect(d.networkReset.nextAllowedAt).toBe(first.body.data.nextAllowedAt);

    await t.database.sql.query(`update cards set last_network_reset_at = now() - interval '181 seconds' where iccid = $1`, [iccid]);
    expect((await t.call(RESET, { iccid }, { token: enterprise })).body.success).toBe(true);
    expect(await count(`select count(*) n from audit_log where entity = 'card' and entity_id = $1 and after->>'action' = 'networkReset'`, [iccid])).toBe(2);

    // only test or activated cards
    const idle = await card({ state: CardState.Inventory });
    const refused = await t.call(RESET, { iccid: idle }, { token: enterprise, lang: 'en' });
    expect(refused.body).toMatchObject({ success: false, errorCode: ErrorCode.CardOperationUnsupported });
    expect((await t.database.sql.query<{ r: Date | null }>('select last_network_reset_at r from cards where iccid = $1', [idle]))[0].r).toBeNull();
  });

  it('with an access configuration: advanced diagnosis calls the gateway live; reset is sent, and a refusal says so', async () => {
    const saved = await t.call('network/operatorsAccount/save', {
      operatorId: Operator.ChinaMobile, accountName: '诊断演练', endpointUrl: 'https://api.onelink.example.com/openapi', apiVersion: 'v2',
      adapter: 'simulator', appKey: APP_KEY, appSecret: simulatorSecretFor(APP_KEY), password: 'Plain-Password-Diag-2026', simFailIccidPattern: '8986026600*',
    }, { token: admin });
    expect(saved.body.success).toBe(true);
    const iccid = await card({ operatorId: Operator.ChinaMobile, online: true });
    const basic = checkOf((await t.call(DIAG, { iccid }, { token: admin })).body.data, 'operator');
    expect(basic).toMatchObject({ verdict: V.Ok, actionKind: 'advancedDiagnosis' });
    const adv = await t.call(ADVANCED, { iccid }, { token: admin, lang: 'en' });
    expect(adv.body.data.advanced).toBe(true);
    const live = checkOf(adv.body.data, 'operator');
    expect(live.verdict).toBe(V.Ok);
    expect(live.explanation.en).toMatch(/Lynx network simulator v2/);
    expect(live.facts.find((f) => f.key === 'liveLatencyMs')?.value).toMatch(/^\d+$/);

    const reset = await t.call(RESET, { iccid }, { token: admin });
    expect(reset.body.data.sentToOperator).toBe(true);
    expect(reset.body.data.requestId).toMatch(/^SIM-/);

    const failing = await card({ operatorId: Operator.ChinaMobile, prefix: '8986026600' });
    const refused = await t.call(RESET, { iccid: failing }, { token: admin, lang: 'en' });
    expect(refused.body).toMatchObject({ success: false, errorCode: ErrorCode.DiagnoseResetRefused });
    expect(refused.body.msg).toMatch(/^The operator refused the network reset: /);
    expect((await t.database.sql.query<{ r: Date | null }>('select last_network_reset_at r from cards where iccid = $1', [failing]))[0].r).toBeNull();
    // the refusal is an open change failure, which the next diagnosis points out
    const op = checkOf((await t.call(DIAG, { iccid: failing }, { token: admin })).body.data, 'operator');
    expect(op).toMatchObject({ verdict: V.Warning, actionKind: 'changeFailures' });

    // a broken secret: the live check is a problem
    await t.database.sql.query(`update operator_accounts set api_version = 'v3' where account_name = '诊断演练'`);
    const broken = checkOf((await t.call(ADVANCED, { iccid }, { token: admin })).body.data, 'operator');
    expect(broken.verdict).toBe(V.Problem);
    expect(broken.explanation.en).toMatch(/UNSUPPORTED_VERSION/);
  });

  it("tenant isolation: another customer's card, a stock card and a missing card all answer 20005; records too", async () => {
    const foreign = await card({ owner: chan });
    const stock = await card({ owner: null });
    const mine = await card({ owner: east });
    expect((await t.call(DIAG, { iccid: foreign }, { token: channel })).body.success).toBe(true);
    for (const iccid of [foreign, stock, '89860377009999999999']) {
      for (const ep of [DIAG, ADVANCED, RESET, RECORDS]) {
        const r = await t.call(ep, { iccid }, { token: enterprise, lang: 'en' });
        expect(r.body, `${ep} ${iccid}`).toMatchObject({ success: false, errorCode: ErrorCode.NotFound, msg: 'Record not found' });
      }
      expect((await t.call(CHANGE, { iccid, action: 'deactivate' }, { token: enterprise })).body.errorCode).toBe(ErrorCode.NotFound);
    }
    const [rec] = await t.database.sql.query<{ diagnosis_id: string }>('select diagnosis_id from card_diagnoses where iccid = $1', [foreign]);
    expect((await t.call(RECORD, { iccid: foreign, diagnosisId: rec.diagnosis_id }, { token: enterprise })).body.errorCode).toBe(ErrorCode.NotFound);
    // a second-level customer sees its own cards only, not its parent's
    expect((await t.call(DIAG, { iccid: mine }, { token: sub })).body.success).toBe(true);
    const parents = await card({ owner: ent });
    expect((await t.call(DIAG, { iccid: parents }, { token: sub })).body.errorCode).toBe(ErrorCode.NotFound);
    // the channel customer reset nothing of the enterprise's
    expect((await t.database.sql.query<{ r: Date | null }>('select last_network_reset_at r from cards where iccid = $1', [foreign]))[0].r).toBeNull();
  });

  it('records: newest first with their verdicts; the detail is the answer as it was given', async () => {
    const iccid = await card({ online: true });
    const a = (await t.call(DIAG, { iccid }, { token: enterprise })).body.data;
    await t.database.sql.query('update cards set state = $2 where iccid = $1', [iccid, CardState.Deactivated]);
    const b = (await t.call(DIAG, { iccid }, { token: admin })).body.data;
    const page = await t.call(RECORDS, { iccid, current: 1, pageSize: 10 }, { token: enterprise });
    expect(page.body.data.total).toBe(2);
    expect(page.body.data.list.map((r: { diagnosisId: string }) => r.diagnosisId)).toEqual([b.diagnosisId, a.diagnosisId]);
    expect(page.body.data.list[0]).toMatchObject({ loginName: 'admin', state: CardState.Deactivated, overall: V.Problem });
    expect(page.body.data.list[1].verdicts).toEqual(a.checks.map((c: Check) => ({ key: c.key, verdict: c.verdict })));
    const detail = await t.call(RECORD, { iccid, diagnosisId: a.diagnosisId }, { token: enterprise });
    expect(detail.body.data).toEqual(a);
  });

  it('permission codes: page 6050000, advanced and reset 6050001, change status 6050002', async () => {
    const roleOf = async (code: string, permissions: number[]) => {
      const role = await t.call('system/role/saveRole', { roleCode: code, roleName: code, roleType: RoleType.Manager, permissions }, { token: admin });
      expect(role.body.success).toBe(true);
      const login = code.toLowerCase();
      const acc = await t.call('core/account/account/saveAccount', { loginName: login, userName: code, roleId: role.body.data.roleId, password: 'Diag#2026pass' }, { token: admin });
      expect(acc.body.success).toBe(true);
      return t.login(login, 'Diag#2026pass');
    };
    const pageOnly = await roleOf('DIAGPAGE', [6000000, 6050000]);
    const withStatus = await roleOf('DIAGSTATUS', [6000000, 6050000, 6050002]);
    const none = await roleOf('DIAGNONE', [2000000, 2010000]);
    const iccid = await card({ online: true });
    expect((await t.call(DIAG, { iccid }, { token: pageOnly })).body.success).toBe(true);
    expect((await t.call(RECORDS, { iccid }, { token: pageOnly })).body.success).toBe(true);
    for (const ep of [ADVANCED, RESET]) expect((await t.call(ep, { iccid }, { token: pageOnly })).body.errorCode).toBe(ErrorCode.PermissionDenied);
    expect((await t.call(CHANGE, { iccid, action: 'deactivate' }, { token: pageOnly })).body.errorCode).toBe(ErrorCode.PermissionDenied);
    expect((await t.call(DIAG, { iccid }, { token: none })).body.errorCode).toBe(ErrorCode.PermissionDenied);
    // 6050002 reaches the card service's state change (history, audit) like the card list's button
    const changed = await t.call(CHANGE, { iccid, action: 'deactivate', reason: '诊断后停机' }, { token: withStatus });
    expect(changed.body.data).toMatchObject({ fromState: CardState.Activated, toState: CardState.Deactivated });
    expect(await count('select count(*) n from card_history where iccid = $1 and to_state = $2', [iccid, CardState.Deactivated])).toBe(1);
  });

  it('rejects bad input: ICCID not 19-20 digits, unknown fields', async () => {
    expect((await t.call(DIAG, { iccid: '12345' }, { token: admin })).status).toBe(400);
    expect((await t.call(DIAG, { iccid: '89860377000000000001', extra: 1 }, { token: admin })).body.errorCode).toBe(ErrorCode.UnknownField);
    expect((await t.call(RECORD, { iccid: '89860377000000000001', diagnosisId: 'nope' }, { token: admin })).status).toBe(400);
  });
});
