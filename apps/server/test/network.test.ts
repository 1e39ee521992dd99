import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { ApnStatus, ApnType, ErrorCode, ExportFormat, ExportState, IpAllocation, Operator } from '@lynx/contract';
import { backends, startTestApp, waitFor, type TestApp } from './harness.ts';

describe.each(backends)('operators and APNs on %s', (backend) => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await startTestApp(backend);
    admin = await t.login('admin');
  });
  afterAll(() => t?.stop());

  const apn = (over: Record<string, unknown> = {}) => ({
    apnName: 'cmiot.fleet', operatorId: Operator.ChinaMobile, apnType: ApnType.Private, ipAllocation: IpAllocation.Static, remark: '车队专网', ...over,
  });

  it('lists the three operators with their billing period start day (China Unicom: the 26th)', async () => {
    const r = await t.call('network/operators/list', {}, { token: admin });
    expect(r.body.data.map((o: any) => [o.code, o.billingDay])).toEqual([['CMCC', 1], ['CUCC', 26], ['CTCC', 1]]);
  });

  it('adds, lists and edits APNs; names are unique per operator, case-insensitively', async () => {
    const created = await t.call('network/apn/save', apn(), { token: admin });
    expect(created.body.success).toBe(true);
    const dup = await t.call('network/apn/save', apn({ apnName: 'CMIOT.FLEET' }), { token: admin, lang: 'zh' });
    expect(dup.body).toMatchObject({ errorCode: ErrorCode.ApnNameTaken, msg: '该运营商下已有同名 APN' });
    // the same name on another operator is fine
    expect((await t.call('network/apn/save', apn({ operatorId: Operator.ChinaUnicom }), { token: admin })).body.success).toBe(true);
    // China Mobile's: this one and the demo's public APN of the enterprise's China Mobile plan
    const list = await t.call('network/apn/getListPage', { operatorId: Operator.ChinaMobile }, { token: admin });
    expect(list.body.data.list.map((a: { apnName: string }) => a.apnName).sort()).toEqual(['cmiot', 'cmiot.fleet']);
    expect(list.body.data.list.find((a: { apnName: string }) => a.apnName === 'cmiot.fleet')).toMatchObject({ status: ApnStatus.Enabled, createdBy: 'admin' });
    const upd = await t.call('network/apn/update', { apnId: created.body.data.apnId, status: ApnStatus.Disabled, remark: '' }, { token: admin });
    expect(upd.body.success).toBe(true);
    const after = await t.call('network/apn/getListPage', { status: ApnStatus.Disabled }, { token: admin });
    expect(after.body.data.list[0]).toMatchObject({ apnId: created.body.data.apnId, remark: null });
    const ops = await t.call('network/operators/list', {}, { token: admin });
    expect(ops.body.data.find((o: any) => o.operatorId === Operator.ChinaMobile).apnCount).toBe(2);
    const trail = await t.call('system/audit/getListPage', { entity: 'apn' }, { token: admin });
    expect(trail.body.data.total).toBe(3);
  });

  it('validates the APN name, the operator and the enums', async () => {
    const bad = await t.call('network/apn/save', apn({ apnName: 'bad name!' }), { token: admin });
    expect(bad.body).toMatchObject({ errorCode: ErrorCode.Validation });
    expect(bad.body.msg).toContain('apnName');
    expect((await t.call('network/apn/save', apn({ apnName: 'x.y', operatorId: 9 }), { token: admin })).body.msg).toContain('operatorId');
    expect((await t.call('network/apn/save', apn({ apnName: 'x.z', apnType: 3 }), { token: admin })).body.errorCode).toBe(ErrorCode.Validation);
  });

  it('is staff configuration: customers are refused', async () => {
    const ent = await t.login('enterprise');
    expect((await t.call('network/apn/getListPage', {}, { token: ent })).body.errorCode).toBe(ErrorCode.PermissionDenied);
    expect((await t.call('network/operators/list', {}, { token: ent })).body.errorCode).toBe(ErrorCode.PermissionDenied);
  });

  it('exports APNs only with the export button code 7010003', async () => {
    const created = await t.call('core/downloadTask/createExport', { source: 'network/apn/getListPage', format: ExportFormat.Csv }, { token: admin, lang: 'en' });
    const task = await waitFor(async () => {
      const r = await t.call('core/downloadTask/getListPage', {}, { token: admin });
      const x = r.body.data.list.find((d: any) => d.taskId === created.body.data.taskId);
      return x && x.state !== ExportState.InProcess ? x : null;
    });
    expect(task.state).toBe(ExportState.Succeeded);
    const file = await t.app.inject({ method: 'GET', url: `/api/cmp/core/downloadTask/download?taskId=${task.taskId}`, headers: { authorization: admin } });
    expect(file.body).toContain('cmiot.fleet,China Mobile,Private APN,Static');
    // a role holding the APN page but not the export button
    const role = await t.call('system/role/saveRole', { roleCode: 'APN_VIEW', roleName: 'APN 查看', roleType: 2000, permissions: [7000000, 7010000] }, { token: admin });
    await t.call('core/account/account/saveAccount', { loginName: 'apn.viewer', userName: 'v', roleId: role.body.data.roleId, password: 'Viewer#2026' }, { token: admin });
    const viewer = await t.login('apn.viewer', 'Viewer#2026');
    expect((await t.call('network/apn/getListPage', {}, { token: viewer })).body.success).toBe(true);
    expect((await t.call('core/downloadTask/createExport', { source: 'network/apn/getListPage' }, { token: viewer })).body.errorCode).toBe(ErrorCode.PermissionDenied);
    expect((await t.call('network/apn/save', apn({ apnName: 'v.apn' }), { token: viewer })).body.errorCode).toBe(ErrorCode.PermissionDenied);
  });
});
