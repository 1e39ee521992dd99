import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import {
  AutoRuleAction as Action, AutoRuleActionResult, AutoRuleChannel as Channel, AutoRuleDeliveryState as DState, AutoRuleStatus, AutoRuleTargetState,
  AutoRuleRunKind, AutoRuleType as Type, CardActionKind, CardChangeSource, CardState, ErrorCode, PlanCycleUnit, PlanGoodsType, WebhookDeliveryState,
  WebhookEventType,
} from '@lynx/contract';
import { backends, callOk, iccidsOf, insertCards, ownerOf, startTestApp, type Owner, type TestApp } from '../../../test/harness.ts';
import { continueRun, createRun, resumeStaleRuns, runRules, type EngineDeps } from './engine/scan.ts';
import { dryRunAll } from './engine/dry-run.ts';
import { dayOf, engineRule } from './engine/rule-sql.ts';
import { dispatchDeliveries, notifiersFor } from './delivery/notifier.ts';

/**
 * Issue 15, automation rules (docs/automation.md): the §5 contact limits with their messages in both languages, the
 * rule lifecycle with audit, every rule type at its boundary, the §9 exclusion of short prepaid cycles, once per card
 * per rule under two concurrent runs and across a run killed half way, the dry run against real runs day by day, card
 * actions through the card service, notifications per card × channel, and tenancy on every endpoint.
 */
const R = 'core/alarm/rule/';
const A = 'core/alarm/alarm/';
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const MB = 1_048_576;

