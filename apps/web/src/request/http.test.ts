import { describe, it, expect, beforeEach, vi } from 'vitest';
import type { AxiosAdapter, InternalAxiosRequestConfig } from 'axios';
import { account, auth } from '@lynx/contract';
import { call, http, LogicError, SESSION_EXPIRY_DELAY_MS } from './http.ts';
import { setFeedback, setNavigate } from './feedback.ts';
import { useSession } from '../stores/session.ts';
import { setLanguage } from '../locales/i18n.ts';

const shown: { kind: string; text: string }[] = [];
const navigations: string[] = [];
let seen: InternalAxiosRequestConfig[] = [];

function reply(status: number, data: unknown): AxiosAdapter {
  return async (config) => {
    seen.push(config);
    const res = { status, data, headers: {}, config, statusText: '' };
    if (status >= 400) {
      const err = Object.assign(new Error(`Request failed with status code ${status}`), { isAxiosError: true, response: res, config });
      throw err;
    }
    return res;
  };
}

beforeEach(async () => {
  shown.length = 0;
  navigations.length = 0;
  seen = [];
  await setLanguage('en');
  setFeedback({
    message: { error: (t: string) => shown.push({ kind: 'message', text: t }), warning: (t: string) => shown.push({ kind: 'warning', text: t }) },
    notification: { error: (o: { message: string; description: string }) => shown.push({ kind: 'notification', text: `${o.message}|${o.description}` }) },
    modal: {},
  } as never);
  setNavigate((to) => {
    navigations.push(to);
  });
  useSession.getState().signIn({ accessToken: 'tok-123456789012345678901', roleId: 3000, loginName: 'e', userName: 'E', channelCustId: 1, custId: 1, permissions: [1000000], mustResetPassword: false });
});

