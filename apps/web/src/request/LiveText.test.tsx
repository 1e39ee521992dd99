import { useEffect } from 'react';
import { describe, it, expect } from 'vitest';
import { render, screen, act } from '@testing-library/react';
import { App as AntApp } from 'antd';
import { ready, setLanguage } from '../locales/i18n.ts';
import { LiveText } from './LiveText.tsx';

function SignedIn() {
  const { message } = AntApp.useApp();
  useEffect(() => {
    message.success({ content: <LiveText k="auth.loginSuccess" />, duration: 0 });
  }, [message]);
  return null;
}

describe('a notice built from a text key', () => {
  it('changes language with the console while it shows', async () => {
    await ready;
    await act(() => setLanguage('zh'));
    render(
      <AntApp>
        <SignedIn />
      </AntApp>,
    );
    expect(await screen.findByText('登录成功')).toBeInTheDocument();
    await act(() => setLanguage('en'));
    expect(await screen.findByText('Login success')).toBeInTheDocument();
    expect(screen.queryByText('登录成功')).toBeNull();
  });
});
