import { classify, type Failure, type Texts } from '../request/errors.ts';
import type { Lang } from '../locales/bundles.ts';
import type { SessionData } from '../stores/session.ts';

/**
 * The few public calls the login page makes, with fetch: the console's request layer (axios, the contract's schemas)
 * is not on the login page. The same conventions as request/http.ts (ts and lang query parameters, X-Requested-With),
 * and a failure runs through the same outcome table (request/errors.ts). The paths are the contract's
 * (login.test.tsx checks them against pathOf).
 */
export const LOGIN_PATHS = {
  login: '/api/cmp/base/oauth/user/login',
  captcha: '/api/cmp/base/oauth/user/captcha',
  captchaRequired: '/api/cmp/base/oauth/user/captchaRequired',
  logo: '/api/cmp/core/account/account/getLogoByCustId',
} as const;

/** What the login answer carries (auth.login's response in the contract), kept by the session store. */
export type SignInData = SessionData;

/** A failed call, with the text to show in the user's language and the envelope's code and data. */
export class CallError extends Error {
  constructor(
    message: string,
    readonly errorCode: number | null,
    readonly data: unknown,
  ) {
    super(message);
  }
}

export const TIMEOUT_MS = 60_000;

export async function post<T>(path: string, body: unknown, lang: Lang, texts: Texts, opts: { method?: 'GET' | 'POST'; signal?: AbortSignal } = {}): Promise<T> {
  const method = opts.method ?? 'POST';
  const url = `${path}?${new URLSearchParams({ ts: String(Date.now()), lang })}`;
  const timeout = AbortSignal.timeout(TIMEOUT_MS);
  const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
  let failure: Failure;
  try {
    const res = await fetch(url, {
      method,
      headers: { 'X-Requested-With': 'XMLHttpRequest', ...(method === 'POST' ? { 'Content-Type': 'application/json' } : {}) },
      body: method === 'POST' ? JSON.stringify(body ?? {}) : undefined,
      signal,
    });
    const payload = (await res.json().catch(() => null)) as Failure['body'] & { data?: T };
    if (res.ok && payload && payload.success !== false) return payload.data as T;
    failure = { status: res.status, body: payload };
  } catch (e) {
    if (opts.signal?.aborted) throw e;
    const timedOut = timeout.aborted;
    // fetch gives no code for a failed connection: the user reads 'network fault' (spec §8)
    failure = timedOut ? { message: `timeout of ${TIMEOUT_MS}ms exceeded`, code: 'ECONNABORTED' } : { message: 'Network Error' };
  }
  const o = classify(failure, texts);
  const text = o.kind === 'session' ? texts.sessionExpired : o.text;
  throw new CallError(text, o.kind === 'logic' ? o.errorCode : (failure.body?.errorCode ?? null), failure.body?.data ?? null);
}
