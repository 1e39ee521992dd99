import { StrictMode, useEffect, useMemo, useState } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { ErrorCode } from '@lynx/contract';
import { LANGUAGE_KEY, loginBundles, type Lang, type LoginTexts } from '../locales/bundles.ts';
import { LAST_LOGO_CUST } from '../stores/keys.ts';
import { AuthShell } from '../pages/AuthShell.tsx';
import { LoginForm, requestTexts, type Translate } from './LoginForm.tsx';
import { LOGIN_PATHS, post, type SignInData } from './api.ts';

/** i18next's `t` for the login texts alone: dotted keys, `{{name}}` values; a missing key shows itself. */
export function translator(texts: LoginTexts): Translate {
  return (key, vars) => {
    let v: unknown = texts;
    for (const part of key.split('.')) v = v && typeof v === 'object' ? (v as Record<string, unknown>)[part] : undefined;
    if (typeof v !== 'string') return key;
    return vars ? v.replace(/\{\{\s*(\w+)\s*\}\}/g, (m, name: string) => (name in vars ? String(vars[name]) : m)) : v;
  };
}

// the console (antd, router, request layer, every text) loads once the user starts typing, so it is in by the time
// the form is sent; signing in waits for it only when it is not
let consoleModule: ReturnType<typeof loadConsole> | null = null;
const loadConsole = () => import('../app/console.tsx');
const prefetchConsole = () => (consoleModule ??= loadConsole());

function LightLogin({ root, initial }: { root: Root; initial: { lang: Lang; texts: LoginTexts } }) {
  const [{ lang, texts }, setShown] = useState(initial);
  const t = useMemo(() => translator(texts), [texts]);
  const [logo, setLogo] = useState<string | null>(null);
  const [sessionExpired] = useState(() => new URLSearchParams(location.search).get('status') === String(ErrorCode.SessionInvalid));

  useEffect(() => {
    // whose logo this browser showed last (layout/useLogo.ts notes it once signed in), else the platform's
    const custId = Number(localStorage.getItem(LAST_LOGO_CUST)) || null;
    const ctl = new AbortController();
    post<{ logoUrl: string | null } | null>(LOGIN_PATHS.logo, { custId }, lang, requestTexts(t), { signal: ctl.signal })
      .then((d) => setLogo(d?.logoUrl ?? null))
      .catch(() => undefined);
    return () => ctl.abort();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const toggleLanguage = async () => {
    const next: Lang = lang === 'zh' ? 'en' : 'zh';
    const m = await loginBundles[next]();
    localStorage.setItem(LANGUAGE_KEY, next);
    document.documentElement.lang = next === 'zh' ? 'zh-CN' : 'en';
    setShown({ lang: next, texts: m.default });
  };

  const signedIn = async (data: SignInData) => {
    const m = await prefetchConsole();
    await m.startConsole({ signedIn: data, beforeRender: () => root.unmount() });
  };

  return (
    <AuthShell title={t('auth.title')} appName={t('common.appName')} langLabel={t('common.langSwitch')} logo={logo} onToggleLang={() => void toggleLanguage()}>
      <LoginForm t={t} lang={lang} sessionExpired={sessionExpired} onSignedIn={signedIn} onFirstInput={() => void prefetchConsole()} />
    </AuthShell>
  );
}

/** The light login page (app/main.tsx starts it on /login without a session): React, plain CSS and the login texts. */
export async function startLogin(lang: Lang, texts: Promise<{ default: LoginTexts }>): Promise<void> {
  const initial = { lang, texts: (await texts).default };
  document.documentElement.lang = lang === 'zh' ? 'zh-CN' : 'en';
  const root = createRoot(document.getElementById('root')!);
  root.render(
    <StrictMode>
      <LightLogin root={root} initial={initial} />
    </StrictMode>,
  );
}
