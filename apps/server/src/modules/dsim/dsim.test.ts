import { describe, it, expect, beforeAll, afterEach } from 'vitest';
import { CardState, DsimRuleType, DsimSwitchReason, DsimSwitchState, ErrorCode, Operator, dsim as api } from '@lynx/contract';
import { backends, iccidsOf, insertCards, type TestApp } from '../../../test/harness.ts';
import { csvFile as csv, moduleSuite } from '../../../test/module-suite.ts';
import { superSimGateway } from '../../operators/registry.ts';
import { setSuperSimFaults } from '../../operators/simulator-supersim.ts';
import { checkDsimRows } from './import.ts';
import { simulateUsage } from '../../operators/simulator-usage.ts';
import { barringOf, servicePeriods, type FeedCard } from '../usage/usage-feed.ts';
import { usageOperators } from '../usage/usage-plans.ts';
import { noSessionCandidates, runStrategies, runStrategiesAfterFeed, sweepOpenSwitches } from './switching.ts';

/**
 * Super SIMs (2090000) and their imports (2070000): the import all or nothing with per-line errors and the §9 limit,
 * switches by hand through the vendor simulator (confirmed, refused, failed over the air, unanswered until the
 * timeout), strategies after the usage feed (the N-minute boundary, cost order, once per feed window), strategy names
 * unique, and every endpoint kept to the viewer's tenant.
 */
const CM = Operator.ChinaMobile;
const CU = Operator.ChinaUnicom;
const CT = Operator.ChinaTelecom;
const D = 'core/sim/dsimStrategy/';
const I = 'core/sim/dsimImport/';
const HEADER = 'SN,China Mobile ICCID,China Unicom ICCID,China Telecom ICCID,Initial operator,Supplier card';

describe('import rows on their own', () => {
  it('checks formats, repeats, at least two operators, the initial operator and the supplier flag', () => {
    const r = checkDsimRows([
      ['SN', '中国移动 ICCID', '中国联通 ICCID', '中国电信 ICCID', '初始运营商', '供应商卡'],
      ['SNOK000001', '89860000000000000001', '89860100000000000001', null, '中国联通', '是'],
      ['SNOK000001', '89860000000000000002', '89860100000000000002', null, null, null],
      ['bad sn', '123', '89860100000000000003', null, null, null],
      ['SNONE00001', '89860000000000000004', null, null, null, null],
      ['SNCUR00001', '89860000000000000005', '89860100000000000005', null, '中国电信', 'maybe'],
      [null, null, null, null, null, null],
    ]);
    expect(r.dataRows).toBe(5);
    expect(r.rows).toEqual([{ row: 2, sn: 'SNOK000001', members: [{ operatorId: CM, iccid: '89860000000000000001' }, { operatorId: CU, iccid: '89860100000000000001' }], current: CU, supplier: true }]);
    expect(r.errors.map((e) => `${e.row}:${e.column}:${e.reason.en}`)).toEqual([
      '3:sn:repeats an earlier row of the file',
      '4:sn:must be 6-32 letters or digits',
      '4:iccid1:must be 19-20 digits',
      '5:iccid1:give the ICCIDs of at least two operators',
      '6:current:must be one of the operators given an ICCID',
      '6:supplier:must be yes or no',
    ]);
    expect(checkDsimRows([['SN', 'x']]).missing).toEqual(['iccid1', 'iccid2', 'iccid3']);
  });
});

