// An attempt's failure in the reader's language. The database keeps a language-neutral note (sender.ts): `HTTP 503`,
// `TIMEOUT 10000`, a network error code such as `ECONNREFUSED`, `BAD_URL …`, `NO_ADDRESS`, `INTERRUPTED`.
import { interpolate, WebhookAttemptOutcome, type Bilingual, type Lang } from '@lynx/contract';

/** Notes the worker writes for the outcomes that are not the receiver's doing. */
export const NO_ADDRESS = 'NO_ADDRESS';
export const INTERRUPTED = 'INTERRUPTED';
export const NO_SECRET = 'NO_SECRET';

const NETWORK: Record<string, Bilingual> = {
  ECONNREFUSED: { zh: '连接被拒绝', en: 'Connection refused' },
  ECONNRESET: { zh: '连接被接收方重置或关闭', en: 'Connection reset or closed by the receiver' },
  EPIPE: { zh: '连接被接收方关闭', en: 'Connection closed by the receiver' },
  ENOTFOUND: { zh: '找不到主机', en: 'Host not found' },
  EPRIVATEADDR: { zh: '回调地址指向内网或保留地址，平台不向其发送', en: 'The callback address leads to a private or reserved network address; the platform does not send there' },
  EAI_AGAIN: { zh: '域名解析暂时失败', en: 'Host lookup failed (temporary)' },
  EHOSTUNREACH: { zh: '主机不可达', en: 'Host unreachable' },
  ENETUNREACH: { zh: '网络不可达', en: 'Network unreachable' },
  ETIMEDOUT: { zh: '连接超时', en: 'Connection timed out' },
  CERT_HAS_EXPIRED: { zh: '接收方的 TLS 证书已过期', en: 'The receiver\'s TLS certificate has expired' },
  DEPTH_ZERO_SELF_SIGNED_CERT: { zh: '接收方的 TLS 证书为自签名证书', en: 'The receiver\'s TLS certificate is self-signed' },
  SELF_SIGNED_CERT_IN_CHAIN: { zh: '接收方的 TLS 证书链含自签名证书', en: 'The receiver\'s TLS certificate chain is self-signed' },
  ERR_TLS_CERT_ALTNAME_INVALID: { zh: '接收方的 TLS 证书与主机名不符', en: 'The receiver\'s TLS certificate does not match its host name' },
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: { zh: '无法验证接收方的 TLS 证书', en: 'The receiver\'s TLS certificate cannot be verified' },
};

const TEXT = {
  http: { zh: '接收方返回 HTTP {status}', en: 'The receiver answered HTTP {status}' },
  timeout: { zh: '{seconds} 秒内无应答', en: 'No answer within {seconds} s' },
  badUrl: { zh: '回调地址无效', en: 'The callback address is not valid' },
  network: { zh: '网络错误（{detail}）', en: 'Network error ({detail})' },
  noAddress: { zh: '该客户没有接收此事件的回调地址', en: 'The customer has no callback address for this event' },
  noSecret: { zh: '签名密钥无法解密，请在 API 管理中轮换签名密钥', en: 'The signing secret cannot be opened; rotate it in the API manager' },
  interrupted: { zh: '发送进程在记录应答前停止（可能已送达）', en: 'The sending process stopped before recording the answer (it may have arrived)' },
} satisfies Record<string, Bilingual>;

/** The sentence for an attempt's note, or null for a success. */
export function attemptErrorText(outcome: number | null, note: string | null, lang: Lang): string | null {
  if (outcome == null || outcome === WebhookAttemptOutcome.Success) return null;
  if (outcome === WebhookAttemptOutcome.NoAddress) return TEXT.noAddress[lang];
  if (outcome === WebhookAttemptOutcome.Interrupted) return TEXT.interrupted[lang];
  const n = note ?? '';
  if (outcome === WebhookAttemptOutcome.Timeout || n.startsWith('TIMEOUT ')) {
    const ms = Number(n.slice('TIMEOUT '.length));
    return interpolate(TEXT.timeout[lang], { seconds: Number.isFinite(ms) && ms > 0 ? Math.round(ms / 100) / 10 : '?' });
  }
  if (n === NO_SECRET) return TEXT.noSecret[lang];
  if (n.startsWith('HTTP ')) return interpolate(TEXT.http[lang], { status: n.slice(5) });
  if (n.startsWith('BAD_URL')) return TEXT.badUrl[lang];
  const known = NETWORK[n];
  if (known) return known[lang];
  return interpolate(TEXT.network[lang], { detail: n.replace(/^NETWORK /, '') || '-' });
}
