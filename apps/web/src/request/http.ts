import axios, { AxiosError, type AxiosRequestConfig } from 'axios';
import { ErrorCode, pathOf, type Endpoint, type BodyOf, type ResponseOf } from '@lynx/contract';
import i18n, { currentLang } from '../locales/i18n.ts';
import { useSession } from '../stores/session.ts';
import { classify, type Failure, type Texts } from './errors.ts';
import { feedback, goTo } from './feedback.ts';

export const SESSION_EXPIRY_DELAY_MS = 300;

/** A refusal from the server (success false), rejected to the caller with its message and code. */
export class LogicError extends Error {
  readonly type = 'logic error';
  constructor(
    message: string,
    readonly errorCode: number | null,
    readonly data: unknown = null,
  ) {
    super(message);
  }
}

export const http = axios.create({ timeout: 60_000 });

http.interceptors.request.use((config) => {
  const token = useSession.getState().token;
  config.params = { ...(config.params ?? {}), ts: Date.now(), lang: currentLang() };
  config.headers.set('X-Requested-With', 'XMLHttpRequest');
  if (token) config.headers.set('Authorization', token);
  return config;
});

const texts = (): Texts => ({
  requestError: i18n.t('request.requestError'),
  networkFault: i18n.t('request.networkFault'),
  timeout: i18n.t('request.timeout'),
  sessionExpired: i18n.t('shell.sessionExpired'),
  callLimit: (seconds) => i18n.t('request.callLimit', { seconds }),
  status: (status) => (i18n.exists(`request.status.${status}`) ? i18n.t(`request.status.${status}`) : undefined),
});

let expiring = false;
/** 20003: handled once even when several calls fail together; the session is cleared after 300 ms. */
export function expireSession(): void {
  if (expiring) return;
  expiring = true;
  feedback()?.message.warning(i18n.t('shell.sessionExpired'));
  setTimeout(() => {
    // leave the shell first, so it does not redirect to a plain /login when the session disappears
    void goTo('/login?status=20003').then(() => {
      useSession.getState().clear(ErrorCode.SessionInvalid);
      expiring = false;
    });
  }, SESSION_EXPIRY_DELAY_MS);
}

let leaving = false;
/** HTTP 401: says why (once, however many calls fail together), then goes to the login page and clears the session. */
function toLogin(text: string): void {
  if (leaving) return;
  leaving = true;
  feedback()?.message.warning(text);
  void goTo('/login').then(() => {
    useSession.getState().clear();
    leaving = false;
  });
}

export interface CallOptions {
  /** do not show a notification for a refusal (the caller shows it inline) */
  silent?: boolean;
  signal?: AbortSignal;
}

/** Runs a failure through the outcome table; returns the error to reject with (null: resolve with null). */
export function handleFailure(f: Failure, opts: CallOptions = {}): Error | null {
  const o = classify(f, texts());
  const ui = feedback();
  switch (o.kind) {
    case 'session':
      expireSession();
      return null;
    case 'login':
      toLogin(o.text);
      // callers recognise this message and show nothing more
      return new LogicError('unauthorized', null);
    case 'passwordChange':
      // the login page shows the forced change-password form while the session says so
      useSession.getState().setMustReset(true);
      void goTo('/login?reset=1');
      if (!opts.silent) ui?.message.warning(o.text);
      return new LogicError(o.text, ErrorCode.PasswordChangeRequired, f.body?.data);
    case 'limit':
      if (!opts.silent) ui?.message.error(o.text);
      return new LogicError(o.text, f.body?.errorCode ?? 20006, f.body?.data);
    case 'logic':
      if (!opts.silent) ui?.message.error(o.text);
      return new LogicError(o.text, o.errorCode, f.body?.data);
    case 'notify':
      if (!opts.silent) ui?.notification.error({ message: o.title, description: o.text });
      return Object.assign(new Error(o.text), { type: o.type });
  }
}

/** Calls a contract endpoint; resolves with its data (typed by the contract), or null after 20003. */
export async function call<E extends Endpoint>(e: E, body?: BodyOf<E>, opts: CallOptions = {}): Promise<ResponseOf<E>> {
  const config: AxiosRequestConfig = { url: pathOf(e), method: e.method, signal: opts.signal };
  if (e.method === 'GET') config.params = body;
  else config.data = body ?? {};
  try {
    const res = await http.request(config);
    const payload = res.data;
    if (payload && payload.success === false) {
      const err = handleFailure({ status: res.status, body: payload }, opts);
      if (err) throw err;
      return null as ResponseOf<E>;
    }
    return payload?.data as ResponseOf<E>;
  } catch (e) {
    if (e instanceof LogicError) throw e;
    if (axios.isCancel(e)) throw e;
    const ax = e as AxiosError<Failure['body']>;
    const err = handleFailure({ status: ax.response?.status, body: ax.response?.data, message: ax.message, code: ax.code }, opts);
    if (err) throw err;
    return null as ResponseOf<E>;
  }
}

/**
 * Multipart upload to a contract endpoint (logo, payment proof…): the file under the endpoint's file field and the
 * text fields its body declares (empty ones left out).
 */
export async function upload<E extends Endpoint>(e: E, file: Blob, fields: BodyOf<E>, opts: CallOptions = {}): Promise<ResponseOf<E>> {
  if (!e.multipart) throw new Error(`${e.name} takes no upload`);
  const form = new FormData();
  for (const [name, value] of Object.entries(fields as Record<string, unknown>)) {
    if (value !== undefined && value !== null && value !== '') form.append(name, String(value));
  }
  form.append(e.multipart.file, file);
  try {
    const res = await http.post(pathOf(e), form);
    if (res.data?.success === false) {
      const err = handleFailure({ status: res.status, body: res.data }, opts);
      if (err) throw err;
      return null as ResponseOf<E>;
    }
    return res.data.data;
  } catch (e) {
    if (e instanceof LogicError) throw e;
    const ax = e as AxiosError<Failure['body']>;
    const err = handleFailure({ status: ax.response?.status, body: ax.response?.data, message: ax.message, code: ax.code }, opts);
    if (err) throw err;
    return null as ResponseOf<E>;
  }
}

/** Downloads a file endpoint with the session header and saves it under the server's file name. */
export async function downloadFile(url: string, params: Record<string, string>): Promise<void> {
  try {
    const res = await http.get(url, { params, responseType: 'blob' });
    const type = String(res.headers['content-type'] ?? '');
    if (type.includes('application/json')) {
      const body = JSON.parse(await (res.data as Blob).text());
      const err = handleFailure({ status: res.status, body });
      if (err) throw err;
      return;
    }
    const disposition = String(res.headers['content-disposition'] ?? '');
    const star = /filename\*=UTF-8''([^;]+)/i.exec(disposition);
    const plain = /filename="([^"]+)"/i.exec(disposition);
    const name = star ? decodeURIComponent(star[1]) : (plain?.[1] ?? 'download');
    const href = URL.createObjectURL(res.data as Blob);
    const a = document.createElement('a');
    a.href = href;
    a.download = name;
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(href), 10_000);
  } catch (e) {
    if (e instanceof LogicError) throw e;
    const ax = e as AxiosError;
    const err = handleFailure({ status: ax.response?.status, message: ax.message, code: ax.code });
    if (err) throw err;
  }
}
