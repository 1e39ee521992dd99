import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { CommServType, ErrorCode, ExportFormat, ExportState, RoleType } from '@lynx/contract';
import { backends, startTestApp, waitFor, type TestApp } from './harness.ts';
import { commServicesByIds } from '../src/modules/network/commserv/service.ts';

describe.each(backends)('communication services on %s', (backend) => {
  let t: TestApp;
  let admin: string;
  let seq = 0;
  const uniq = (p: string) => `${p}-${++seq}`;
  beforeAll(async () => {
    t = await startTestApp(backend);
    admin = await t.login('admin');
  });
  afterAll(() => t?.stop());

  const call = (endpoint: string, body: unknown, token = admin, lang: 'zh' | 'en' = 'en') => t.call(`network/commserv/${endpoint}`, body, { token, lang });
  const ok = async (endpoint: string, body: unknown, token = admin) => {
    const r = await call(endpoint, body, token);
    expect(r.body, `${endpoint} ${r.body.msg}`).toMatchObject({ success: true });
    return r.body.data;
  };
  const service = (over: Record<string, unknown> = {}) => ({
    commservName: uniq('Fleet data'), commservType: CommServType.Data, directional: false, priority: 5, ...over,
  });
  const qos = (commservId: number, over: Record<string, unknown> = {}) => ({
    commservId, qosName: uniq('QoS'), qci: 9, maxUplinkKbps: 2048, maxDownlinkKbps: 4096, arpPriority: 8, ...over,
  });
  const whitelistOf = (n: number) => Array.from({ length: n }, (_, i) => `10.1.${Math.floor(i / 250)}.${(i % 250) + 1}`);
  /** a basic plan (H2's tables) that uses the service in one zone */
  const usedByPlan = async (commservId: number) => {
    const code = uniq('T-CS');
    const [plan] = await t.database.sql.query<{ id: number }>(
      `insert into basic_plans (code, name, goods_type, tariff_type, sale_price, created_by) values ($1, $1, 2, 0, 10, 'test') returning goods_release_id as id`, [code],
    );
    const [zone] = await t.database.sql.query<{ id: number }>(`insert into plan_zones (goods_release_id, zone_name) values ($1, 'Z1') returning zone_id as id`, [plan.id]);
    await t.database.sql.query(`insert into plan_zone_services (goods_release_id, zone_id, commserv_id) values ($1, $2, $3)`, [plan.id, zone.id, commservId]);
    return plan.id;
  };

  it('adds a service, lists it with filters, shows its detail, and audits each change', async () => {
    const name = uniq('Enterprise cloud');
    const { commservId } = await ok('save', service({
      commservName: name, directional: true, priority: 2, description: 'private cloud',
      whitelist: [' iot.example.com ', '*.cloud.example.com', '203.0.113.10', '198.51.100.0/24'], redirectAddress: 'https://portal.example.com/pay',
    }));
    const detail = await ok('getDetail', { commservId });
    expect(detail).toMatchObject({
      commservName: name, directional: true, priority: 2, qosCount: 0, planCount: 0, createdBy: 'admin',
      whitelist: ['iot.example.com', '*.cloud.example.com', '203.0.113.10', '198.51.100.0/24'], redirectAddress: 'https://portal.example.com/pay',
    });
    await ok('qos/save', qos(commservId));
    const byName = await ok('getListPage', { commservName: name });
    expect(byName.list.map((s: any) => [s.commservName, s.qosCount])).toEqual([[name, 1]]);
    // the optional English name: kept trimmed, listed beside the name, cleared by a blank
    expect(byName.list[0].commservNameEn).toBeNull();
    await ok('update', { commservId, commservNameEn: ' Private cloud ' });
    expect((await ok('getListPage', { commservName: name })).list[0].commservNameEn).toBe('Private cloud');
    await ok('update', { commservId, commservNameEn: '' });
    expect((await ok('getDetail', { commservId })).commservNameEn).toBeNull();
    const directional = await ok('getListPage', { directional: true, pageSize: 500 });
    expect(directional.list.every((s: any) => s.directional)).toBe(true);
    expect(directional.list.some((s: any) => s.commservId === commservId)).toBe(true);
    const withoutQos = await ok('getListPage', { hasQos: false, pageSize: 500 });
    expect(withoutQos.list.some((s: any) => s.commservId === commservId)).toBe(false);
    expect(withoutQos.list.every((s: any) => s.qosCount === 0)).toBe(true);
    const sms = await ok('getListPage', { commservType: CommServType.Sms, pageSize: 500 });
    expect(sms.total).toBeGreaterThan(0);
    expect(sms.list.every((s: any) => s.commservType === CommServType.Sms)).toBe(true);
    await ok('update', { commservId, priority: 10, description: '' });
    expect(await ok('getDetail', { commservId })).toMatchObject({ priority: 10, description: null });
    const trail = await t.call('system/audit/getListPage', { entity: 'commserv' }, { token: admin });
    const mine = trail.body.data.list.filter((a: any) => a.entityId === String(commservId));
    // created, two English-name changes, the priority change
    expect(mine).toHaveLength(4);
    const qosTrail = await t.call('system/audit/getListPage', { entity: 'commserv_qos' }, { token: admin });
    expect(qosTrail.body.data.total).toBeGreaterThanOrEqual(1);
  });

  it('seeds demo services, and commServicesByIds reports their QoS and whitelist counts', async () => {
    const all = await ok('getListPage', { pageSize: 500 });
    const cloud = all.list.find((s: any) => s.commservName === '企业云定向数据');
    expect(cloud).toMatchObject({ directional: true, qosCount: 1 });
    const rows = await commServicesByIds(t.database.db, [cloud.commservId, cloud.commservId, 999999]);
    expect(rows).toEqual([{ commservId: cloud.commservId, name: '企业云定向数据', nameEn: 'Enterprise cloud directed data', type: CommServType.Data, directional: true, priority: 3, qosCount: 1, whitelistCount: 4 }]);
    expect(await commServicesByIds(t.database.db, [])).toEqual([]);
  });

  it('names are unique, case-insensitively, on add and edit', async () => {
    const name = uniq('Unique Name');
    const { commservId } = await ok('save', service({ commservName: name }));
    const dup = await call('save', service({ commservName: ` ${name.toUpperCase()} ` }), admin, 'zh');
    expect(dup.body).toMatchObject({ success: false, errorCode: ErrorCode.CommServNameTaken, msg: '通信服务名称已存在', data: { field: 'commservName' } });
    const other = await ok('save', service());
    expect((await call('update', { commservId: other.commservId, commservName: name.toLowerCase() })).body.errorCode).toBe(ErrorCode.CommServNameTaken);
    // renaming a service to its own name is fine
    await ok('update', { commservId, commservName: name });
  });

  it('priority is an integer from 1 to 10', async () => {
    for (const priority of [0, 11, 5.5]) {
      const r = await call('save', service({ priority }));
      expect(r.body.errorCode, `priority ${priority}`).toBe(ErrorCode.Validation);
      expect(r.body.msg).toContain('priority');
    }
    await ok('save', service({ priority: 1 }));
    await ok('save', service({ priority: 10 }));
  });

  it('the whitelist holds at most 32 entries: the 33rd is refused naming the limit', async () => {
    const { commservId } = await ok('save', service({ directional: true, whitelist: whitelistOf(32) }));
    expect((await ok('getDetail', { commservId })).whitelist).toHaveLength(32);
    const over = await call('save', service({ directional: true, whitelist: whitelistOf(33) }));
    expect(over.body).toMatchObject({
      success: false, errorCode: ErrorCode.CommServWhitelistTooMany, data: { field: 'whitelist' },
      msg: 'The whitelist holds at most 32 domain names or addresses: entry 33 is one too many',
    });
    const zh = await call('update', { commservId, whitelist: whitelistOf(33) }, admin, 'zh');
    expect(zh.body).toMatchObject({ errorCode: ErrorCode.CommServWhitelistTooMany, msg: '白名单最多 32 个域名或地址，不能添加第 33 个' });
    expect((await ok('getDetail', { commservId })).whitelist).toEqual(whitelistOf(32));
  });

  it('whitelist entries must be domain names, IPv4 addresses or IPv4 CIDRs, without duplicates', async () => {
    for (const bad of ['256.1.1.1', '10.0.0.0/33', 'http://a.example.com', 'no spaces.example.com', 'localhost', '', '1.2.3']) {
      const r = await call('save', service({ whitelist: ['ok.example.com', bad] }));
      expect(r.body.errorCode, bad).toBe(ErrorCode.CommServWhitelistInvalid);
      expect(r.body.msg).toContain('Whitelist entry 2');
    }
    const dup = await call('save', service({ whitelist: ['Api.Example.com', '10.0.0.1', 'api.example.COM'] }));
    expect(dup.body).toMatchObject({ errorCode: ErrorCode.CommServWhitelistDuplicate, msg: 'Duplicate whitelist entry: api.example.COM' });
    await ok('save', service({ whitelist: ['api.example.com', 'xn--fiqs8s.example.cn', '8.8.8.8', '0.0.0.0/0'] }));
  });

  it('a directional service needs at least one whitelist entry, on add and on edit', async () => {
    const r = await call('save', service({ directional: true, whitelist: [] }));
    expect(r.body).toMatchObject({ errorCode: ErrorCode.CommServDirectionalNeedsWhitelist, data: { field: 'whitelist' } });
    const { commservId } = await ok('save', service({ whitelist: [] }));
    expect((await call('update', { commservId, directional: true })).body.errorCode).toBe(ErrorCode.CommServDirectionalNeedsWhitelist);
    const d = await ok('save', service({ directional: true, whitelist: ['a.example.com'] }));
    expect((await call('update', { commservId: d.commservId, whitelist: [] })).body.errorCode).toBe(ErrorCode.CommServDirectionalNeedsWhitelist);
    await ok('update', { commservId: d.commservId, directional: false, whitelist: [] });
  });

  it('validates type, description length and the redirection address', async () => {
    expect((await call('save', service({ commservType: 4 }))).body.errorCode).toBe(ErrorCode.Validation);
    expect((await call('save', service({ description: 'x'.repeat(501) }))).body.msg).toContain('description');
    const ftp = await call('save', service({ redirectAddress: 'ftp://files.example.com' }));
    expect(ftp.body).toMatchObject({ errorCode: ErrorCode.Validation, msg: 'Field redirectAddress: must be an http:// or https:// URL' });
    expect((await call('save', service({ speedLimitId: 999999 }))).body.msg).toContain('speedLimitId');
    await ok('save', service({ redirectAddress: 'http://portal.example.com' }));
  });

  it('QoS: guaranteed rates at most the maximum, QCI 1-9, ARP 1-15, unique names per service', async () => {
    const { commservId } = await ok('save', service());
    const over = await call('qos/save', qos(commservId, { gbrUplinkKbps: 4096 }));
    expect(over.body).toMatchObject({ errorCode: ErrorCode.Validation, msg: 'Field gbrUplinkKbps: the guaranteed uplink rate must not exceed the maximum uplink rate' });
    expect((await call('qos/save', qos(commservId, { qci: 10 }))).body.msg).toContain('qci');
    expect((await call('qos/save', qos(commservId, { arpPriority: 16 }))).body.msg).toContain('arpPriority');
    const { qosId } = await ok('qos/save', qos(commservId, { qosName: 'Video', gbrUplinkKbps: 1024, gbrDownlinkKbps: 2048 }));
    expect((await call('qos/save', qos(commservId, { qosName: 'VIDEO' }))).body.errorCode).toBe(ErrorCode.QosNameTaken);
    // lowering the maximum below the stored guaranteed rate is refused too
    const lower = await call('qos/update', { qosId, maxDownlinkKbps: 1000 });
    expect(lower.body.msg).toContain('gbrDownlinkKbps');
    await ok('qos/update', { qosId, maxDownlinkKbps: 1000, gbrDownlinkKbps: null });
    const list = await ok('qos/getList', { commservId });
    expect(list).toEqual([expect.objectContaining({ qosId, qosName: 'Video', maxDownlinkKbps: 1000, gbrDownlinkKbps: null, gbrUplinkKbps: 1024 })]);
    expect((await call('qos/getList', { commservId: 999999 })).body.errorCode).toBe(ErrorCode.NotFound);
  });

  it('a service used by a basic plan cannot be deleted nor lose its last QoS', async () => {
    const { commservId } = await ok('save', service());
    const a = await ok('qos/save', qos(commservId));
    const b = await ok('qos/save', qos(commservId));
    await usedByPlan(commservId);
    expect((await ok('getDetail', { commservId })).planCount).toBe(1);
    const del = await call('delete', { commservId }, admin, 'zh');
    expect(del.body).toMatchObject({ success: false, errorCode: ErrorCode.CommServInUse, msg: '该通信服务已被 1 个基础套餐使用，不能删除' });
    await ok('qos/delete', { qosId: a.qosId });
    const last = await call('qos/delete', { qosId: b.qosId });
    expect(last.body).toMatchObject({ success: false, errorCode: ErrorCode.CommServLastQos });
    expect(last.body.msg).toContain('no QoS configured');
    expect(await ok('qos/getList', { commservId })).toHaveLength(1);
    expect((await ok('getDetail', { commservId })).qosCount).toBe(1);
  });

  it('an unused service can lose all QoS and be deleted, its QoS with it', async () => {
    const { commservId } = await ok('save', service());
    const q = await ok('qos/save', qos(commservId));
    await ok('qos/delete', { qosId: q.qosId });
    await ok('qos/save', qos(commservId));
    await ok('delete', { commservId });
    expect((await call('getDetail', { commservId })).body.errorCode).toBe(ErrorCode.NotFound);
    const [{ n }] = await t.database.sql.query<{ n: number }>('select count(*)::int as n from comm_service_qos where commserv_id = $1', [commservId]);
    expect(n).toBe(0);
    const trail = await t.call('system/audit/getListPage', { entity: 'commserv' }, { token: admin });
    expect(trail.body.data.list.some((x: any) => x.entityId === String(commservId) && x.endpoint === 'network/commserv/delete')).toBe(true);
  });

  it('speed-limit configurations: add, edit, list, and no delete while a service uses one', async () => {
    const name = uniq('Throttle');
    const { speedLimitId } = await ok('speedLimit/save', { speedLimitName: name, uplinkKbps: 256, downlinkKbps: 512, description: 'after use-up' });
    expect((await call('speedLimit/save', { speedLimitName: name.toUpperCase(), uplinkKbps: 1, downlinkKbps: 1 })).body.errorCode).toBe(ErrorCode.SpeedLimitNameTaken);
    expect((await call('speedLimit/save', { speedLimitName: uniq('x'), uplinkKbps: 0, downlinkKbps: 1 })).body.msg).toContain('uplinkKbps');
    await ok('speedLimit/update', { speedLimitId, downlinkKbps: 1024 });
    const { commservId } = await ok('save', service({ speedLimitId }));
    const list = await ok('speedLimit/getListPage', { speedLimitName: name });
    expect(list.list).toEqual([expect.objectContaining({ speedLimitId, downlinkKbps: 1024, serviceCount: 1 })]);
    expect((await ok('getDetail', { commservId })).speedLimitName).toBe(name);
    const del = await call('speedLimit/delete', { speedLimitId });
    expect(del.body).toMatchObject({ errorCode: ErrorCode.SpeedLimitInUse, msg: 'This speed-limit configuration is used by 1 communication services and cannot be deleted' });
    await ok('update', { commservId, speedLimitId: null });
    await ok('speedLimit/delete', { speedLimitId });
    const trail = await t.call('system/audit/getListPage', { entity: 'commserv_speed_limit' }, { token: admin });
    expect(trail.body.data.list.filter((x: any) => x.entityId === String(speedLimitId))).toHaveLength(3);
  });

  it('redirect configurations: http(s) URLs only, and no delete while a service uses one', async () => {
    const name = uniq('Recharge page');
    expect((await call('redirect/save', { redirectName: name, redirectUrl: 'javascript:alert(1)' })).body.msg).toContain('redirectUrl');
    const { redirectId } = await ok('redirect/save', { redirectName: name, redirectUrl: 'https://pay.example.com', targetContent: 'top-up' });
    expect((await call('redirect/save', { redirectName: name, redirectUrl: 'https://x.example.com' })).body.errorCode).toBe(ErrorCode.RedirectNameTaken);
    await ok('redirect/update', { redirectId, redirectUrl: 'http://pay.example.com/v2' });
    const { commservId } = await ok('save', service({ redirectId }));
    expect((await ok('getDetail', { commservId })).redirectName).toBe(name);
    expect((await call('redirect/delete', { redirectId })).body.errorCode).toBe(ErrorCode.RedirectInUse);
    await ok('delete', { commservId });
    await ok('redirect/delete', { redirectId });
    const list = await ok('redirect/getListPage', { redirectName: name });
    expect(list.total).toBe(0);
  });

  it('exports the list with its filters', async () => {
    const name = uniq('Exported service');
    await ok('save', service({ commservName: name, directional: true, whitelist: ['a.example.com', '10.0.0.0/8'] }));
    const created = await t.call('core/downloadTask/createExport', { source: 'network/commserv/getListPage', format: ExportFormat.Csv, filters: { commservName: name } }, { token: admin });
    expect(created.body.success).toBe(true);
    const task = await waitFor(async () => {
      const r = await t.call('core/downloadTask/getListPage', {}, { token: admin });
      const x = r.body.data.list.find((d: any) => d.taskId === created.body.data.taskId);
      return x && x.state !== ExportState.InProcess ? x : null;
    });
    expect(task.state).toBe(ExportState.Succeeded);
    const file = await t.app.inject({ method: 'GET', url: `/api/cmp/core/downloadTask/download?taskId=${task.taskId}`, headers: { authorization: admin } });
    expect(file.body).toContain(`${name},Data,Directional,5,0,a.example.com; 10.0.0.0/8`);
    expect(file.body).not.toContain('通用互联网数据');
  });

  it('customers are refused (20002) on every endpoint, even with a role holding the codes', async () => {
    const cs = await t.call('core/account/customer/getCustomerListPage', { custName: '智行物流科技有限公司' }, { token: admin });
    const custId = cs.body.data.list[0].custId;
    const role = await t.call('system/role/saveRole', {
      roleCode: 'CUST_COMMSERV', roleName: '客户通信服务', roleType: RoleType.Enterprise, permissions: [7000000, 7030000, 7030001, 7030002, 7030003, 7030004],
    }, { token: admin });
    expect(role.body.success).toBe(true);
    const acc = await t.call('core/account/account/saveAccount', { loginName: 'cust.commserv', userName: 'c', roleId: role.body.data.roleId, custId, password: 'Cust#comm2026' }, { token: admin });
    expect(acc.body.success).toBe(true);
    const holder = await t.login('cust.commserv', 'Cust#comm2026');
    const enterprise = await t.login('enterprise');
    const sub = await t.login('subcustomer');
    const { commservId } = await ok('save', service());
    const { qosId } = await ok('qos/save', qos(commservId));
    const calls: [string, object][] = [
      ['getListPage', {}], ['getDetail', { commservId }], ['save', service()], ['update', { commservId, priority: 3 }], ['delete', { commservId }],
      ['qos/getList', { commservId }], ['qos/save', qos(commservId)], ['qos/update', { qosId, qci: 8 }], ['qos/delete', { qosId }],
      ['speedLimit/getListPage', {}], ['speedLimit/save', { speedLimitName: 'c', uplinkKbps: 1, downlinkKbps: 1 }],
      ['speedLimit/update', { speedLimitId: 1, uplinkKbps: 2 }], ['speedLimit/delete', { speedLimitId: 1 }],
      ['redirect/getListPage', {}], ['redirect/save', { redirectName: 'c', redirectUrl: 'https://c.example.com' }],
      ['redirect/update', { redirectId: 1, redirectUrl: 'https://d.example.com' }], ['redirect/delete', { redirectId: 1 }],
    ];
    for (const token of [holder, enterprise, sub]) {
      for (const [endpoint, body] of calls) {
        const r = await call(endpoint, body, token);
        expect(r.body, endpoint).toMatchObject({ success: false, errorCode: ErrorCode.PermissionDenied });
      }
    }
    const exp = await t.call('core/downloadTask/createExport', { source: 'network/commserv/getListPage' }, { token: holder });
    if (exp.body.success) {
      const task = await waitFor(async () => {
        const r = await t.call('core/downloadTask/getListPage', {}, { token: holder });
        const x = r.body.data.list.find((d: any) => d.taskId === exp.body.data.taskId);
        return x && x.state !== ExportState.InProcess ? x : null;
      });
      expect(task.state).toBe(ExportState.Failed);
    } else {
      expect(exp.body.errorCode).toBe(ErrorCode.PermissionDenied);
    }
    // nothing changed
    expect(await ok('qos/getList', { commservId })).toEqual([expect.objectContaining({ qosId, qci: 9 })]);
  });
});
