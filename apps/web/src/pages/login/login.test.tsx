import { describe, it, expect, beforeEach, afterEach, vi } from 'vitest';
import { render, screen, fireEvent, waitFor } from '@testing-library/react';
import { App as AntApp } from 'antd';
import { MemoryRouter, Route, Routes } from 'react-router';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { ErrorCode, account, auth, pathOf } from '@lynx/contract';
import { setLanguage } from '../../locales/i18n.ts';
import { useSession } from '../../stores/session.ts';
import { LOGIN_PATHS } from '../../login/api.ts';
import LoginPage from './index.tsx';

type Sent = { path: string; body: Record<string, unknown> }[];
type Answer = { success: boolean; errorCode?: number; msg?: string; data: unknown };

/**
 * A fake server behind fetch (the login form calls the API with fetch, login/api.ts): captchaRequired answers
 * `requiredFor(name)`, captcha hands out numbered images, login answers `loginAnswer`.
 */
function serve(sent: Sent, opts: { requiredFor?: (name: string) => boolean; loginAnswer?: Answer } = {}) {
  let n = 0;
  vi.stubGlobal('fetch', async (url: string, init: RequestInit = {}) => {
    const path = url.split('?')[0];
    const body = typeof init.body === 'string' ? JSON.parse(init.body || '{}') : {};
    sent.push({ path, body });
    let answer: Answer = { success: true, data: null };
    if (path === pathOf(auth.captchaRequired)) answer = { success: true, data: { required: opts.requiredFor?.(String(body.loginName)) ?? false } };
    else if (path === pathOf(auth.captcha)) {
      n += 1;
      answer = { success: true, data: { captchaKey: `key-${n}`, image: `<svg xmlns="http://www.w3.org/2000/svg"><text>img-${n}</text></svg>`, required: false } };
    } else if (path === pathOf(auth.login)) answer = opts.loginAnswer ?? { success: true, data: null };
    return new Response(JSON.stringify({ msg: 'ok', errorCode: null, ...answer }), { status: 200, headers: { 'content-type': 'application/json' } });
  });
}
afterEach(() => {
  vi.unstubAllGlobals();
});
const calls = (sent: Sent, e: { name: string }) => sent.filter((s) => s.path === pathOf(e as never));

const renderLogin = () =>
  render(
    <AntApp>
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <MemoryRouter initialEntries={['/login']}>
          <Routes>
            <Route path="/login" element={<LoginPage />} />
            <Route path="/" element={<div>home</div>} />
          </Routes>
        </MemoryRouter>
      </QueryClientProvider>
    </AntApp>,
  );

const loginFailed: Answer = { success: false, errorCode: ErrorCode.LoginFailed, msg: 'Wrong login name or password', data: { captchaRequired: true } };

