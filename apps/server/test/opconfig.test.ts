import fs from 'node:fs';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { sql } from 'drizzle-orm';
import {
  ApnType, CardChangeFailureState, CardChangeType, CommPlanStatus, CommServiceKind, ErrorCode, ExportFormat, ExportState, IpAllocation, Operator,
  PlatformConfigState, PlatformType,
} from '@lynx/contract';
import { backends, startTestApp, waitFor, type TestApp } from './harness.ts';
import { createSimulatorGateway, iccidMatches, simulatorSecretFor } from '../src/operators/simulator.ts';
import { SecretBox, keyFromDataDir, secretBoxFor } from '../src/modules/network/opconfig/secrets.ts';
import { changeCardOnNetwork } from '../src/modules/network/opconfig/service.ts';

const APP_KEY = 'LYNXKEY7731ALPHA';
const APP_SECRET = simulatorSecretFor(APP_KEY);
const PASSWORD = 'Plain-Password-Zeta-991';
const SMS_PASSWORD = 'sms-gw-Secret-Omega-4471';
const PAY_KEY = 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASC-private-Kappa';

describe.each(backends)('operator access and platform configuration on %s', (backend) => {
  let t: TestApp;
  let admin: string;
  /** every response body of every call in this file, for the leak scan */
  const bodies: string[] = [];
  const call = async (endpoint: string, body: unknown = {}, token = admin, lang: 'zh' | 'en' = 'en') => {
    const r = await t.call(endpoint, body, { token, lang });
    bodies.push(JSON.stringify(r.body));
    return r.body;
  };
  const secrets = [APP_SECRET, PASSWORD, SMS_PASSWORD, PAY_KEY, APP_KEY];
  const leaks = (text: string) => secrets.filter((s) => text.includes(s));

  beforeAll(async () => {
    t = await startTestApp(backend);
    admin = await t.login('admin');
  });
  afterAll(() => t?.stop());

  const access = (over: Record<string, unknown> = {}) => ({
    operatorId: Operator.ChinaMobile, accountName: 'OneLink 主账号', endpointUrl: 'https://api.onelink.example.com/openapi', apiVersion: 'v2',
    adapter: 'simulator', appKey: APP_KEY, appSecret: APP_SECRET, password: PASSWORD, remark: '华东大区', ...over,
  });
  let accountId = 0;

  it('stores credentials encrypted at rest and returns only masks', async () => {
    const saved = await call('network/operatorsAccount/save', access());
    expect(saved.success).toBe(true);
    accountId = saved.data.operAccountId;
    const list = await call('network/operatorsAccount/getListPage', {});
    const row = list.data.list.find((a: any) => a.operAccountId === accountId);
    expect(row.credentials).toEqual({
      appKey: { hasSecret: true, mask: `••••${APP_KEY.slice(-4)}` },
      appSecret: { hasSecret: true, mask: `••••${APP_SECRET.slice(-4)}` },
      password: { hasSecret: true, mask: `••••${PASSWORD.slice(-4)}` },
    });
    const detail = await call('network/operatorsAccount/getById', { operAccountId: accountId });
    expect(detail.data).toMatchObject({ accountName: 'OneLink 主账号', adapter: 'simulator', apiVersion: 'v2', createdBy: 'admin' });
    const raw = await t.database.sql.query<{ credentials_sealed: string }>('select credentials_sealed from operator_accounts where oper_account_id = $1', [accountId]);
    expect(raw[0].credentials_sealed).toMatch(/^v1:/);
    expect(leaks(raw[0].credentials_sealed)).toEqual([]);
    // the sealed value opens with the installation key only, and only for its own row
    const box = secretBoxFor(t.config);
    expect(JSON.parse(box.open(raw[0].credentials_sealed, `operator_accounts.credentials:${accountId}`)).appSecret).toBe(APP_SECRET);
    expect(() => box.open(raw[0].credentials_sealed, 'operator_accounts.credentials:999')).toThrow();
    expect(() => new SecretBox(Buffer.alloc(32, 7)).open(raw[0].credentials_sealed, `operator_accounts.credentials:${accountId}`)).toThrow(/20207/);
  });

  it('keeps the generated key in DATA_DIR with mode 0600, so a restart decrypts the same values', () => {
    const file = `${t.config.dataDir}/secret.key`;
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const again = new SecretBox(keyFromDataDir(t.config.dataDir));
    expect(again.keyId).toBe(secretBoxFor(t.config).keyId);
  });

  it('tests the connection through the simulator, which authenticates the stored credentials', async () => {
    const ok = await call('network/operatorsAccount/testConnection', { operAccountId: accountId });
    expect(ok.data).toMatchObject({ ok: true, platform: 'Lynx network simulator', apiVersion: 'v2' });
    expect(ok.data.latencyMs).toBeGreaterThan(0);
    const after = await call('network/operatorsAccount/getById', { operAccountId: accountId });
    expect(after.data).toMatchObject({ lastTestOk: true });

    // editing without typing secrets keeps them: the simulator still accepts the account
    expect((await call('network/operatorsAccount/update', { operAccountId: accountId, remark: '只改备注', appSecret: '', password: '' })).success).toBe(true);
    expect((await call('network/operatorsAccount/testConnection', { operAccountId: accountId })).data.ok).toBe(true);
    const kept = await call('network/operatorsAccount/getById', { operAccountId: accountId });
    expect(kept.data.credentials.appSecret.mask).toBe(`••••${APP_SECRET.slice(-4)}`);
    expect(kept.data.remark).toBe('只改备注');

    // a secret that does not belong to the app key is refused by the simulated carrier
    await call('network/operatorsAccount/update', { operAccountId: accountId, appSecret: 'x'.repeat(32) });
    const bad = await call('network/operatorsAccount/testConnection', { operAccountId: accountId });
    expect(bad.data).toMatchObject({ ok: false });
    expect(bad.data.message).toContain('AUTH_FAILED');
    expect((await call('network/operatorsAccount/getById', { operAccountId: accountId })).data.lastTestOk).toBe(false);
    // an API version the simulator does not implement
    await call('network/operatorsAccount/update', { operAccountId: accountId, appSecret: APP_SECRET, apiVersion: 'v3' });
    expect((await call('network/operatorsAccount/testConnection', { operAccountId: accountId })).data.message).toContain('UNSUPPORTED_VERSION');
    await call('network/operatorsAccount/update', { operAccountId: accountId, apiVersion: 'v2' });
    expect((await call('network/operatorsAccount/testConnection', { operAccountId: accountId })).data.ok).toBe(true);
  });

  it('lets the simulator issue credentials, and requires credentials otherwise', async () => {
    const missing = await call('network/operatorsAccount/save', access({ accountName: 'no creds', appKey: undefined, appSecret: undefined }));
    expect(missing).toMatchObject({ errorCode: ErrorCode.Validation });
    expect(missing.msg).toContain('appKey');
    const issued = await call('network/operatorsAccount/save', access({ accountName: '模拟器签发', appKey: undefined, appSecret: undefined, password: undefined, issueSimulatorCredentials: true }));
    const tested = await call('network/operatorsAccount/testConnection', { operAccountId: issued.data.operAccountId });
    expect(tested.data.ok).toBe(true);
    const view = await call('network/operatorsAccount/getById', { operAccountId: issued.data.operAccountId });
    expect(view.data.credentials.password).toEqual({ hasSecret: false, mask: null });
    expect(view.data.credentials.appSecret.hasSecret).toBe(true);
  });

  it('validates names, endpoints, adapters and simulator options', async () => {
    const dup = await call('network/operatorsAccount/save', access({ accountName: 'onelink 主账号' }), admin, 'zh');
    expect(dup).toMatchObject({ errorCode: ErrorCode.OperAccountNameTaken, msg: '该运营商下已有同名接入账号' });
    const adapter = await call('network/operatorsAccount/save', access({ accountName: 'jasper', adapter: 'cucc-jasper' }));
    expect(adapter.errorCode).toBe(ErrorCode.GatewayAdapterUnavailable);
    expect(adapter.msg).toContain('cucc-jasper');
    expect((await call('network/operatorsAccount/save', access({ accountName: 'x', adapter: 'nope' }))).errorCode).toBe(ErrorCode.GatewayAdapterUnavailable);
    expect((await call('network/operatorsAccount/save', access({ accountName: 'x', endpointUrl: 'ftp://a.b' }))).msg).toContain('endpointUrl');
    expect((await call('network/operatorsAccount/save', access({ accountName: 'x', simFailIccidPattern: '89(.*)' }))).msg).toContain('simFailIccidPattern');
    expect((await call('network/operatorsAccount/save', access({ accountName: 'x', simFailureRate: 101 }))).errorCode).toBe(ErrorCode.Validation);
    expect((await call('network/operatorsAccount/save', access({ accountName: 'x', operatorId: 9 }))).msg).toContain('operatorId');
  });

  it('platform configuration: types, schema, schema-driven validation, masked secrets, state and delete', async () => {
    const types = await call('network/platform/types', {});
    expect(types.data.map((x: any) => x.platformType)).toEqual(PlatformType.values);
    const schema = await call('network/platform/schema', { platformType: PlatformType.SmsGateway });
    expect(schema.data.fields.find((f: any) => f.key === 'password')).toMatchObject({ type: 'secret', required: true });
    expect((await call('network/platform/schema', { platformType: 99 })).msg).toContain('platformType');

    const sms = (over: Record<string, unknown> = {}) => ({
      protocol: 'cmpp3', host: 'sms.gw.example.com', port: 7890, spId: 'SP901234', password: SMS_PASSWORD, serviceCode: '1064899', signature: '【灵犀】', maxPerSecond: 50, ...over,
    });
    const save = (fields: Record<string, unknown>, name = '移动短信网关') => call('network/platform/save', { platformType: PlatformType.SmsGateway, name, fields });
    expect((await save(sms({ port: 70000 }))).msg).toContain('fields.port');
    expect((await save(sms({ password: '' }))).msg).toContain('fields.password');
    expect((await save(sms({ bogus: 1 }))).msg).toContain('fields.bogus');
    expect((await save(sms({ protocol: 'smpp' }))).msg).toContain('fields.protocol');
    expect((await save(sms({ host: 'not a host' }))).msg).toContain('fields.host');
    expect((await save(sms({ serviceCode: '10a' }))).msg).toContain('fields.serviceCode');
    expect((await save(sms({ signature: '签'.repeat(21) }))).msg).toContain('fields.signature');
    const ok = await save(sms());
    expect(ok.success).toBe(true);
    const id = ok.data.id;
    expect((await save(sms())).errorCode).toBe(ErrorCode.PlatformConfigNameTaken);

    const got = await call('network/platform/getById', { id });
    expect(got.data.fields).toMatchObject({ host: 'sms.gw.example.com', port: 7890, signature: '【灵犀】' });
    expect(got.data.fields).not.toHaveProperty('password');
    expect(got.data.secrets.password).toEqual({ hasSecret: true, mask: `••••${SMS_PASSWORD.slice(-4)}` });
    const raw = await t.database.sql.query<{ secrets_sealed: string; field_values: unknown }>('select secrets_sealed, field_values from platform_configs where id = $1', [id]);
    expect(raw[0].secrets_sealed).toMatch(/^v1:/);
    expect(leaks(JSON.stringify(raw[0]))).toEqual([]);

    // edit without the secret keeps it; the secret is required only while none is stored
    const upd = await call('network/platform/updateById', { id, name: '移动短信网关', fields: sms({ password: '', maxPerSecond: 80 }) });
    expect(upd.success).toBe(true);
    const after = await call('network/platform/getById', { id });
    expect(after.data.fields.maxPerSecond).toBe(80);
    expect(after.data.secrets.password.hasSecret).toBe(true);
    const box = secretBoxFor(t.config);
    const again = await t.database.sql.query<{ secrets_sealed: string }>('select secrets_sealed from platform_configs where id = $1', [id]);
    expect(JSON.parse(box.open(again[0].secrets_sealed, `platform_configs.secrets:${id}`)).password).toBe(SMS_PASSWORD);

    const pay = await call('network/platform/save', {
      platformType: PlatformType.Payment, name: '支付宝', fields: { channel: 'alipay', merchantId: '2088001', appId: 'app-1', privateKey: PAY_KEY, notifyUrl: 'https://pay.example.com/notify', sandbox: true },
    });
    expect(pay.success).toBe(true);

    // state switch
    expect((await call('network/platform/updateState', { id, state: PlatformConfigState.Off })).success).toBe(true);
    expect((await call('network/platform/getById', { id })).data.state).toBe(PlatformConfigState.Off);
    const counts = await call('network/platform/types', {});
    expect(counts.data.find((x: any) => x.platformType === PlatformType.SmsGateway)).toEqual({ platformType: PlatformType.SmsGateway, total: 1, on: 0 });
    const offList = await call('network/platform/selectPage', { state: PlatformConfigState.Off });
    expect(offList.data.list.map((x: any) => x.id)).toEqual([id]);

    expect((await call('network/platform/deleteById', { id: pay.data.id })).success).toBe(true);
    expect((await call('network/platform/getById', { id: pay.data.id })).errorCode).toBe(ErrorCode.NotFound);
    const trail = await call('system/audit/getListPage', { entity: 'platformConfig' });
    expect(trail.data.total).toBe(4); // save, update, save, delete
  });

  it('communication plans: APNs and account of the chosen operator, unique names, export; an account in use cannot be deleted', async () => {
    const apn = await call('network/apn/save', { apnName: 'cmiot.plan', operatorId: Operator.ChinaMobile, apnType: ApnType.Private, ipAllocation: IpAllocation.Static });
    const apnCu = await call('network/apn/save', { apnName: 'unim2m.plan', operatorId: Operator.ChinaUnicom, apnType: ApnType.Public, ipAllocation: IpAllocation.Dynamic });
    const plan = (over: Record<string, unknown> = {}) => ({
      planName: '车联网数据计划', operatorId: Operator.ChinaMobile, operAccountId: accountId, apnIds: [apn.data.apnId],
      serviceKinds: [CommServiceKind.Sms, CommServiceKind.Data], roaming: true, description: '车载终端', ...over,
    });
    expect((await call('network/commPlan/save', plan({ apnIds: [apnCu.data.apnId] }))).msg).toContain('apnIds');
    expect((await call('network/commPlan/save', plan({ operatorId: Operator.ChinaUnicom, apnIds: [apnCu.data.apnId] }))).msg).toContain('operAccountId');
    expect((await call('network/commPlan/save', plan({ serviceKinds: [1, 1] }))).msg).toContain('serviceKinds');
    expect((await call('network/commPlan/save', plan({ apnIds: [1, 2, 3, 4, 5] }))).errorCode).toBe(ErrorCode.Validation);
    const saved = await call('network/commPlan/save', plan());
    expect(saved.success).toBe(true);
    expect((await call('network/commPlan/save', plan({ planName: '车联网数据计划 '.trim() }))).errorCode).toBe(ErrorCode.CommPlanNameTaken);
    const list = await call('network/commPlan/getListPage', { operatorId: Operator.ChinaMobile });
    expect(list.data.list[0]).toMatchObject({
      planName: '车联网数据计划', operAccountName: 'OneLink 主账号', apnNames: ['cmiot.plan'], serviceKinds: [CommServiceKind.Data, CommServiceKind.Sms],
      roaming: true, status: CommPlanStatus.Enabled,
    });
    expect((await call('network/commPlan/update', { commPlanId: saved.data.commPlanId, status: CommPlanStatus.Disabled, roaming: false })).success).toBe(true);
    expect((await call('network/commPlan/getListPage', { status: CommPlanStatus.Disabled })).data.list[0].roaming).toBe(false);

    const inUse = await call('network/operatorsAccount/delete', { operAccountId: accountId }, admin, 'zh');
    expect(inUse.errorCode).toBe(ErrorCode.OperAccountInUse);
    expect(inUse.msg).toContain('1 个通信计划');

    const file = await exportText('network/commPlan/getListPage');
    expect(file).toContain('车联网数据计划,China Mobile,OneLink 主账号,cmiot.plan,Yes,Yes,No,No,Disabled');

    const extra = await call('network/commPlan/save', plan({ planName: '临时计划' }));
    expect((await call('network/commPlan/delete', { commPlanId: extra.data.commPlanId })).success).toBe(true);
    expect((await call('system/audit/getListPage', { entity: 'commPlan' })).data.total).toBe(4);
  });

  async function exportText(source: string) {
    const created = await call('core/downloadTask/createExport', { source, format: ExportFormat.Csv });
    expect(created.success).toBe(true);
    const task = await waitFor(async () => {
      const r = await call('core/downloadTask/getListPage', {});
      const x = r.data.list.find((d: any) => d.taskId === created.data.taskId);
      return x && x.state !== ExportState.InProcess ? x : null;
    });
    expect(task.state).toBe(ExportState.Succeeded);
    const res = await t.app.inject({ method: 'GET', url: `/api/cmp/core/downloadTask/download?taskId=${task.taskId}`, headers: { authorization: admin } });
    return res.body;
  }

  it('card change failures: recorded from real gateway refusals, retried through the access configuration, handled', async () => {
    const failing = await call('network/operatorsAccount/save', access({ accountName: '失败演练', simFailIccidPattern: '8986001*' }));
    const operAccountId = failing.data.operAccountId;
    const box = secretBoxFor(t.config);
    const card = { msisdn: '1440012345678', iccid: '89860012345678901234', operatorId: Operator.ChinaMobile };
    // a card outside the failing pattern goes through
    const fine = await changeCardOnNetwork(t.deps.db, box, { ...card, iccid: '89860099999999999999', msisdn: '1440099999999', operAccountId, request: { changeType: CardChangeType.CardState, targetState: 65 } });
    expect(fine.ok).toBe(true);
    const refused = await changeCardOnNetwork(t.deps.db, box, { ...card, operAccountId, request: { changeType: CardChangeType.CardState, targetState: 65 }, triggeredBy: 'admin' });
    expect(refused.ok).toBe(false);

    const list = await call('network/cardChangeFailure/getListPage', {});
    expect(list.data.total).toBe(1);
    const rec = list.data.list[0];
    expect(rec).toMatchObject({
      msisdn: card.msisdn, iccid: card.iccid, changeType: CardChangeType.CardState, request: { targetState: 65 }, failureCode: 'CARD_REJECTED',
      attempts: 1, state: CardChangeFailureState.Pending, operAccountName: '失败演练',
    });

    // retry while the operator still refuses: a new failure is recorded
    const again = await call('network/cardChangeFailure/retry', { failureId: rec.failureId });
    expect(again.data).toMatchObject({ ok: false, state: CardChangeFailureState.RetryFailed });
    // the operator accepts once the rule no longer applies
    await call('network/operatorsAccount/update', { operAccountId, simFailIccidPattern: '' });
    const ok = await call('network/cardChangeFailure/retry', { failureId: rec.failureId });
    expect(ok.data).toMatchObject({ ok: true, state: CardChangeFailureState.RetriedOk });
    expect(ok.data.message).toMatch(/^accepted: SIM-/);
    expect((await call('network/cardChangeFailure/retry', { failureId: rec.failureId })).errorCode).toBe(ErrorCode.FailureClosed);

    const detail = await call('network/cardChangeFailure/record', { msisdn: card.msisdn });
    expect(detail.data[0]).toMatchObject({ attempts: 3, state: CardChangeFailureState.RetriedOk });
    expect(detail.data[0].attemptList.map((a: any) => [a.attemptNo, a.ok])).toEqual([[1, false], [2, false], [3, true]]);
    expect(detail.data[0].attemptList[1].triggeredBy).toBe('admin');
    expect((await call('network/cardChangeFailure/record', { msisdn: '0000' })).errorCode).toBe(ErrorCode.NotFound);

    // a failure rate refuses a stable share of cards: at 100 % every plan change fails
    await call('network/operatorsAccount/update', { operAccountId, simFailureRate: 100 });
    const busy = await changeCardOnNetwork(t.deps.db, box, { ...card, msisdn: '1440012340000', operAccountId, request: { changeType: CardChangeType.Plan, planCode: 'CM-1G' } });
    expect(busy.ok).toBe(false);
    const open = (await call('network/cardChangeFailure/getListPage', { state: CardChangeFailureState.Pending })).data.list[0];
    expect(open).toMatchObject({ failureCode: 'OPERATOR_BUSY', changeType: CardChangeType.Plan, request: { planCode: 'CM-1G', effective: 'nextCycle' } });
    // an account with open failures cannot be deleted
    expect((await call('network/operatorsAccount/delete', { operAccountId })).errorCode).toBe(ErrorCode.OperAccountInUse);

    expect((await call('network/cardChangeFailure/handled', { failureId: open.failureId, remark: '   ' })).msg).toContain('remark');
    expect((await call('network/cardChangeFailure/handled', { failureId: open.failureId, remark: '已线下在运营商门户处理' })).success).toBe(true);
    const handled = (await call('network/cardChangeFailure/record', { msisdn: '1440012340000' })).data[0];
    expect(handled).toMatchObject({ state: CardChangeFailureState.Handled, handledBy: 'admin', remark: '已线下在运营商门户处理' });
    expect((await call('network/cardChangeFailure/handled', { failureId: open.failureId, remark: 'again' })).errorCode).toBe(ErrorCode.FailureClosed);
    expect((await call('network/cardChangeFailure/retry', { failureId: open.failureId })).errorCode).toBe(ErrorCode.FailureClosed);

    const file = await exportText('network/cardChangeFailure/getListPage');
    expect(file).toContain('Retry succeeded');
    expect(file).toContain('targetState=65');

    // now nothing uses it: deleting works
    expect((await call('network/operatorsAccount/delete', { operAccountId })).success).toBe(true);
    const trail = await call('system/audit/getListPage', { entity: 'cardChangeFailure.retry' });
    expect(trail.data.total).toBe(2);
  });

  it('is staff configuration: customers are refused on every endpoint; button codes are checked', async () => {
    const endpoints: [string, unknown][] = [
      ['network/operatorsAccount/getListPage', {}], ['network/operatorsAccount/getById', { operAccountId: accountId }],
      ['network/operatorsAccount/options', {}], ['network/operatorsAccount/save', access({ accountName: 'c' })],
      ['network/operatorsAccount/update', { operAccountId: accountId, remark: 'x' }], ['network/operatorsAccount/delete', { operAccountId: accountId }],
      ['network/operatorsAccount/testConnection', { operAccountId: accountId }],
      ['network/platform/types', {}], ['network/platform/schema', { platformType: 1 }], ['network/platform/selectPage', {}],
      ['network/platform/getById', { id: 1 }], ['network/platform/updateState', { id: 1, state: 1 }], ['network/platform/deleteById', { id: 1 }],
      ['network/commPlan/getListPage', {}], ['network/commPlan/delete', { commPlanId: 1 }],
      ['network/cardChangeFailure/getListPage', {}], ['network/cardChangeFailure/record', { msisdn: '1' }],
      ['network/cardChangeFailure/handled', { failureId: 1, remark: 'x' }], ['network/cardChangeFailure/retry', { failureId: 1 }],
    ];
    for (const login of ['enterprise', 'channel', 'subcustomer']) {
      const token = await t.login(login);
      for (const [e, b] of endpoints) expect((await call(e, b, token)).errorCode, `${login} ${e}`).toBe(ErrorCode.PermissionDenied);
      expect((await call('core/downloadTask/createExport', { source: 'network/commPlan/getListPage' }, token)).errorCode).toBe(ErrorCode.PermissionDenied);
    }
    // staff holding the page but not the test-connection button
    const role = await call('system/role/saveRole', { roleCode: 'ACCESS_VIEW', roleName: '接入查看', roleType: 2000, permissions: [7000000, 7060000] });
    await call('core/account/account/saveAccount', { loginName: 'access.viewer', userName: 'v', roleId: role.data.roleId, password: 'Viewer#2026' });
    const viewer = await t.login('access.viewer', 'Viewer#2026');
    expect((await call('network/operatorsAccount/getListPage', {}, viewer)).success).toBe(true);
    expect((await call('network/operatorsAccount/testConnection', { operAccountId: accountId }, viewer)).errorCode).toBe(ErrorCode.PermissionDenied);
    expect((await call('network/operatorsAccount/update', { operAccountId: accountId, remark: 'x' }, viewer)).errorCode).toBe(ErrorCode.PermissionDenied);
  });

  it('writes audit rows for access configuration changes, with the credentials masked', async () => {
    const trail = await call('system/audit/getListPage', { entity: 'operatorAccount' });
    expect(trail.data.total).toBeGreaterThanOrEqual(8);
    const tests = await call('system/audit/getListPage', { entity: 'operatorAccount.test' });
    expect(tests.data.total).toBeGreaterThanOrEqual(6);
  });

  it('never lets a secret out: no response body, export file, audit row or API log row holds one', async () => {
    const file = await exportText('network/operatorsAccount/getListPage');
    expect(file).toContain('OneLink 主账号');
    expect(leaks(file)).toEqual([]);
    expect(bodies.length).toBeGreaterThan(100);
    for (const b of bodies) expect(leaks(b), b.slice(0, 200)).toEqual([]);
    const auditRows = await t.deps.db.execute(sql`select * from audit_log`);
    const auditText = JSON.stringify((auditRows as any).rows ?? auditRows);
    expect(auditText).toContain('operatorAccount');
    expect(leaks(auditText)).toEqual([]);
    await t.deps.apiLog.flush();
    const logRows = await t.database.sql.query('select * from api_log');
    expect(logRows.length).toBeGreaterThan(50);
    expect(leaks(JSON.stringify(logRows))).toEqual([]);
  });
});

