// Rules added in review of the issue 4 network areas (commserv, opconfig, netconfig): unique-index races
// answered with the friendly refusal, no credentials inside addresses, compression bombs refused.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { CommServType, ErrorCode, Operator, PlatformType, netconfig } from '@lynx/contract';
import { backends, multipart, startTestApp, type TestApp } from './harness.ts';
import { AppError } from '../src/platform/errors.ts';
import { uniqueRace } from '../src/modules/network/unique-race.ts';
import { templateXlsx } from '../src/modules/network/netconfig/import.ts';
import { readSheet } from '../src/platform/spreadsheet.ts';
import { SHEET_HEAD, SHEET_TAIL, deflatedRepeat, xlsxOf } from './xlsx-bombs.ts';
import { iccidMatches, simulatorSecretFor } from '../src/operators/simulator.ts';

describe('plan files through the shared spreadsheet reader', () => {
  it('reads the plan template back, and refuses what merely claims to be a zip', async () => {
    const limits = { minColumns: netconfig.GOODS_IMPORT_COLUMNS.length, maxRows: 10, tooManyRows: () => new AppError(ErrorCode.OperatorGoodsImportTooMany) };
    const rows = await readSheet({ filename: 'plans.xlsx', buffer: await templateXlsx('en') }, limits);
    expect(rows[0]).toEqual(netconfig.GOODS_IMPORT_COLUMNS.map((c) => c.en));
    expect(rows[1]).toHaveLength(netconfig.GOODS_IMPORT_COLUMNS.length);
    await expect(readSheet({ filename: 'plans.xlsx', buffer: Buffer.from('PK\u0003\u0004 not a zip at all') }, limits)).rejects.toMatchObject({ code: ErrorCode.FileType });
  });
});

describe('simulator ICCID failure pattern', () => {
  it('matches * and ? case-insensitively over the whole ICCID', () => {
    const iccid = '89860012345678901234';
    for (const [p, want] of [
      ['8986001*', true], ['*1234', true], ['*', true], ['*8986*1234*', true], ['8986?012345678901234', true], ['8986001*5', false],
      ['?8986001*', false], ['89860012345678901234?', false], ['898600123456789012345', false], ['*0*0*0*', true], ['*0*0*0*0*', false],
    ] as const) expect(iccidMatches(p, iccid), p).toBe(want);
    expect(iccidMatches('89860AB*', '89860ab0000000000000')).toBe(true);
  });

  it('stays fast on a near miss with many stars (a backtracking regex took seconds here)', () => {
    const started = performance.now();
    expect(iccidMatches(`${'*'.repeat(21)}F`, '89860012345678901234')).toBe(false);
    expect(iccidMatches(`${'*?'.repeat(10)}FF`, '89860012345678901234')).toBe(false);
    expect(performance.now() - started).toBeLessThan(50);
  });
});

