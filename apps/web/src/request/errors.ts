import { ErrorCode } from '@lynx/contract';

export interface Texts {
  requestError: string;
  networkFault: string;
  timeout: string;
  /** what a user sent to the login page by an expired session is told */
  sessionExpired: string;
  callLimit: (seconds: number) => string;
  status: (status: number) => string | undefined;
}

/** What the request layer does with a failed call (spec §7, §8). Pure, so every case is tested. */
export type Outcome =
  | { kind: 'session' }
  | { kind: 'login'; text: string }
  | { kind: 'passwordChange'; text: string }
  | { kind: 'limit'; text: string }
  | { kind: 'logic'; text: string; errorCode: number | null }
  | { kind: 'notify'; title: string; text: string; type: 'http error' | 'timeout' | 'network error' };

export interface Failure {
  /** HTTP status, when there was a response */
  status?: number;
  /** the response body, when there was one */
  body?: { success?: boolean; msg?: string; message?: string; errorCode?: number | null; data?: any } | null;
  /** the transport error message (axios: 'timeout of 60000ms exceeded', 'Network Error') */
  message?: string;
  code?: string;
}

export function classify(f: Failure, t: Texts): Outcome {
  const body = f.body ?? null;
  // spec §8: the body's msg, else its message
  const bodyText = body?.msg || body?.message;
  if (body?.errorCode === ErrorCode.SessionInvalid) return { kind: 'session' };
  // spec §8: no "request error" notification for a 401; the user is told why the login page opens (a form
  // being saved is lost otherwise without a word)
  if (f.status === 401) return { kind: 'login', text: t.sessionExpired };
  // the session may only change its password: the server refuses everything else until it does
  if (body?.errorCode === ErrorCode.PasswordChangeRequired) return { kind: 'passwordChange', text: bodyText || t.networkFault };
  if (body?.errorCode === ErrorCode.CallLimitExceeded || f.status === 429) {
    const seconds = Number(body?.data?.retryAfter ?? 60);
    return { kind: 'limit', text: t.callLimit(seconds) };
  }
  // a 200 answer with success false is a refusal the server explained: show its message
  if (f.status === 200 || (f.status === undefined && body && body.success === false)) {
    return { kind: 'logic', text: bodyText || t.networkFault, errorCode: body?.errorCode ?? null };
  }
  if (f.status) {
    const statusText = t.status(f.status);
    const text = [statusText, bodyText].filter(Boolean).join(' ') || t.networkFault;
    return { kind: 'notify', title: `${t.requestError} ${f.status}`, text, type: 'http error' };
  }
  const message = f.message || '';
  const isTimeout = message.startsWith('timeout of') || f.code === 'ECONNABORTED' || f.code === 'ETIMEDOUT';
  return {
    kind: 'notify',
    title: t.requestError,
    text: isTimeout ? t.timeout : message && message !== 'Network Error' ? message : f.code || t.networkFault,
    type: isTimeout ? 'timeout' : 'network error',
  };
}
