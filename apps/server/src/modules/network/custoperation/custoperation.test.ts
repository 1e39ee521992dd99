import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { CardState, ErrorCode, ExportFormat, Operator, pool as poolApi } from '@lynx/contract';
import { backends, iccidsOf, insertCards, ownerOf, startTestApp, type Owner, type TestApp } from '../../../../test/harness.ts';
import { addDay } from '../../usage/usage-time.ts';
import { operationRange, unicomPeriod } from './service.ts';

/**
 * Shortcuts › China Unicom account operation (6030000): usage per Unicom account × rate plan × zone × day summed from
 * the stored daily usage, the Unicom billing period from the 26th, pooled-usage alarms from the pool rule's events,
 * each viewer kept to its own cards, the page code checked on every endpoint, ranges refused in both languages.
 */
const API = 'core/network/operatorsAccount/';
const CU = Operator.ChinaUnicom;
const CM = Operator.ChinaMobile;
const { PoolEventType } = poolApi;

describe('ranges and the Unicom period', () => {
  it('defaults to the last 7 days and refuses reversed or longer than 31 days', () => {
    expect(operationRange(undefined, undefined, '2026-11-28')).toEqual({ from: '2026-11-22', to: '2026-11-28' });
    expect(operationRange('2026-11-01', undefined, '2026-11-28')).toEqual({ from: '2026-11-01', to: '2026-11-07' });
    expect(operationRange('2026-10-01', '2026-10-31', '2026-11-28')).toEqual({ from: '2026-10-01', to: '2026-10-31' });
    expect(() => operationRange('2026-10-01', '2026-11-01', '2026-11-28')).toThrow();
    expect(() => operationRange('2026-10-02', '2026-10-01', '2026-11-28')).toThrow();
  });
  it('starts China Unicom\'s period on the 26th', () => {
    expect(unicomPeriod('2026-11-25', 26)).toEqual({ from: '2026-10-26', to: '2026-11-25' });
    expect(unicomPeriod('2026-11-26', 26)).toEqual({ from: '2026-11-26', to: '2026-12-25' });
    expect(unicomPeriod('2027-01-03', 26)).toEqual({ from: '2026-12-26', to: '2027-01-25' });
  });
});

