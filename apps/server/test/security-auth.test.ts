import crypto from 'node:crypto';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { CustomerStatus, ErrorCode, PaymentModel, RoleType } from '@lynx/contract';
import { backends, multipart, startTestApp, DEMO_PASSWORD, type Envelope, type TestApp, callOk, ZX, ZX_EAST, HD, HD_SZ } from './harness.ts';
import { captchas } from '../src/modules/auth/tables.ts';
import { hashToken, SessionStore } from '../src/platform/sessions.ts';

// Issue 11, security hardening: parallel logins, forced password change, operator-side customer fields,
// customers naming other customers, exited customers.

const LOGIN = 'base/oauth/user/login';
const WRONG = 'Wrong#pass11';

let seq = 0;
const uniq = (prefix: string) => `${prefix}${Date.now().toString(36)}${(seq++).toString(36)}`;

/** A captcha with a known code, stored the way the server stores one. */
async function knownCaptcha(t: TestApp) {
  const captchaKey = crypto.randomUUID();
  const captchaCode = 'k7wp';
  await t.deps.db.insert(captchas).values({
    captchaKey, codeHash: crypto.createHash('sha256').update(captchaCode).digest('hex'), expiresAt: new Date(Date.now() + 60_000),
  });
  return { captchaKey, captchaCode };
}

const codes = (rs: { body: Envelope<unknown> }[]) => {
  const out: Record<string, number> = {};
  for (const r of rs) {
    const k = r.body.success ? 'ok' : String(r.body.errorCode);
    out[k] = (out[k] ?? 0) + 1;
  }
  return out;
};

