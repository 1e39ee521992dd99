import crypto from 'node:crypto';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { ErrorCode, ExportFormat, ExportState } from '@lynx/contract';
import { backends, multipart, startTestApp, waitFor, DEMO_PASSWORD, type Part, type TestApp, ZX, ZX_EAST, ZX_COLD, HD, HD_SZ } from './harness.ts';

/**
 * Tenant isolation, tried the way an attacker would: by guessing ids and login names of other tenants.
 * Demo tree: 智行物流科技有限公司 (enterprise) with 智行物流华东分公司 (subcustomer) and 智行冷链配送中心;
 * 华电智能表计有限公司 (channel) with 华电深圳运维中心. admin and manager are staff without a customer.
 */
const NO_SUCH_CUST = 987_654;
const NO_SUCH_LOGIN = 'no-such-user-x';

const NOT_FOUND_EN = { success: false, errorCode: ErrorCode.NotFound, msg: 'Record not found', data: null };


const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), crypto.randomBytes(200)]);

describe.each(backends)('tenant isolation on %s', (backend) => {
  let t: TestApp;
  let admin: string;
  let manager: string;
  let enterprise: string;
  let channel: string;
  let sub: string;
  const cust: Record<string, number> = {};
  const acct: Record<string, number> = {};

  /** The raw answer (status and exact body text) of a POST endpoint. */
  const raw = async (endpoint: string, body: object, token: string, lang: 'zh' | 'en' = 'en') => {
    const res = await t.app.inject({
      method: 'POST', url: `/api/cmp/${endpoint}?ts=1&lang=${lang}`, payload: body, headers: { authorization: token },
    });
    return { status: res.statusCode, body: res.body };
  };
  const customerAsAdmin = async (custId: number) => {
    const r = await t.call('core/account/customer/getCustomerInfo', { custId }, { token: admin });
    expect(r.body.success).toBe(true);
    return r.body.data;
  };
  const accountAsAdmin = async (loginName: string) => {
    const r = await t.call('core/account/account/getAccountInfoByLoginName', { loginName }, { token: admin });
    expect(r.body.success).toBe(true);
    return r.body.data;
  };

  beforeAll(async () => {
    t = await startTestApp(backend);
    [admin, manager, enterprise, channel, sub] = await Promise.all(['admin', 'manager', 'enterprise', 'channel', 'subcustomer'].map((n) => t.login(n)));
    const cs = await t.call('core/account/customer/getCustomerListPage', { pageSize: 500 }, { token: admin });
    for (const c of cs.body.data.list) cust[c.custName] = c.custId;
    const as = await t.call('core/account/account/getAccountListPage', { pageSize: 500 }, { token: admin });
    for (const a of as.body.data.list) acct[a.loginName] = a.accountId;
    expect(Object.keys(cust)).toHaveLength(5);
    expect(Object.keys(acct)).toHaveLength(5);
  });
  afterAll(() => t?.stop());

  it('lists exactly the own customer tree for each customer role', async () => {
    const names = async (token: string, body: object = {}) => {
      const r = await t.call('core/account/customer/getCustomerListPage', { pageSize: 500, ...body }, { token });
      expect(r.body.success).toBe(true);
      expect(r.body.data.total).toBe(r.body.data.list.length);
      return r.body.data.list.map((c: any) => c.custName).sort();
    };
    expect(await names(enterprise)).toEqual([ZX, ZX_EAST, ZX_COLD].sort());
    expect(await names(channel)).toEqual([HD, HD_SZ].sort());
    expect(await names(admin)).toEqual([ZX, ZX_EAST, ZX_COLD, HD, HD_SZ].sort());
    expect(await names(manager)).toEqual([ZX, ZX_EAST, ZX_COLD, HD, HD_SZ].sort());
    // filters only narrow the tenant, never widen it
    expect(await names(enterprise, { parentCustId: cust[HD] })).toEqual([]);
    expect(await names(enterprise, { custName: '华电' })).toEqual([]);
    expect(await names(enterprise, { level: 2 })).toEqual([ZX_EAST, ZX_COLD].sort());
    expect(await names(channel, { parentCustId: cust[ZX] })).toEqual([]);
    expect(await names(channel, { level: 1 })).toEqual([HD]);
    // a second-level customer may not list customers at all
    const s = await t.call('core/account/customer/getCustomerListPage', {}, { token: sub });
    expect(s.body).toMatchObject({ success: false, errorCode: ErrorCode.PermissionDenied });
  });

  it('lists exactly the own accounts for each customer role', async () => {
    const logins = async (token: string, body: object = {}) => {
      const r = await t.call('core/account/account/getAccountListPage', { pageSize: 500, ...body }, { token });
      expect(r.body.success).toBe(true);
      expect(r.body.data.total).toBe(r.body.data.list.length);
      return r.body.data.list.map((a: any) => a.loginName).sort();
    };
    expect(await logins(enterprise)).toEqual(['enterprise', 'subcustomer']);
    expect(await logins(channel)).toEqual(['channel']);
    expect(await logins(admin)).toEqual(['admin', 'channel', 'enterprise', 'manager', 'subcustomer']);
    expect(await logins(enterprise, { custId: cust[HD] })).toEqual([]);
    expect(await logins(enterprise, { loginName: 'admin' })).toEqual([]);
    expect(await logins(enterprise, { roleId: 4000 })).toEqual([]);
    expect(await logins(channel, { custId: cust[ZX_EAST] })).toEqual([]);
    const s = await t.call('core/account/account/getAccountListPage', {}, { token: sub });
    expect(s.body).toMatchObject({ success: false, errorCode: ErrorCode.PermissionDenied });

    // pickers are scoped the same way
    const brief = async (token: string, endpoint: string, body: object) => {
      const r = await t.call(`core/account/account/${endpoint}`, body, { token });
      expect(r.body.success).toBe(true);
      return r.body.data.map((a: any) => a.loginName).sort();
    };
    expect(await brief(enterprise, 'listAccountInfo', {})).toEqual(['enterprise', 'subcustomer']);
    expect(await brief(enterprise, 'listAccountInfo', { custId: cust[HD] })).toEqual([]);
    expect(await brief(channel, 'listAccountInfo', { keyword: 'e' })).toEqual(['channel']);
    expect(await brief(channel, 'getAccountByRoleIds', { roleIds: [1000, 2000, 3000, 4000, 5000] })).toEqual(['channel']);
    expect(await brief(enterprise, 'getAccountByRoleIds', { roleIds: [1000, 2000, 4000] })).toEqual([]);
  });

  it('answers 20005 for another tenant\'s customer on getCustomerInfo and updateCustomer, and changes nothing', async () => {
    const cases: [string, string, string[], string[]][] = [
      ['enterprise', enterprise, [HD, HD_SZ], [ZX, ZX_EAST, ZX_COLD]],
      ['channel', channel, [ZX, ZX_EAST, ZX_COLD], [HD, HD_SZ]],
    ];
    for (const [who, token, foreign, own] of cases) {
      for (const name of own) {
        const ok = await t.call('core/account/customer/getCustomerInfo', { custId: cust[name] }, { token });
        expect(ok.body.data?.custName, `${who} reads ${name}`).toBe(name);
      }
      for (const name of foreign) {
        const before = await customerAsAdmin(cust[name]);
        const info = await t.call('core/account/customer/getCustomerInfo', { custId: cust[name] }, { token });
        expect(info.body, `${who} reads ${name}`).toEqual(NOT_FOUND_EN);
        const upd = await t.call('core/account/customer/updateCustomer', {
          custId: cust[name], custName: `${name}-hacked`, adminName: 'hacker', adminPhone: '13900000000', remark: 'owned', status: 4,
        }, { token });
        expect(upd.body, `${who} updates ${name}`).toEqual(NOT_FOUND_EN);
        expect(await customerAsAdmin(cust[name])).toEqual(before);
      }
    }
    // a second-level customer lacks the permission codes: 20002 whatever the id, its own included
    for (const name of [ZX_EAST, ZX, HD, HD_SZ]) {
      const info = await t.call('core/account/customer/getCustomerInfo', { custId: cust[name] }, { token: sub });
      expect(info.body.errorCode).toBe(ErrorCode.PermissionDenied);
      const upd = await t.call('core/account/customer/updateCustomer', { custId: cust[name], remark: 'x' }, { token: sub });
      expect(upd.body.errorCode).toBe(ErrorCode.PermissionDenied);
      expect((await customerAsAdmin(cust[name])).remark).toBeNull();
    }
  });

  it('refuses saveCustomer under another tenant\'s parent with 20005 and creates nothing', async () => {
    const base = { adminName: '钱七', adminEmail: 'q@intruder.example.com', adminPhone: '13600000000' };
    const tries: [string, number, string][] = [
      [enterprise, cust[HD], 'Intruder A'],
      [enterprise, cust[HD_SZ], 'Intruder B'], // second-level and foreign: NotFound, not the level error 20023
      [channel, cust[ZX], 'Intruder C'],
      [channel, cust[ZX_EAST], 'Intruder D'],
      [enterprise, NO_SUCH_CUST, 'Intruder E'],
    ];
    for (const [token, parentCustId, custName] of tries) {
      const r = await t.call('core/account/customer/saveCustomer', { ...base, parentCustId, custName }, { token });
      expect(r.body, custName).toEqual(NOT_FOUND_EN);
    }
    const all = await t.call('core/account/customer/getCustomerListPage', { custName: 'Intruder', pageSize: 500 }, { token: admin });
    expect(all.body.data.total).toBe(0);
    // the children of the foreign parents did not grow
    const kids = await t.call('core/account/customer/getCustomerListPage', { parentCustId: cust[HD] }, { token: admin });
    expect(kids.body.data.list.map((c: any) => c.custName)).toEqual([HD_SZ]);
    const s = await t.call('core/account/customer/saveCustomer', { ...base, custName: 'Intruder F' }, { token: sub });
    expect(s.body.errorCode).toBe(ErrorCode.PermissionDenied);
  });

  it('refuses saveAccount / updateAccount on another tenant\'s customer or account with 20005 and creates nothing', async () => {
    const body = (loginName: string, custId: number, roleId: number) => ({ loginName, userName: '入侵者', roleId, custId, password: 'Intrude#2026' });
    const tries: [string, object][] = [
      [enterprise, body('intruder1', cust[HD], 3000)],
      [enterprise, body('intruder2', cust[HD_SZ], 5000)],
      [enterprise, body('intruder3', cust[HD_SZ], 3000)], // would be 20022 if the record were visible
      [channel, body('intruder4', cust[ZX], 4000)],
      [channel, body('intruder5', cust[ZX_EAST], 5000)],
      [channel, body('intruder6', NO_SUCH_CUST, 5000)],
    ];
    for (const [token, b] of tries) {
      const r = await t.call('core/account/account/saveAccount', b, { token });
      expect(r.body, JSON.stringify(b)).toEqual(NOT_FOUND_EN);
    }
    const created = await t.call('core/account/account/listAccountInfo', { keyword: 'intruder' }, { token: admin });
    expect(created.body.data).toEqual([]);
    expect((await t.call('base/oauth/user/login', { loginName: 'intruder1', password: 'Intrude#2026' })).body.success).toBe(false);

    for (const [token, victim] of [[enterprise, 'channel'], [enterprise, 'admin'], [channel, 'subcustomer'], [manager, 'admin']] as const) {
      const before = await accountAsAdmin(victim);
      const r = await t.call('core/account/account/updateAccount', { accountId: acct[victim], userName: 'pwned', phone: '13900000000' }, { token });
      expect(r.body, `${victim}`).toEqual(NOT_FOUND_EN);
      expect(await accountAsAdmin(victim)).toEqual(before);
    }
  });

  it('answers 20005 for freeze, reset, freeze records and account info of a foreign or staff login name', async () => {
    const tries: [string, string, string[]][] = [
      ['enterprise', enterprise, ['channel', 'admin', 'manager', 'CHANNEL']],
      ['channel', channel, ['enterprise', 'subcustomer', 'admin', 'manager']],
      ['manager', manager, ['admin']],
    ];
    for (const [who, token, victims] of tries) {
      for (const loginName of victims) {
        const label = `${who} -> ${loginName}`;
        expect((await t.call('core/account/account/saveAccountFreeze', { loginName, action: 1, reason: '测试' }, { token })).body, label).toEqual(NOT_FOUND_EN);
        expect((await t.call('core/account/account/resetAccountPassword', { loginName }, { token })).body, label).toEqual(NOT_FOUND_EN);
        expect((await t.call('core/account/account/getAccountFreezeList', { loginName }, { token })).body, label).toEqual(NOT_FOUND_EN);
        expect((await t.call('core/account/account/getAccountInfoByLoginName', { loginName }, { token })).body, label).toEqual(NOT_FOUND_EN);
      }
    }
    // nothing happened to the victims: still normal, no freeze records, the old password still works
    for (const loginName of ['channel', 'enterprise', 'subcustomer', 'admin', 'manager']) {
      const a = await accountAsAdmin(loginName);
      expect(a.status).toBe(1);
      expect(a.mustResetPassword).toBe(false);
      const recs = await t.call('core/account/account/getAccountFreezeList', { loginName }, { token: admin });
      expect(recs.body.data.total).toBe(0);
      const login = await t.call('base/oauth/user/login', { loginName, password: DEMO_PASSWORD });
      expect(login.body.success, loginName).toBe(true);
    }
    // and the tokens of the callers were not affected either
    for (const token of [enterprise, channel, manager]) {
      expect((await t.call('core/account/account/getIsResetPassword', {}, { token })).body.success).toBe(true);
    }
    // positive control: inside the own tenant the same calls work
    const own = await t.call('core/account/account/getAccountInfoByLoginName', { loginName: 'subcustomer' }, { token: enterprise });
    expect(own.body.data).toMatchObject({ loginName: 'subcustomer', custId: cust[ZX_EAST] });
    expect((await t.call('core/account/account/getAccountFreezeList', { loginName: 'subcustomer' }, { token: enterprise })).body.success).toBe(true);
  });

  it('gives role 5000 20002 on account and customer endpoints and no other customer\'s data by any id', async () => {
    const calls: [string, object][] = [
      ['core/account/customer/getCustomerListPage', {}],
      ['core/account/customer/getCustomerInfo', { custId: cust[ZX_EAST] }],
      ['core/account/customer/getCustomerInfo', { custId: cust[HD] }],
      ['core/account/customer/saveCustomer', { custName: 'Sub Made', adminName: 'a', adminEmail: 'a@b.co', adminPhone: '13800138000' }],
      ['core/account/customer/updateCustomer', { custId: cust[ZX_EAST], remark: 'x' }],
      ['core/account/account/getAccountListPage', {}],
      ['core/account/account/saveAccount', { loginName: 'submade', userName: 's', roleId: 5000, custId: cust[ZX_EAST] }],
      ['core/account/account/updateAccount', { accountId: acct.enterprise, userName: 'x' }],
      ['core/account/account/saveAccountFreeze', { loginName: 'enterprise', action: 1, reason: 'x' }],
      ['core/account/account/resetAccountPassword', { loginName: 'enterprise' }],
      ['core/account/account/getAccountFreezeList', { loginName: 'subcustomer' }],
      ['core/account/account/getRoleList', {}],
      ['core/account/account/listAccountInfo', {}],
      ['core/account/account/getAccountByRoleIds', { roleIds: [3000, 5000] }],
    ];
    for (const [endpoint, body] of calls) {
      const r = await t.call(endpoint, body, { token: sub });
      expect(r.body, endpoint).toMatchObject({ success: false, errorCode: ErrorCode.PermissionDenied, data: null });
    }
    // exports of those lists are refused the same way
    for (const source of ['core/account/account/getAccountListPage', 'core/account/customer/getCustomerListPage']) {
      const r = await t.call('core/downloadTask/createExport', { source, filters: {} }, { token: sub });
      expect(r.body.errorCode, source).toBe(ErrorCode.PermissionDenied);
    }
    // its own account is readable; any other login name answers exactly like one that does not exist
    const me = await t.call('core/account/account/getAccountInfoByLoginName', { loginName: 'subcustomer' }, { token: sub });
    expect(me.body.data).toMatchObject({ loginName: 'subcustomer', custId: cust[ZX_EAST], roleType: 5000 });
    const missing = await raw('core/account/account/getAccountInfoByLoginName', { loginName: NO_SUCH_LOGIN }, sub);
    for (const loginName of ['enterprise', 'channel', 'admin', 'manager']) {
      expect(await raw('core/account/account/getAccountInfoByLoginName', { loginName }, sub), loginName).toEqual(missing);
    }
    expect(JSON.parse(missing.body)).toEqual(NOT_FOUND_EN);

    // the logo upload naming another customer is refused like a missing record, not given to its own customer
    const before = (await t.call('core/account/account/getLogoByCustId', { custId: cust[HD] })).body.data.logoUrl;
    const uploadLogo = (parts: Part[]) => {
      const form = multipart([...parts, { name: 'logoFile', filename: 'logo.png', type: 'image/png', data: PNG }]);
      return t.app.inject({
        method: 'POST', url: '/api/cmp/core/account/account/uploadLogo?ts=1&lang=en', payload: form.payload,
        headers: { ...form.headers, authorization: sub },
      });
    };
    const foreign = await uploadLogo([{ name: 'custId', value: String(cust[HD]) }]);
    expect(foreign.json()).toEqual(NOT_FOUND_EN);
    const ownBefore = (await t.call('core/account/account/getLogoByCustId', { custId: cust[ZX_EAST] })).body.data.logoUrl;
    expect((await t.call('core/account/account/getLogoByCustId', { custId: cust[HD] })).body.data.logoUrl).toBe(before);
    // without a custId it is its own customer's logo
    const up = await uploadLogo([]);
    expect(up.json().success).toBe(true);
    expect(up.json().data.logoUrl).not.toBe(ownBefore);
    expect((await t.call('core/account/account/getLogoByCustId', { custId: cust[HD] })).body.data.logoUrl).toBe(before);
    expect((await t.call('core/account/account/getLogoByCustId', { custId: cust[ZX_EAST] })).body.data.logoUrl).toBe(up.json().data.logoUrl);
    expect((await customerAsAdmin(cust[HD])).logoUrl).toBeNull();
  });

  it('answers a foreign id with exactly the bytes of a missing id, in both languages', async () => {
    const pairs: [string, string, object, object][] = [
      [enterprise, 'core/account/customer/getCustomerInfo', { custId: NO_SUCH_CUST }, { custId: cust[HD] }],
      [channel, 'core/account/customer/getCustomerInfo', { custId: NO_SUCH_CUST }, { custId: cust[ZX_EAST] }],
      [enterprise, 'core/account/customer/updateCustomer', { custId: NO_SUCH_CUST, remark: 'r' }, { custId: cust[HD_SZ], remark: 'r' }],
      [enterprise, 'core/account/customer/saveCustomer',
        { parentCustId: NO_SUCH_CUST, custName: 'Ghost One', adminName: 'a', adminEmail: 'a@b.co', adminPhone: '13800138000' },
        { parentCustId: cust[HD_SZ], custName: 'Ghost Two', adminName: 'a', adminEmail: 'a@b.co', adminPhone: '13800138000' }],
      [channel, 'core/account/account/saveAccount',
        { loginName: 'ghost1', userName: 'g', roleId: 5000, custId: NO_SUCH_CUST },
        { loginName: 'ghost2', userName: 'g', roleId: 5000, custId: cust[ZX_EAST] }],
      [enterprise, 'core/account/account/updateAccount', { accountId: 99_999, userName: 'g' }, { accountId: acct.channel, userName: 'g' }],
      [enterprise, 'core/account/account/saveAccountFreeze', { loginName: NO_SUCH_LOGIN, action: 1, reason: 'r' }, { loginName: 'channel', action: 1, reason: 'r' }],
      [channel, 'core/account/account/saveAccountFreeze', { loginName: NO_SUCH_LOGIN, action: 2, reason: 'r' }, { loginName: 'admin', action: 2, reason: 'r' }],
      [enterprise, 'core/account/account/resetAccountPassword', { loginName: NO_SUCH_LOGIN }, { loginName: 'manager' }],
      [channel, 'core/account/account/getAccountFreezeList', { loginName: NO_SUCH_LOGIN }, { loginName: 'enterprise' }],
      [enterprise, 'core/account/account/getAccountInfoByLoginName', { loginName: NO_SUCH_LOGIN }, { loginName: 'admin' }],
      [channel, 'core/account/account/getRoleList', { custId: NO_SUCH_CUST }, { custId: cust[ZX] }],
    ];
    for (const [token, endpoint, missingBody, foreignBody] of pairs) {
      for (const lang of ['en', 'zh'] as const) {
        const missing = await raw(endpoint, missingBody, token, lang);
        const foreign = await raw(endpoint, foreignBody, token, lang);
        expect(foreign, `${endpoint} ${lang}`).toEqual(missing);
        expect(JSON.parse(missing.body), `${endpoint} ${lang}`).toMatchObject({ errorCode: ErrorCode.NotFound, msg: lang === 'zh' ? '记录不存在' : 'Record not found' });
      }
    }
  });

  it('refuses tenant fields in the body instead of trusting them', async () => {
    for (const [endpoint, body] of [
      ['core/account/customer/getCustomerListPage', { rootCustId: cust[HD] }],
      ['core/account/account/getAccountListPage', { rootCustId: cust[HD] }],
      ['core/account/account/saveAccount', { loginName: 'sneaky', userName: 's', roleId: 3000, rootCustId: cust[HD] }],
    ] as const) {
      const r = await t.call(endpoint, body, { token: enterprise });
      expect(r.body, endpoint).toMatchObject({ success: false, errorCode: ErrorCode.UnknownField, msg: 'Unknown field: rootCustId' });
    }
    const exp = await t.call('core/downloadTask/createExport', {
      source: 'core/account/account/getAccountListPage', filters: { rootCustId: cust[HD] },
    }, { token: enterprise });
    expect(exp.body.success).toBe(false);
    expect(exp.body.errorCode).toBe(ErrorCode.Validation);
    expect(exp.body.msg).toContain('rootCustId');
  });

  it('exports with a foreign custId filter produce zero foreign rows, and other tenants cannot download the file', async () => {
    const exportAs = async (token: string, filters: object) => {
      const r = await t.call('core/downloadTask/createExport', { source: 'core/account/account/getAccountListPage', filters, format: ExportFormat.Csv }, { token });
      expect(r.body.success).toBe(true);
      const taskId: string = r.body.data.taskId;
      const task = await waitFor(async () => {
        const l = await t.call('core/downloadTask/getListPage', { pageSize: 100 }, { token });
        const x = l.body.data.list.find((d: any) => d.taskId === taskId);
        return x && x.state !== ExportState.InProcess ? x : null;
      });
      expect(task.state).toBe(ExportState.Succeeded);
      return task;
    };
    const download = (taskId: string, token: string, lang = 'en') =>
      t.app.inject({ method: 'GET', url: `/api/cmp/core/downloadTask/download?taskId=${taskId}&lang=${lang}`, headers: { authorization: token } });
    const dataLines = (csv: string) => csv.replace(/^\uFEFF/, '').split('\r\n').filter(Boolean).slice(1);

    const foreign = await exportAs(enterprise, { custId: cust[HD] });
    expect(foreign.rowCount).toBe(0);
    const file = await download(foreign.taskId, enterprise);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toContain('text/csv');
    expect(file.body).toContain('Login name');
    expect(dataLines(file.body)).toEqual([]);
    expect(file.body).not.toMatch(/channel|华电/);

    // control: without the filter the export holds the own tenant's rows and only those
    const own = await exportAs(enterprise, {});
    expect(own.rowCount).toBe(2);
    const ownFile = await download(own.taskId, enterprise);
    const lines = dataLines(ownFile.body);
    expect(lines).toHaveLength(2);
    expect(lines.map((l) => l.split(',')[0]).sort()).toEqual(['enterprise', 'subcustomer']);
    expect(ownFile.body).not.toMatch(/华电|admin@|manager/);

    // another tenant (or another customer of the same tree) gets exactly the answer for a task that does not exist
    for (const lang of ['en', 'zh']) {
      const ghost = await download(crypto.randomUUID(), channel, lang);
      expect(ghost.json()).toMatchObject({ success: false, errorCode: ErrorCode.NotFound });
      for (const token of [channel, sub]) {
        for (const task of [foreign, own]) {
          const r = await download(task.taskId, token, lang);
          expect(r.statusCode).toBe(ghost.statusCode);
          expect(r.body).toBe(ghost.body);
        }
      }
    }
    // and the task does not show up in their task lists
    for (const token of [channel, sub, admin]) {
      const l = await t.call('core/downloadTask/getListPage', { pageSize: 100 }, { token });
      expect(l.body.data.list.map((d: any) => d.taskId)).not.toContain(own.taskId);
    }
    // a channel's own export of the customer list with a foreign parent filter is empty as well
    const r = await t.call('core/downloadTask/createExport', { source: 'core/account/customer/getCustomerListPage', filters: { parentCustId: cust[ZX] }, format: ExportFormat.Csv }, { token: channel });
    const task = await waitFor(async () => {
      const l = await t.call('core/downloadTask/getListPage', {}, { token: channel });
      const x = l.body.data.list.find((d: any) => d.taskId === r.body.data.taskId);
      return x && x.state !== ExportState.InProcess ? x : null;
    });
    expect(task).toMatchObject({ state: ExportState.Succeeded, rowCount: 0 });
    expect((await download(task.taskId, channel)).body).not.toContain('智行');
  });
});
