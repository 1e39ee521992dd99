import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { ErrorCode, RoleType } from '@lynx/contract';
import { backends, startTestApp, DEMO_PASSWORD, type TestApp } from './harness.ts';

describe.each(backends)('auth on %s', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(backend, {}, { jobs: false });
  });
  afterAll(() => t?.stop());

  it('logs in and returns the session shape of the contract', async () => {
    const r = await t.call('base/oauth/user/login', { loginName: 'enterprise', password: DEMO_PASSWORD }, { lang: 'zh' });
    expect(r.status).toBe(200);
    expect(r.body.success).toBe(true);
    expect(r.body.msg).toBe('操作成功');
    const d = r.body.data;
    expect(d.accessToken).toMatch(/^[\w-]{40,}$/);
    expect(d.roleId).toBe(RoleType.Enterprise);
    expect(d.loginName).toBe('enterprise');
    expect(typeof d.custId).toBe('number');
    expect(d.channelCustId).toBe(d.custId);
    expect(d.permissions).toContain(1000000);
    expect(d.permissions).not.toContain(14020000);
    expect(d.mustResetPassword).toBe(false);
  });

  it('refuses a wrong password with a bilingual message and counts the failure', async () => {
    const zh = await t.call('base/oauth/user/login', { loginName: 'manager', password: 'Wrong#pass1' }, { lang: 'zh' });
    expect(zh.body).toMatchObject({ success: false, errorCode: ErrorCode.LoginFailed, msg: '登录名或密码错误' });
    const en = await t.call('base/oauth/user/login', { loginName: 'nobody-here', password: 'Wrong#pass1' });
    expect(en.body).toMatchObject({ success: false, errorCode: ErrorCode.LoginFailed, msg: 'Wrong login name or password' });
  });

  it('asks for a captcha after 3 failures and accepts the right one', async () => {
    const name = 'channel';
    for (let i = 0; i < 3; i++) await t.call('base/oauth/user/login', { loginName: name, password: 'Bad#pass11' });
    const need = await t.call('base/oauth/user/captchaRequired', { loginName: name });
    expect(need.body.data.required).toBe(true);
    const noCaptcha = await t.call('base/oauth/user/login', { loginName: name, password: DEMO_PASSWORD });
    expect(noCaptcha.body.errorCode).toBe(ErrorCode.CaptchaRequired);

    const img = await t.app.inject({ method: 'GET', url: '/api/cmp/base/oauth/user/captcha?ts=1&lang=en' });
    const cap = img.json().data;
    expect(cap.image).toContain('<svg');
    const wrong = await t.call('base/oauth/user/login', { loginName: name, password: DEMO_PASSWORD, captchaKey: cap.captchaKey, captchaCode: 'zzzz' });
    expect(wrong.body.errorCode).toBe(ErrorCode.CaptchaWrong);

    // the code is only in the image; store a captcha with a known code the way the server does
    const { captchas } = await import('../src/modules/auth/tables.ts');
    const crypto = await import('node:crypto');
    const img2 = { captchaKey: crypto.randomUUID() };
    const code = 'k7wp';
    await t.deps.db.insert(captchas).values({ captchaKey: img2.captchaKey, codeHash: crypto.createHash('sha256').update(code).digest('hex'), expiresAt: new Date(Date.now() + 60_000) });
    const ok = await t.call('base/oauth/user/login', { loginName: name, password: DEMO_PASSWORD, captchaKey: img2.captchaKey, captchaCode: code.toUpperCase() });
    expect(ok.body.success).toBe(true);
    // a success gives back only its own attempt: the three failures still ask for a captcha (decisions.md)
    expect((await t.call('base/oauth/user/captchaRequired', { loginName: name })).body.data.required).toBe(true);
  });

  it('locks the login name for 15 minutes after 10 failures, even for the right password', async () => {
    const t2 = await startTestApp(backend, { captchaMode: 'off' }, { jobs: false });
    try {
      let last;
      for (let i = 0; i < 10; i++) last = await t2.call('base/oauth/user/login', { loginName: 'subcustomer', password: 'Bad#pass11' });
      expect(last!.body.errorCode).toBe(ErrorCode.AccountLocked);
      const right = await t2.call('base/oauth/user/login', { loginName: 'subcustomer', password: DEMO_PASSWORD }, { lang: 'zh' });
      expect(right.body.errorCode).toBe(ErrorCode.AccountLocked);
      expect(right.body.msg).toMatch(/已锁定.*15 分钟/);
      expect(new Date(right.body.data.lockedUntil).getTime()).toBeGreaterThan(Date.now() + 14 * 60_000);
      // other login names are not affected
      expect((await t2.call('base/oauth/user/login', { loginName: 'admin', password: DEMO_PASSWORD })).body.success).toBe(true);
    } finally {
      await t2.stop();
    }
  });

  it('always asks for a captcha when CMP_LOGIN_CAPTCHA=always', async () => {
    const t2 = await startTestApp(backend, { captchaMode: 'always' }, { jobs: false });
    try {
      const r = await t2.call('base/oauth/user/login', { loginName: 'admin', password: DEMO_PASSWORD });
      expect(r.body.errorCode).toBe(ErrorCode.CaptchaRequired);
    } finally {
      await t2.stop();
    }
  });

  it('kills the token on logout: the next call answers 20003', async () => {
    const token = await t.login('manager');
    const before = await t.call('core/account/account/getIsResetPassword', {}, { token });
    expect(before.body.success).toBe(true);
    const out = await t.call('base/oauth/user/logout', {}, { token });
    expect(out.body.success).toBe(true);
    const after = await t.call('core/account/account/getIsResetPassword', {}, { token });
    expect(after.status).toBe(200);
    expect(after.body).toMatchObject({ success: false, errorCode: ErrorCode.SessionInvalid });
  });

  it('answers 20003 without a token or with a made-up one', async () => {
    expect((await t.call('core/account/account/getAccountListPage', {})).body.errorCode).toBe(ErrorCode.SessionInvalid);
    expect((await t.call('core/account/account/getAccountListPage', {}, { token: 'x'.repeat(43) })).body.errorCode).toBe(ErrorCode.SessionInvalid);
  });

  it('changes the own password: old one checked, rules enforced, other sessions end', async () => {
    const a = await t.login('admin');
    const b = await t.login('admin');
    const weak = await t.call('base/oauth/user/resetPassword', { oldPassword: DEMO_PASSWORD, newPassword: 'short', confirmPassword: 'short' }, { token: a, lang: 'zh' });
    expect(weak.body.success).toBe(false);
    expect(weak.body.msg).toContain('newPassword');
    const mismatch = await t.call('base/oauth/user/resetPassword', { oldPassword: DEMO_PASSWORD, newPassword: 'Good#pass123', confirmPassword: 'Good#pass124' }, { token: a });
    expect(mismatch.body.msg).toMatch(/do not match/);
    const wrongOld = await t.call('base/oauth/user/resetPassword', { oldPassword: 'Nope#pass123', newPassword: 'Good#pass123', confirmPassword: 'Good#pass123' }, { token: a });
    expect(wrongOld.body.errorCode).toBe(ErrorCode.OldPasswordWrong);
    const ok = await t.call('base/oauth/user/resetPassword', { oldPassword: DEMO_PASSWORD, newPassword: 'Good#pass123', confirmPassword: 'Good#pass123' }, { token: a });
    expect(ok.body.success).toBe(true);
    expect((await t.call('core/account/account/getIsResetPassword', {}, { token: a })).body.success).toBe(true);
    expect((await t.call('core/account/account/getIsResetPassword', {}, { token: b })).body.errorCode).toBe(ErrorCode.SessionInvalid);
    expect((await t.call('base/oauth/user/login', { loginName: 'admin', password: 'Good#pass123' })).body.success).toBe(true);
    // put it back for the other tests
    await t.call('base/oauth/user/resetPassword', { oldPassword: 'Good#pass123', newPassword: DEMO_PASSWORD, confirmPassword: DEMO_PASSWORD }, { token: a });
  });

  it('registers a pending enterprise customer that staff approve into a customer and an account', async () => {
    const body = {
      loginName: 'newco', password: 'Newco#2026x', confirmPassword: 'Newco#2026x', custName: '新能源物联有限公司',
      adminName: '刘洋', adminPhone: '13812345678', adminEmail: 'liu@newco.example.com',
    };
    const bad = await t.call('base/oauth/user/register', { ...body, adminPhone: '123' }, { lang: 'zh' });
    expect(bad.body.success).toBe(false);
    expect(bad.body.msg).toContain('adminPhone');
    const r = await t.call('base/oauth/user/register', body);
    expect(r.body.success).toBe(true);
    const dup = await t.call('base/oauth/user/register', { ...body, custName: '另一家公司' });
    expect(dup.body.errorCode).toBe(ErrorCode.LoginNameTaken);
    // cannot log in before approval
    expect((await t.call('base/oauth/user/login', { loginName: 'newco', password: 'Newco#2026x' })).body.success).toBe(false);

    const enterprise = await t.login('enterprise');
    const refused = await t.call('core/account/customer/auditRegisterApply', { applyId: r.body.data.applyId, pass: true }, { token: enterprise });
    expect(refused.body.errorCode).toBe(ErrorCode.PermissionDenied);

    const admin = await t.login('admin');
    const list = await t.call('core/account/customer/getRegisterApplyListPage', { auditStatus: 0 }, { token: admin });
    expect(list.body.data.list.map((x: any) => x.loginName)).toContain('newco');
    expect(JSON.stringify(list.body.data)).not.toMatch(/argon2|passwordHash/);
    const ok = await t.call('core/account/customer/auditRegisterApply', { applyId: r.body.data.applyId, pass: true }, { token: admin });
    expect(ok.body.success).toBe(true);
    const again = await t.call('core/account/customer/auditRegisterApply', { applyId: r.body.data.applyId, pass: false, reason: 'x' }, { token: admin });
    expect(again.body.errorCode).toBe(ErrorCode.RegistrationHandled);
    const login = await t.call('base/oauth/user/login', { loginName: 'newco', password: 'Newco#2026x' });
    expect(login.body.data).toMatchObject({ roleId: RoleType.Enterprise, custId: ok.body.data.custId });
  });

  it('rejecting a registration needs a reason', async () => {
    const r = await t.call('base/oauth/user/register', {
      loginName: 'rejectme', password: 'Reject#2026x', confirmPassword: 'Reject#2026x', custName: '待驳回公司',
      adminName: '吴', adminPhone: '13812345679', adminEmail: 'w@x.example.com',
    });
    const admin = await t.login('admin');
    const noReason = await t.call('core/account/customer/auditRegisterApply', { applyId: r.body.data.applyId, pass: false }, { token: admin });
    expect(noReason.body.success).toBe(false);
    const ok = await t.call('core/account/customer/auditRegisterApply', { applyId: r.body.data.applyId, pass: false, reason: '资料不全' }, { token: admin });
    expect(ok.body).toMatchObject({ success: true, data: { custId: null } });
  });
});