describe.each(backends)('logins under concurrency on %s', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(backend, { captchaMode: 'after-failures' }, { jobs: false });
  });
  afterAll(() => t?.stop());

  it('50 parallel wrong guesses: only 3 are checked without a captcha, the rest are told to enter one', async () => {
    const rs = await Promise.all(Array.from({ length: 50 }, () => t.call(LOGIN, { loginName: 'enterprise', password: WRONG })));
    const c = codes(rs);
    expect(c[ErrorCode.LoginFailed]).toBe(3);
    expect(c[ErrorCode.CaptchaRequired]).toBe(47);
    expect((await t.call('base/oauth/user/captchaRequired', { loginName: 'Enterprise' })).body.data.required).toBe(true);
    // the right password without a captcha is refused too
    expect((await t.call(LOGIN, { loginName: 'enterprise', password: DEMO_PASSWORD })).body.errorCode).toBe(ErrorCode.CaptchaRequired);
  });

  it('50 parallel wrong guesses with captchas and the right password among them: at most 10 checks, then locked', async () => {
    const name = 'channel';
    const attempts = await Promise.all(Array.from({ length: 51 }, async (_, i) => ({
      loginName: name, password: i === 25 ? DEMO_PASSWORD : WRONG, ...(await knownCaptcha(t)),
    })));
    const rs = await Promise.all(attempts.map((a) => t.call(LOGIN, a)));
    const c = codes(rs);
    // nine answers "wrong password", the tenth failure answers "locked", every later try is refused as locked
    expect(c[ErrorCode.LoginFailed] ?? 0).toBeLessThanOrEqual(9);
    expect((c[ErrorCode.LoginFailed] ?? 0) + (c.ok ?? 0)).toBeLessThanOrEqual(10);
    expect(c[ErrorCode.AccountLocked]).toBeGreaterThanOrEqual(41);
    const [row] = await t.database.sql.query<{ failures: number }>('select failures from login_attempts where login_name = $1', [name]);
    expect(row.failures).toBe(10);
    // the right password in the burst did not clear the count: still locked, even with a captcha
    const after = await t.call(LOGIN, { loginName: name, password: DEMO_PASSWORD, ...(await knownCaptcha(t)) }, { lang: 'zh' });
    expect(after.body).toMatchObject({ success: false, errorCode: ErrorCode.AccountLocked });
    expect(after.body.msg).toMatch(/已锁定/);
  });

  it('a successful login does not keep an older failure streak alive', async () => {
    const t2 = await startTestApp(backend, { captchaMode: 'off' }, { jobs: false });
    try {
      for (let i = 0; i < 9; i++) await t2.call(LOGIN, { loginName: 'manager', password: WRONG });
      // the failures were 14 minutes ago: the streak ends in one minute unless a new failure comes
      await t2.database.sql.query(`update login_attempts set last_failure_at = last_failure_at - interval '14 minutes' where login_name = 'manager'`);
      const [before] = await t2.database.sql.query<{ at: string }>(`select last_failure_at::text at from login_attempts where login_name = 'manager'`);
      expect((await t2.call(LOGIN, { loginName: 'manager', password: DEMO_PASSWORD })).body.success).toBe(true);
      const [after] = await t2.database.sql.query<{ at: string; failures: number }>(`select last_failure_at::text at, failures from login_attempts where login_name = 'manager'`);
      expect(after).toEqual({ at: before.at, failures: 9 });
      // once the 15 minutes are over the name starts afresh: one wrong guess does not lock it
      await t2.database.sql.query(`update login_attempts set last_failure_at = last_failure_at - interval '2 minutes' where login_name = 'manager'`);
      expect((await t2.call(LOGIN, { loginName: 'manager', password: WRONG })).body.errorCode).toBe(ErrorCode.LoginFailed);
    } finally {
      await t2.stop();
    }
  });

  it('a successful login gives back only its own attempt: earlier failures still count toward the lock', async () => {
    const t2 = await startTestApp(backend, { captchaMode: 'off' }, { jobs: false });
    try {
      for (let i = 0; i < 9; i++) expect((await t2.call(LOGIN, { loginName: 'subcustomer', password: WRONG })).body.errorCode).toBe(ErrorCode.LoginFailed);
      expect((await t2.call(LOGIN, { loginName: 'subcustomer', password: DEMO_PASSWORD })).body.success).toBe(true);
      // the tenth failure locks, although a success came in between
      expect((await t2.call(LOGIN, { loginName: 'subcustomer', password: WRONG })).body.errorCode).toBe(ErrorCode.AccountLocked);
      expect((await t2.call(LOGIN, { loginName: 'subcustomer', password: DEMO_PASSWORD })).body.errorCode).toBe(ErrorCode.AccountLocked);
    } finally {
      await t2.stop();
    }
  });
});

