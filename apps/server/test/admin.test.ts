import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { ErrorCode, NoticeState, Perm, RoleType, SendMode } from '@lynx/contract';
import { backends, startTestApp, DEMO_PASSWORD, type TestApp } from './harness.ts';

describe.each(backends)('roles, announcements and API access on %s', (backend) => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await startTestApp(backend, {}, { jobs: false });
    admin = await t.login('admin');
  });
  afterAll(() => t?.stop());

  it('creates a role whose permissions take effect for its users, and refuses to delete it while in use', async () => {
    const created = await t.call('system/role/saveRole', {
      roleCode: 'AUDITOR', roleName: '审计员', roleType: RoleType.Manager, description: 'reads logs',
      permissions: [Perm.System, Perm.SystemUserBehavior],
    }, { token: admin });
    expect(created.body.success).toBe(true);
    const roleId = created.body.data.roleId;
    expect(roleId).toBeGreaterThan(10000);
    expect((await t.call('system/role/saveRole', { roleCode: 'auditor', roleName: 'x', roleType: 2000, permissions: [] }, { token: admin })).body.errorCode).toBe(ErrorCode.RoleCodeTaken);
    expect((await t.call('system/role/saveRole', { roleCode: 'BAD', roleName: 'x', roleType: 2000, permissions: [123] }, { token: admin })).body.errorCode).toBe(ErrorCode.PermissionCodeUnknown);

    const acc = await t.call('core/account/account/saveAccount', { loginName: 'auditor1', userName: '审计', roleId, password: 'Audit#2026x' }, { token: admin });
    expect(acc.body.success).toBe(true);
    const login = await t.call('base/oauth/user/login', { loginName: 'auditor1', password: 'Audit#2026x' });
    expect(login.body.data.roleId).toBe(RoleType.Manager);
    expect(login.body.data.permissions).toEqual([Perm.System, Perm.SystemUserBehavior]);
    const token = login.body.data.accessToken;
    expect((await t.call('core/account/operationLog/getListPage', {}, { token })).body.success).toBe(true);
    expect((await t.call('system/apiLog/getListPage', {}, { token })).body.errorCode).toBe(ErrorCode.PermissionDenied);

    // grant the API log: the same token can use it on its next call
    const upd = await t.call('system/role/updateRole', { roleId, permissions: [Perm.System, Perm.SystemUserBehavior, Perm.SystemApiLog] }, { token: admin });
    expect(upd.body.success).toBe(true);
    expect((await t.call('system/apiLog/getListPage', {}, { token })).body.success).toBe(true);

    const del = await t.call('system/role/deleteRole', { roleId }, { token: admin, lang: 'zh' });
    expect(del.body).toMatchObject({ errorCode: ErrorCode.RoleInUse, msg: '该角色已分配给 1 个账号，不能删除' });
    expect((await t.call('system/role/deleteRole', { roleId: RoleType.Enterprise }, { token: admin })).body.errorCode).toBe(ErrorCode.RoleBuiltIn);

    const list = await t.call('system/role/getRoleListPage', {}, { token: admin });
    expect(list.body.data.list.find((r: any) => r.roleId === roleId).accountCount).toBe(1);
    expect(list.body.data.list.find((r: any) => r.roleId === RoleType.Enterprise)).toMatchObject({ roleName: '企业客户', roleNameEn: 'Enterprise customer' });

    const beh = await t.call('core/account/operationLog/getListPage', { loginName: 'admin' }, { token: admin });
    expect(beh.body.data.list.map((x: any) => x.action)).toEqual(expect.arrayContaining([7, 8]));
  });

  it('deletes an unused role and keeps the administrator role complete', async () => {
    const r = await t.call('system/role/saveRole', { roleCode: 'TEMP', roleName: '临时', roleType: 5000, permissions: [Perm.Home] }, { token: admin });
    expect((await t.call('system/role/deleteRole', { roleId: r.body.data.roleId }, { token: admin })).body.success).toBe(true);
    expect((await t.call('system/role/getRoleDetail', { roleId: r.body.data.roleId }, { token: admin })).body.errorCode).toBe(ErrorCode.NotFound);
    await t.call('system/role/updateRole', { roleId: RoleType.Admin, permissions: [Perm.Home] }, { token: admin });
    const adminRole = await t.call('system/role/getRoleDetail', { roleId: RoleType.Admin }, { token: admin });
    expect(adminRole.body.data.permissions).toContain(Perm.SystemRole);
  });

  it('a manager cannot grant codes it does not hold, nor edit its own role', async () => {
    const manager = await t.login('manager');
    const grant = await t.call('system/role/saveRole', { roleCode: 'ESCALATE', roleName: 'x', roleType: 2000, permissions: [Perm.SystemRoleAdd] }, { token: manager, lang: 'zh' });
    // the manager lacks 14020001 itself, so it cannot even call saveRole
    expect(grant.body.errorCode).toBe(ErrorCode.PermissionDenied);
    const created = await t.call('system/role/saveRole', { roleCode: 'OPS', roleName: '运维', roleType: 2000, permissions: [Perm.System] }, { token: admin });
    const up = await t.call('system/role/updateRole', { roleId: created.body.data.roleId, permissions: [Perm.System, Perm.SystemRoleDelete] }, { token: manager });
    expect(up.body.errorCode).toBe(ErrorCode.PermissionNotHeld);
    const own = await t.call('system/role/updateRole', { roleId: RoleType.Manager, description: 'mine' }, { token: manager });
    expect(own.body.errorCode).toBe(ErrorCode.OwnRole);
    const ok = await t.call('system/role/updateRole', { roleId: created.body.data.roleId, permissions: [Perm.System, Perm.SystemApiLog] }, { token: manager });
    expect(ok.body.success).toBe(true);
  });

  it('role management is staff only', async () => {
    const ent = await t.login('enterprise');
    expect((await t.call('system/role/getRoleListPage', {}, { token: ent })).body.errorCode).toBe(ErrorCode.PermissionDenied);
  });

  it('announcements: end date after send time; the newest live one is the banner', async () => {
    const now = Date.now();
    const bad = await t.call('shortcuts/notification/save', { content: '维护', englishContent: 'Maintenance', sendMode: SendMode.Immediate, endDate: new Date(now - 1000).toISOString() }, { token: admin, lang: 'zh' });
    expect(bad.body).toMatchObject({ errorCode: ErrorCode.EndBeforeSend, msg: '结束时间必须晚于发送时间' });
    const live = await t.call('shortcuts/notification/save', { content: '今晚 23:00 系统维护', englishContent: 'Maintenance tonight at 23:00', sendMode: SendMode.Immediate, endDate: new Date(now + 86_400_000).toISOString() }, { token: admin });
    expect(live.body.success).toBe(true);
    await t.call('shortcuts/notification/save', { content: '未来公告', englishContent: 'Future', sendMode: SendMode.Timed, sendTime: new Date(now + 3_600_000).toISOString(), endDate: new Date(now + 7_200_000).toISOString() }, { token: admin });
    const sub = await t.login('subcustomer');
    const banner = await t.call('shortcuts/notification/newest', {}, { token: sub });
    expect(banner.body.data).toMatchObject({ content: '今晚 23:00 系统维护', englishContent: 'Maintenance tonight at 23:00' });
    const list = await t.call('shortcuts/notification/getListPage', {}, { token: admin });
    expect(list.body.data.list.map((n: any) => n.state).sort()).toEqual([NoticeState.Pending, NoticeState.Active].sort());
    // customers cannot manage announcements
    expect((await t.call('shortcuts/notification/getListPage', {}, { token: sub })).body.errorCode).toBe(ErrorCode.PermissionDenied);
    await t.call('shortcuts/notification/delete', { id: live.body.data.id }, { token: admin });
    expect((await t.call('shortcuts/notification/newest', {}, { token: sub })).body.data).toBeNull();
  });

  it('API key: secret shown once, stored hashed, rotate changes it; staff must name a customer', async () => {
    const ent = await t.login('enterprise');
    const none = await t.call('openapi/key/query', {}, { token: ent });
    expect(none.body.data.appKey).toBeNull();
    const first = await t.call('openapi/key/rotate', {}, { token: ent });
    expect(first.body.data.appSecret.length).toBeGreaterThan(20);
    const shown = await t.call('openapi/key/query', {}, { token: ent });
    expect(shown.body.data.appKey).toBe(first.body.data.appKey);
    expect(shown.body.data.secretHint).toBe(`****${first.body.data.appSecret.slice(-4)}`);
    expect(JSON.stringify(shown.body)).not.toContain(first.body.data.appSecret);
    const second = await t.call('openapi/key/rotate', {}, { token: ent });
    expect(second.body.data.appKey).toBe(first.body.data.appKey);
    expect(second.body.data.appSecret).not.toBe(first.body.data.appSecret);
    const audit = await t.call('system/audit/getListPage', { entity: 'apiKey' }, { token: admin });
    expect(JSON.stringify(audit.body.data)).not.toContain(second.body.data.appSecret);
    expect((await t.call('openapi/key/query', {}, { token: admin })).body.errorCode).toBe(ErrorCode.Validation);
    const custId = shown.body.data.custId;
    expect((await t.call('openapi/key/query', { custId }, { token: admin })).body.data.appKey).toBe(first.body.data.appKey);
    // another tenant cannot see it
    const channel = await t.login('channel');
    expect((await t.call('openapi/key/query', { custId }, { token: channel })).body.errorCode).toBe(ErrorCode.NotFound);
  });

  it('IP whitelist: validated addresses and ranges, open/stop/delete within the tenant', async () => {
    const ent = await t.login('enterprise');
    const bad = await t.call('openapi/userIp/save', { startIp: '10.0.0.300' }, { token: ent, lang: 'en' });
    expect(bad.body.msg).toContain('startIp');
    const order = await t.call('openapi/userIp/save', { startIp: '10.0.0.9', endIp: '10.0.0.1' }, { token: ent, lang: 'zh' });
    expect(order.body.msg).toContain('结束 IP 必须大于起始 IP');
    const ok = await t.call('openapi/userIp/save', { startIp: '10.0.0.1', endIp: '10.0.0.9', remark: '机房' }, { token: ent });
    const id = ok.body.data.id;
    expect((await t.call('openapi/userIp/stop', { id }, { token: ent })).body.success).toBe(true);
    let list = await t.call('openapi/userIp/list', {}, { token: ent });
    expect(list.body.data.list[0]).toMatchObject({ id, open: false, startIp: '10.0.0.1', endIp: '10.0.0.9' });
    const channel = await t.login('channel');
    expect((await t.call('openapi/userIp/delete', { id }, { token: channel })).body.errorCode).toBe(ErrorCode.NotFound);
    expect((await t.call('openapi/userIp/open', { id }, { token: ent })).body.success).toBe(true);
    expect((await t.call('openapi/userIp/delete', { id }, { token: ent })).body.success).toBe(true);
    list = await t.call('openapi/userIp/list', {}, { token: ent });
    expect(list.body.data.total).toBe(0);
  });

  it('API config: callback address must be http(s)', async () => {
    const ent = await t.login('enterprise');
    expect((await t.call('openapi/config/save', { callbackUrl: 'ftp://x' }, { token: ent })).body.success).toBe(false);
    expect((await t.call('openapi/config/save', { callbackUrl: 'https://hooks.example.com/cmp', ipWhitelistEnabled: true }, { token: ent })).body.success).toBe(true);
    const cfg = await t.call('openapi/config/query', {}, { token: ent });
    expect(cfg.body.data).toMatchObject({ callbackUrl: 'https://hooks.example.com/cmp', ipWhitelistEnabled: true, callLimitPerMinute: 1200 });
  });

  it('demo password works for every demo login', async () => {
    for (const name of ['admin', 'manager', 'enterprise', 'channel', 'subcustomer']) {
      expect((await t.call('base/oauth/user/login', { loginName: name, password: DEMO_PASSWORD })).body.success, name).toBe(true);
    }
  });
});