describe('the built-in network simulator', () => {
  const account = (over: Partial<Parameters<typeof createSimulatorGateway>[0]> = {}) => ({
    operAccountId: 1, operatorId: 1, accountName: 'sim', endpointUrl: 'https://sim.example.com', apiVersion: 'v1',
    credentials: { appKey: APP_KEY, appSecret: APP_SECRET, password: null }, simFailureRate: 0, simFailIccidPattern: null, ...over,
  });

  it('matches ICCID patterns with * and ? literally otherwise', () => {
    expect(iccidMatches('8986001*', '89860012345678901234')).toBe(true);
    expect(iccidMatches('8986001*', '89860099999999999999')).toBe(false);
    expect(iccidMatches('8986?012345678901234', '89860012345678901234')).toBe(true);
    expect(iccidMatches(null, '89860012345678901234')).toBe(false);
  });

  it('refuses a stable share of cards for a failure rate, the same answer for the same change', async () => {
    const gw = createSimulatorGateway(account({ simFailureRate: 30 }));
    const iccids = Array.from({ length: 200 }, (_, i) => `8986${String(i).padStart(16, '0')}`);
    const first = await Promise.all(iccids.map((iccid) => gw.changeCardState({ iccid, targetState: 65 })));
    const refused = first.filter((r) => !r.ok).length;
    expect(refused).toBeGreaterThan(30);
    expect(refused).toBeLessThan(90);
    const again = await Promise.all(iccids.map((iccid) => gw.changeCardState({ iccid, targetState: 65 })));
    expect(again.map((r) => r.ok)).toEqual(first.map((r) => r.ok));
    const never = createSimulatorGateway(account());
    expect((await Promise.all(iccids.slice(0, 20).map((iccid) => never.changePlan({ iccid, planCode: 'P1', effective: 'nextCycle' })))).every((r) => r.ok)).toBe(true);
    expect((await never.changeCardState({ iccid: 'abc', targetState: 65 })).ok).toBe(false);
    expect((await never.changeCardState({ iccid: iccids[0], targetState: 99 })).ok).toBe(false);
  });

  it('reports the same usage for the same period and refuses calls with wrong credentials', async () => {
    const gw = createSimulatorGateway(account());
    const q = { iccid: '89860012345678901234', from: new Date('2026-10-01T00:00:00Z'), to: new Date('2026-10-31T23:59:59Z') };
    const a = await gw.queryUsage(q);
    const b = await gw.queryUsage(q);
    expect(a.ok && b.ok).toBe(true);
    if (a.ok && b.ok) {
      expect(a.data).toEqual(b.data);
      expect(a.data.dataBytes).toBeGreaterThan(0);
    }
    const wrong = createSimulatorGateway(account({ credentials: { appKey: APP_KEY, appSecret: 'wrong', password: null } }));
    const r = await wrong.queryUsage(q);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.code).toBe('AUTH_FAILED');
  });
});