describe.each(backends)('China Unicom account operation on %s', (backend) => {
  let t: TestApp;
  const tok: Record<string, string> = {};
  const own: Record<string, Owner> = {};
  let plan1 = 0;
  let plan2 = 0;
  let account = '';
  const q = <T = Record<string, unknown>>(text: string, params: unknown[] = []) => t.database.sql.query<T>(text, params);
  const call = (name: string, body: object, who: string, lang: 'zh' | 'en' = 'en') => t.call(`${API}${name}`, body, { token: tok[who], lang });
  const ok = async (name: string, body: object, who: string) => {
    const r = await call(name, body, who);
    expect(r.body.errorCode, r.body.msg).toBeNull();
    return r.body.data;
  };
  // two days around the Unicom period's start, three months back (inside the usage partitions)
  const month = (() => { const d = new Date(); d.setUTCDate(1); d.setUTCMonth(d.getUTCMonth() - 3); return d.toISOString().slice(0, 7); })();
  const D1 = `${month}-25`;
  const D2 = `${month}-26`;
  const D0 = addDay(D1, -1);
  const prev26 = (() => { const [y, m] = month.split('-').map(Number); return new Date(Date.UTC(y, m - 2, 26)).toISOString().slice(0, 10); })();
  const use = (iccid: string, day: string, o: Owner, bytes: number, op: number = CU) => q(
    `insert into card_usage_daily (iccid, day, bytes_up, bytes_down, bytes, sms, voice_seconds, sessions, apn, operator_id, cust_id, root_cust_id)
     values ($1, $2, 0, $3, $3, 1, 60, 2, 'scuiot', $4, $5, $6)`, [iccid, day, bytes, op, o.cust_id, o.root_cust_id],
  );
  const plan = async (code: string, name: string, zones: [string, string][]) => {
    const [p] = await q<{ id: number }>(`insert into basic_plans (code, name, goods_type, tariff_type, sale_price, operator_id, quota_mb, created_by)
      values ($1, $2, 2, 6, '10', $3, 1024, 'test') returning goods_release_id as id`, [code, name, CU]);
    for (const [i, [zh, en]] of zones.entries()) {
      await q('insert into plan_zones (goods_release_id, zone_name, zone_name_en, sort) values ($1, $2, $3, $4)', [p.id, zh, en, i]);
    }
    return p.id;
  };
  const pool = async (o: Owner, name: string, iccids: string[], at: string) => {
    const [p] = await q<{ id: number }>(`insert into card_pools (name, cust_id, root_cust_id, operator_id, alert_percent, created_by)
      values ($1, $2, $3, $4, 80, 'test') returning pool_id as id`, [name, o.cust_id, o.root_cust_id, CU]);
    await q('update cards set pool_id = $1 where iccid = any($2)', [p.id, iccids]);
    await q(`insert into card_pool_events (pool_id, type, used_bytes, quota_bytes, member_count, actor, at) values ($1, $2, 900, 1000, $3, 'pool-usage', $4)`,
      [p.id, PoolEventType.ThresholdReached, iccids.length, at]);
    // a manual block is a person's act, not a usage alarm
    await q(`insert into card_pool_events (pool_id, type, actor, at) values ($1, $2, 'admin', $3)`, [p.id, PoolEventType.ManualBlocked, at]);
  };

  beforeAll(async () => {
    t = await startTestApp(backend, { rateLimitPerToken: 1_000_000, rateLimitPerIp: 1_000_000 }, { jobs: false });
    for (const who of ['admin', 'enterprise', 'channel', 'subcustomer']) tok[who] = await t.login(who);
    for (const who of ['enterprise', 'channel', 'subcustomer']) own[who] = await ownerOf(t, who);
    plan1 = await plan('T-CUOP-1', '联通测试共享池 1GB', [['全国公网', 'Nationwide'], ['企业专网', 'Private']]);
    plan2 = await plan('T-CUOP-2', '联通测试单卡 1GB', [['省内', 'In province']]);
    const east = await insertCards(t, iccidsOf('8986012021', 1, 3), { state: CardState.Activated, owner: own.subcustomer, operatorId: CU, plan: plan1 });
    const hd = await insertCards(t, iccidsOf('8986012022', 1, 2), { state: CardState.Activated, owner: own.channel, operatorId: CU, plan: plan1 });
    const [solo] = await insertCards(t, iccidsOf('8986012023', 1, 1), { state: CardState.Activated, owner: own.enterprise, operatorId: CU, plan: plan2 });
    const [mobile] = await insertCards(t, iccidsOf('8986002024', 1, 1), { state: CardState.Activated, owner: own.subcustomer, operatorId: CM, plan: plan1 });
    // D2: east 100 + 200 + 300, HD 1000 + 2000; solo 50. D1 (the previous period): east 7. D0: east 5. China Mobile: never counted
    for (const [i, b] of [100, 200, 300].entries()) await use(east[i], D2, own.subcustomer, b);
    await use(hd[0], D2, own.channel, 1000);
    await use(hd[1], D2, own.channel, 2000);
    await use(solo, D2, own.enterprise, 50);
    await use(east[0], D1, own.subcustomer, 7);
    await use(east[0], D0, own.subcustomer, 5);
    await use(mobile, D2, own.subcustomer, 99999, CM);
    await pool(own.subcustomer, '华东联通池', east, `${D2}T02:00:00Z`);
    await pool(own.channel, '华电联通池', hd, `${D2}T15:30:00Z`);
    const opts = await ok('getCustOperationOptions', {}, 'admin');
    account = opts.accounts.find((a: { servesCards: boolean }) => a.servesCards).accountName;
  });
  afterAll(async () => { await t?.stop(); });

  it('sums the stored daily usage per account × plan × zone × day, with the pool alarms of the day', async () => {
    const r = await ok('getCustOperationPage', { startDate: D0, endDate: D2, pageSize: 100 }, 'admin');
    expect(r).toMatchObject({ startDate: D0, endDate: D2, total: 4 });
    const key = (x: { queryDate: string; ratePlanCode: string }) => `${x.queryDate}/${x.ratePlanCode}`;
    expect(r.list.map(key)).toEqual([`${D2}/T-CUOP-1`, `${D2}/T-CUOP-2`, `${D1}/T-CUOP-1`, `${D0}/T-CUOP-1`]);
    expect(r.list[0]).toMatchObject({
      accountName: account, goodsReleaseId: plan1, ratePlanName: '联通测试共享池 1GB', zoneName: '全国公网', zoneNameEn: 'Nationwide',
      cards: 5, bytes: 3600, sms: 5, voiceSeconds: 300, sessions: 10, alarms: 2, quotaMb: 1024,
    });
    expect(r.list[1]).toMatchObject({ zoneName: '省内', cards: 1, bytes: 50, alarms: 0 });
    expect(r.totals).toEqual({ cards: 8, bytes: 3662, sms: 8, voiceSeconds: 480, sessions: 16, alarms: 2 });
    // against the table itself
    const [sum] = await q<{ b: string }>(`select sum(u.bytes) as b from card_usage_daily u join cards c on c.iccid = u.iccid
      where u.operator_id = $1 and u.day between $2 and $3 and c.goods_release_id in ($4, $5)`, [CU, D0, D2, plan1, plan2]);
    expect(r.totals.bytes).toBe(Number(sum.b));
    // filters: plan, zone (either language, part of the name), another account (serves no cards), paging
    expect((await ok('getCustOperationPage', { startDate: D0, endDate: D2, goodsReleaseId: plan2 }, 'admin')).totals.bytes).toBe(50);
    expect((await ok('getCustOperationPage', { startDate: D0, endDate: D2, zoneName: 'nation' }, 'admin')).total).toBe(3);
    expect((await ok('getCustOperationPage', { startDate: D0, endDate: D2, zoneName: '省内' }, 'admin')).totals.bytes).toBe(50);
    expect((await ok('getCustOperationPage', { startDate: D0, endDate: D2, operAccountId: 999999 }, 'admin')).total).toBe(0);
    expect((await ok('getCustOperationPage', { startDate: D0, endDate: D2, zoneName: '%' }, 'admin')).total).toBe(0);
    const p2 = await ok('getCustOperationPage', { startDate: D0, endDate: D2, pageSize: 1, current: 2 }, 'admin');
    expect(p2.list.map(key)).toEqual([`${D2}/T-CUOP-2`]);
  });

  it('shows a row\'s pool: the period from the 26th, the pooled quota, the cards and the alarm messages', async () => {
    const key = { accountName: account, ratePlanName: '联通测试共享池 1GB', zoneName: '全国公网' };
    const d = await ok('getCustOperationDetail', { ...key, queryDate: D2 }, 'admin');
    expect(d).toMatchObject({ periodFrom: D2, periodCards: 5, periodBytes: 3600, pooledQuotaBytes: 5 * 1024 * 1024 * 1024 });
    expect(d.row).toMatchObject({ cards: 5, bytes: 3600, alarms: 2 });
    expect(d.alarms.map((a: { poolName: string; type: number }) => `${a.poolName}/${a.type}`)).toEqual(['华电联通池/6', '华东联通池/6']);
    // the 25th belongs to the period that began on the previous month's 26th
    const d1 = await ok('getCustOperationDetail', { ...key, queryDate: D1 }, 'admin');
    expect(d1).toMatchObject({ periodFrom: prev26, periodTo: D1, periodBytes: 12, periodCards: 1, alarms: [] });
    const cards = await ok('getCustOperationCardPage', { ...key, queryDate: D2, pageSize: 2 }, 'admin');
    expect(cards.total).toBe(5);
    expect(cards.list.map((c: { bytes: number }) => c.bytes)).toEqual([2000, 1000]);
    // names that do not fit: the second zone, another account, an unknown plan
    for (const bad of [{ ...key, zoneName: '企业专网' }, { ...key, accountName: 'nobody' }, { ...key, ratePlanName: 'nothing' }]) {
      expect((await call('getCustOperationDetail', { ...bad, queryDate: D2 }, 'admin')).body.errorCode).toBe(ErrorCode.NotFound);
    }
  });

  it('refuses bad ranges in the caller\'s language and changes nothing', async () => {
    const long = await call('getCustOperationPage', { startDate: D0, endDate: addDay(D0, 31) }, 'admin', 'en');
    expect(long.body).toMatchObject({ success: false, errorCode: ErrorCode.UsageRangeTooLong });
    expect(long.body.msg).toContain('31');
    expect((await call('getCustOperationPage', { startDate: D0, endDate: addDay(D0, 31) }, 'admin', 'zh')).body.msg).toContain('31 天');
    expect((await call('getCustOperationPage', { startDate: D2, endDate: D1 }, 'admin')).body.errorCode).toBe(ErrorCode.UsageRangeReversed);
    expect((await call('getCustOperationPage', { startDate: '2026-1-1' }, 'admin')).body.errorCode).toBe(ErrorCode.Validation);
    expect((await call('getCustOperationDetail', { accountName: account, ratePlanName: 'x', zoneName: 'y', queryDate: 'today' }, 'admin')).body.errorCode)
      .toBe(ErrorCode.Validation);
  });

  it('checks the page code and keeps a customer to its own cards', async () => {
    const names = ['getCustOperationPage', 'getCustOperationOptions', 'getCustOperationDetail', 'getCustOperationCardPage'];
    const body = (name: string) => (name.includes('Detail') || name.includes('Card')
      ? { accountName: account, ratePlanName: '联通测试共享池 1GB', zoneName: '全国公网', queryDate: D2 } : {});
    // built-in customer roles do not hold 6030000: refused on every endpoint; without a session 20003
    for (const name of names) {
      expect((await call(name, body(name), 'enterprise')).body.errorCode, name).toBe(ErrorCode.PermissionDenied);
      expect((await t.call(`${API}${name}`, body(name))).body.errorCode, name).toBe(ErrorCode.SessionInvalid);
    }
    expect((await t.call('core/downloadTask/createExport', { source: `${API}getCustOperationPage`, filters: {} }, { token: tok.enterprise })).body.errorCode)
      .toBe(ErrorCode.PermissionDenied);
    // a role edited to hold it sees its own cards only: the enterprise its tree, the sub-customer itself, the channel its own
    await q('update roles set permissions = permissions || array[6030000] where role_id in (3000, 4000, 5000)');
    for (const who of ['enterprise', 'channel', 'subcustomer']) tok[who] = await t.login(who);
    const page = (who: string) => ok('getCustOperationPage', { startDate: D0, endDate: D2, pageSize: 100 }, who);
    expect((await page('enterprise')).totals).toEqual({ cards: 6, bytes: 662, sms: 6, voiceSeconds: 360, sessions: 12, alarms: 1 });
    expect((await page('subcustomer')).totals).toMatchObject({ cards: 5, bytes: 612, alarms: 1 });
    expect((await page('channel')).totals).toMatchObject({ cards: 2, bytes: 3000, alarms: 1 });
    const key = { accountName: account, ratePlanName: '联通测试共享池 1GB', zoneName: '全国公网', queryDate: D2 };
    const mine = await ok('getCustOperationDetail', key, 'subcustomer');
    expect(mine).toMatchObject({ periodCards: 3, periodBytes: 600 });
    expect(mine.alarms.map((a: { poolName: string }) => a.poolName)).toEqual(['华东联通池']);
    const cards = await ok('getCustOperationCardPage', { ...key, pageSize: 100 }, 'channel');
    expect(cards.list.map((c: { custId: number }) => c.custId)).toEqual([own.channel.cust_id, own.channel.cust_id]);
    // a plan with no card of the viewer's is "not found"
    expect((await call('getCustOperationDetail', { ...key, ratePlanName: '联通测试单卡 1GB', zoneName: '省内' }, 'channel')).body.errorCode).toBe(ErrorCode.NotFound);
    expect((await ok('getCustOperationOptions', {}, 'channel')).plans.map((p: { goodsReleaseId: number }) => p.goodsReleaseId)).toEqual([plan1]);
    // the export holds the caller's rows only
    const exp = (await t.call('core/downloadTask/createExport', {
      source: `${API}getCustOperationPage`, filters: { startDate: D0, endDate: D2 }, format: ExportFormat.Csv,
    }, { token: tok.subcustomer })).body.data;
    expect(exp.direct).toBe(true);
    expect((await q<{ row_count: number }>('select row_count from download_tasks where task_id = $1', [exp.taskId]))[0].row_count).toBe(3);
    const all = (await t.call('core/downloadTask/createExport', {
      source: `${API}getCustOperationPage`, filters: { startDate: D0, endDate: D2 }, format: ExportFormat.Xlsx,
    }, { token: tok.admin })).body.data;
    expect((await q<{ row_count: number }>('select row_count from download_tasks where task_id = $1', [all.taskId]))[0].row_count).toBe(4);
  });
});
