import { useEffect, useRef, useState, type FocusEvent, type FormEvent, type MouseEvent, type ReactNode } from 'react';
import CloseCircleFilled from '@ant-design/icons-svg/es/asn/CloseCircleFilled';
import ExclamationCircleFilled from '@ant-design/icons-svg/es/asn/ExclamationCircleFilled';
import EyeInvisibleOutlined from '@ant-design/icons-svg/es/asn/EyeInvisibleOutlined';
import EyeOutlined from '@ant-design/icons-svg/es/asn/EyeOutlined';
import LoadingOutlined from '@ant-design/icons-svg/es/asn/LoadingOutlined';
import LockOutlined from '@ant-design/icons-svg/es/asn/LockOutlined';
import SafetyOutlined from '@ant-design/icons-svg/es/asn/SafetyOutlined';
import UserOutlined from '@ant-design/icons-svg/es/asn/UserOutlined';
import type { IconDefinition } from '@ant-design/icons-svg/es/types';
import { ErrorCode } from '@lynx/contract';
import type { Texts } from '../request/errors.ts';
import type { Lang } from '../locales/bundles.ts';
import { CallError, LOGIN_PATHS, post, type SignInData } from './api.ts';
import { Icon } from './Icon.tsx';
import './login.css';

/** antd's buttons space out a label of two Chinese characters (登 录); this one looks the same. */
const twoHan = (s: string) => (/^[\u4e00-\u9fa5]{2}$/.test(s) ? `${s[0]} ${s[1]}` : s);

export type Translate = (key: string, vars?: Record<string, string | number>) => string;

interface Captcha {
  captchaKey: string;
  image: string;
}
type Field = 'loginName' | 'password' | 'captchaCode';

export function requestTexts(t: Translate): Texts {
  return {
    requestError: t('request.requestError'),
    networkFault: t('request.networkFault'),
    timeout: t('request.timeout'),
    sessionExpired: t('auth.sessionExpired'),
    callLimit: (seconds) => t('request.callLimit', { seconds }),
    status: (status) => {
      const key = `request.status.${status}`;
      const text = t(key);
      return text && text !== key ? text : undefined;
    },
  };
}

export function Alert({ type, children, testId }: { type: 'error' | 'warning'; children: ReactNode; testId?: string }) {
  return (
    <div role="alert" className={`lx-alert lx-alert-${type}`} data-testid={testId}>
      <Icon def={type === 'error' ? CloseCircleFilled : ExclamationCircleFilled} className="lx-alert-icon" />
      <div className="lx-alert-message">{children}</div>
    </div>
  );
}

function TextField(props: {
  id: Field; label: string; icon: IconDefinition; value: string; error: string | null; type?: 'password'; maxLength?: number;
  autoComplete: string; autoFocus?: boolean; onChange: (v: string) => void; onBlur?: (e: FocusEvent<HTMLInputElement>) => void;
  after?: ReactNode; hideLabel?: boolean;
}) {
  const [shown, setShown] = useState(false);
  const input = (
    <span className={`lx-input${props.error ? ' lx-input-error' : ''}${props.after ? ' lx-input-compact' : ''}`}>
      <span className="lx-input-prefix"><Icon def={props.icon} /></span>
      <input id={props.id} className="lx-input-el" type={props.type === 'password' && !shown ? 'password' : 'text'} value={props.value}
        maxLength={props.maxLength} autoComplete={props.autoComplete} autoFocus={props.autoFocus} aria-required="true"
        aria-invalid={props.error ? true : undefined} onChange={(e) => props.onChange(e.target.value)} onBlur={props.onBlur} />
      {props.type === 'password' && (
        <span className="lx-input-suffix" role="button" tabIndex={-1} onMouseDown={(e) => e.preventDefault()} onClick={() => setShown((s) => !s)}>
          <Icon def={shown ? EyeOutlined : EyeInvisibleOutlined} />
        </span>
      )}
    </span>
  );
  return (
    <div className={`lx-field${props.error ? ' lx-field-has-error' : ''}`}>
      <label htmlFor={props.id} className="lx-label">{props.label}</label>
      {props.after ? <div className="lx-compact">{input}{props.after}</div> : input}
      {props.error && <div className="lx-field-error" role="alert">{props.error}</div>}
    </div>
  );
}

/**
 * The sign-in form of /login (spec §4): login name and password, a captcha when the server asks for one, errors of
 * the answer's envelope in the user's language. React and plain CSS only, so the login page does not load antd or
 * the console's request layer; the console (pages/login/index.tsx) and the light login page (login/boot.tsx) both
 * show it and decide what happens once signed in.
 */
