// One HTTP attempt: POST the body with its headers, wait at most the timeout for the whole answer, read at most a few
// KB of it, never follow a redirect. Answers what happened; never throws.
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { WebhookAttemptOutcome } from '@lynx/contract';
import { resolvePublic } from '../../../platform/outbound.ts';

export interface AttemptResult {
  outcome: WebhookAttemptOutcome;
  httpStatus: number | null;
  /** what went wrong, language-neutral: `HTTP 503`, `TIMEOUT 10000`, a network error code (`ECONNREFUSED`), `BAD_URL …` */
  error: string | null;
  responseExcerpt: string | null;
  latencyMs: number;
}

/** characters of the answer kept with the attempt */
export const EXCERPT_CHARS = 500;
/** bytes of the answer read at most (the rest is dropped with the connection) */
const READ_LIMIT = 4096;

const agents = {
  http: new http.Agent({ keepAlive: true, maxSockets: 64 }),
  https: new https.Agent({ keepAlive: true, maxSockets: 64 }),
};

/** What is stored of a network error: its code (attempt-text.ts words it in the reader's language), else its message. */
const errorOf = (err: NodeJS.ErrnoException): string => (err.code ? err.code : `NETWORK ${err.message}`.slice(0, 200));

export function postWebhook(url: string, body: string, headers: Record<string, string>, timeoutMs: number): Promise<AttemptResult> {
  const started = performance.now();
  const latency = () => Math.round(performance.now() - started);
  return new Promise<AttemptResult>((resolve) => {
    let done = false;
    const finish = (r: Omit<AttemptResult, 'latencyMs'>) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve({ ...r, latencyMs: latency() });
    };
    let target: URL;
    try {
      target = new URL(url);
      if (target.protocol !== 'http:' && target.protocol !== 'https:') throw new Error(`unsupported scheme ${target.protocol}`);
    } catch (e) {
      finish({ outcome: WebhookAttemptOutcome.NetworkError, httpStatus: null, error: `BAD_URL ${(e as Error).message}`.slice(0, 200), responseExcerpt: null });
      return;
    }
    const lib = target.protocol === 'https:' ? https : http;
    let req: http.ClientRequest | null = null;
    const timer = setTimeout(() => {
      finish({ outcome: WebhookAttemptOutcome.Timeout, httpStatus: null, error: `TIMEOUT ${timeoutMs}`, responseExcerpt: null });
      req?.destroy();
    }, timeoutMs);
    // the customer's address must lead out of the platform's network (platform/outbound.ts); the connection goes to
    // the address checked, so a second DNS answer cannot point it elsewhere
    resolvePublic(target.hostname).then((address) => {
      if (done) return;
      const family = net.isIP(address);
      req = lib.request(target, {
        method: 'POST',
        agent: target.protocol === 'https:' ? agents.https : agents.http,
        lookup: (_host, opts, cb) => ((opts as { all?: boolean }).all
          ? (cb as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address, family }])
          : cb(null, address, family)),
        headers: { ...headers, 'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(body)), 'user-agent': 'LynxCMP-Webhook/1' },
      });
      send(req);
    }, (err: NodeJS.ErrnoException) => finish({ outcome: WebhookAttemptOutcome.NetworkError, httpStatus: null, error: errorOf(err), responseExcerpt: null }));
    const send = (req: http.ClientRequest) => {
      req.on('error', (err) => finish({ outcome: WebhookAttemptOutcome.NetworkError, httpStatus: null, error: errorOf(err as NodeJS.ErrnoException), responseExcerpt: null }));
      req.on('response', (res) => {
        const status = res.statusCode ?? 0;
        const chunks: Buffer[] = [];
        let size = 0;
        const settle = () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const excerpt = text ? [...text].slice(0, EXCERPT_CHARS).join('') : null;
          const ok = status >= 200 && status < 300;
          finish({ outcome: ok ? WebhookAttemptOutcome.Success : WebhookAttemptOutcome.HttpError, httpStatus: status, error: ok ? null : `HTTP ${status}`, responseExcerpt: excerpt });
        };
        res.on('data', (c: Buffer) => {
          if (size >= READ_LIMIT) return;
          chunks.push(c.subarray(0, READ_LIMIT - size));
          size += c.length;
          // enough read: the verdict is the status; drop the rest of a large answer
          if (size >= READ_LIMIT) {
            settle();
            res.destroy();
          }
        });
        res.on('end', settle);
        res.on('error', (err) => {
          // the status arrived: a 2xx cut short is still received by the receiver's own word
          if (status >= 200 && status < 300) settle();
          else finish({ outcome: WebhookAttemptOutcome.NetworkError, httpStatus: status || null, error: errorOf(err as NodeJS.ErrnoException), responseExcerpt: null });
        });
      });
      req.end(body);
    };
  });
}