describe.each(backends)('network configuration review rules on %s', (backend) => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await startTestApp(backend);
    admin = await t.login('admin');
  });
  afterAll(() => t?.stop());
  const call = (endpoint: string, body: unknown) => t.call(endpoint, body, { token: admin, lang: 'en' });

  it('maps a real unique violation of the named index to the friendly refusal, and nothing else', async () => {
    await t.database.sql.query(`insert into comm_speed_limit_configs (speed_limit_name, uplink_kbps, downlink_kbps, created_by) values ('Race A', 1, 1, 't')`);
    const dup = () => t.database.sql.query(`insert into comm_speed_limit_configs (speed_limit_name, uplink_kbps, downlink_kbps, created_by) values ('race a', 1, 1, 't')`);
    const refusal = () => new AppError(ErrorCode.SpeedLimitNameTaken, undefined, 200, { field: 'speedLimitName' });
    await expect(uniqueRace({ comm_speed_limit_configs_name_uq: refusal }, dup)).rejects.toMatchObject({ code: ErrorCode.SpeedLimitNameTaken, data: { field: 'speedLimitName' } });
    // another index's violation is not mistaken for this one
    await expect(uniqueRace({ comm_services_name_uq: refusal }, dup)).rejects.not.toBeInstanceOf(AppError);
  });

  it('every index the network areas map exists and is unique', async () => {
    const rows = await t.database.sql.query<{ indexname: string; indexdef: string }>(`select indexname, indexdef from pg_indexes where schemaname = 'public'`);
    const unique = new Set(rows.filter((r) => /create unique index/i.test(r.indexdef)).map((r) => r.indexname));
    for (const ix of [
      'comm_services_name_uq', 'comm_service_qos_name_uq', 'comm_speed_limit_configs_name_uq', 'comm_redirect_configs_name_uq',
      'operator_accounts_name_uq', 'platform_configs_name_uq', 'comm_plans_name_uq',
    ]) expect(unique.has(ix), ix).toBe(true);
  });

  it('concurrent saves of one name: one succeeds, the others get the friendly refusal, never a server error', async () => {
    const same = async (endpoint: string, body: () => unknown, code: ErrorCode) => {
      const results = await Promise.all(Array.from({ length: 6 }, () => call(endpoint, body())));
      expect(results.map((r) => r.status), endpoint).not.toContain(500);
      expect(results.filter((r) => r.body.success).length, endpoint).toBe(1);
      for (const r of results.filter((x) => !x.body.success)) expect(r.body.errorCode, endpoint).toBe(code);
    };
    await same('network/commserv/save', () => ({ commservName: 'Race service', commservType: CommServType.Data, directional: false, priority: 3 }), ErrorCode.CommServNameTaken);
    await same('network/commserv/speedLimit/save', () => ({ speedLimitName: 'Race limit', uplinkKbps: 64, downlinkKbps: 128 }), ErrorCode.SpeedLimitNameTaken);
    await same('network/commserv/redirect/save', () => ({ redirectName: 'Race redirect', redirectUrl: 'https://portal.example.com' }), ErrorCode.RedirectNameTaken);
    const appKey = 'RACEKEY0000000001';
    await same('network/operatorsAccount/save', () => ({
      operatorId: Operator.ChinaMobile, accountName: 'Race account', endpointUrl: 'https://api.example.com', apiVersion: 'v2', adapter: 'simulator',
      appKey, appSecret: simulatorSecretFor(appKey),
    }), ErrorCode.OperAccountNameTaken);
  });

  it('refuses an operator endpoint or platform address that carries a user name or password', async () => {
    const appKey = 'URLKEY0000000001';
    const r = await call('network/operatorsAccount/save', {
      operatorId: Operator.ChinaMobile, accountName: 'Userinfo', endpointUrl: 'https://ops:Hunter2-secret@api.example.com/openapi', apiVersion: 'v2',
      adapter: 'simulator', appKey, appSecret: simulatorSecretFor(appKey),
    });
    expect(r.body).toMatchObject({ success: false, errorCode: ErrorCode.Validation, data: { field: 'endpointUrl' } });
    expect(r.body.msg).toContain('user name or password');
    expect(JSON.stringify(r.body)).not.toContain('Hunter2');
    const p = await call('network/platform/save', {
      platformType: PlatformType.Payment, name: 'Userinfo pay',
      fields: { channel: 'alipay', merchantId: 'M1', appId: 'a1', privateKey: 'k'.repeat(20), notifyUrl: 'https://u:p@pay.example.com/notify' },
    });
    expect(p.body).toMatchObject({ success: false, data: { field: 'fields.notifyUrl' } });
    expect(p.body.msg).toContain('user name or password');
  });

  it('reads a CSV saved in GBK (Excel on Chinese Windows) as well as UTF-8', async () => {
    // a GBK encoder from the decoder: every two-byte code, reversed
    const table = new Map<string, number[]>();
    const dec = new TextDecoder('gb18030');
    for (let hi = 0x81; hi <= 0xfe; hi++) for (let lo = 0x40; lo <= 0xfe; lo++) if (lo !== 0x7f) table.set(dec.decode(Buffer.from([hi, lo])), [hi, lo]);
    const gbk = (text: string) => Buffer.from([...text].flatMap((ch) => (ch.charCodeAt(0) < 0x80 ? [ch.charCodeAt(0)] : table.get(ch)!)));
    const text = '运营商套餐编码,套餐名称,运营商,套餐类型,额度,额度单位,有效期（天）,价格（元）\r\nGBK-1G,联通国标月包,中国联通,流量,1,GB,30,9.9\r\n';
    const data = gbk(text);
    expect(data.includes(Buffer.from('运营商'))).toBe(false);
    const m = multipart([{ name: 'file', filename: 'plans-gbk.csv', type: 'text/csv', data }]);
    const res = await t.app.inject({ method: 'POST', url: '/api/cmp/network/operatorsGoods/add?lang=zh', payload: m.payload, headers: { ...m.headers, authorization: admin } });
    expect(res.json(), res.body).toMatchObject({ success: true, data: { imported: 1 } });
    const list = await call('network/operatorsGoods/list', { goodsCode: 'GBK-1G' });
    expect(list.body.data.list[0]).toMatchObject({ goodsCode: 'GBK-1G', goodsName: '联通国标月包', operatorId: Operator.ChinaUnicom });
  });

  it('refuses an xlsx that unpacks to far more than a plan list (compression bomb), whatever size it declares', async () => {
    const bomb = xlsxOf({ deflated: deflatedRepeat(SHEET_HEAD, '          ', 9 * 1024 * 1024, SHEET_TAIL), declared: 1000 });
    expect(bomb.length).toBeLessThan(64 * 1024);
    const m = multipart([{ name: 'file', filename: 'plans.xlsx', type: 'application/octet-stream', data: bomb }]);
    const res = await t.app.inject({ method: 'POST', url: '/api/cmp/network/operatorsGoods/add?lang=en', payload: m.payload, headers: { ...m.headers, authorization: admin } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ success: false, errorCode: ErrorCode.UploadUnpackedTooLarge, msg: 'The file unpacks to more than 8 MB; split it and upload again' });
    const [{ n }] = await t.database.sql.query<{ n: number }>(`select count(*)::int as n from audit_log where entity = 'operatorGoodsImport' and after->>'fileName' = 'plans.xlsx'`);
    expect(n).toBe(0);
  });
});