describe.each(backends)('security rules on %s', (backend) => {
  let t: TestApp;
  let admin: string;
  const cust: Record<string, number> = {};
  const ok = (endpoint: string, body: object, token: string) => callOk(t, endpoint, body, token);
  const customer = (custId: number) => ok('core/account/customer/getCustomerInfo', { custId }, admin);

  beforeAll(async () => {
    t = await startTestApp(backend, { captchaMode: 'off' }, { jobs: false });
    admin = await t.login('admin');
    const cs = await t.call('core/account/customer/getCustomerListPage', { pageSize: 500 }, { token: admin });
    for (const c of cs.body.data.list) cust[c.custName] = c.custId;
  });
  afterAll(() => t?.stop());

  describe('a session that must change its password', () => {
    it('may only change the password, ask whether it must, and sign out', async () => {
      const loginName = uniq('fresh.');
      const created = await ok('core/account/account/saveAccount', { loginName, userName: '新运营', roleId: RoleType.Manager }, admin);
      const login = await t.call(LOGIN, { loginName, password: created.initialPassword });
      expect(login.body.data.mustResetPassword).toBe(true);
      const token = login.body.data.accessToken;

      for (const lang of ['zh', 'en'] as const) {
        const r = await t.call('core/account/customer/getCustomerListPage', {}, { token, lang });
        expect(r.status).toBe(200);
        expect(r.body).toEqual({
          success: false, errorCode: ErrorCode.PasswordChangeRequired, data: null,
          msg: lang === 'zh' ? '请先修改密码' : 'Change your password first',
        });
      }
      const before = await t.call('core/account/account/saveAccount', { loginName: uniq('sneak.'), userName: 'x', roleId: RoleType.Admin, password: 'Sneak#2026ab' }, { token });
      expect(before.body.errorCode).toBe(ErrorCode.PasswordChangeRequired);
      expect((await t.call('core/account/account/getAccountInfoByLoginName', { loginName }, { token })).body.errorCode).toBe(ErrorCode.PasswordChangeRequired);

      expect(await ok('core/account/account/getIsResetPassword', {}, token)).toEqual({ mustResetPassword: true });
      await ok('base/oauth/user/resetPassword', { oldPassword: created.initialPassword, newPassword: 'Fresh#2026ab', confirmPassword: 'Fresh#2026ab' }, token);
      // the same session may now do what its role allows
      expect((await ok('core/account/customer/getCustomerListPage', {}, token)).total).toBeGreaterThan(0);
    });

    it('may sign out', async () => {
      const loginName = uniq('leave.');
      const created = await ok('core/account/account/saveAccount', { loginName, userName: '离开', roleId: RoleType.Manager }, admin);
      const token = (await t.call(LOGIN, { loginName, password: created.initialPassword })).body.data.accessToken;
      await ok('base/oauth/user/logout', {}, token);
      expect((await t.call('core/account/account/getIsResetPassword', {}, { token })).body.errorCode).toBe(ErrorCode.SessionInvalid);
    });
  });

  describe('operator-side fields of a customer record', () => {
    it('a customer cannot change its own state, payment model or sales contact; unchanged values pass', async () => {
      const enterprise = await t.login('enterprise');
      const own = await customer(cust[ZX]);
      for (const [field, value] of [
        ['status', own.status === CustomerStatus.Mature ? CustomerStatus.Online : CustomerStatus.Mature],
        ['paymentModel', own.paymentModel === PaymentModel.Postpaid ? PaymentModel.Prepaid : PaymentModel.Postpaid],
        ['salesName', '自己指定的销售'],
      ] as const) {
        for (const lang of ['zh', 'en'] as const) {
          const r = await t.call('core/account/customer/updateCustomer', { custId: cust[ZX], remark: 'sneaky', [field]: value }, { token: enterprise, lang });
          expect(r.body).toMatchObject({ success: false, errorCode: ErrorCode.CustomerFieldStaffOnly, data: { field } });
          expect(r.body.msg).toBe(lang === 'zh' ? `字段 ${field} 只能由运营人员修改` : `Field ${field} can only be changed by operator staff`);
        }
      }
      // nothing changed, not even the fields sent beside
      expect(await customer(cust[ZX])).toEqual(own);
      // the console's edit form sends every field: the unchanged ones are accepted with the real change
      await ok('core/account/customer/updateCustomer', {
        custId: cust[ZX], status: own.status, ...(own.paymentModel !== null && { paymentModel: own.paymentModel }),
        salesName: own.salesName ?? '', salesPhone: own.salesPhone ?? '', salesEmail: own.salesEmail ?? '', remark: '企业自己修改',
      }, enterprise);
      expect(await customer(cust[ZX])).toMatchObject({ status: own.status, paymentModel: own.paymentModel, remark: '企业自己修改' });
    });

    it('a channel customer sets them on its second-level customers, not on its own record; staff on any', async () => {
      const channel = await t.login('channel');
      const own = await customer(cust[HD]);
      const refused = await t.call('core/account/customer/updateCustomer', { custId: cust[HD], status: CustomerStatus.Mature === own.status ? CustomerStatus.Online : CustomerStatus.Mature }, { token: channel });
      expect(refused.body).toMatchObject({ errorCode: ErrorCode.CustomerFieldStaffOnly, data: { field: 'status' } });
      expect((await customer(cust[HD])).status).toBe(own.status);

      await ok('core/account/customer/updateCustomer', { custId: cust[HD_SZ], status: CustomerStatus.Mature, paymentModel: PaymentModel.Postpaid, salesName: '渠道销售' }, channel);
      expect(await customer(cust[HD_SZ])).toMatchObject({ status: CustomerStatus.Mature, paymentModel: PaymentModel.Postpaid, salesName: '渠道销售' });

      await ok('core/account/customer/updateCustomer', { custId: cust[HD], status: CustomerStatus.Mature, paymentModel: PaymentModel.Prepaid }, admin);
      expect(await customer(cust[HD])).toMatchObject({ status: CustomerStatus.Mature, paymentModel: PaymentModel.Prepaid });
    });
  });

  describe('a customer naming another customer', () => {
    it('a second-level customer naming another customer in an API-key call is refused as not found, and nothing is written', async () => {
      const sub = await t.login('subcustomer');
      const own = await ok('openapi/key/query', {}, sub);
      expect(own.custId).toBe(cust[ZX_EAST]);
      expect((await ok('openapi/key/query', { custId: cust[ZX_EAST] }, sub)).custId).toBe(cust[ZX_EAST]);
      for (const other of [cust[ZX], cust[HD], 99_999_999]) {
        for (const [endpoint, body] of [
          ['openapi/key/query', { custId: other }],
          ['openapi/key/rotate', { custId: other }],
          ['openapi/config/query', { custId: other }],
          ['openapi/config/save', { custId: other, callbackUrl: 'https://evil.example.com/hook' }],
          ['openapi/userIp/list', { custId: other }],
          ['openapi/userIp/save', { custId: other, startIp: '10.9.9.9' }],
        ] as const) {
          const r = await t.call(endpoint, body, { token: sub });
          expect(r.body, `${endpoint} ${other}`).toMatchObject({ success: false, errorCode: ErrorCode.NotFound, data: null });
        }
      }
      const [written] = await t.database.sql.query<{ n: number }>(
        `select (select count(*) from api_keys where cust_id = $1)::int + (select count(*) from api_configs where cust_id = $1)::int
           + (select count(*) from user_ips where cust_id = $1)::int as n`,
        [cust[ZX_EAST]],
      );
      expect(written.n).toBe(0);
      // a channel customer naming a customer outside its tree gets the same answer
      const channel = await t.login('channel');
      expect((await t.call('openapi/key/query', { custId: cust[ZX_EAST] }, { token: channel })).body.errorCode).toBe(ErrorCode.NotFound);
      expect((await ok('openapi/key/query', { custId: cust[HD_SZ] }, channel)).custId).toBe(cust[HD_SZ]);
    });

    it('a second-level customer naming another customer for a logo upload is refused as not found', async () => {
      const sub = await t.login('subcustomer');
      const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), crypto.randomBytes(200)]);
      const form = multipart([{ name: 'custId', value: String(cust[ZX]) }, { name: 'logoFile', filename: 'l.png', type: 'image/png', data: png }]);
      const r = await t.app.inject({
        method: 'POST', url: '/api/cmp/core/account/account/uploadLogo?ts=1&lang=en', payload: form.payload, headers: { ...form.headers, authorization: sub },
      });
      expect(r.json()).toMatchObject({ success: false, errorCode: ErrorCode.NotFound });
      expect((await customer(cust[ZX])).logoUrl).toBeNull();
      expect((await customer(cust[ZX_EAST])).logoUrl).toBeNull();
    });
  });

  describe('exited customers', () => {
    const password = 'Exit#2026abc';
    let firstId: number;
    let secondId: number;
    let firstLogin: string;
    let secondLogin: string;

    beforeAll(async () => {
      const contact = { adminName: '联系人', adminEmail: 'c@example.com', adminPhone: '13800138000' };
      firstId = (await ok('core/account/customer/saveCustomer', { custName: uniq('退出测试'), ...contact }, admin)).custId;
      secondId = (await ok('core/account/customer/saveCustomer', { custName: uniq('退出测试子'), parentCustId: firstId, ...contact }, admin)).custId;
      firstLogin = uniq('exit.a');
      secondLogin = uniq('exit.b');
      await ok('core/account/account/saveAccount', { loginName: firstLogin, userName: 'A', roleId: RoleType.Enterprise, custId: firstId, password }, admin);
      await ok('core/account/account/saveAccount', { loginName: secondLogin, userName: 'B', roleId: RoleType.SubCustomer, custId: secondId, password }, admin);
    });
    const signIn = (loginName: string, lang: 'zh' | 'en' = 'en') => t.call(LOGIN, { loginName, password }, { lang });
    const alive = async (token: string) => (await t.call('core/account/account/getIsResetPassword', {}, { token })).body.errorCode !== ErrorCode.SessionInvalid;
    const setStatus = (custId: number, status: number) => ok('core/account/customer/updateCustomer', { custId, status }, admin);

    it('a first-level customer that exits ends the sessions and sign-ins of its whole tree', async () => {
      const a = (await signIn(firstLogin)).body.data.accessToken;
      const b = (await signIn(secondLogin)).body.data.accessToken;
      expect(await alive(a)).toBe(true);
      expect(await alive(b)).toBe(true);
      await setStatus(firstId, CustomerStatus.Exited);
      expect(await alive(a)).toBe(false);
      expect(await alive(b)).toBe(false);
      const [{ n }] = await t.database.sql.query<{ n: number }>(
        'select count(*)::int as n from sessions s join accounts a on a.account_id = s.account_id where a.root_cust_id = $1 and s.revoked_at is null', [firstId],
      );
      expect(n).toBe(0);
      for (const loginName of [firstLogin, secondLogin]) {
        const zh = await signIn(loginName, 'zh');
        expect(zh.body).toMatchObject({ success: false, errorCode: ErrorCode.CustomerExited, data: null });
        expect(zh.body.msg).toBe('所属客户已退出，账号不能再登录，请联系运营人员');
        expect((await signIn(loginName)).body.msg).toBe('Your customer has exited: its accounts can no longer sign in, please contact the operator');
      }
      // back online: sign-in works again
      await setStatus(firstId, CustomerStatus.Online);
      expect((await signIn(firstLogin)).body.success).toBe(true);
      expect((await signIn(secondLogin)).body.success).toBe(true);
    });

    it('a second-level customer that exits ends only its own accounts', async () => {
      const a = (await signIn(firstLogin)).body.data.accessToken;
      const b = (await signIn(secondLogin)).body.data.accessToken;
      await setStatus(secondId, CustomerStatus.Exited);
      expect(await alive(b)).toBe(false);
      expect(await alive(a)).toBe(true);
      expect((await signIn(secondLogin)).body.errorCode).toBe(ErrorCode.CustomerExited);
      expect((await signIn(firstLogin)).body.success).toBe(true);
      await setStatus(secondId, CustomerStatus.Online);
    });

    it('session lookup in any process refuses an account of an exited customer, even with its session still open', async () => {
      const token = (await signIn(secondLogin)).body.data.accessToken;
      const [acc] = await t.database.sql.query<{ account_id: number }>('select account_id from accounts where login_name = $1', [secondLogin]);
      // another server process: its own cache, the same database; the state changed without revoking sessions
      const other = new SessionStore(t.deps.db, 1);
      expect(await other.lookup(hashToken(token))).not.toBeNull();
      await t.database.sql.query('update customers set status = $1 where cust_id = $2', [CustomerStatus.Exited, firstId]);
      try {
        expect(await new SessionStore(t.deps.db, 1).lookup(hashToken(token))).toBeNull();
        expect(await other.actorOf(acc.account_id)).toBeNull();
      } finally {
        await t.database.sql.query('update customers set status = $1 where cust_id = $2', [CustomerStatus.Online, firstId]);
      }
    });
  });
});
