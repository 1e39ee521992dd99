import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { loginBundles } from '../locales/bundles.ts';
import { startLogin, translator } from './boot.tsx';
import zhLogin from '../locales/zh/login.ts';

// the page starts loading the console at the first keystroke; the real one (antd, router, every text) would still be
// loading when the test ends and fail on a torn-down environment
const consoleLoaded = vi.hoisted(() => ({ count: 0 }));
vi.mock('../app/console.tsx', () => {
  consoleLoaded.count++;
  return { startConsole: vi.fn() };
});

describe('the light login page', () => {
  let sent: string[];
  beforeEach(() => {
    localStorage.clear();
    sent = [];
    document.body.innerHTML = '<div id="root"></div>';
    vi.stubGlobal('fetch', async (url: string) => {
      sent.push(url.split('?')[0]);
      const data = url.includes('captchaRequired') ? { required: false } : url.includes('getLogoByCustId') ? { logoUrl: null } : null;
      return new Response(JSON.stringify({ success: true, msg: 'ok', errorCode: null, data }), { status: 200 });
    });
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    document.body.innerHTML = '';
  });

  it('translates with the login texts alone: nested keys, values, a missing key shows itself', () => {
    const t = translator(zhLogin);
    expect(t('auth.title')).toBe('登录');
    expect(t('request.callLimit', { seconds: 30 })).toContain('30');
    expect(t('shell.logout')).toBe('shell.logout');
  });

  it('shows the form in the stored language without antd, and switches language in place', async () => {
    await act(() => startLogin('en', loginBundles.en()));
    expect(await screen.findByRole('heading', { name: 'Log in' })).toBeInTheDocument();
    expect(screen.getByLabelText('Login name')).toHaveAttribute('id', 'loginName');
    expect(document.querySelector('[class*="ant-"]')).toBeNull();
    await waitFor(() => expect(sent).toContain('/api/cmp/base/oauth/user/captchaRequired'));
    expect(sent).toContain('/api/cmp/core/account/account/getLogoByCustId');

    fireEvent.change(screen.getByLabelText('Login name'), { target: { value: 'alice' } });
    await waitFor(() => expect(consoleLoaded.count).toBe(1));
    fireEvent.click(screen.getByTestId('lang-toggle'));
    expect(await screen.findByRole('heading', { name: '登录' })).toBeInTheDocument();
    expect(localStorage.getItem('lx_language')).toBe('zh');
    expect(document.documentElement.lang).toBe('zh-CN');
    // what was typed stays
    expect(screen.getByLabelText('登录名')).toHaveValue('alice');
  });
});