describe.each(backends)('super SIMs on %s', (backend) => {
  const s = moduleSuite(backend);
  const { own, q, call, ok } = s;
  let t: TestApp;
  const upload = (who: string, file: Buffer, lang: 'zh' | 'en' = 'en', name = 'dsims.csv') => s.upload(`${I}insert`, who, file, { lang, name });
  // enterprise: 4 super SIMs of three profiles each; the channel customer: one
  const ent = { cm: iccidsOf('8986002061', 1, 4), cu: iccidsOf('8986012061', 1, 4), ct: iccidsOf('8986032061', 1, 4) };
  const chan = { cm: iccidsOf('8986002062', 1, 1), cu: iccidsOf('8986012062', 1, 1) };
  const SN = ['TSN0000001', 'TSN0000002', 'TSN0000003', 'TSN0000004'];

  beforeAll(async () => {
    t = s.t;
    await insertCards(t, ent.cm, { state: CardState.Activated, owner: own.enterprise, operatorId: CM });
    await insertCards(t, ent.cu, { state: CardState.Activated, owner: own.enterprise, operatorId: CU });
    await insertCards(t, ent.ct, { state: CardState.Activated, owner: own.enterprise, operatorId: CT });
    await insertCards(t, chan.cm, { state: CardState.Activated, owner: own.channel, operatorId: CM });
    await insertCards(t, chan.cu, { state: CardState.Deactivated, owner: own.channel, operatorId: CU });
  });
  afterEach(() => setSuperSimFaults({}));

  it('imports all or nothing: every wrong row listed, nothing stored; staff only; over 10,000 refused', async () => {
    const bad = await upload('admin', csv([
      HEADER,
      `${SN[0]},${ent.cm[0]},${ent.cu[0]},${ent.ct[0]},,`,
      `TSNBAD0001,${ent.cu[1]},${ent.cm[1]},,,`,
      `TSNBAD0002,${ent.cm[2]},${chan.cu[0]},,,`,
      `TSNBAD0003,${ent.cm[3]},89860199999999999999,,,`,
    ]), 'zh');
    expect(bad.errorCode).toBe(ErrorCode.DsimImportInvalid);
    expect(bad.msg).toBe('文件中有 3 行有误，未导入任何数据');
    expect(bad.data.errorCount).toBe(4);
    expect(bad.data.errors.map((e: { row: number; column: string }) => `${e.row}:${e.column}`).sort())
      .toEqual(['3:中国移动 ICCID', '3:中国联通 ICCID', '4:中国移动 ICCID', '5:中国联通 ICCID'].sort());
    expect(bad.data.errors.find((e: { row: number }) => e.row === 4).reason).toBe('各运营商的卡须属于同一客户');
    expect(bad.data.errors.find((e: { row: number }) => e.row === 5).reason).toBe('平台中没有这张卡，请先导入卡');
    // nothing of the good first row was stored
    expect(await q('select 1 from dsims where sn = $1', [SN[0]])).toHaveLength(0);
    expect(await q('select 1 from dsim_import_batches')).toHaveLength(0);

    // customers cannot import (2070000 is staff's)
    expect((await upload('enterprise', csv([HEADER, `${SN[0]},${ent.cm[0]},${ent.cu[0]},,,`]))).errorCode).not.toBeNull();
    // more than 10,000 rows: the spec's "selection too large" text
    const many = [HEADER, ...Array.from({ length: api.DSIM_IMPORT_MAX_ROWS + 1 }, (_, i) => `TSNMANY${String(i).padStart(6, '0')},${ent.cm[0]},${ent.cu[0]},,,`)];
    const tooMany = await upload('admin', csv(many));
    expect(tooMany.errorCode).toBe(ErrorCode.DsimImportTooMany);
    expect(tooMany.msg).toContain('Selection too large');
    expect((await upload('admin', csv(['SN,foo', 'TSN1,1']))).errorCode).toBe(ErrorCode.DsimImportMissingColumns);
    expect((await upload('admin', csv([HEADER]))).errorCode).toBe(ErrorCode.DsimImportEmpty);

    const good = await upload('admin', csv([
      HEADER,
      ...SN.map((sn, i) => `${sn},${ent.cm[i]},${ent.cu[i]},${ent.ct[i]},${i === 3 ? 'China Unicom' : ''},${i === 0 ? 'yes' : ''}`),
      `TSNCHAN001,${chan.cm[0]},${chan.cu[0]},,,`,
    ]));
    expect(good.errorCode, good.msg).toBeNull();
    expect(good.data).toMatchObject({ simCount: 5, cardCount: 14, fileName: 'dsims.csv' });
    const items = await ok(`${I}getImportItemPage`, { batchId: good.data.batchId, pageSize: 100 }, 'admin');
    expect(items.total).toBe(14);
    expect(items.list[0]).toEqual({ sn: SN[0], isSupplierCard: true, operatorId: CM, iccid: ent.cm[0] });
    expect((await ok(`${I}getImportBatchPage`, {}, 'admin')).list[0].batchId).toBe(good.data.batchId);
    // a second import of the same SN or card: refused
    const again = await upload('admin', csv([HEADER, `${SN[0]},${ent.cm[0]},${ent.cu[0]},,,`]));
    expect(again.data.errors.map((e: { reason: string }) => e.reason)).toEqual(expect.arrayContaining(['this SN already exists', 'already belongs to another super SIM']));
    const [audit] = await q<{ n: string }>("select count(*) as n from audit_log where entity = 'dsimImport'");
    expect(Number(audit.n)).toBe(1);
  });

  it('lists and shows super SIMs with their profiles per operator, usage per operator from the member cards', async () => {
    const list = await ok(`${D}getDsimPage`, { snNumber: 'TSN', pageSize: 50 }, 'enterprise');
    expect(list.list.map((r: { sn: string }) => r.sn)).toEqual(SN);
    expect(list.list[0]).toMatchObject({ sn: SN[0], isSupplierCard: true, currentOperatorId: CM, currentIccid: ent.cm[0], strategyId: null });
    expect(list.list[0].members.map((m: { operatorId: number; current: boolean }) => [m.operatorId, m.current])).toEqual([[CM, true], [CU, false], [CT, false]]);
    expect(list.list[3].currentOperatorId).toBe(CU);
    expect((await ok(`${D}getDsimPage`, { iccid: ent.ct[1].slice(0, 16) }, 'enterprise')).list.map((r: { sn: string }) => r.sn)).toContain(SN[1]);
    expect((await ok(`${D}getDsimPage`, { operator: CU, snNumber: 'TSN' }, 'enterprise')).total).toBe(1);
    const day = new Date().toISOString().slice(0, 10);
    await q(`insert into card_usage_daily (iccid, day, bytes_up, bytes_down, bytes, sms, voice_seconds, sessions, apn, operator_id, cust_id, root_cust_id)
      values ($1, $3, 0, 1000, 1000, 2, 0, 3, 'cmiot', 1, $4, $5), ($2, $3, 0, 500, 500, 0, 0, 1, 'scuiot', 2, $4, $5)`,
    [ent.cm[0], ent.cu[0], day, own.enterprise.cust_id, own.enterprise.root_cust_id]);
    const flow = await ok(`${D}flowUse`, { snNumber: SN[0], startDate: day, endDate: day }, 'enterprise');
    expect(flow.list).toEqual([
      { operatorId: CM, iccid: ent.cm[0], bytes: 1000, sms: 2, sessions: 3, days: 1 },
      { operatorId: CU, iccid: ent.cu[0], bytes: 500, sms: 0, sessions: 1, days: 1 },
      { operatorId: CT, iccid: ent.ct[0], bytes: 0, sms: 0, sessions: 0, days: 0 },
    ]);
    expect((await call(`${D}flowUse`, { snNumber: SN[0], startDate: '2026-01-01', endDate: '2026-12-31' }, 'enterprise')).body.errorCode).toBe(ErrorCode.UsageRangeTooLong);
  });

  it('switches by hand through the vendor platform: confirmed, refused, failed over the air, not serving, pending until the timeout', async () => {
    const sw = (sn: string, operator: number, who = 'enterprise', lang: 'zh' | 'en' = 'en') => call(`${D}switchOperator`, { snNumber: sn, operator }, who, lang);
    // refusals before the vendor is asked
    expect((await sw(SN[0], CM)).body.errorCode).toBe(ErrorCode.DsimSameOperator);
    expect((await sw('TSNCHAN001', CT, 'admin')).body.errorCode).toBe(ErrorCode.DsimNoMember);
    // confirmed: the current operator moves with the record
    const r1 = (await sw(SN[0], CU)).body.data;
    expect(r1).toMatchObject({ state: DsimSwitchState.Succeeded, fromOperatorId: CM, toOperatorId: CU, reason: DsimSwitchReason.Manual, actor: 'enterprise' });
    expect(r1.requestId).toMatch(/^SSW-/);
    expect((await ok(`${D}info`, { snNumber: SN[0] }, 'enterprise')).currentOperatorId).toBe(CU);
    // refused by the vendor: failed with its reason, the operator unchanged
    setSuperSimFaults({ refuse: 'TSN0000001' });
    const r2 = (await sw(SN[0], CT)).body.data;
    expect(r2).toMatchObject({ state: DsimSwitchState.Failed, failCode: 'VENDOR_REFUSED' });
    // accepted, then the device does not confirm
    setSuperSimFaults({ fail: 'TSN*1' });
    expect((await sw(SN[0], CT)).body.data).toMatchObject({ state: DsimSwitchState.Failed, failCode: 'OTA_FAILED' });
    expect((await ok(`${D}info`, { snNumber: SN[0] }, 'enterprise')).currentOperatorId).toBe(CU);
    // the target profile's card is not in service
    const r3 = (await sw('TSNCHAN001', CU, 'admin')).body.data;
    expect(r3).toMatchObject({ state: DsimSwitchState.Failed, failCode: 'PROFILE_NOT_SERVING' });
    // pending: a second switch is refused while it is open; the sweep fails it after the timeout
    setSuperSimFaults({ pending: 'TSN0000002' });
    const r4 = (await sw(SN[1], CT)).body.data;
    expect(r4.state).toBe(DsimSwitchState.Requested);
    const again = await sw(SN[1], CU, 'enterprise', 'zh');
    expect(again.body).toMatchObject({ errorCode: ErrorCode.DsimSwitchPending, msg: '该超级 SIM 正在切换运营商，请等待结果' });
    expect((await sweepOpenSwitches(t.deps.db, superSimGateway(), new Date())).finished).toBe(0);
    const late = new Date(Date.now() + (api.DSIM_SWITCH_TIMEOUT_MINUTES + 1) * 60_000);
    expect((await sweepOpenSwitches(t.deps.db, superSimGateway(), late)).finished).toBe(1);
    const recs = await ok(`${D}changeRecords`, { snNumber: SN[1] }, 'enterprise');
    expect(recs.list[0]).toMatchObject({ state: DsimSwitchState.Failed, failCode: 'TIMEOUT' });
    const recs0 = await ok(`${D}changeRecords`, { snNumber: SN[0] }, 'enterprise');
    expect(recs0.list.map((r: { state: number }) => r.state)).toEqual([DsimSwitchState.Failed, DsimSwitchState.Failed, DsimSwitchState.Succeeded]);
    const [audits] = await q<{ n: string }>("select count(*) as n from audit_log where entity = 'dsimSwitch'");
    expect(Number(audits.n)).toBeGreaterThanOrEqual(10);
  });

  it('keeps strategy names unique whatever the case, with the message in both languages; edits and deletes by name', async () => {
    const add = (who: string, body: object, lang: 'zh' | 'en' = 'en') => call(`${D}insertOemStrategy`, body, who, lang);
    const s1 = (await add('admin', { strategyName: 'No session 30', ruleType: DsimRuleType.NoSession, params: { minutes: 30 } })).body.data;
    expect(s1).toMatchObject({ platform: true, editable: true, params: { minutes: 30 } });
    const dup = await add('enterprise', { strategyName: 'no SESSION 30', ruleType: DsimRuleType.Cost, params: { operatorOrder: [3, 1] } }, 'zh');
    expect(dup.body).toMatchObject({ errorCode: ErrorCode.DsimStrategyNameTaken, msg: '策略名称“no SESSION 30”已存在，请换一个名称' });
    expect((await add('enterprise', { strategyName: 'No session 30', ruleType: 1, params: { minutes: 30 } })).body.msg)
      .toBe('A strategy named "No session 30" already exists; choose another name');
    // parameters must fit the rule type
    expect((await add('enterprise', { strategyName: 'x1', ruleType: DsimRuleType.NoSession, params: {} })).body.errorCode).toBe(ErrorCode.DsimStrategyParams);
    expect((await add('enterprise', { strategyName: 'x2', ruleType: DsimRuleType.Cost, params: { operatorOrder: [1, 1] } })).body.errorCode).toBe(ErrorCode.DsimStrategyParams);
    expect((await add('enterprise', { strategyName: 'x3', ruleType: DsimRuleType.NoSession, params: { minutes: 1 } })).body.errorCode).not.toBeNull();
    const s2 = (await add('enterprise', { strategyName: 'Cheapest', ruleType: DsimRuleType.Cost, params: { operatorOrder: [CT, CM, CU] } })).body.data;
    expect(s2).toMatchObject({ platform: false, editable: true });
    // customers see platform strategies but cannot change them; another tenant does not see s2 at all
    expect((await ok(`${D}oemStrategyPage`, {}, 'enterprise')).list.find((s: { strategyId: number }) => s.strategyId === s1.strategyId).editable).toBe(false);
    expect((await call(`${D}deleteOemStrategy`, { strategyName: s1.strategyName }, 'enterprise')).body.errorCode).toBe(ErrorCode.PermissionDenied);
    expect((await ok(`${D}oemStrategyPage`, {}, 'channel')).list.map((s: { strategyId: number }) => s.strategyId)).not.toContain(s2.strategyId);
    expect((await call(`${D}updateOemStrategy`, { strategyId: s2.strategyId, strategyName: 'Mine now', ruleType: 2, params: { operatorOrder: [1, 2] } }, 'channel')).body.errorCode)
      .toBe(ErrorCode.NotFound);
    expect((await call(`${D}deleteOemStrategy`, { strategyName: 'Cheapest' }, 'channel')).body.errorCode).toBe(ErrorCode.NotFound);
    // rename onto another name: refused; onto its own name in another case: fine
    expect((await call(`${D}updateOemStrategy`, { strategyId: s2.strategyId, strategyName: 'NO SESSION 30', ruleType: 2, params: { operatorOrder: [3, 1] } }, 'enterprise')).body.errorCode)
      .toBe(ErrorCode.DsimStrategyNameTaken);
    const e2 = await ok(`${D}updateOemStrategy`, { strategyId: s2.strategyId, strategyName: 'CHEAPEST', ruleType: 2, params: { operatorOrder: [CT, CM] } }, 'enterprise');
    expect(e2).toMatchObject({ strategyName: 'CHEAPEST', params: { operatorOrder: [CT, CM] } });
    // in use: not deleted
    await ok(`${D}chooseStrategy`, { snNumbers: [SN[2]], strategyId: s2.strategyId }, 'enterprise');
    expect((await call(`${D}deleteOemStrategy`, { strategyName: 'CHEAPEST' }, 'enterprise')).body.errorCode).toBe(ErrorCode.DsimStrategyInUse);
    await ok(`${D}chooseStrategy`, { snNumbers: [SN[2]], strategyId: null }, 'enterprise');
    await ok(`${D}deleteOemStrategy`, { strategyName: 'CHEAPEST' }, 'enterprise');
    expect(await q('select 1 from dsim_strategies where strategy_id = $1', [s2.strategyId])).toHaveLength(0);
  });

  it('switches by strategy after the feed: N minutes without a session (boundary), cost order, once per feed window', async () => {
    const db = t.deps.db;
    const gw = superSimGateway();
    // the demo's super SIMs keep out of the counts
    await q("update dsims set strategy_id = null where sn not like 'TSN%'");
    const [{ id: noSession }] = await q<{ id: number }>(`insert into dsim_strategies (strategy_name, rule_type, params, created_by)
      values ('T no session 60', 1, '{"minutes":60}', 'test') returning strategy_id as id`);
    const [{ id: cost }] = await q<{ id: number }>(`insert into dsim_strategies (strategy_name, rule_type, params, created_by)
      values ('T cost', 2, '{"operatorOrder":[3,1,2]}', 'test') returning strategy_id as id`);
    // SN[2] on China Mobile, last session 60 minutes before `now`: exactly N → switches to the next operator (China Unicom)
    const now = new Date();
    await q('update dsims set strategy_id = $1, switched_at = null, created_at = $3 where sn = $2', [noSession, SN[2], new Date(now.getTime() - 5 * 3_600_000)]);
    await q('update cards set last_session_at = $1 where iccid = $2', [new Date(now.getTime() - 60 * 60_000 + 1000), ent.cm[2]]);
    expect((await noSessionCandidates(db, now)).map((c) => c.sn)).not.toContain(SN[2]);
    await q('update cards set last_session_at = $1 where iccid = $2', [new Date(now.getTime() - 60 * 60_000), ent.cm[2]]);
    const cands = await noSessionCandidates(db, now);
    expect(cands.find((c) => c.sn === SN[2])).toMatchObject({ current: CM, target: CU });
    // SN[3] on China Unicom with the cost order Telecom, Mobile, Unicom → China Telecom
    await q('update dsims set strategy_id = $1 where sn = $2', [cost, SN[3]]);
    const r = await runStrategies(db, gw, now);
    expect(r).toMatchObject({ switched: 2, failed: 0 });
    const cur = await q<{ sn: string; current_operator_id: number }>('select sn, current_operator_id from dsims where sn = any($1) order by sn', [[SN[2], SN[3]]]);
    expect(cur.map((c) => Number(c.current_operator_id))).toEqual([CU, CT]);
    const [rec] = (await ok(`${D}changeRecords`, { snNumber: SN[2] }, 'enterprise')).list;
    expect(rec).toMatchObject({ reason: DsimSwitchReason.Strategy, strategyName: 'T no session 60', state: DsimSwitchState.Succeeded, actor: 'strategy' });
    // just switched: the N minutes count from the switch, so nothing more; cost is satisfied
    expect((await runStrategies(db, gw, now)).candidates).toBe(0);
    // a failing strategy switch is not retried at once
    await q('update dsims set switched_at = $1 where sn = $2', [new Date(now.getTime() - 2 * 3_600_000), SN[2]]);
    await q('update cards set last_session_at = null where iccid = $1', [ent.cu[2]]);
    setSuperSimFaults({ fail: SN[2] });
    expect(await runStrategies(db, gw, now)).toMatchObject({ candidates: 1, failed: 1 });
    expect((await runStrategies(db, gw, now)).candidates).toBe(0);
    // the job's entry: one run per feed watermark
    setSuperSimFaults({});
    await q("insert into usage_feeds (operator_id, watermark) values (1, now()) on conflict (operator_id) do update set watermark = now()");
    expect((await runStrategiesAfterFeed(db, gw, now)).ran).toBe(true);
    expect((await runStrategiesAfterFeed(db, gw, now)).ran).toBe(false);
    await q('update dsims set strategy_id = null where sn = any($1)', [[SN[2], SN[3]]]);
  });

  it('gives sessions and usage only to the member of the current operator, and to the new one after a switch', async () => {
    const db = t.deps.db;
    // SN[1]: China Mobile until a confirmed switch to China Unicom in the middle of the window; China Telecom never
    const now = Date.now();
    const since = new Date(now - 2 * 86_400_000);
    const mid = new Date(now - 86_400_000);
    const to = new Date(now);
    await q('delete from dsim_switches where sn = $1', [SN[1]]);
    await q('update dsims set current_operator_id = $1, created_at = $2 where sn = $3', [CU, new Date(since.getTime() - 86_400_000), SN[1]]);
    await q(`insert into dsim_switches (sn, from_operator_id, to_operator_id, reason, state, actor, requested_at, done_at)
      values ($1, $2, $3, $4, $5, 'test', $6, $6)`, [SN[1], CM, CU, DsimSwitchReason.Manual, DsimSwitchState.Succeeded, mid]);
    // an ordinary card beside them keeps its whole service
    const members = [ent.cm[1], ent.cu[1], ent.ct[1], chan.cm[0]];
    const chunk = (await q<{ iccid: string; state: number; operator_id: number }>('select iccid, state, operator_id from cards where iccid = any($1) order by iccid', [members]))
      .map((c): FeedCard => ({
        iccid: c.iccid, msisdn: null, state: Number(c.state), operatorId: Number(c.operator_id), custId: null, rootCustId: null, goodsReleaseId: null, online: false,
        cycleStartAt: null, cycleEndAt: null, updatedAt: new Date(0), poolId: null, poolJoinedAt: null,
      }) as FeedCard);
    const bars = await barringOf(db, chunk, new Map(), await usageOperators(db), since, to);
    const periods = await servicePeriods(db, chunk, bars, since, to);
    expect(periods.get(ent.cm[1])).toEqual([{ from: since, to: mid, test: false }]);
    expect(periods.get(ent.cu[1])).toEqual([{ from: mid, to: null, test: false }]);
    expect(periods.get(ent.ct[1])).toBeUndefined();
    expect(periods.get(chan.cm[0])).toEqual([{ from: since, to: null, test: false }]);
    const report = simulateUsage({
      cards: [...periods].map(([iccid, service]) => ({ iccid, msisdn: null, operatorId: chunk.find((c) => c.iccid === iccid)!.operatorId, service, apn: 'x', networkTypes: [] })),
      from: since, to,
    });
    const sessions = (iccid: string) => report.sessions.filter((s) => s.iccid === iccid);
    expect(sessions(ent.ct[1])).toEqual([]);
    expect(sessions(ent.cm[1]).every((s) => s.startedAt < mid)).toBe(true);
    expect(sessions(ent.cu[1]).every((s) => s.startedAt >= mid)).toBe(true);
    expect(sessions(ent.cm[1]).length + sessions(ent.cu[1]).length).toBeGreaterThan(0);
    // a window that ends before the switch: the switch's origin was in use (whatever the window, the same answer)
    const early = await servicePeriods(db, chunk, await barringOf(db, chunk, new Map(), await usageOperators(db), since, new Date(mid.getTime() - 3_600_000)), since,
      new Date(mid.getTime() - 3_600_000));
    expect([early.has(ent.cm[1]), early.has(ent.cu[1]), early.has(ent.ct[1])]).toEqual([true, false, false]);
    // before the first switch of the window the operator is the switch's origin; with no switch, the current one
    await q('delete from dsim_switches where sn = $1', [SN[1]]);
    const still = await servicePeriods(db, chunk, await barringOf(db, chunk, new Map(), await usageOperators(db), since, to), since, to);
    expect([still.has(ent.cm[1]), still.has(ent.cu[1]), still.has(ent.ct[1])]).toEqual([false, true, false]);
  });

  it('keeps every endpoint to the viewer\'s tenant and the page codes', async () => {
    const mine = { snNumber: SN[0] };
    // the channel customer's tree does not hold the enterprise's super SIMs; a second-level customer has no 2090000
    expect((await ok(`${D}getDsimPage`, { snNumber: 'TSN' }, 'channel')).list.map((r: { sn: string }) => r.sn)).toEqual(['TSNCHAN001']);
    for (const [path, body] of [
      ['info', mine], ['flowUse', mine], ['changeRecords', mine], ['switchOperator', { ...mine, operator: CT }],
      ['chooseStrategy', { snNumbers: [SN[0]], strategyId: null }], ['chooseStrategy', { snNumbers: [SN[0], 'TSNCHAN001'], strategyId: null }],
    ] as [string, object][]) {
      expect((await call(`${D}${path}`, body, 'channel')).body.errorCode, path).toBe(ErrorCode.NotFound);
    }
    // nothing changed by the refused all-or-nothing choice
    expect((await q<{ strategy_id: number | null }>('select strategy_id from dsims where sn = $1', ['TSNCHAN001']))[0].strategy_id).toBeNull();
    for (const path of ['getDsimPage', 'info', 'oemStrategyPage', 'insertOemStrategy']) {
      const r = await call(`${D}${path}`, path === 'insertOemStrategy' ? { strategyName: 'sub', ruleType: 1, params: { minutes: 30 } } : mine, 'subcustomer');
      expect(r.body.errorCode, path).toBe(ErrorCode.PermissionDenied);
    }
    for (const path of ['getImportBatchPage', 'getImportItemPage']) {
      const r = await call(`${I}${path}`, path === 'getImportItemPage' ? { batchId: crypto.randomUUID() } : {}, 'enterprise');
      expect(r.body.errorCode, path).toBe(ErrorCode.PermissionDenied);
    }
    // the demo's super SIMs are the enterprise's
    expect((await ok(`${D}getDsimPage`, { snNumber: 'ZX2026SS' }, 'enterprise')).total).toBe(4);
    expect((await ok(`${D}getDsimPage`, { snNumber: 'ZX2026SS' }, 'channel')).total).toBe(0);
    // staff see all
    expect((await ok(`${D}getDsimPage`, { snNumber: 'TSN' }, 'admin')).total).toBe(5);
  });
});
