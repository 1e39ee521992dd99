import { describe, it, expect, beforeAll } from 'vitest';
import i18n, { ensureLanguage } from '../locales/i18n.ts';

beforeAll(async () => {
  await ensureLanguage('zh');
  await ensureLanguage('en');
});
import { classify, type Texts } from './errors.ts';

const textsIn = (lang: 'zh' | 'en'): Texts => {
  const t = i18n.getFixedT(lang);
  return {
    requestError: t('request.requestError'),
    networkFault: t('request.networkFault'),
    timeout: t('request.timeout'),
    sessionExpired: t('shell.sessionExpired'),
    callLimit: (seconds) => t('request.callLimit', { seconds }),
    status: (s) => (i18n.exists(`request.status.${s}`, { lng: lang }) ? t(`request.status.${s}`) : undefined),
  };
};

const STATUS = [200, 201, 202, 204, 400, 401, 403, 404, 406, 410, 422, 500, 502, 503, 504];

describe('request error layer (spec §8)', () => {
  it.each(['zh', 'en'] as const)('has a status text for every listed HTTP status in %s', (lang) => {
    const t = textsIn(lang);
    for (const s of STATUS) expect(t.status(s), `${lang} ${s}`).toBeTruthy();
    expect(t.status(418)).toBeUndefined();
  });

  it.each([400, 403, 404, 406, 410, 422, 500, 502, 503, 504])('HTTP %i → a "request error" notification with the status text', (status) => {
    for (const lang of ['zh', 'en'] as const) {
      const t = textsIn(lang);
      const o = classify({ status, body: null }, t);
      expect(o).toEqual({ kind: 'notify', title: `${t.requestError} ${status}`, text: t.status(status), type: 'http error' });
    }
    expect(classify({ status: 500 }, textsIn('zh'))).toMatchObject({ title: '请求错误 500', text: '服务器发生错误，请检查服务器。' });
    expect(classify({ status: 404 }, textsIn('en'))).toMatchObject({ title: 'Request error 404' });
  });

  it('adds the body message to the status text', () => {
    const o = classify({ status: 400, body: { success: false, msg: 'Field pageSize: must not be greater than 500', errorCode: 20004 } }, textsIn('en'));
    expect(o).toMatchObject({ kind: 'notify', text: expect.stringContaining('Field pageSize') });
  });

  it('20003 means session invalid, whatever the HTTP status', () => {
    expect(classify({ status: 200, body: { success: false, errorCode: 20003, msg: 'x' } }, textsIn('zh'))).toEqual({ kind: 'session' });
  });

  it('HTTP 401 goes to login with the session message, not a "request error" notification', () => {
    expect(classify({ status: 401, body: null }, textsIn('zh'))).toEqual({ kind: 'login', text: '登录已失效，请重新登录' });
    expect(classify({ status: 401, body: { success: false, msg: 'x' } }, textsIn('en'))).toEqual({ kind: 'login', text: 'Your session has expired, please log in again' });
  });

  it('20006 tells when to retry, in both languages', () => {
    const body = { success: false, errorCode: 20006, msg: 'x', data: { retryAfter: 42 } };
    expect(classify({ status: 429, body }, textsIn('zh'))).toEqual({ kind: 'limit', text: '接口调用次数超过限制，请在 42 秒后重试' });
    expect(classify({ status: 429, body }, textsIn('en'))).toEqual({ kind: 'limit', text: 'API call limit exceeded, please retry after 42 seconds' });
  });

  it('a refusal with success false shows the server message', () => {
    expect(classify({ status: 200, body: { success: false, errorCode: 20010, msg: '登录名或密码错误' } }, textsIn('zh'))).toEqual({
      kind: 'logic', text: '登录名或密码错误', errorCode: 20010,
    });
  });

  it('a refusal that carries only message (no msg) shows that message, in either language', () => {
    expect(classify({ status: 200, body: { success: false, errorCode: 20004, message: '字段 name：不能为空' } }, textsIn('zh'))).toEqual({
      kind: 'logic', text: '字段 name：不能为空', errorCode: 20004,
    });
    expect(classify({ body: { success: false, errorCode: null, message: 'Field name: must not be empty' } }, textsIn('en'))).toEqual({
      kind: 'logic', text: 'Field name: must not be empty', errorCode: null,
    });
    // msg wins when both are there; neither: network fault
    expect(classify({ status: 200, body: { success: false, msg: 'a', message: 'b' } }, textsIn('en'))).toMatchObject({ text: 'a' });
    expect(classify({ status: 200, body: { success: false } }, textsIn('zh'))).toMatchObject({ kind: 'logic', text: '网络故障' });
    expect(classify({ status: 200, body: { success: false, errorCode: 20048, message: 'Change your password first' } }, textsIn('en'))).toEqual({
      kind: 'passwordChange', text: 'Change your password first',
    });
  });

  it('20048 sends the user to the forced password change, with the server message in its language', () => {
    expect(classify({ status: 200, body: { success: false, errorCode: 20048, msg: '请先修改密码' } }, textsIn('zh'))).toEqual({
      kind: 'passwordChange', text: '请先修改密码',
    });
    expect(classify({ status: 200, body: { success: false, errorCode: 20048, msg: 'Change your password first' } }, textsIn('en'))).toEqual({
      kind: 'passwordChange', text: 'Change your password first',
    });
  });

  it('no HTTP status: timeout, network fault, or the message', () => {
    expect(classify({ message: 'timeout of 60000ms exceeded', code: 'ECONNABORTED' }, textsIn('zh'))).toMatchObject({ kind: 'notify', type: 'timeout', text: '请求超时' });
    expect(classify({ message: 'Network Error', code: 'ERR_NETWORK' }, textsIn('en'))).toMatchObject({ kind: 'notify', type: 'network error', text: 'ERR_NETWORK' });
    expect(classify({}, textsIn('zh'))).toMatchObject({ kind: 'notify', text: '网络故障', type: 'network error' });
    expect(classify({ message: 'socket hang up' }, textsIn('en'))).toMatchObject({ text: 'socket hang up' });
  });
});