export function LoginForm(props: {
  t: Translate;
  lang: Lang;
  /** the session ended (?status=20003): say so until a new error is shown */
  sessionExpired: boolean;
  onSignedIn: (data: SignInData) => Promise<void> | void;
  /** the register link (the console navigates in place; the light page lets the browser load /register) */
  onRegister?: (e: MouseEvent<HTMLAnchorElement>) => void;
  /** the user started typing: a good time to fetch what comes after the login */
  onFirstInput?: () => void;
}) {
  const { t, lang } = props;
  const texts = requestTexts(t);
  const [values, setValues] = useState<Record<Field, string>>({ loginName: '', password: '', captchaCode: '' });
  const [invalid, setInvalid] = useState<Partial<Record<Field, boolean>>>({});
  const [busy, setBusy] = useState(false);
  const [captcha, setCaptcha] = useState<Captcha | null>(null);
  const [error, setError] = useState<string | null>(null);
  const typed = useRef(false);

  // the captcha (an SVG of ~10 KB and a row on the server) is fetched only when a login needs it
  const captchaShown = useRef(false);
  const checkedName = useRef<string | null>(null);
  const loadCaptcha = async () => {
    const c = await post<Captcha>(LOGIN_PATHS.captcha, {}, lang, texts, { method: 'GET' }).catch(() => null);
    if (c) {
      captchaShown.current = true;
      setCaptcha(c);
    }
    setValues((v) => ({ ...v, captchaCode: '' }));
  };
  /** Asks the server (a small answer, no captcha made) whether this name needs a captcha; shows one if so. */
  const checkCaptcha = async (loginName: string, signal?: AbortSignal) => {
    const r = await post<{ required: boolean }>(LOGIN_PATHS.captchaRequired, { loginName }, lang, texts, { signal }).catch(() => null);
    if (r?.required && !captchaShown.current && !signal?.aborted) await loadCaptcha();
  };

  useEffect(() => {
    // with CMP_LOGIN_CAPTCHA=always every login needs one: an empty name (never a real one, so it has no
    // failures) answers true only in that mode
    const ctl = new AbortController();
    void checkCaptcha('', ctl.signal);
    return () => ctl.abort();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // a name with recent failures (say, after a reload) needs one too: asked once per name when it is left
  const onNameBlur = (e: FocusEvent<HTMLInputElement>) => {
    const name = e.target.value.trim();
    if (captchaShown.current || name.length < 2 || name === checkedName.current) return;
    checkedName.current = name;
    void checkCaptcha(name);
  };

  const change = (field: Field) => (v: string) => {
    if (!typed.current) {
      typed.current = true;
      props.onFirstInput?.();
    }
    setValues((s) => ({ ...s, [field]: v }));
    // like the console's forms: a required field is checked as it changes
    setInvalid((s) => ({ ...s, [field]: v === '' }));
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const fields: Field[] = captcha ? ['loginName', 'password', 'captchaCode'] : ['loginName', 'password'];
    const missing = Object.fromEntries(fields.map((f) => [f, values[f] === ''])) as Record<Field, boolean>;
    setInvalid(missing);
    if (fields.some((f) => missing[f])) {
      document.getElementById(fields.find((f) => missing[f])!)?.focus();
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const data = await post<SignInData>(
        LOGIN_PATHS.login,
        { loginName: values.loginName.trim(), password: values.password, ...(captcha && values.captchaCode ? { captchaKey: captcha.captchaKey, captchaCode: values.captchaCode } : {}) },
        lang,
        texts,
      );
      if (!data) return;
      await props.onSignedIn(data);
    } catch (err) {
      if (err instanceof CallError) {
        setError(err.message);
        const needs = (err.data as { captchaRequired?: boolean } | null)?.captchaRequired || err.errorCode === ErrorCode.CaptchaRequired;
        if (needs || captcha) await loadCaptcha();
      } else {
        setError(err instanceof Error ? err.message : String(err));
      }
    } finally {
      setBusy(false);
    }
  };

  const required = t('common.required');
  return (
    <>
      {props.sessionExpired && !error && <Alert type="warning" testId="login-notice">{t('auth.sessionExpired')}</Alert>}
      {error && <Alert type="error" testId="login-error">{error}</Alert>}
      <form className="lx-login-form" onSubmit={submit} noValidate>
        <TextField id="loginName" label={t('auth.loginName')} icon={UserOutlined} value={values.loginName} error={invalid.loginName ? required : null}
          autoComplete="username" autoFocus onChange={change('loginName')} onBlur={onNameBlur} />
        <TextField id="password" type="password" label={t('auth.password')} icon={LockOutlined} value={values.password}
          error={invalid.password ? required : null} autoComplete="current-password" onChange={change('password')} />
        {captcha && (
          <TextField id="captchaCode" label={t('auth.captcha')} icon={SafetyOutlined} value={values.captchaCode} maxLength={8} autoComplete="off"
            error={invalid.captchaCode ? required : null} onChange={change('captchaCode')}
            after={<button type="button" className="lx-captcha" title={t('auth.captchaRefresh')} onClick={() => void loadCaptcha()}
              dangerouslySetInnerHTML={{ __html: captcha.image.replace('<svg ', '<svg height="30" width="100" ') }} />} />
        )}
        <button type="submit" className={`lx-btn-primary${busy ? ' lx-btn-loading' : ''}`} disabled={busy} aria-busy={busy}>
          {busy && <Icon def={LoadingOutlined} spin />}
          <span>{twoHan(t('auth.submit'))}</span>
        </button>
      </form>
      <div className="lx-login-more">
        {t('auth.noAccount')} <a href="/register" onClick={props.onRegister}>{t('auth.register')}</a>
      </div>
    </>
  );
}