describe('login page captcha', () => {
  beforeEach(async () => {
    useSession.getState().clear();
    await setLanguage('en');
  });

  it('fetches no captcha on first render when none is required (only the small captchaRequired check)', async () => {
    const sent: Sent = [];
    serve(sent);
    renderLogin();
    await waitFor(() => expect(calls(sent, auth.captchaRequired)).toHaveLength(1));
    expect(calls(sent, auth.captchaRequired)[0].body).toEqual({ loginName: '' });
    // give a captcha fetch, were there one, the time to happen
    await new Promise((r) => setTimeout(r, 50));
    expect(calls(sent, auth.captcha)).toHaveLength(0);
    expect(screen.queryByText('Captcha')).toBeNull();
    expect(document.querySelector('.lx-captcha')).toBeNull();
  });

  it('shows the captcha from the start when the server requires one for every login', async () => {
    const sent: Sent = [];
    serve(sent, { requiredFor: () => true });
    renderLogin();
    await waitFor(() => expect(document.querySelector('.lx-captcha')).not.toBeNull());
    expect(document.querySelector('.lx-captcha')!.innerHTML).toContain('img-1');
    expect(calls(sent, auth.captcha)).toHaveLength(1);
  });

  it('shows the captcha after a failure answer that requires it, and sends it with the next login', async () => {
    const sent: Sent = [];
    serve(sent, { loginAnswer: loginFailed });
    renderLogin();
    await waitFor(() => expect(calls(sent, auth.captchaRequired)).toHaveLength(1));
    fireEvent.change(document.querySelector('#loginName')!, { target: { value: 'alice' } });
    fireEvent.change(document.querySelector('#password')!, { target: { value: 'wrong' } });
    fireEvent.click(screen.getByRole('button', { name: /log in|sign in/i }));
    expect(await screen.findByTestId('login-error')).toHaveTextContent('Wrong login name or password');
    await waitFor(() => expect(document.querySelector('.lx-captcha')).not.toBeNull());
    expect(calls(sent, auth.captcha)).toHaveLength(1);

    fireEvent.change(document.querySelector('#captchaCode')!, { target: { value: 'ab12' } });
    fireEvent.click(screen.getByRole('button', { name: /log in|sign in/i }));
    await waitFor(() => expect(calls(sent, auth.login)).toHaveLength(2));
    expect(calls(sent, auth.login)[1].body).toMatchObject({ loginName: 'alice', captchaKey: 'key-1', captchaCode: 'ab12' });
  });

  it('fetches no captcha after a failure that does not require one', async () => {
    const sent: Sent = [];
    serve(sent, { loginAnswer: { ...loginFailed, data: { captchaRequired: false } } });
    renderLogin();
    fireEvent.change(document.querySelector('#loginName')!, { target: { value: 'alice' } });
    fireEvent.change(document.querySelector('#password')!, { target: { value: 'wrong' } });
    fireEvent.click(screen.getByRole('button', { name: /log in|sign in/i }));
    await screen.findByTestId('login-error');
    await new Promise((r) => setTimeout(r, 50));
    expect(calls(sent, auth.captcha)).toHaveLength(0);
    expect(document.querySelector('.lx-captcha')).toBeNull();
  });

  it('gets a new captcha when the image is clicked', async () => {
    const sent: Sent = [];
    serve(sent, { requiredFor: () => true });
    renderLogin();
    await waitFor(() => expect(document.querySelector('.lx-captcha')?.innerHTML).toContain('img-1'));
    fireEvent.change(document.querySelector('#captchaCode')!, { target: { value: 'old' } });
    fireEvent.click(document.querySelector('.lx-captcha')!);
    await waitFor(() => expect(document.querySelector('.lx-captcha')?.innerHTML).toContain('img-2'));
    expect(calls(sent, auth.captcha)).toHaveLength(2);
    expect((document.querySelector('#captchaCode') as HTMLInputElement).value).toBe('');
  });

  it('asks once per login name, when it is left, and shows the captcha if that name needs one', async () => {
    const sent: Sent = [];
    serve(sent, { requiredFor: (name) => name === 'locked.user' });
    renderLogin();
    await waitFor(() => expect(calls(sent, auth.captchaRequired)).toHaveLength(1));
    const name = document.querySelector('#loginName')!;
    fireEvent.change(name, { target: { value: 'bob' } });
    fireEvent.blur(name);
    await waitFor(() => expect(calls(sent, auth.captchaRequired)).toHaveLength(2));
    fireEvent.blur(name); // same name: not asked again
    await new Promise((r) => setTimeout(r, 50));
    expect(calls(sent, auth.captchaRequired)).toHaveLength(2);
    expect(calls(sent, auth.captcha)).toHaveLength(0);

    fireEvent.change(name, { target: { value: ' locked.user ' } });
    fireEvent.blur(name);
    await waitFor(() => expect(document.querySelector('.lx-captcha')).not.toBeNull());
    expect(calls(sent, auth.captchaRequired).map((c) => c.body.loginName)).toEqual(['', 'bob', 'locked.user']);
    expect(calls(sent, auth.captcha)).toHaveLength(1);
  });
});

describe('login page requests', () => {
  beforeEach(async () => {
    useSession.getState().clear();
    await setLanguage('en');
  });

  it('calls the contract\'s paths', () => {
    expect(LOGIN_PATHS).toEqual({
      login: pathOf(auth.login),
      captcha: pathOf(auth.captcha),
      captchaRequired: pathOf(auth.captchaRequired),
      logo: pathOf(account.getLogoByCustId),
    });
  });

  it('says which fields are missing, in the user\'s language, and sends nothing', async () => {
    const sent: Sent = [];
    serve(sent);
    renderLogin();
    fireEvent.click(screen.getByRole('button', { name: /log in|sign in/i }));
    expect(await screen.findAllByText('Please select or enter')).toHaveLength(2);
    fireEvent.change(document.querySelector('#loginName')!, { target: { value: 'alice' } });
    await waitFor(() => expect(screen.getAllByText('Please select or enter')).toHaveLength(1));
    expect(calls(sent, auth.login)).toHaveLength(0);
  });

  it('signs in: the session is stored and the console opens', async () => {
    const sent: Sent = [];
    serve(sent, { loginAnswer: { success: true, data: { accessToken: 'tok', roleId: 1000, loginName: 'admin', userName: 'Admin', channelCustId: null, custId: null, permissions: [1], mustResetPassword: false } } });
    renderLogin();
    fireEvent.change(document.querySelector('#loginName')!, { target: { value: ' admin ' } });
    fireEvent.change(document.querySelector('#password')!, { target: { value: 'pw' } });
    fireEvent.click(screen.getByRole('button', { name: /log in|sign in/i }));
    await screen.findByText('home');
    expect(calls(sent, auth.login)[0].body).toEqual({ loginName: 'admin', password: 'pw' });
    expect(sent.find((s) => s.path === pathOf(auth.login))).toBeTruthy();
    expect(useSession.getState().token).toBe('tok');
  });

  it('shows a network failure in the user\'s language', async () => {
    vi.stubGlobal('fetch', async () => {
      throw new TypeError('Failed to fetch');
    });
    renderLogin();
    fireEvent.change(document.querySelector('#loginName')!, { target: { value: 'alice' } });
    fireEvent.change(document.querySelector('#password')!, { target: { value: 'pw' } });
    fireEvent.click(screen.getByRole('button', { name: /log in|sign in/i }));
    expect(await screen.findByTestId('login-error')).toHaveTextContent('Network fault');
  });
});