describe('request layer', () => {
  it('sends ts, lang and the token, and resolves with data', async () => {
    http.defaults.adapter = reply(200, { success: true, msg: 'ok', errorCode: null, data: { mustResetPassword: false } });
    await expect(call(auth.getIsResetPassword, {})).resolves.toEqual({ mustResetPassword: false });
    expect(seen[0].params.lang).toBe('en');
    expect(typeof seen[0].params.ts).toBe('number');
    expect(seen[0].headers.get('Authorization')).toBe('tok-123456789012345678901');
    expect(seen[0].headers.get('X-Requested-With')).toBe('XMLHttpRequest');
  });

  it('handles 20003 once when several calls fail together: clears the session after 300 ms and goes to login', async () => {
    vi.useFakeTimers();
    http.defaults.adapter = reply(200, { success: false, msg: 'expired', errorCode: 20003, data: null });
    const results = await Promise.all([call(auth.getIsResetPassword, {}), call(auth.getIsResetPassword, {}), call(account.getAccountListPage, {})]);
    expect(results).toEqual([null, null, null]);
    expect(shown.filter((s) => s.kind === 'warning')).toHaveLength(1);
    expect(useSession.getState().token).not.toBeNull();
    vi.advanceTimersByTime(SESSION_EXPIRY_DELAY_MS - 1);
    expect(useSession.getState().token).not.toBeNull();
    await vi.advanceTimersByTimeAsync(1);
    expect(useSession.getState().token).toBeNull();
    expect(useSession.getState().loginName).toBeNull();
    expect(navigations).toEqual(['/login?status=20003']);
    vi.useRealTimers();
  });

  it('20006 shows the retry time and rejects', async () => {
    http.defaults.adapter = reply(429, { success: false, msg: 'x', errorCode: 20006, data: { retryAfter: 30 } });
    await expect(call(auth.getIsResetPassword, {})).rejects.toBeInstanceOf(LogicError);
    expect(shown).toEqual([{ kind: 'message', text: 'API call limit exceeded, please retry after 30 seconds' }]);
  });

  it.each([
    ['en', 'Your session has expired, please log in again'],
    ['zh', '登录已失效，请重新登录'],
  ] as const)('401 during a form save says the session expired (once), then goes to login (%s)', async (lang, text) => {
    await setLanguage(lang);
    http.defaults.adapter = reply(401, null);
    const saves = await Promise.all([
      call(account.saveAccount, {} as never).catch((e) => e),
      call(account.getAccountListPage, {}).catch((e) => e),
    ]);
    for (const e of saves) expect(e).toMatchObject({ message: 'unauthorized' });
    await Promise.resolve();
    await Promise.resolve();
    expect(shown).toEqual([{ kind: 'warning', text }]);
    expect(navigations).toEqual(['/login']);
    expect(useSession.getState().token).toBeNull();
  });

  it.each([
    ['en', 'Field name: must not be empty'],
    ['zh', '字段 name：不能为空'],
  ] as const)('a refusal carrying only message (no msg) shows that message (%s)', async (lang, text) => {
    await setLanguage(lang);
    http.defaults.adapter = reply(200, { success: false, message: text, errorCode: 20004, data: null });
    const err = await call(account.saveAccount, {} as never).catch((e) => e);
    expect(err).toMatchObject({ message: text, errorCode: 20004, type: 'logic error' });
    expect(shown).toEqual([{ kind: 'message', text }]);
    // an HTTP error body with only message: the status text and that message
    http.defaults.adapter = reply(400, { success: false, message: text, errorCode: 20004 });
    await call(account.saveAccount, {} as never).catch(() => null);
    expect(shown[1].text).toContain(text);
  });

  it('a refusal rejects with msg, errorCode and type "logic error", shown unless silent', async () => {
    http.defaults.adapter = reply(200, { success: false, msg: 'Wrong login name or password', errorCode: 20010, data: { captchaRequired: true } });
    const err = await call(auth.login, { loginName: 'a', password: 'b' }).catch((e) => e);
    expect(err).toBeInstanceOf(LogicError);
    expect(err).toMatchObject({ message: 'Wrong login name or password', errorCode: 20010, type: 'logic error', data: { captchaRequired: true } });
    expect(shown).toHaveLength(1);
    await call(auth.login, { loginName: 'a', password: 'b' }, { silent: true }).catch(() => null);
    expect(shown).toHaveLength(1);
  });

  it('20048 marks the session as needing a password change and goes to the change-password screen', async () => {
    http.defaults.adapter = reply(200, { success: false, msg: 'Change your password first', errorCode: 20048, data: null });
    const err = await call(account.getCustomerListPage, {}).catch((e) => e);
    expect(err).toBeInstanceOf(LogicError);
    expect(err).toMatchObject({ errorCode: 20048, message: 'Change your password first' });
    await Promise.resolve();
    expect(useSession.getState().mustResetPassword).toBe(true);
    expect(useSession.getState().token).toBe('tok-123456789012345678901');
    expect(navigations).toEqual(['/login?reset=1']);
    expect(shown).toEqual([{ kind: 'warning', text: 'Change your password first' }]);
  });

  it('HTTP 500 → notification titled request error with the status text, in the stored language', async () => {
    await setLanguage('zh');
    http.defaults.adapter = reply(500, { success: false, msg: '', errorCode: 20500 });
    await expect(call(auth.getIsResetPassword, {})).rejects.toThrow();
    expect(shown).toEqual([{ kind: 'notification', text: '请求错误 500|服务器发生错误，请检查服务器。' }]);
  });

  it('a timeout is reported as such', async () => {
    http.defaults.adapter = async (config) => {
      throw Object.assign(new Error('timeout of 60000ms exceeded'), { isAxiosError: true, code: 'ECONNABORTED', config });
    };
    const err = await call(auth.getIsResetPassword, {}).catch((e) => e);
    expect(err.type).toBe('timeout');
    expect(shown[0].text).toBe('Request error|Request timed out');
  });
});