describe.each(backends)('automation rules on %s', (backend) => {
  let t: TestApp;
  let admin: string;
  let enterprise: string;
  let channel: string;
  let sub: string;
  let zx: Owner;
  let hd: Owner;
  let engine: EngineDeps;
  let seq = 0;
  const q = async <T = Record<string, any>>(text: string, params: unknown[] = []) => (await t.database.sql.query<T>(text, params)) as T[];
  const base = { level: 2, action: Action.NotifyOnly, channels: [Channel.Webhook] };
  const addRule = (body: Record<string, unknown>, token = admin) =>
    callOk(t, `${R}saveRule`, { name: `rule ${++seq}`, ...base, ...body }, token);
  const live = async (body: Record<string, unknown>, token = admin, activeFrom?: Date) => {
    const r = await addRule(body, token);
    await callOk(t, `${R}publishRule`, { ruleId: r.ruleId }, token);
    if (activeFrom) await q('update autorules set active_from = $2 where rule_id = $1', [r.ruleId, activeFrom]);
    return r.ruleId as number;
  };
  const actionRecords = async (body: Record<string, string | number>, token: string) => (await t.call(`${A}getActionRecords`, body, { token })).body;
  const recorded = async (ruleId: number) =>
    (await q<{ iccid: string }>('select iccid from autorule_alarm_cards where rule_id = $1 order by iccid, period_key', [ruleId])).map((r) => r.iccid);
  let plan: number;
  const makePlan = async (code: string, p: { goodsType?: number; cycleUnit?: number; cycleValue?: number; quotaMb?: number } = {}) => {
    const [row] = await q<{ id: number }>(`insert into basic_plans (code, name, goods_type, tariff_type, sale_price, cycle_unit, cycle_value, quota_mb, operator_id, created_by, status)
      values ($1, $1, $2, 0, 10, $3, $4, $5, 1, 'test', 2) returning goods_release_id as id`,
    [code, p.goodsType ?? PlanGoodsType.Monthly, p.cycleUnit ?? PlanCycleUnit.Month, p.cycleValue ?? 1, p.quotaMb ?? 100]);
    return Number(row.id);
  };
  let block = 0;
  /** fresh cards of a customer, on `plan`, activated */
  const cards = async (n: number, owner: Owner | null = zx, o: { plan?: number; state?: number } = {}) =>
    insertCards(t, iccidsOf(`8986159${String(++block).padStart(3, '0')}`, 1, n), { state: o.state ?? CardState.Activated, owner, operatorId: 1, plan: o.plan ?? plan });

  beforeAll(async () => {
    t = await startTestApp(backend);
    [admin, enterprise, channel, sub] = await Promise.all(['admin', 'enterprise', 'channel', 'subcustomer'].map((l) => t.login(l)));
    zx = await ownerOf(t, 'enterprise');
    hd = await ownerOf(t, 'channel');
    engine = { db: t.deps.db, config: t.config };
    plan = await makePlan('AR-M100');
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('refuses contacts beyond the §5 limits with their messages, in both languages, writing nothing', async () => {
    const before = (await q<{ n: string }>('select count(*) as n from autorules'))[0].n;
    const six = ['13800138001', '13800138002', '13800138003', '13800138004', '13800138005', '13800138006'].join(';');
    const body = { name: 'contacts', ruleType: Type.PlanChanged, ...base, channels: [Channel.Sms, Channel.Email] };
    const cases: [Record<string, unknown>, string, string][] = [
      [{ phones: six, emails: 'a@b.cn' }, '字段 phones：最多填写 5 个', 'Field phones: At most 5 entries are allowed'],
      [{ phones: '13800138001', emails: 'a1@b.cn;a2@b.cn;a3@b.cn;a4@b.cn;a5@b.cn;a6@b.cn' }, '字段 emails：最多填写 5 个', 'Field emails: At most 5 entries are allowed'],
      [{ phones: '13800138001; 13800138002', emails: 'a@b.cn' }, '字段 phones：不能包含空格', 'Field phones: Spaces are not allowed'],
      [{ phones: '13800138001', emails: 'a@b.cn; c@d.cn' }, '字段 emails：不能包含空格', 'Field emails: Spaces are not allowed'],
      [{ phones: '13800138001,13800138002', emails: 'a@b.cn' }, '字段 phones：手机号格式错误：13800138001,13800138002', 'Field phones: Invalid phone number: 13800138001,13800138002'],
      [{ phones: '13800138001', emails: 'a@b.cn;;c@d.cn' }, '字段 emails：分号之间不能为空', 'Field emails: Empty entries between semicolons are not allowed'],
    ];
    for (const [extra, zh, en] of cases) {
      const z = await t.call(`${R}saveRule`, { ...body, ...extra }, { token: admin, lang: 'zh' });
      expect(z.body).toMatchObject({ success: false, errorCode: ErrorCode.Validation, msg: zh });
      const e = await t.call(`${R}saveRule`, { ...body, ...extra }, { token: admin, lang: 'en' });
      expect(e.body.msg).toBe(en);
    }
    // five of each, ';'-separated, is the most a rule takes
    const five = six.split(';').slice(0, 5).join(';');
    const ok = await addRule({ ruleType: Type.PlanChanged, channels: [Channel.Sms, Channel.Email], phones: five, emails: 'a1@b.cn;a2@b.cn;a3@b.cn;a4@b.cn;a5@b.cn' });
    expect(ok.phones).toBe(five);
    // a channel without its contacts, a notify-only rule without a channel, a threshold out of its range
    const noPhones = await t.call(`${R}saveRule`, { ...body, emails: 'a@b.cn' }, { token: admin, lang: 'en' });
    expect(noPhones.body).toMatchObject({ errorCode: ErrorCode.AutoRuleContactsRequired, msg: 'Notifying by SMS needs phone numbers' });
    const silent = await t.call(`${R}saveRule`, { ...body, channels: [] }, { token: admin, lang: 'zh' });
    expect(silent.body).toMatchObject({ errorCode: ErrorCode.AutoRuleChannelRequired, msg: '仅通知的规则须至少选择一种通知方式' });
    for (const threshold of [0, 1001, null]) {
      const r = await t.call(`${R}saveRule`, { name: 'x', ruleType: Type.DataUsage, ...base, threshold }, { token: admin, lang: 'zh' });
      expect(r.body).toMatchObject({ errorCode: ErrorCode.AutoRuleThresholdInvalid, msg: '流量使用率规则的阈值须为 1-1000 %' });
    }
    const target = await t.call(`${R}saveRule`, { name: 'x', ruleType: Type.PlanChanged, level: 1, action: Action.ChangeState }, { token: admin, lang: 'en' });
    expect(target.body).toMatchObject({ errorCode: ErrorCode.AutoRuleTargetRequired, msg: 'Choose the target state' });
    expect(Number((await q<{ n: string }>('select count(*) as n from autorules'))[0].n)).toBe(Number(before) + 1);
  });

  it('adds, edits, publishes, switches and deletes a rule, each with an audit record', async () => {
    const r = await addRule({ ruleType: Type.NoSession, threshold: 48 }, enterprise);
    expect(r).toMatchObject({ status: AutoRuleStatus.Draft, enabled: 0, ownerCustId: zx.cust_id, threshold: 48 });
    const draftSwitch = await t.call(`${R}switchRule`, { ruleId: r.ruleId, enabled: 1 }, { token: enterprise, lang: 'en' });
    expect(draftSwitch.body).toMatchObject({ errorCode: ErrorCode.AutoRuleNotPublished, msg: 'The rule is not published yet; publish it first' });
    const edited = await callOk(t, `${R}updateRule`, { ruleId: r.ruleId, name: 'silent 72h', ruleType: Type.NoSession, level: 3, threshold: 72, action: Action.NetworkReset }, enterprise);
    expect(edited).toMatchObject({ name: 'silent 72h', level: 3, threshold: 72, action: Action.NetworkReset, channels: [] });
    const pub = await callOk(t, `${R}publishRule`, { ruleId: r.ruleId }, enterprise);
    expect(pub).toMatchObject({ status: AutoRuleStatus.Published, enabled: 1 });
    expect(pub.publishedAt).toBeTruthy();
    expect(await callOk(t, `${R}switchRule`, { ruleId: r.ruleId, enabled: 0 }, enterprise)).toMatchObject({ enabled: 0 });
    const list = await callOk(t, `${R}getRuleListPage`, { name: 'silent 72h' }, enterprise);
    expect(list.list.map((x: { ruleId: number }) => x.ruleId)).toEqual([r.ruleId]);
    await callOk(t, `${R}deleteRule`, { ruleId: r.ruleId }, enterprise);
    expect((await t.call(`${R}getRuleDetail`, { ruleId: r.ruleId }, { token: enterprise })).body.errorCode).toBe(ErrorCode.NotFound);
    const audits = await q<{ n: string }>(`select count(*) as n from audit_log where entity = 'autoRule' and entity_id = $1`, [String(r.ruleId)]);
    expect(Number(audits[0].n)).toBe(5);
  });

  it('triggers each rule type at its boundary, once per card per rule', async () => {
    const asOf = new Date(Date.now() - HOUR);
    const on = new Date(asOf.getTime() - 2 * DAY);
    const today = dayOf(asOf);
    const run = (ids: number[], at = asOf) => runRules(engine, ids, at, { chunkCards: 200 });

    // data: exactly 80 % of the quota triggers, one byte less does not
    const [d80, d79] = await cards(2);
    await q(`update cards set cycle_next_at = now() + interval '1 day', cycle_from = $2::date - 3, cycle_to = $2::date + 20, cycle_quota_bytes = 100 * ${MB},
      cycle_used_bytes = case when iccid = $1 then 80 * ${MB} else 80 * ${MB} - 1 end where iccid = any($3)`, [d80, today, [d80, d79]]);
    const data = await live({ ruleType: Type.DataUsage, threshold: 80, scopeCustId: zx.cust_id, scopePlanId: plan });
    // SMS over 10: 11 messages in the cycle trigger, 10 do not
    const [s11, s10] = await cards(2);
    await q(`update cards set cycle_next_at = now() + interval '1 day', cycle_from = $1::date - 3, cycle_to = $1::date + 20 where iccid = any($2)`, [today, [s11, s10]]);
    await q(`insert into card_usage_daily (iccid, day, sms, apn, operator_id, cust_id, root_cust_id)
      select i, $1::date - k, case when i = $2 and k = 0 then 6 else 5 end, 'cmiot', 1, $4, $5
      from unnest($3::text[]) i, generate_series(0, 1) k`, [today, s11, [s11, s10], zx.cust_id, zx.root_cust_id]);
    // the cards' cycle SMS count, as the feed's writer keeps it with the daily rows (usage-write.ts)
    await q(`update cards set cycle_sms = case when iccid = $1 then 11 else 10 end where iccid = any($2)`, [s11, [s11, s10]]);
    const sms = await live({ ruleType: Type.SmsOver, threshold: 10, scopePlanId: plan });
    // cycle due in 7 days: a contract ending exactly 7 days on triggers, a second later does not
    const [c7, c8] = await cards(2);
    await q(`update cards set contract_end_at = $2::timestamptz + interval '7 days' + case when iccid = $1 then interval '0' else interval '1 second' end
      where iccid = any($3)`, [c7, asOf, [c7, c8]]);
    const due = await live({ ruleType: Type.CycleDue, threshold: 7, scopePlanId: plan });
    // no session for 24 hours: exactly 24 hours triggers, a second less does not
    const [n24, n23] = await cards(2);
    await q(`update cards set last_session_at = $2::timestamptz - interval '24 hours' + case when iccid = $1 then interval '0' else interval '1 second' end
      where iccid = any($3)`, [n24, asOf, [n24, n23]]);
    const silent = await live({ ruleType: Type.NoSession, threshold: 24, scopePlanId: plan });
    // pool at 90 %: the pool's cards trigger; a pool at 89.99 % does not
    const [p90, p89] = await cards(2);
    for (const [iccid, used] of [[p90, 9000], [p89, 8999]] as const) {
      const [pool] = await q<{ pool_id: number }>(`insert into card_pools (name, cust_id, root_cust_id, operator_id, created_by, quota_bytes, used_bytes, cycle_start, member_count)
        values ($1, $2, $3, 1, 'test', 10000, $4, now(), 1) returning pool_id`, [`pool ${iccid}`, zx.cust_id, zx.root_cust_id, used]);
      await q('update cards set pool_id = $2 where iccid = $1', [iccid, pool.pool_id]);
    }
    const pool = await live({ ruleType: Type.PoolUsage, threshold: 90, scopePlanId: plan });
    // state changed to deactivated (65) after the rule was switched on; plan changed
    const [st, st2, pc] = await cards(3);
    const hist = (iccid: string, from: number, to: number, at: Date, action: number | null = null) =>
      q(`insert into card_history (iccid, from_state, to_state, action, source, at) values ($1, $2, $3, $4, ${CardChangeSource.User}, $5)`, [iccid, from, to, action, at]);
    await hist(st, 64, 65, new Date(on.getTime() + HOUR));
    await hist(st2, 65, 64, new Date(on.getTime() + HOUR));
    await hist(st2, 64, 65, new Date(on.getTime() - HOUR));
    await hist(pc, 64, 64, new Date(on.getTime() + HOUR), CardActionKind.PlanChanged);
    const state = await live({ ruleType: Type.StateChanged, states: [CardState.Deactivated], scopePlanId: plan }, admin, on);
    const planned = await live({ ruleType: Type.PlanChanged, scopePlanId: plan }, admin, on);
    // IMEI: the first sight is no change; a different IMEI later is
    const [im] = await cards(1);
    await q(`update cards set imei = '860000000000001' where iccid = $1`, [im]);
    const imei = await live({ ruleType: Type.ImeiChanged, scopePlanId: plan }, admin, on);

    const all = [data, sms, due, silent, pool, state, planned, imei];
    await run(all);
    await q(`update cards set imei = '860000000000002' where iccid = $1`, [im]);
    // captured where it happened, once (the first IMEI was no change); dated in the test's clock, at the first run's instant
    const changes = await q<{ old_imei: string; new_imei: string }>('select old_imei, new_imei from autorule_imei_changes where iccid = $1', [im]);
    expect(changes).toEqual([{ old_imei: '860000000000001', new_imei: '860000000000002' }]);
    await q('update autorule_imei_changes set changed_at = $2 where iccid = $1', [im, asOf]);
    // a millisecond later (the IMEI is seen changed), and again: nothing more
    await run(all, new Date(asOf.getTime() + 1));
    await run(all, new Date(asOf.getTime() + 2));
    expect(await recorded(data)).toEqual([d80]);
    expect(await recorded(sms)).toEqual([s11]);
    expect(await recorded(due)).toEqual([c7]);
    expect(await recorded(silent)).toEqual([n24]);
    expect(await recorded(pool)).toEqual([p90]);
    expect(await recorded(state)).toEqual([st]);
    expect(await recorded(planned)).toEqual([pc]);
    expect(await recorded(imei)).toEqual([im]);
    const [alarm] = await q<{ alarm_id: number }>('select alarm_id from autorule_alarm_cards where rule_id = $1', [data]);
    const cardsPage = await callOk(t, `${A}getAlarmCardPage`, { alarmId: Number(alarm.alarm_id) }, admin);
    expect(cardsPage.list).toMatchObject([{ iccid: d80, value: '80.00', actionResult: AutoRuleActionResult.None }]);
  });

  it('checks after a feed window only the cards that can have crossed since the previous check; a rule switched on since, every card', async () => {
    const own = await makePlan('AR-FEED');
    const now = new Date();
    const prev = new Date(now.getTime() - 30 * 60_000);
    const today = dayOf(now);
    const [moved, still, texted, silentNew, silentOld, revived] = await cards(6, zx, { plan: own });
    const all = [moved, still, texted, silentNew, silentOld, revived];
    await q(`update cards set cycle_next_at = now() + interval '1 day', cycle_from = $1::date - 3, cycle_to = $1::date + 20, cycle_quota_bytes = 100 * ${MB},
      cycle_used_bytes = case when iccid = $2 then 90 * ${MB} else 10 * ${MB} end, last_session_at = now() - interval '1 minute' where iccid = any($3)`,
    [today, still, all]);
    // before the previous check: every card's usage of the cycle so far (8 SMS on yesterday's row)
    await q(`insert into card_usage_daily (iccid, day, bytes, sms, apn, operator_id, cust_id, root_cust_id, updated_at)
      select i, $1::date - 1, ${MB}, 8, 'cmiot', 1, $3, $4, $5 from unnest($2::text[]) i`, [today, all, zx.cust_id, zx.root_cust_id, new Date(prev.getTime() - HOUR)]);
    // the window since: `moved` used 75 MB more (85 %), `texted` 5 SMS more (13); `silentNew`'s silence passed 24 hours since the
    // previous check, `silentOld`'s long before it; `revived` was silent long before and activated again since
    await q(`insert into card_usage_daily (iccid, day, bytes, sms, apn, operator_id, cust_id, root_cust_id)
      values ($1, $3::date, 75 * ${MB}, 0, 'cmiot', 1, $4, $5), ($2, $3::date, 0, 5, 'cmiot', 1, $4, $5)`, [moved, texted, today, zx.cust_id, zx.root_cust_id]);
    await q(`update cards set cycle_used_bytes = 85 * ${MB} where iccid = $1`, [moved]);
    await q(`update cards set cycle_sms = case when iccid = $1 then 13 else 8 end where iccid = any($2)`, [texted, all]);
    // the feed's writer marks the cards it moved (usage-write.ts): these two in the window, the others before the previous check
    await q(`update cards set usage_moved_at = case when iccid = any($1) then now() else $3::timestamptz end where iccid = any($2)`,
      [[moved, texted], all, new Date(prev.getTime() - HOUR)]);
    await q(`update cards set last_session_at = now() - interval '24 hours 5 minutes' where iccid = $1`, [silentNew]);
    await q(`update cards set last_session_at = now() - interval '48 hours' where iccid = any($1)`, [[silentOld, revived]]);
    await q(`insert into card_history (iccid, from_state, to_state, source, at) values ($1, 65, 64, ${CardChangeSource.User}, now() - interval '5 minutes')`, [revived]);

    const rules = {
      data: await live({ ruleType: Type.DataUsage, threshold: 80, scopePlanId: own }),
      sms: await live({ ruleType: Type.SmsOver, threshold: 10, scopePlanId: own }),
      silent: await live({ ruleType: Type.NoSession, threshold: 24, scopePlanId: own }),
    };
    // these three were on before the previous check (which saw every card); this one was switched on since
    await q(`update autorules set active_from = now() - interval '2 days', updated_at = now() - interval '2 days' where rule_id = any($1)`, [Object.values(rules)]);
    const fresh = await live({ ruleType: Type.DataUsage, threshold: 80, scopePlanId: own });
    await q(`insert into autorule_runs (kind, run_key, as_of, feeds_from, rule_ids, state) values ($1, $2, $3, $4, '{}', 2)`,
      [AutoRuleRunKind.FeedWindow, `feed-prev-${backend}`, prev, new Date(prev.getTime() - 5 * 60_000)]);
    const runId = (await createRun(t.deps.db, {
      kind: AutoRuleRunKind.FeedWindow, key: `feed-${backend}`, asOf: now, changedSince: prev, ruleIds: [...Object.values(rules), fresh],
    }))!;
    await continueRun(engine, runId, { chunkCards: 200 });
    expect(await recorded(rules.data)).toEqual([moved]);
    expect(await recorded(rules.sms)).toEqual([texted]);
    expect(await recorded(rules.silent)).toEqual([silentNew, revived].sort());
    expect(await recorded(fresh)).toEqual([moved, still].sort());
  });

  it('leaves out cards on plans whose prepaid cycle is under 10 days (§9)', async () => {
    const p9 = await makePlan('AR-P9', { goodsType: PlanGoodsType.Prepaid, cycleUnit: PlanCycleUnit.Day, cycleValue: 9 });
    const p10 = await makePlan('AR-P10', { goodsType: PlanGoodsType.Prepaid, cycleUnit: PlanCycleUnit.Day, cycleValue: 10 });
    const [a] = await cards(1, zx, { plan: p9 });
    const [b] = await cards(1, zx, { plan: p10 });
    await q(`update cards set cycle_next_at = now() + interval '1 day', cycle_from = current_date - 1, cycle_to = current_date + 5, cycle_quota_bytes = 100, cycle_used_bytes = 100 where iccid = any($1)`, [[a, b]]);
    const rules = [await live({ ruleType: Type.DataUsage, threshold: 100, scopePlanId: p9 }), await live({ ruleType: Type.DataUsage, threshold: 100, scopePlanId: p10 })];
    await runRules(engine, rules, new Date());
    expect([await recorded(rules[0]), await recorded(rules[1])]).toEqual([[], [b]]);
  });

  it('records a card once per rule under two concurrent runs, and across a run killed half way', async () => {
    const own = await makePlan('AR-CONC');
    const many = await cards(400, zx, { plan: own });
    await q(`update cards set cycle_next_at = now() + interval '1 day', cycle_from = current_date - 2, cycle_to = current_date + 20, cycle_quota_bytes = 1000, cycle_used_bytes = 1000 where iccid = any($1)`, [many]);
    const rule = await live({ ruleType: Type.DataUsage, threshold: 100, scopeCustId: zx.cust_id, scopePlanId: own, channels: [Channel.Webhook] });
    const at = new Date();
    const [r1, r2] = await Promise.all([runRules(engine, [rule], at, { chunkCards: 37 }), runRules(engine, [rule], at, { chunkCards: 53 })]);
    expect(r1!.cardsTriggered + r2!.cardsTriggered).toBe(400);
    const [{ n, d }] = await q<{ n: string; d: string }>('select count(*) as n, count(distinct iccid) as d from autorule_alarm_cards where rule_id = $1', [rule]);
    expect([Number(n), Number(d)]).toEqual([400, 400]);
    const [{ dl }] = await q<{ dl: string }>('select count(*) as dl from autorule_deliveries where rule_id = $1', [rule]);
    expect(Number(dl)).toBe(400);

    // killed half way: a run of another rule stops after two chunks with its lease held; the next worker resumes it
    const more = await cards(100, zx, { plan: own });
    await q(`update cards set cycle_next_at = now() + interval '1 day', cycle_from = current_date - 2, cycle_to = current_date + 20, cycle_quota_bytes = 1000, cycle_used_bytes = 1000 where iccid = any($1)`, [more]);
    const rule2 = await live({ ruleType: Type.DataUsage, threshold: 100, scopePlanId: own });
    const runId = (await createRun(t.deps.db, { kind: AutoRuleRunKind.Manual, key: `kill-${backend}`, asOf: new Date(), ruleIds: [rule2] }))!;
    await continueRun(engine, runId, { chunkCards: 50, maxChunks: 2, owner: 'killed' });
    expect((await continueRun(engine, runId, { chunkCards: 50, owner: 'other' })).worked).toBe(false);
    await q(`update autorule_runs set lease_until = now() - interval '1 second' where run_id = $1`, [runId]);
    await resumeStaleRuns(engine, { chunkCards: 50 });
    const [{ state, total }] = await q<{ state: number; total: number }>(
      'select u.state, (select count(*) from autorule_alarm_cards ac where ac.rule_id = $2)::int as total from autorule_runs u where run_id = $1', [runId, rule2]);
    expect(Number(state)).toBe(2);
    expect(Number(total)).toBe(500);
    const [{ dup }] = await q<{ dup: string }>('select count(*) - count(distinct iccid) as dup from autorule_alarm_cards where rule_id = $1', [rule2]);
    expect(Number(dup)).toBe(0);
  });

  it('a dry run finds what real runs at the end of every day of the last 30 days record', { timeout: 240_000 }, async () => {
    const now = new Date(new Date(`${dayOf(new Date(Date.now() - DAY))}T23:59:00+08:00`).getTime());
    const days = Array.from({ length: 36 }, (_, i) => dayOf(new Date(now.getTime() - (35 - i) * DAY)));
    const own = await makePlan('AR-DRY');
    const dry = await cards(24, zx, { plan: own });
    const rangeStart = new Date(`${days[6]}T00:00:00+08:00`);
    const dataRule = await live({ ruleType: Type.DataUsage, threshold: 30, scopePlanId: own }, admin, rangeStart);
    const smsRule = await live({ ruleType: Type.SmsOver, threshold: 7, scopePlanId: own }, admin, rangeStart);
    const stateRule = await live({ ruleType: Type.StateChanged, states: [CardState.Deactivated], scopePlanId: own }, admin, rangeStart);
    const ids = [dataRule, smsRule, stateRule];
    // deterministic usage: card k uses (k mod 7 + day mod 3) MB and (k + day) mod 3 SMS on a day; some cards are idle on some days
    for (const [i, day] of days.entries()) {
      await q(`insert into card_usage_daily (iccid, day, bytes, sms, apn, operator_id, cust_id, root_cust_id)
        select c.iccid, $1::date, ((k % 7) + ($2 % 3)) * ${MB}, (k + $2) % 3, 'cmiot', 1, c.cust_id, c.root_cust_id
        from unnest($3::text[]) with ordinality c0 (iccid, k) join cards c on c.iccid = c0.iccid where (k + $2) % 5 <> 0`, [day, i, dry]);
      if (i % 4 === 1) await q(`insert into card_history (iccid, from_state, to_state, source, at) values ($1, 64, 65, 1, $2)`,
        [dry[i % dry.length], new Date(`${day}T10:00:00+08:00`)]);
      if (i < 6) continue; // the usage before the range: no run then
      const end = new Date(`${day}T23:59:00+08:00`);
      await q('select card_cycle_refresh($1, $2, false, true)', [end, dry]);
      // as of that day: the lifecycle tick (which works the columns out again at the clock's now) leaves them alone
      await q(`update cards set cycle_next_at = now() + interval '1 day' where iccid = any($1)`, [dry]);
      await runRules(engine, ids, end, { chunkCards: 1000 });
    }
    for (const id of ids) {
      const [r] = await q('select * from autorules where rule_id = $1', [id]);
      const real = (await q<{ iccid: string; event_at: Date }>('select iccid, event_at from autorule_alarm_cards where rule_id = $1', [id]))
        .map((x) => `${dayOf(new Date(x.event_at))} ${x.iccid}`).sort();
      const replay = (await dryRunAll(t.deps.db, engineRule(r), now)).map((x) => `${x.day} ${x.iccid}`).sort();
      expect(real.length).toBeGreaterThan(0);
      expect(replay).toEqual(real);
    }
    const api = await callOk(t, `${R}dryRunRule`, { ruleId: dataRule }, admin);
    expect(api.days).toHaveLength(30);
    expect(api.cards).toBeGreaterThan(0);
    const unsupported = await t.call(`${R}dryRunRule`, { ruleId: await live({ ruleType: Type.NoSession, threshold: 5 }) }, { token: admin, lang: 'en' });
    expect(unsupported.body.errorCode).toBe(ErrorCode.AutoRuleDryRunUnsupported);
  });

  it('acts on cards through the card service: a second network reset within 3 minutes is refused', async () => {
    const own = await makePlan('AR-ACT');
    const [c] = await cards(1, zx, { plan: own });
    await q(`update cards set cycle_next_at = now() + interval '1 day', cycle_from = current_date - 1, cycle_to = current_date + 20, cycle_quota_bytes = 10, cycle_used_bytes = 10,
      last_network_reset_at = null where iccid = $1`, [c]);
    const reset1 = await live({ ruleType: Type.DataUsage, threshold: 100, action: Action.NetworkReset, channels: [], scopeCustId: zx.cust_id, scopePlanId: own, scopeOperatorId: 1 });
    const reset2 = await live({ ruleType: Type.DataUsage, threshold: 100, action: Action.NetworkReset, channels: [], scopeCustId: zx.cust_id, scopePlanId: own, scopeOperatorId: 1 });
    const at = new Date();
    await runRules(engine, [reset1], at);
    await runRules(engine, [reset2], at);
    const rows = await q<{ rule_id: number; action_result: number; action_error_code: number | null }>(
      'select rule_id, action_result, action_error_code from autorule_alarm_cards where iccid = $1 order by rule_id', [c]);
    expect(rows.map((r) => [Number(r.rule_id), Number(r.action_result), r.action_error_code])).toEqual([
      [reset1, AutoRuleActionResult.Done, null], [reset2, AutoRuleActionResult.Refused, ErrorCode.CardNetworkResetTooSoon]]);
    const [alarm] = await q<{ alarm_id: number }>('select alarm_id from autorule_alarm_cards where rule_id = $1', [reset2]);
    const page = await callOk(t, `${A}getAlarmCardPage`, { alarmId: Number(alarm.alarm_id) }, admin);
    expect(page.list[0].actionError).toMatch(/3 minutes/);
    // a state change: the card deactivated by the engine, its history written with the rule as the source
    const own2 = await makePlan('AR-OFF');
    const [d] = await cards(1, zx, { plan: own2 });
    await q(`update cards set cycle_next_at = now() + interval '1 day', cycle_from = current_date - 1, cycle_to = current_date + 20, cycle_quota_bytes = 10, cycle_used_bytes = 10 where iccid = $1`, [d]);
    const off = await live({ ruleType: Type.DataUsage, threshold: 100, action: Action.ChangeState, targetState: AutoRuleTargetState.Deactivate, channels: [], scopePlanId: own2 });
    await runRules(engine, [off], new Date());
    const [card] = await q<{ state: number }>('select state from cards where iccid = $1', [d]);
    expect(Number(card.state)).toBe(CardState.Deactivated);
    const [h] = await q<{ source: number }>('select source from card_history where iccid = $1 and to_state = 65 order by at desc limit 1', [d]);
    expect(Number(h.source)).toBe(CardChangeSource.Rule);
  });

  it('queues a notification per card × channel and never marks one sent that a channel cannot send', async () => {
    const own = await makePlan('AR-DLV');
    const [c] = await cards(1, zx, { plan: own });
    await q(`update cards set cycle_next_at = now() + interval '1 day', cycle_from = current_date - 1, cycle_to = current_date + 20, cycle_quota_bytes = 10, cycle_used_bytes = 10 where iccid = $1`, [c]);
    // the customer's one callback address, subscribed to automation alarms (the open API's ability subscription)
    await q(`insert into api_configs (cust_id, root_cust_id, callback_url, event_types) values ($1, $2, 'http://127.0.0.1:9/hook', $3)
      on conflict (cust_id) do update set callback_url = excluded.callback_url, event_types = excluded.event_types`,
    [zx.cust_id, zx.root_cust_id, `{${WebhookEventType.AutomationAlarm}}`]);
    const rule = await live({
      ruleType: Type.DataUsage, threshold: 100, scopeCustId: zx.cust_id, channels: [Channel.Sms, Channel.Email, Channel.Webhook],
      phones: '13800138000', emails: 'ops@example.com', scopePlanId: own,
    });
    await runRules(engine, [rule], new Date());
    // the notifications the other tests queued wait a day, so these go first
    await q(`update autorule_deliveries set next_at = now() + interval '1 day' where rule_id <> $1`, [rule]);
    await dispatchDeliveries(t.deps.db, notifiersFor(t.deps.db));
    const rows = await q<{ channel: number; state: number; channel_ref: string | null }>(
      'select channel, state, channel_ref from autorule_deliveries where rule_id = $1 and iccid = $2 order by channel', [rule, c]);
    expect(rows.map((r) => [Number(r.channel), Number(r.state)])).toEqual([
      [Channel.Sms, DState.Sent], [Channel.Email, DState.NoChannel], [Channel.Webhook, DState.Sent]]);
    const [phone] = await q<{ phone: string; content: string }>('select phone, content from sms_phone_messages where message_id = $1::uuid', [rows[0].channel_ref]);
    expect(phone.phone).toBe('13800138000');
    expect(phone.content).toContain(c);
    const [ev] = await q<{ payload: { iccid: string; ruleId: number } }>(
      'select e.payload from webhook_deliveries w join webhook_events e on e.event_id = w.event_id where w.delivery_id = $1', [Number(rows[2].channel_ref)]);
    expect(ev.payload).toMatchObject({ iccid: c, ruleId: rule });
    const [alarm] = await q<{ alarm_id: number }>('select alarm_id from autorule_alarm_cards where rule_id = $1', [rule]);
    const records = await actionRecords({ alarmId: Number(alarm.alarm_id) }, enterprise);
    expect(records.errorCode).toBe(ErrorCode.NotFound); // a platform rule's records are staff's
    const mine = await actionRecords({ alarmId: Number(alarm.alarm_id), channel: Channel.Webhook }, admin);
    expect(mine.data.list).toMatchObject([{ iccid: c, channel: Channel.Webhook, state: DState.Sent, attempts: 1 }]);
    // the webhook it was handed to, where that delivery stands (its attempts and replay are the webhook module's)
    expect(mine.data.list[0].webhook).toMatchObject({ deliveryId: Number(rows[2].channel_ref) });
    // (the delivery worker may be trying it: without its lease it cannot record over this)
    await q(`update webhook_deliveries set state = $2, total_attempts = 3, last_http_status = 503, lease_token = null, lease_until = null
      where delivery_id = $1`, [Number(rows[2].channel_ref), WebhookDeliveryState.Dead]);
    const all = await actionRecords({ alarmId: Number(alarm.alarm_id) }, admin);
    expect(all.data.list.map((r: { channel: number; webhook: unknown }) => [r.channel, r.webhook])).toEqual([
      [Channel.Sms, null], [Channel.Email, null],
      [Channel.Webhook, { deliveryId: Number(rows[2].channel_ref), state: WebhookDeliveryState.Dead, totalAttempts: 3, lastHttpStatus: 503 }]]);

    // a notification that cannot go says why in the reader's language: the customer took its callback address away
    const [c2] = await cards(1, zx, { plan: own });
    await q(`update cards set cycle_next_at = now() + interval '1 day', cycle_from = current_date - 1, cycle_to = current_date + 20, cycle_quota_bytes = 10, cycle_used_bytes = 10 where iccid = $1`, [c2]);
    await q('delete from api_configs where cust_id = $1', [zx.cust_id]);
    const hookOnly = await live({ ruleType: Type.DataUsage, threshold: 100, scopeCustId: zx.cust_id, channels: [Channel.Webhook], scopePlanId: own });
    await runRules(engine, [hookOnly], new Date());
    await q(`update autorule_deliveries set next_at = now() + interval '1 day' where rule_id <> $1`, [hookOnly]);
    await dispatchDeliveries(t.deps.db, notifiersFor(t.deps.db));
    const [a2] = await q<{ alarm_id: number }>('select alarm_id from autorule_alarm_cards where rule_id = $1 and iccid = $2', [hookOnly, c2]);
    for (const [lang, text] of [['en', 'the customer has no callback address'], ['zh', '客户没有设置回调地址']] as const) {
      const r = await t.call(`${A}getActionRecords`, { alarmId: Number(a2.alarm_id), iccid: c2 }, { token: admin, lang });
      expect(r.body.data.list).toMatchObject([{ iccid: c2, channel: Channel.Webhook, state: DState.Failed, lastError: text }]);
    }
  });

  it("sends a customer rule's webhook to the rule's owner, a staff rule's to the card's customer", async () => {
    const east = await ownerOf(t, 'subcustomer');
    expect(east.root_cust_id).toBe(zx.cust_id);
    const own = await makePlan('AR-HOOK');
    // a card of the second-level customer, inside the first-level customer's rule (its whole tree)
    const [c] = await cards(1, east, { plan: own });
    await q(`update cards set cycle_next_at = now() + interval '1 day', cycle_from = current_date - 1, cycle_to = current_date + 20, cycle_quota_bytes = 10, cycle_used_bytes = 10 where iccid = $1`, [c]);
    // both customers subscribed, each with its own callback address
    for (const [o, url] of [[zx, 'http://127.0.0.1:9/owner'], [east, 'http://127.0.0.1:9/east']] as const) {
      await q(`insert into api_configs (cust_id, root_cust_id, callback_url, event_types) values ($1, $2, $3, $4)
        on conflict (cust_id) do update set callback_url = excluded.callback_url, event_types = excluded.event_types`,
      [o.cust_id, o.root_cust_id, url, `{${WebhookEventType.AutomationAlarm}}`]);
    }
    const mine = await live({ ruleType: Type.DataUsage, threshold: 100, scopePlanId: own }, enterprise);
    const staff = await live({ ruleType: Type.DataUsage, threshold: 100, scopePlanId: own });
    await runRules(engine, [mine, staff], new Date());
    await q('update autorule_deliveries set next_at = now() + interval \'1 day\' where rule_id <> all($1)', [[mine, staff]]);
    await dispatchDeliveries(t.deps.db, notifiersFor(t.deps.db));
    const sent = await q<{ rule_id: number; state: number; cust_id: number; url: string; payload: { custId: number; iccid: string } }>(`
      select d.rule_id, d.state, e.cust_id, w.url, e.payload from autorule_deliveries d
      join webhook_deliveries w on w.delivery_id = d.channel_ref::bigint join webhook_events e on e.event_id = w.event_id
      where d.rule_id = any($1) and d.iccid = $2 order by d.rule_id`, [[mine, staff], c]);
    expect(sent.map((r) => [Number(r.rule_id), Number(r.state), Number(r.cust_id), r.url])).toEqual([
      [mine, DState.Sent, zx.cust_id, 'http://127.0.0.1:9/owner'],
      [staff, DState.Sent, east.cust_id, 'http://127.0.0.1:9/east'],
    ]);
    // the payload still names the card's customer
    expect(sent.map((r) => r.payload)).toMatchObject([{ iccid: c, custId: east.cust_id }, { iccid: c, custId: east.cust_id }]);

    // the rule's owner without a callback address: failed with that reason, even though the card's customer has one
    const [c2] = await cards(1, east, { plan: own });
    await q(`update cards set cycle_next_at = now() + interval '1 day', cycle_from = current_date - 1, cycle_to = current_date + 20, cycle_quota_bytes = 10, cycle_used_bytes = 10 where iccid = $1`, [c2]);
    await q('delete from api_configs where cust_id = $1', [zx.cust_id]);
    await runRules(engine, [mine], new Date());
    await q('update autorule_deliveries set next_at = now() + interval \'1 day\' where rule_id <> $1', [mine]);
    await dispatchDeliveries(t.deps.db, notifiersFor(t.deps.db));
    const [a2] = await q<{ alarm_id: number }>('select alarm_id from autorule_alarm_cards where rule_id = $1 and iccid = $2', [mine, c2]);
    for (const [lang, text] of [['en', "the rule's customer has no callback address"], ['zh', '规则所属客户没有设置回调地址']] as const) {
      const r = await t.call(`${A}getActionRecords`, { alarmId: Number(a2.alarm_id), iccid: c2 }, { token: enterprise, lang });
      expect(r.body.data.list).toMatchObject([{ iccid: c2, channel: Channel.Webhook, state: DState.Failed, lastError: text }]);
    }
    await q('delete from api_configs where cust_id = $1', [east.cust_id]);
  });

  it('keeps every endpoint to its tenant: a customer rule sees only its cards', async () => {
    const own = await makePlan('AR-TEN');
    const [zxCard] = await cards(1, zx, { plan: own });
    const [hdCard] = await cards(1, hd, { plan: own });
    await q(`update cards set cycle_next_at = now() + interval '1 day', cycle_from = current_date - 1, cycle_to = current_date + 20, cycle_quota_bytes = 10, cycle_used_bytes = 10 where iccid = any($1)`, [[zxCard, hdCard]]);
    const rule = await live({ ruleType: Type.DataUsage, threshold: 100, scopePlanId: own }, enterprise);
    const staff = await live({ ruleType: Type.DataUsage, threshold: 100, scopePlanId: own });
    await runRules(engine, [rule, staff], new Date());
    const mineRecorded = await recorded(rule);
    expect(mineRecorded).toContain(zxCard);
    expect(mineRecorded).not.toContain(hdCard);
    expect(await recorded(staff)).toEqual([zxCard, hdCard].sort());
    // a scope outside the caller's tenant is refused as not found
    expect((await t.call(`${R}saveRule`, { name: 'x', ruleType: Type.PlanChanged, ...base, scopeCustId: hd.cust_id }, { token: enterprise })).body.errorCode)
      .toBe(ErrorCode.NotFound);
    const [alarm] = await q<{ alarm_id: number }>('select alarm_id from autorule_alarm_cards where rule_id = $1 limit 1', [rule]);
    const alarmId = Number(alarm.alarm_id);
    const body = { name: 'x', ruleType: Type.PlanChanged, ...base };
    for (const token of [channel, sub]) {
      for (const [ep, b] of [
        [`${R}getRuleDetail`, { ruleId: rule }], [`${R}updateRule`, { ruleId: rule, ...body }], [`${R}deleteRule`, { ruleId: rule }],
        [`${R}publishRule`, { ruleId: rule }], [`${R}switchRule`, { ruleId: rule, enabled: 0 }], [`${R}dryRunRule`, { ruleId: rule }],
        [`${R}getRuleRunPage`, { ruleId: rule }], [`${A}getAlarmDetail`, { alarmId }], [`${A}getAlarmCardPage`, { alarmId }],
      ] as const) {
        const r = await t.call(ep, b, { token });
        expect([ep, r.body.errorCode]).toEqual([ep, ErrorCode.NotFound]);
      }
      expect((await actionRecords({ alarmId }, token)).errorCode).toBe(ErrorCode.NotFound);
      const rules = await callOk(t, `${R}getRuleListPage`, { pageSize: 500 }, token);
      expect(rules.list.map((x: { ruleId: number }) => x.ruleId)).not.toContain(rule);
      const alarms = await callOk(t, `${A}getAlarmListPage`, { pageSize: 500 }, token);
      expect(alarms.list.map((x: { alarmId: number }) => x.alarmId)).not.toContain(alarmId);
    }
    // the enterprise sees its rule and record, not the staff rule's
    const ownAlarms = await callOk(t, `${A}getAlarmListPage`, { pageSize: 500 }, enterprise);
    expect(ownAlarms.list.map((x: { ruleId: number }) => x.ruleId)).toContain(rule);
    expect(ownAlarms.list.map((x: { ruleId: number }) => x.ruleId)).not.toContain(staff);
    expect((await t.call(`${R}getRuleDetail`, { ruleId: staff }, { token: enterprise })).body.errorCode).toBe(ErrorCode.NotFound);
    expect((await actionRecords({ alarmId }, enterprise)).success).toBe(true);
    const runs = await callOk(t, `${R}getRuleRunPage`, { ruleId: rule }, enterprise);
    expect(runs.list[0]).toMatchObject({ state: 2 });
  });
});
