import crypto from 'node:crypto';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { AccountStatus, BehaviorAction, ErrorCode, FreezeAction, RoleType, validatePassword } from '@lynx/contract';
import { backends, multipart, startTestApp, type Part, type TestApp, callOk, ZX, ZX_EAST, HD, HD_SZ } from './harness.ts';

/** Customers and accounts as operator staff (admin, manager) and as a channel customer. */


const PNG_SIG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const png = (size: number) => Buffer.concat([PNG_SIG, crypto.randomBytes(size - PNG_SIG.length)]);
const jpeg = (size: number) => Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), crypto.randomBytes(size - 4)]);
const gif = (size: number) => Buffer.concat([Buffer.from('GIF89a', 'latin1'), crypto.randomBytes(size - 6)]);

let seq = 0;
const uniq = (prefix: string) => `${prefix}${Date.now().toString(36)}${(seq++).toString(36)}`;

describe.each(backends)('customers and accounts on %s', (backend) => {
  let t: TestApp;
  let admin: string;
  let manager: string;
  let channel: string;
  let enterprise: string;
  const cust: Record<string, number> = {};

  const ok = (endpoint: string, body: object, token: string) => callOk(t, endpoint, body, token);
  const customer = (custId: number) => ok('core/account/customer/getCustomerInfo', { custId }, admin);
  const account = (loginName: string) => ok('core/account/account/getAccountInfoByLoginName', { loginName }, admin);
  const contact = { adminName: '测试联系人', adminEmail: 'contact@example.com', adminPhone: '13800138000' };
  const upload = (token: string, parts: Part[], lang = 'en') => {
    const form = multipart(parts);
    return t.app.inject({
      method: 'POST', url: `/api/cmp/core/account/account/uploadLogo?ts=1&lang=${lang}`, payload: form.payload,
      headers: { ...form.headers, authorization: token },
    });
  };

  beforeAll(async () => {
    t = await startTestApp(backend, { captchaMode: 'off' }, { jobs: false });
    [admin, manager, channel, enterprise] = await Promise.all(['admin', 'manager', 'channel', 'enterprise'].map((n) => t.login(n)));
    const cs = await t.call('core/account/customer/getCustomerListPage', { pageSize: 500 }, { token: admin });
    for (const c of cs.body.data.list) cust[c.custName] = c.custId;
  });
  afterAll(() => t?.stop());

  describe('customers', () => {
    const full = {
      custName: 'Aurora IoT 有限公司', status: 2, businessUnit: '华东事业部', adminName: '林晓',
      adminEmail: 'ops@aurora.example.com;cto@aurora.example.com', adminPhone: '13812340001;+8613812340002',
      businessLicense: '91310000MA1FL0XX1Q', website: 'https://aurora.example.com', registeredCapital: '5000000.50',
      invoiceType: 2, taxNumber: '91310000MA1FL0XX1Q', bankName: '招商银行上海分行', bankAccount: '6225880012345678',
      industryLevel1: '交通物流', industryLevel2: '车队管理', industryAttribute: '重点客户', paymentModel: 2,
      salesName: '李明', salesPhone: '13700001111', salesEmail: 'sales@lynx.example.com', remark: '测试客户',
    };
    let firstId: number;
    let secondId: number;

    it('admin creates a first-level customer with every field of spec §3', async () => {
      firstId = (await ok('core/account/customer/saveCustomer', full, admin)).custId;
      const c = await customer(firstId);
      expect(c).toMatchObject({ ...full, custId: firstId, level: 1, parentCustId: null, parentCustName: null, logoUrl: null });
      // balances are not set by this form
      expect(c).toMatchObject({ preDeposit: '0.00', grants: '0.00', contractPayment: '0.00', credit: '0.00', withdrawHold: '0.00', available: '0.00' });
      const audit = await ok('system/audit/getListPage', { entity: 'customer', entityId: String(firstId) }, admin);
      expect(audit.list).toHaveLength(1);
      expect(audit.list[0]).toMatchObject({ loginName: 'admin', endpoint: 'core/account/customer/saveCustomer', before: null, after: { custName: full.custName } });
    });

    it('creates a second-level customer under it and refuses a third level with 20023', async () => {
      secondId = (await ok('core/account/customer/saveCustomer', { ...contact, parentCustId: firstId, custName: 'Aurora 华南分部' }, admin)).custId;
      expect(await customer(secondId)).toMatchObject({ level: 2, parentCustId: firstId, parentCustName: full.custName });
      const kids = await ok('core/account/customer/getCustomerListPage', { parentCustId: firstId }, admin);
      expect(kids.list.map((c: any) => c.custId)).toEqual([secondId]);

      for (const parentCustId of [secondId, cust[ZX_EAST]]) {
        const r = await t.call('core/account/customer/saveCustomer', { ...contact, parentCustId, custName: `Third level ${parentCustId}` }, { token: admin, lang: 'zh' });
        expect(r.body).toMatchObject({ success: false, errorCode: ErrorCode.CustomerLevelNotAllowed, msg: '只能在一级客户下创建二级客户' });
      }
      const none = await ok('core/account/customer/getCustomerListPage', { custName: 'Third level' }, admin);
      expect(none.total).toBe(0);
    });

    it('a channel creates second-level customers under its own first-level customer only, and no third level', async () => {
      const implicit = (await ok('core/account/customer/saveCustomer', { ...contact, custName: '华电广州运维中心' }, channel)).custId;
      expect(await customer(implicit)).toMatchObject({ level: 2, parentCustId: cust[HD] });
      const explicit = (await ok('core/account/customer/saveCustomer', { ...contact, parentCustId: cust[HD], custName: '华电北京运维中心' }, channel)).custId;
      expect(await customer(explicit)).toMatchObject({ level: 2, parentCustId: cust[HD] });
      // under its own second-level customer: the record is visible to the channel, so the honest answer is 20023
      const third = await t.call('core/account/customer/saveCustomer', { ...contact, parentCustId: cust[HD_SZ], custName: '华电深圳三级' }, { token: channel });
      expect(third.body).toMatchObject({ success: false, errorCode: ErrorCode.CustomerLevelNotAllowed });
      const list = await ok('core/account/customer/getCustomerListPage', { pageSize: 500 }, channel);
      expect(list.list.map((c: any) => c.custName).sort()).toEqual([HD, HD_SZ, '华电北京运维中心', '华电广州运维中心'].sort());
    });

    it('refuses a duplicate customer name with 20021, ignoring case and surrounding spaces', async () => {
      for (const custName of [full.custName, full.custName.toUpperCase(), `  ${full.custName.toLowerCase()}  `, ZX]) {
        const r = await t.call('core/account/customer/saveCustomer', { ...contact, custName }, { token: admin });
        expect(r.body, custName).toMatchObject({ success: false, errorCode: ErrorCode.CustomerNameTaken, msg: 'A customer with this name already exists' });
      }
      // a channel is refused the same way, also for a name outside its own tree
      const ch = await t.call('core/account/customer/saveCustomer', { ...contact, custName: ZX_EAST }, { token: channel, lang: 'zh' });
      expect(ch.body).toMatchObject({ errorCode: ErrorCode.CustomerNameTaken, msg: '客户名称已存在' });
      // renaming onto another customer's name
      const ren = await t.call('core/account/customer/updateCustomer', { custId: secondId, custName: full.custName.toLowerCase() }, { token: admin });
      expect(ren.body.errorCode).toBe(ErrorCode.CustomerNameTaken);
      // keeping the own name is fine
      await ok('core/account/customer/updateCustomer', { custId: firstId, custName: full.custName }, admin);
      const same = await ok('core/account/customer/getCustomerListPage', { custName: 'aurora iot' }, admin);
      expect(same.total).toBe(1);
    });

    it('concurrent creations of one name give one customer and 20021 for the rest, never a server error', async () => {
      const name = uniq('Race Co ');
      const rs = await Promise.all([1, 2, 3, 4].map((i) => t.call('core/account/customer/saveCustomer', { ...contact, adminName: `r${i}`, custName: name }, { token: admin })));
      expect(rs.map((r) => r.body.errorCode).sort()).toEqual([null, ErrorCode.CustomerNameTaken, ErrorCode.CustomerNameTaken, ErrorCode.CustomerNameTaken].sort());
      expect((await ok('core/account/customer/getCustomerListPage', { custName: name }, admin)).total).toBe(1);
    });

    it('refuses names and required contacts that are only spaces, naming the field', async () => {
      const blankName = await t.call('core/account/customer/saveCustomer', { ...contact, custName: '    ' }, { token: admin });
      expect(blankName.status).toBe(400);
      expect(blankName.body).toMatchObject({ success: false, errorCode: ErrorCode.Validation });
      expect(blankName.body.msg).toContain('custName');
      const blankAdmin = await t.call('core/account/customer/saveCustomer', { ...contact, custName: uniq('Blank admin '), adminName: '   ' }, { token: admin });
      expect(blankAdmin.body.errorCode).toBe(ErrorCode.Validation);
      expect(blankAdmin.body.msg).toContain('adminName');
      const all = await ok('core/account/customer/getCustomerListPage', { pageSize: 500 }, admin);
      expect(all.list.filter((c: any) => c.custName.trim() === '' || c.adminName.trim() === '')).toEqual([]);

      const before = await customer(secondId);
      for (const body of [{ custName: '   ' }, { adminName: '  ' }]) {
        const r = await t.call('core/account/customer/updateCustomer', { custId: secondId, ...body }, { token: admin, lang: 'zh' });
        expect(r.status, JSON.stringify(body)).toBe(400);
        expect(r.body.errorCode).toBe(ErrorCode.Validation);
        expect(r.body.msg).toContain(Object.keys(body)[0]);
      }
      expect(await customer(secondId)).toEqual(before);
    });

    it('checks phone and e-mail lists: semicolons, at most 5, no spaces, with a bilingual message naming the field', async () => {
      const five = { adminPhone: '13800000001;13800000002;13800000003;13800000004;13800000005', adminEmail: 'a@x.cn;b@x.cn;c@x.cn;d@x.cn;e@x.cn' };
      const id = (await ok('core/account/customer/saveCustomer', { ...contact, ...five, custName: uniq('Five contacts ') }, admin)).custId;
      expect(await customer(id)).toMatchObject(five);
      // the full-width semicolon of Chinese input methods separates too
      await ok('core/account/customer/updateCustomer', { custId: id, adminPhone: '13800000001；13800000002' }, admin);

      const cases: [object, string, string, string][] = [
        [{ adminEmail: 'a@x.cn; b@x.cn' }, 'adminEmail', '不能包含空格', 'Spaces are not allowed'],
        [{ adminPhone: '13800000001 ;13800000002' }, 'adminPhone', '不能包含空格', 'Spaces are not allowed'],
        [{ adminPhone: `${five.adminPhone};13800000006` }, 'adminPhone', '最多填写 5 个', 'At most 5 entries are allowed'],
        [{ adminEmail: `${five.adminEmail};f@x.cn` }, 'adminEmail', '最多填写 5 个', 'At most 5 entries are allowed'],
        [{ adminPhone: '13800000001,13800000002' }, 'adminPhone', '手机号格式错误：13800000001,13800000002', 'Invalid phone number: 13800000001,13800000002'],
        [{ adminEmail: 'a@x.cn;;b@x.cn' }, 'adminEmail', '分号之间不能为空', 'Empty entries between semicolons are not allowed'],
        [{ salesEmail: 'sales@x.cn;not-an-email' }, 'salesEmail', '邮箱格式错误：not-an-email', 'Invalid e-mail address: not-an-email'],
        [{ salesPhone: '123' }, 'salesPhone', '手机号格式错误：123', 'Invalid phone number: 123'],
      ];
      for (const [bad, field, zh, en] of cases) {
        const create = { ...contact, custName: uniq('Bad contacts '), ...bad };
        const rz = await t.call('core/account/customer/saveCustomer', create, { token: admin, lang: 'zh' });
        expect(rz.status).toBe(400);
        expect(rz.body).toMatchObject({ success: false, errorCode: ErrorCode.Validation, msg: `字段 ${field}：${zh}`, data: { field } });
        const re = await t.call('core/account/customer/updateCustomer', { custId: id, ...bad }, { token: admin, lang: 'en' });
        expect(re.status).toBe(400);
        expect(re.body).toMatchObject({ success: false, errorCode: ErrorCode.Validation, msg: `Field ${field}: ${en}` });
      }
      expect((await ok('core/account/customer/getCustomerListPage', { custName: 'Bad contacts' }, admin)).total).toBe(0);
      expect(await customer(id)).toMatchObject({ adminPhone: '13800000001；13800000002', adminEmail: five.adminEmail, salesEmail: null });
    });

    it('updateCustomer changes only the fields sent and clears optional ones sent empty', async () => {
      const before = await customer(firstId);
      await ok('core/account/customer/updateCustomer', {
        custId: firstId, adminPhone: '13912345678', status: 3, paymentModel: 1, remark: '', website: 'https://aurora.example.cn',
      }, admin);
      const after = await customer(firstId);
      expect(after).toEqual({
        ...before, adminPhone: '13912345678', status: 3, paymentModel: 1, remark: null, website: 'https://aurora.example.cn', updatedAt: after.updatedAt,
      });
      expect(new Date(after.updatedAt).getTime()).toBeGreaterThan(new Date(before.updatedAt).getTime());
      const audit = await ok('system/audit/getListPage', { entity: 'customer', entityId: String(firstId) }, admin);
      const upd = audit.list.find((a: any) => a.endpoint === 'core/account/customer/updateCustomer' && a.after.status === 3);
      expect(upd.before).toMatchObject({ status: 2, adminPhone: full.adminPhone });
      // a channel edits customers of its own tree
      await ok('core/account/customer/updateCustomer', { custId: cust[HD_SZ], remark: '渠道修改' }, channel);
      expect((await customer(cust[HD_SZ])).remark).toBe('渠道修改');
    });
  });

  describe('accounts', () => {
    it('saveAccount with a password: no initial password, login works without a forced change', async () => {
      const loginName = uniq('ops.');
      const r = await ok('core/account/account/saveAccount', { loginName, userName: '运营专员', roleId: RoleType.Manager, password: 'Ops#pass2026', phone: '13811112222' }, admin);
      expect(r).toEqual({ accountId: expect.any(Number), initialPassword: null });
      const login = await t.call('base/oauth/user/login', { loginName, password: 'Ops#pass2026' });
      expect(login.body.data).toMatchObject({ roleId: RoleType.Manager, custId: null, mustResetPassword: false });
      expect(await account(loginName)).toMatchObject({ accountId: r.accountId, roleType: 2000, custId: null, phone: '13811112222', status: 1 });
      const weak = await t.call('core/account/account/saveAccount', { loginName: uniq('weak'), userName: 'w', roleId: RoleType.Manager, password: 'abcdefgh' }, { token: admin, lang: 'zh' });
      expect(weak.body).toMatchObject({ errorCode: ErrorCode.Validation, msg: '字段 password：密码必须同时包含字母和数字' });
      // a user name of spaces only is no name
      const blank = await t.call('core/account/account/saveAccount', { loginName: uniq('blank'), userName: '   ', roleId: RoleType.Manager, password: 'Blank#2026a' }, { token: admin });
      expect(blank.status).toBe(400);
      expect(blank.body).toMatchObject({ errorCode: ErrorCode.Validation, data: { field: 'userName' } });
      expect(blank.body.msg).toMatch(/^Field userName: /);
      const rename = await t.call('core/account/account/updateAccount', { accountId: r.accountId, userName: ' ' }, { token: admin });
      expect(rename.body).toMatchObject({ errorCode: ErrorCode.Validation, data: { field: 'userName' } });
      expect((await account(loginName)).userName).toBe('运营专员');
    });

    it('saveAccount without a password returns the initial password once and forces a change at login', async () => {
      const loginName = uniq('sz.');
      const r = await ok('core/account/account/saveAccount', { loginName, userName: '深圳运维', roleId: RoleType.SubCustomer, custId: cust[HD_SZ] }, channel);
      expect(typeof r.initialPassword).toBe('string');
      expect(validatePassword(r.initialPassword)).toBeNull();
      // the password is shown in the create answer only
      for (const [endpoint, body] of [
        ['core/account/account/getAccountListPage', { loginName }],
        ['core/account/account/getAccountInfoByLoginName', { loginName }],
        ['core/account/account/listAccountInfo', { keyword: loginName }],
      ] as const) {
        const text = JSON.stringify((await t.call(endpoint, body, { token: channel })).body);
        expect(text).toContain(loginName);
        expect(text).not.toContain(r.initialPassword);
      }
      const login = await t.call('base/oauth/user/login', { loginName, password: r.initialPassword });
      expect(login.body.data).toMatchObject({ mustResetPassword: true, roleId: RoleType.SubCustomer, custId: cust[HD_SZ], channelCustId: cust[HD] });
      const token = login.body.data.accessToken;
      expect((await t.call('core/account/account/getIsResetPassword', {}, { token })).body.data).toEqual({ mustResetPassword: true });
      await ok('base/oauth/user/resetPassword', { oldPassword: r.initialPassword, newPassword: 'Mine#2026abc', confirmPassword: 'Mine#2026abc' }, token);
      const again = await t.call('base/oauth/user/login', { loginName, password: 'Mine#2026abc' });
      expect(again.body.data.mustResetPassword).toBe(false);
    });

    it('refuses roles that do not fit the customer level or the caller with 20022', async () => {
      const tries: [string, string, object][] = [
        ['role 5000 on a first-level customer', admin, { roleId: RoleType.SubCustomer, custId: cust[ZX] }],
        ['role 3000 on a second-level customer', admin, { roleId: RoleType.Enterprise, custId: cust[ZX_EAST] }],
        ['role 1000 on a customer', admin, { roleId: RoleType.Admin, custId: cust[ZX] }],
        ['role 2000 on a customer', admin, { roleId: RoleType.Manager, custId: cust[HD] }],
        ['customer role without a customer', admin, { roleId: RoleType.Enterprise }],
        ['unknown role', admin, { roleId: 9999 }],
        ['manager creating an admin', manager, { roleId: RoleType.Admin }],
        ['manager creating a manager', manager, { roleId: RoleType.Manager }],
        ['channel creating staff', channel, { roleId: RoleType.Manager }],
        ['channel creating staff on its customer', channel, { roleId: RoleType.Admin, custId: cust[HD] }],
        ['channel creating role 4000 on a second-level customer', channel, { roleId: RoleType.Channel, custId: cust[HD_SZ] }],
      ];
      for (const [label, token, b] of tries) {
        const r = await t.call('core/account/account/saveAccount', { loginName: 'wrongrole', userName: 'x', password: 'Wrong#role1', ...b }, { token, lang: 'en' });
        expect(r.body, label).toMatchObject({ success: false, errorCode: ErrorCode.RoleNotAllowed, msg: 'This role cannot be given to an account of this customer' });
      }
      expect(await ok('core/account/account/listAccountInfo', { keyword: 'wrongrole' }, admin)).toEqual([]);
      // the compatible ones work
      await ok('core/account/account/saveAccount', { loginName: uniq('mgr'), userName: 'm', roleId: RoleType.Manager }, admin);
      await ok('core/account/account/saveAccount', { loginName: uniq('ent'), userName: 'e', roleId: RoleType.Enterprise, custId: cust[ZX] }, manager);
      await ok('core/account/account/saveAccount', { loginName: uniq('chn'), userName: 'c', roleId: RoleType.Channel, custId: cust[HD] }, channel);
      // changing the role later follows the same rule
      const sub = await account('subcustomer');
      const up = await t.call('core/account/account/updateAccount', { accountId: sub.accountId, roleId: RoleType.Enterprise }, { token: admin });
      expect(up.body.errorCode).toBe(ErrorCode.RoleNotAllowed);
      expect((await account('subcustomer')).roleId).toBe(RoleType.SubCustomer);
    });

    it('refuses a login name that exists in any case with 20020', async () => {
      for (const loginName of ['ADMIN', 'Enterprise', 'channel']) {
        const r = await t.call('core/account/account/saveAccount', { loginName, userName: 'dup', roleId: RoleType.Manager, password: 'Dup#pass2026' }, { token: admin, lang: 'zh' });
        expect(r.body, loginName).toMatchObject({ success: false, errorCode: ErrorCode.LoginNameTaken, msg: '登录名已存在' });
      }
      const name = uniq('Twin.');
      await ok('core/account/account/saveAccount', { loginName: name, userName: 'a', roleId: RoleType.Manager, password: 'Twin#pass2026' }, admin);
      const twin = await t.call('core/account/account/saveAccount', { loginName: name.toLowerCase(), userName: 'b', roleId: RoleType.SubCustomer, custId: cust[HD_SZ] }, { token: channel });
      expect(twin.body.errorCode).toBe(ErrorCode.LoginNameTaken);
      // at the same moment too: one wins, the others get 20020 rather than a server error
      const race = uniq('race');
      const rs = await Promise.all([1, 2, 3].map((i) =>
        t.call('core/account/account/saveAccount', { loginName: i === 2 ? race.toUpperCase() : race, userName: `r${i}`, roleId: RoleType.Manager, password: 'Race#pass2026' }, { token: admin })));
      expect(rs.map((r) => r.body.errorCode).sort()).toEqual([null, ErrorCode.LoginNameTaken, ErrorCode.LoginNameTaken].sort());
    });

    it('freezes with a reason, ends the sessions, refuses login with 20014, and thaws again', async () => {
      const loginName = uniq('frz.');
      const { accountId } = await ok('core/account/account/saveAccount', { loginName, userName: '冻结测试', roleId: RoleType.Enterprise, custId: cust[ZX], password: 'Freeze#2026a' }, admin);
      const userToken = await t.login(loginName, 'Freeze#2026a');

      for (const reason of ['', '   ', '\t\n']) {
        for (const lang of ['zh', 'en'] as const) {
          const r = await t.call('core/account/account/saveAccountFreeze', { loginName, action: FreezeAction.Freeze, reason }, { token: admin, lang });
          expect(r.status, JSON.stringify(reason)).toBe(400);
          expect(r.body).toMatchObject({ success: false, errorCode: ErrorCode.Validation });
          expect(r.body.msg).toMatch(lang === 'zh' ? /^字段 reason：/ : /^Field reason: /);
        }
      }
      expect((await account(loginName)).status).toBe(AccountStatus.Normal);
      expect((await t.call('core/account/account/getIsResetPassword', {}, { token: userToken })).body.success).toBe(true);

      await ok('core/account/account/saveAccountFreeze', { loginName, action: FreezeAction.Freeze, reason: '  合同到期  ' }, admin);
      expect((await account(loginName)).status).toBe(AccountStatus.Frozen);
      expect((await t.call('core/account/account/getIsResetPassword', {}, { token: userToken })).body).toMatchObject({ success: false, errorCode: ErrorCode.SessionInvalid });
      const frozen = await t.call('base/oauth/user/login', { loginName, password: 'Freeze#2026a' }, { lang: 'zh' });
      expect(frozen.body).toMatchObject({ success: false, errorCode: ErrorCode.AccountFrozen, msg: '账号已冻结，请联系管理员' });
      const twice = await t.call('core/account/account/saveAccountFreeze', { loginName, action: FreezeAction.Freeze, reason: '再次冻结' }, { token: admin });
      expect(twice.body.errorCode).toBe(ErrorCode.AlreadyInState);

      await ok('core/account/account/saveAccountFreeze', { loginName, action: FreezeAction.Thaw, reason: '续签完成' }, manager);
      const thawTwice = await t.call('core/account/account/saveAccountFreeze', { loginName, action: FreezeAction.Thaw, reason: '再次解冻' }, { token: admin });
      expect(thawTwice.body.errorCode).toBe(ErrorCode.AlreadyInState);
      expect((await t.call('base/oauth/user/login', { loginName, password: 'Freeze#2026a' })).body.success).toBe(true);
      // the old token stays dead after the thaw
      expect((await t.call('core/account/account/getIsResetPassword', {}, { token: userToken })).body.errorCode).toBe(ErrorCode.SessionInvalid);

      const recs = await ok('core/account/account/getAccountFreezeList', { loginName }, admin);
      expect(recs.total).toBe(2);
      expect(recs.list).toEqual([
        expect.objectContaining({ loginName, action: FreezeAction.Thaw, reason: '续签完成', operator: 'manager' }),
        expect.objectContaining({ loginName, action: FreezeAction.Freeze, reason: '合同到期', operator: 'admin' }),
      ]);
      // the enterprise of that customer sees the same records
      expect((await ok('core/account/account/getAccountFreezeList', { loginName }, enterprise)).total).toBe(2);

      const audit = await ok('system/audit/getListPage', { entity: 'account', entityId: String(accountId) }, admin);
      expect(audit.list.map((a: any) => a.endpoint).sort()).toEqual([
        'core/account/account/saveAccount', 'core/account/account/saveAccountFreeze', 'core/account/account/saveAccountFreeze',
      ]);
      const statuses = audit.list.filter((a: any) => a.endpoint.endsWith('saveAccountFreeze')).map((a: any) => [a.before.status, a.after.status]);
      expect(statuses.sort()).toEqual([[1, 2], [2, 1]]);
    });

    it('two simultaneous freezes of one account give one freeze and 20025, with one record', async () => {
      const loginName = uniq('dbl.');
      await ok('core/account/account/saveAccount', { loginName, userName: '并发冻结', roleId: RoleType.SubCustomer, custId: cust[HD_SZ], password: 'Double#2026' }, channel);
      const rs = await Promise.all([admin, manager, channel, admin].map((token, i) =>
        t.call('core/account/account/saveAccountFreeze', { loginName, action: FreezeAction.Freeze, reason: `并发 ${i}` }, { token })));
      expect(rs.map((r) => r.body.errorCode).sort()).toEqual([null, ErrorCode.AlreadyInState, ErrorCode.AlreadyInState, ErrorCode.AlreadyInState].sort());
      const recs = await ok('core/account/account/getAccountFreezeList', { loginName }, admin);
      expect(recs.total).toBe(1);
      expect((await account(loginName)).status).toBe(AccountStatus.Frozen);
    });

    it('nobody can freeze their own account (20024)', async () => {
      for (const [token, loginName] of [[admin, 'admin'], [admin, 'ADMIN'], [channel, 'channel'], [enterprise, 'enterprise']] as const) {
        const r = await t.call('core/account/account/saveAccountFreeze', { loginName, action: FreezeAction.Freeze, reason: '自己' }, { token, lang: 'en' });
        expect(r.body, loginName).toMatchObject({ success: false, errorCode: ErrorCode.CannotFreezeSelf, msg: 'You cannot freeze your own account' });
      }
      expect((await t.call('core/account/account/getIsResetPassword', {}, { token: admin })).body.success).toBe(true);
      expect((await account('channel')).status).toBe(AccountStatus.Normal);
    });

    it('resetAccountPassword gives a working one-time password and ends the old sessions', async () => {
      const loginName = uniq('rst.');
      const { accountId } = await ok('core/account/account/saveAccount', { loginName, userName: '重置测试', roleId: RoleType.SubCustomer, custId: cust[HD_SZ], password: 'Reset#2026a' }, channel);
      const oldToken = await t.login(loginName, 'Reset#2026a');
      const { password } = await ok('core/account/account/resetAccountPassword', { loginName }, channel);
      expect(validatePassword(password)).toBeNull();
      expect(password).not.toBe('Reset#2026a');
      expect((await t.call('core/account/account/getIsResetPassword', {}, { token: oldToken })).body.errorCode).toBe(ErrorCode.SessionInvalid);
      expect((await t.call('base/oauth/user/login', { loginName, password: 'Reset#2026a' })).body.errorCode).toBe(ErrorCode.LoginFailed);
      const login = await t.call('base/oauth/user/login', { loginName, password });
      expect(login.body.data.mustResetPassword).toBe(true);
      // a second reset invalidates the first one-time password
      const second = await ok('core/account/account/resetAccountPassword', { loginName }, admin);
      expect(second.password).not.toBe(password);
      expect((await t.call('base/oauth/user/login', { loginName, password })).body.errorCode).toBe(ErrorCode.LoginFailed);
      expect((await t.call('core/account/account/getIsResetPassword', {}, { token: login.body.data.accessToken })).body.errorCode).toBe(ErrorCode.SessionInvalid);
      const audit = await ok('system/audit/getListPage', { entity: 'account', entityId: String(accountId) }, admin);
      expect(audit.list.filter((a: any) => a.endpoint === 'core/account/account/resetAccountPassword')).toHaveLength(2);
    });

    it('writes add account, freeze, thaw and reset account entries to the behaviour log', async () => {
      const loginName = uniq('beh.');
      await ok('core/account/account/saveAccount', { loginName, userName: '行为日志', roleId: RoleType.Manager, password: 'Behave#2026' }, admin);
      await ok('core/account/account/saveAccountFreeze', { loginName, action: FreezeAction.Freeze, reason: '审计冻结' }, admin);
      await ok('core/account/account/saveAccountFreeze', { loginName, action: FreezeAction.Thaw, reason: '审计解冻' }, admin);
      await ok('core/account/account/resetAccountPassword', { loginName }, admin);
      const log = await ok('core/account/operationLog/getListPage', { loginName: 'admin', pageSize: 500 }, admin);
      const mine = log.list.filter((e: any) => e.target === loginName);
      expect(mine.map((e: any) => e.action).sort()).toEqual(
        [BehaviorAction.AddAccount, BehaviorAction.Freeze, BehaviorAction.Thaw, BehaviorAction.ResetAccount].sort(),
      );
      expect(mine.every((e: any) => e.loginName === 'admin')).toBe(true);
      expect(mine.find((e: any) => e.action === BehaviorAction.Freeze).detail).toBe('审计冻结');
      expect(mine.find((e: any) => e.action === BehaviorAction.Thaw).detail).toBe('审计解冻');
      for (const action of [BehaviorAction.AddAccount, BehaviorAction.Freeze, BehaviorAction.Thaw, BehaviorAction.ResetAccount]) {
        const filtered = await ok('core/account/operationLog/getListPage', { action, pageSize: 500 }, admin);
        expect(filtered.list.some((e: any) => e.target === loginName), String(action)).toBe(true);
      }
    });

    it('audits every account mutation with before and after, never showing the password hash', async () => {
      const loginName = uniq('aud.');
      const { accountId } = await ok('core/account/account/saveAccount', { loginName, userName: '审计', roleId: RoleType.Enterprise, custId: cust[ZX], password: 'Audit#2026a' }, admin);
      await ok('core/account/account/updateAccount', { accountId, userName: '审计改名', phone: '13833334444' }, admin);
      await ok('core/account/account/saveAccountFreeze', { loginName, action: FreezeAction.Freeze, reason: 'r1' }, admin);
      await ok('core/account/account/saveAccountFreeze', { loginName, action: FreezeAction.Thaw, reason: 'r2' }, admin);
      await ok('core/account/account/resetAccountPassword', { loginName }, admin);
      const audit = await ok('system/audit/getListPage', { entity: 'account', entityId: String(accountId), pageSize: 100 }, admin);
      expect(audit.list.map((a: any) => a.endpoint.split('/').pop()).sort()).toEqual(
        ['resetAccountPassword', 'saveAccount', 'saveAccountFreeze', 'saveAccountFreeze', 'updateAccount'],
      );
      expect(audit.list.every((a: any) => a.loginName === 'admin' && a.entity === 'account' && a.after !== null)).toBe(true);
      const created = audit.list.find((a: any) => a.endpoint.endsWith('saveAccount'));
      expect(created.before).toBeNull();
      expect(created.after).toMatchObject({ loginName, accountId, roleId: RoleType.Enterprise });
      const updated = audit.list.find((a: any) => a.endpoint.endsWith('updateAccount'));
      expect(updated.before).toMatchObject({ userName: '审计', phone: null });
      expect(updated.after).toMatchObject({ userName: '审计改名', phone: '13833334444' });
      for (const a of audit.list) {
        for (const side of [a.before, a.after]) {
          if (side && 'passwordHash' in side) expect(side.passwordHash).toBe('***');
        }
      }
      const text = JSON.stringify(audit.list);
      expect(text).not.toMatch(/\$argon2/);
      expect(text).not.toContain('Audit#2026a');
    });

    it('the audit record of a password reset shows the mustResetPassword change', async () => {
      const loginName = uniq('flag.');
      const { accountId } = await ok('core/account/account/saveAccount', { loginName, userName: 'f', roleId: RoleType.Manager, password: 'Flag#2026ab' }, admin);
      await ok('core/account/account/resetAccountPassword', { loginName }, admin);
      const audit = await ok('system/audit/getListPage', { entity: 'account', entityId: String(accountId) }, admin);
      const reset = audit.list.find((a: any) => a.endpoint.endsWith('resetAccountPassword'));
      expect(reset.before).toMatchObject({ mustResetPassword: false });
      expect(reset.after).toMatchObject({ mustResetPassword: true });
    });

    it('refuses unknown body fields with 20007 naming the field', async () => {
      const cases: [string, object, string][] = [
        ['core/account/account/saveAccount', { loginName: 'unk1', userName: 'u', roleId: RoleType.Manager, isAdmin: true }, 'isAdmin'],
        ['core/account/customer/getCustomerListPage', { custNmae: 'typo' }, 'custNmae'],
        ['core/account/customer/updateCustomer', { custId: cust[ZX], preDeposit: 1e9 }, 'preDeposit'],
        ['core/account/account/saveAccountFreeze', { loginName: 'channel', action: 1, reason: 'x', operator: 'ghost' }, 'operator'],
      ];
      for (const [endpoint, body, field] of cases) {
        for (const [lang, msg] of [['en', `Unknown field: ${field}`], ['zh', `不支持的字段：${field}`]] as const) {
          const r = await t.call(endpoint, body, { token: admin, lang });
          expect(r.status, endpoint).toBe(400);
          expect(r.body, endpoint).toMatchObject({ success: false, errorCode: ErrorCode.UnknownField, msg, data: { field } });
        }
      }
      expect(await ok('core/account/account/listAccountInfo', { keyword: 'unk1' }, admin)).toEqual([]);
      expect((await customer(cust[ZX])).preDeposit).toBe('50000.00');
      expect((await account('channel')).status).toBe(AccountStatus.Normal);
    });

    it('answers schema violations with HTTP 400, errorCode 20004 and a message naming the field in both languages', async () => {
      const cases: [string, object, string, string, string][] = [
        ['core/account/account/getAccountListPage', { pageSize: 501 }, 'pageSize', '字段 pageSize：不能大于 500', 'Field pageSize: must not be greater than 500'],
        ['core/account/customer/getCustomerListPage', { current: 0 }, 'current', '字段 current：不能小于 1', 'Field current: must not be less than 1'],
        ['core/account/customer/saveCustomer', { ...contact }, 'custName', '字段 custName：必填', 'Field custName: is required'],
        ['core/account/customer/getCustomerInfo', { custId: '100001' }, 'custId', '字段 custId：类型应为 integer', 'Field custId: must be of type integer'],
        ['core/account/account/saveAccount', { loginName: 'has space', userName: 'x', roleId: RoleType.Manager }, 'loginName', '字段 loginName：格式不正确', 'Field loginName: has an invalid format'],
        ['core/account/account/saveAccountFreeze', { loginName: 'channel', action: 3, reason: 'x' }, 'action', '字段 action：不能大于 2', 'Field action: must not be greater than 2'],
      ];
      for (const [endpoint, body, field, zh, en] of cases) {
        const rz = await t.call(endpoint, body, { token: admin, lang: 'zh' });
        expect(rz.status, endpoint).toBe(400);
        expect(rz.body, endpoint).toMatchObject({ success: false, errorCode: ErrorCode.Validation, msg: zh, data: { field } });
        const re = await t.call(endpoint, body, { token: admin, lang: 'en' });
        expect(re.status).toBe(400);
        expect(re.body).toMatchObject({ success: false, errorCode: ErrorCode.Validation, msg: en });
      }
      // the boundary itself is fine
      expect((await t.call('core/account/account/getAccountListPage', { pageSize: 500 }, { token: admin })).body.data.pageSize).toBe(500);
    });

    it('offers only the roles that fit: second-level customers get role type 5000 only', async () => {
      const types = async (token: string, body: object) => (await ok('core/account/account/getRoleList', body, token)).map((r: any) => r.roleType).sort();
      expect(await types(admin, { custId: cust[ZX_EAST] })).toEqual([5000]);
      expect(await types(channel, { custId: cust[HD_SZ] })).toEqual([5000]);
      expect(await types(enterprise, { custId: cust[ZX_EAST] })).toEqual([5000]);
      expect(await types(admin, { custId: cust[ZX] })).toEqual([3000, 4000]);
      expect(await types(admin, {})).toEqual([1000, 2000, 3000, 4000, 5000]);
      expect(await types(manager, {})).toEqual([3000, 4000, 5000]);
      expect(await types(channel, {})).toEqual([3000, 4000, 5000]);
      const foreign = await t.call('core/account/account/getRoleList', { custId: cust[ZX_EAST] }, { token: channel });
      expect(foreign.body.errorCode).toBe(ErrorCode.NotFound);
    });

    it('listAccountInfo and getAccountByRoleIds are scoped to the caller\'s tenant', async () => {
      const names = async (token: string, endpoint: string, body: object) =>
        (await ok(`core/account/account/${endpoint}`, body, token)).map((a: any) => a.loginName);
      const all = await names(admin, 'listAccountInfo', {});
      expect(all).toEqual(expect.arrayContaining(['admin', 'manager', 'enterprise', 'channel', 'subcustomer']));
      const hd = await names(channel, 'listAccountInfo', {});
      expect(hd).toContain('channel');
      // every customer of the channel's tree is named 华电…: exactly the accounts of those customers
      const everyone = await ok('core/account/account/getAccountListPage', { pageSize: 500 }, admin);
      const expected = everyone.list.filter((a: any) => a.custName?.startsWith('华电')).map((a: any) => a.loginName).sort();
      expect(expected.length).toBeGreaterThan(1);
      expect([...hd].sort()).toEqual(expected);
      expect(hd.some((n: string) => ['admin', 'manager', 'enterprise', 'subcustomer'].includes(n))).toBe(false);
      expect(await names(channel, 'listAccountInfo', { custId: cust[ZX] })).toEqual([]);
      expect(await names(channel, 'listAccountInfo', { keyword: 'admin' })).toEqual([]);
      expect(await names(admin, 'listAccountInfo', { keyword: 'subcust' })).toEqual(['subcustomer']);

      const byRole = await names(channel, 'getAccountByRoleIds', { roleIds: [RoleType.Admin, RoleType.Manager, RoleType.Enterprise, RoleType.Channel] });
      expect(byRole).toContain('channel');
      expect(byRole.some((n: string) => ['admin', 'manager', 'enterprise'].includes(n))).toBe(false);
      expect(await names(admin, 'getAccountByRoleIds', { roleIds: [RoleType.Admin] })).toEqual(['admin']);
      expect(await names(enterprise, 'getAccountByRoleIds', { roleIds: [RoleType.SubCustomer] })).toEqual(['subcustomer']);
    });
  });

  describe('logo upload', () => {
    it('accepts a small PNG and serves it publicly at the URL of getLogoByCustId', async () => {
      const data = png(2048);
      const r = await upload(enterprise, [{ name: 'logoFile', filename: 'logo.png', type: 'image/png', data }]);
      expect(r.statusCode).toBe(200);
      expect(r.json()).toMatchObject({ success: true, errorCode: null });
      const url: string = r.json().data.logoUrl;
      expect((await t.call('core/account/account/getLogoByCustId', { custId: cust[ZX] })).body.data.logoUrl).toBe(url);
      // a second-level customer without its own logo shows its parent's
      expect((await t.call('core/account/account/getLogoByCustId', { custId: cust[ZX_EAST] })).body.data.logoUrl).toBe(url);
      expect((await customer(cust[ZX])).logoUrl).toBe(url);
      const file = await t.app.inject({ method: 'GET', url });
      expect(file.statusCode).toBe(200);
      expect(file.headers['content-type']).toBe('image/png');
      expect(file.rawPayload.equals(data)).toBe(true);
      const audit = await ok('system/audit/getListPage', { entity: 'customerLogo', entityId: String(cust[ZX]) }, admin);
      expect(audit.list).toHaveLength(1);
    });

    it('accepts a JPEG just under 1,536,000 bytes for a customer of the own tree', async () => {
      const data = jpeg(1_535_999);
      const r = await upload(channel, [{ name: 'custId', value: String(cust[HD_SZ]) }, { name: 'logoFile', filename: 'LOGO.JPG', type: 'image/jpeg', data }]);
      expect(r.json()).toMatchObject({ success: true });
      const url = r.json().data.logoUrl;
      expect((await t.call('core/account/account/getLogoByCustId', { custId: cust[HD_SZ] })).body.data.logoUrl).toBe(url);
      const file = await t.app.inject({ method: 'GET', url });
      expect(file.headers['content-type']).toBe('image/jpeg');
      expect(file.rawPayload.length).toBe(1_535_999);
      // the channel's own first-level customer is not changed by it
      expect((await customer(cust[HD])).logoUrl).toBeNull();
      // another tenant's customer answers NotFound
      const foreign = await upload(channel, [{ name: 'custId', value: String(cust[ZX]) }, { name: 'logoFile', filename: 'logo.png', type: 'image/png', data: png(100) }]);
      expect(foreign.json()).toMatchObject({ success: false, errorCode: ErrorCode.NotFound });
    });

    it('refuses GIFs, disguised files, oversized files and a missing file', async () => {
      const before = (await t.call('core/account/account/getLogoByCustId', { custId: cust[ZX] })).body.data.logoUrl;
      const refused: [string, Part[], number, string, string][] = [
        ['a real gif', [{ name: 'logoFile', filename: 'logo.gif', type: 'image/gif', data: gif(500) }], ErrorCode.FileType, '文件类型错误', 'File type error'],
        ['a gif renamed .png', [{ name: 'logoFile', filename: 'logo.png', type: 'image/png', data: gif(500) }], ErrorCode.FileType, '文件类型错误', 'File type error'],
        ['a text file renamed .png', [{ name: 'logoFile', filename: 'logo.png', type: 'image/png', data: Buffer.from('just some text, not an image\n'.repeat(20)) }], ErrorCode.FileType, '文件类型错误', 'File type error'],
        ['a png declared as text', [{ name: 'logoFile', filename: 'logo.png', type: 'text/plain', data: png(500) }], ErrorCode.FileType, '文件类型错误', 'File type error'],
        ['a png named .txt', [{ name: 'logoFile', filename: 'logo.txt', type: 'image/png', data: png(500) }], ErrorCode.FileType, '文件类型错误', 'File type error'],
        ['a png of exactly 1500 KB', [{ name: 'logoFile', filename: 'big.png', type: 'image/png', data: png(1_536_000) }], ErrorCode.LogoTooBig, 'Logo 须小于 1500KB', 'Logo must be smaller than 1500 KB'],
        ['a 2 MB jpeg', [{ name: 'logoFile', filename: 'big.jpg', type: 'image/jpeg', data: jpeg(2 * 1024 * 1024) }], ErrorCode.LogoTooBig, 'Logo 须小于 1500KB', 'Logo must be smaller than 1500 KB'],
        ['no file', [{ name: 'custId', value: String(cust[ZX]) }], ErrorCode.FileRequired, '请上传文件', 'Please upload a file'],
        // a file under a name the upload does not take is named, as an unknown JSON field is
        ['the wrong field name', [{ name: 'file', filename: 'logo.png', type: 'image/png', data: png(500) }], ErrorCode.UnknownField, '不支持的字段：file', 'Unknown field: file'],
      ];
      for (const [label, parts, code, zh, en] of refused) {
        for (const [lang, msg] of [['zh', zh], ['en', en]] as const) {
          const r = await upload(enterprise, parts, lang);
          expect(r.json(), `${label} ${lang}`).toMatchObject({ success: false, errorCode: code, msg });
          expect(r.statusCode, label).toBe(400);
        }
      }
      expect((await t.call('core/account/account/getLogoByCustId', { custId: cust[ZX] })).body.data.logoUrl).toBe(before);
    });
  });
});
