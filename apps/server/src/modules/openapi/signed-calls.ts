import crypto from 'node:crypto';
import { Transform } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'drizzle-orm';
import { apiservice, ErrorCode, CustomerLevel, CustomerStatus, RoleType, ipInWhitelist, type Endpoint } from '@lynx/contract';
import type { Db } from '../../db/client.ts';
import type { Actor } from '../../platform/context.ts';
import { AppError } from '../../platform/errors.ts';
import type { SignedCallAuthenticator } from '../../platform/http.ts';
import type { CounterStore } from '../../platform/ratelimit.ts';
import type { SecretBox } from '../network/opconfig/secrets.ts';
import { ApiUsageCounter } from './usage-counter.ts';

const { OPEN_API_ENDPOINT_NAMES, OPEN_API_PERMISSIONS, OPEN_API_SIGNING } = apiservice;
const rowsOf = <T>(r: unknown): T[] => ((r as { rows?: T[] }).rows ?? (r as T[]));

/** The purpose a key's secret is sealed under (bound as associated data: a sealed value cannot move to another key). */
export const secretPurpose = (custId: number) => `api_keys.secret:${custId}`;

/**
 * The string a signed call signs (docs/open-api.md): method, request target as sent (path and query string),
 * X-Timestamp, X-Nonce and the hex SHA-256 of the raw body, joined by "\n". X-Signature is the hex HMAC-SHA256 of it
 * under the AppSecret (its UTF-8 bytes).
 */
export function stringToSign(method: string, target: string, timestamp: string, nonce: string, bodySha256: string): string {
  return [method.toUpperCase(), target, timestamp, nonce, bodySha256].join('\n');
}

export function signatureOf(secret: string, toSign: string): string {
  return crypto.createHmac('sha256', secret).update(toSign, 'utf8').digest('hex');
}

const HEADER_NAMES: Record<string, string> = {
  [OPEN_API_SIGNING.appKeyHeader]: 'X-App-Key',
  [OPEN_API_SIGNING.timestampHeader]: 'X-Timestamp',
  [OPEN_API_SIGNING.nonceHeader]: 'X-Nonce',
  [OPEN_API_SIGNING.signatureHeader]: 'X-Signature',
};
const EMPTY_SHA256 = crypto.createHash('sha256').digest('hex');
const NONCE_RE = new RegExp(OPEN_API_SIGNING.noncePattern);
const SIGNATURE_RE = /^[0-9a-fA-F]{64}$/;
/** nonces are kept this long after they are seen: longer than any timestamp the window still accepts */
const NONCE_TTL_MS = 2 * OPEN_API_SIGNING.windowMs;
const NONCE_SWEEP_MS = 60_000;

/** A signed call's key and what became of it, for the usage counters (set as soon as the key is known). */
interface SignedCallState {
  appKey: string;
  custId: number;
  rootCustId: number;
  /** refused before running (signature, time, nonce, whitelist, closed endpoint) */
  refused: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** hex SHA-256 of the raw body of a signed call, computed while the body is read */
    signedBodySha256?: string;
    signedCall?: SignedCallState;
  }
}

interface KeyRow {
  cust_id: number;
  root_cust_id: number;
  app_key: string;
  secret_sealed: string | null;
  cust_name: string;
  level: number;
  active: boolean;
  ip_whitelist_enabled: boolean | null;
  role_permissions: number[] | null;
}

const header = (req: FastifyRequest, name: string): string | null => {
  const v = req.headers[name];
  return typeof v === 'string' && v.length > 0 && v.length <= 200 ? v : null;
};

/**
 * Whether an address lies in one of the open entries: an address, a start-end range or a CIDR block, IPv4 or IPv6. A
 * client arriving IPv4-mapped on an IPv6 socket ("::ffff:10.0.0.1") is matched as its IPv4 address.
 */
export function inRanges(ip: string, ranges: { startIp: string; endIp: string | null }[]): boolean {
  return ipInWhitelist(ip, ranges);
}

/**
 * The open API gate: authenticates calls signed with a customer's AppKey (platform/http.ts asks it when a call
 * carries X-App-Key and no session token), enforces the customer's IP whitelist and refuses replays. A signed call
 * acts as its customer with the open API's role; see docs/open-api.md.
 */
export class OpenApiGate implements SignedCallAuthenticator {
  readonly usage: ApiUsageCounter;
  private lastSweep = 0;

  constructor(
    private db: Db,
    private box: () => SecretBox,
    private log: { error: (obj: unknown, msg: string) => void },
    /** a key's calls per minute count like a session token's (CMP_RATE_LIMIT) */
    private rate: { counters: CounterStore; perMinute: number },
    private now: () => number = Date.now,
  ) {
    this.usage = new ApiUsageCounter(db, (err) => log.error({ err }, 'api usage write failed'));
  }

  claims(req: FastifyRequest): boolean {
    return req.headers[OPEN_API_SIGNING.appKeyHeader] !== undefined;
  }

  async authenticate(req: FastifyRequest, e: Endpoint): Promise<Actor> {
    const appKey = header(req, OPEN_API_SIGNING.appKeyHeader);
    const timestamp = header(req, OPEN_API_SIGNING.timestampHeader);
    const nonce = header(req, OPEN_API_SIGNING.nonceHeader);
    const signature = header(req, OPEN_API_SIGNING.signatureHeader);
    const missing = (h: string) => new AppError(ErrorCode.OpenApiSignedHeaders, { header: HEADER_NAMES[h] ?? h }, 401);
    if (!appKey) throw missing(OPEN_API_SIGNING.appKeyHeader);

    const key = await this.keyOf(appKey);
    if (!key || !key.active) throw new AppError(ErrorCode.OpenApiKeyUnknown, undefined, 401);
    // from here on the call counts against the key
    const state: SignedCallState = { appKey: key.app_key, custId: key.cust_id, rootCustId: key.root_cust_id, refused: true };
    req.signedCall = state;

    if (!timestamp || !/^\d{10,16}$/.test(timestamp)) throw missing(OPEN_API_SIGNING.timestampHeader);
    if (!nonce || !NONCE_RE.test(nonce)) throw missing(OPEN_API_SIGNING.nonceHeader);
    if (!signature || !SIGNATURE_RE.test(signature)) throw missing(OPEN_API_SIGNING.signatureHeader);
    if (!key.secret_sealed) throw new AppError(ErrorCode.OpenApiKeyCannotSign, undefined, 401);
    const now = this.now();
    if (Math.abs(now - Number(timestamp)) > OPEN_API_SIGNING.windowMs) {
      throw new AppError(ErrorCode.OpenApiTimestampStale, { minutes: OPEN_API_SIGNING.windowMs / 60_000 }, 401);
    }

    const secret = this.box().open(key.secret_sealed, secretPurpose(key.cust_id));
    const expected = signatureOf(secret, stringToSign(req.method, req.url, timestamp, nonce, req.signedBodySha256 ?? EMPTY_SHA256));
    if (!crypto.timingSafeEqual(Buffer.from(expected, 'hex'), Buffer.from(signature.toLowerCase(), 'hex'))) {
      throw new AppError(ErrorCode.OpenApiSignatureInvalid, undefined, 401);
    }

    const hit = await this.rate.counters.hit(`t:app:${key.app_key}`, 60_000);
    if (hit.count > this.rate.perMinute) {
      const wait = Math.ceil(hit.resetMs / 1000);
      throw new AppError(ErrorCode.CallLimitExceeded, { retryAfter: wait }, 429, { retryAfter: wait, retryAt: new Date(now + wait * 1000).toISOString() });
    }

    if (!OPEN_API_ENDPOINT_NAMES.has(e.name)) throw new AppError(ErrorCode.OpenApiEndpointClosed, { endpoint: e.name }, 403);

    if (key.ip_whitelist_enabled && !(await this.ipAllowed(key.cust_id, req.ip))) {
      req.log.warn({ appKey: key.app_key, custId: key.cust_id, ip: req.ip, endpoint: e.name }, 'open API call refused: IP outside the whitelist');
      throw new AppError(ErrorCode.OpenApiIpRefused, { ip: req.ip }, 403);
    }

    // the nonce last, so a call refused above does not use it up
    await this.useNonce(key.app_key, nonce, now);
    state.refused = false;

    const roleType = key.level === CustomerLevel.First ? RoleType.Enterprise : RoleType.SubCustomer;
    const rolePerms = new Set(key.role_permissions ?? []);
    return {
      // never a real account (those are positive): one id per customer, so per-account caches stay per customer
      accountId: -key.cust_id,
      loginName: `api:${key.app_key}`,
      userName: key.cust_name,
      roleId: roleType,
      roleName: 'Open API',
      roleType,
      custId: key.cust_id,
      rootCustId: key.root_cust_id,
      permissions: new Set(OPEN_API_PERMISSIONS.filter((p) => rolePerms.has(p))),
      mustResetPassword: false,
    };
  }

  /** Counts a finished signed call (onResponse). */
  record(req: FastifyRequest, status: number): void {
    const s = req.signedCall;
    if (!s) return;
    const failed = status >= 400 || (req.errorCode !== null && req.errorCode !== undefined);
    this.usage.add(s.custId, s.rootCustId, s.appKey, { calls: 1, refused: s.refused ? 1 : 0, errors: !s.refused && failed ? 1 : 0 }, this.now());
  }

  private async keyOf(appKey: string): Promise<KeyRow | null> {
    const rows = await this.db.execute(sql`
      select k.cust_id, k.root_cust_id, k.app_key, k.secret_sealed, c.cust_name, c.level,
             not exists (select 1 from customers x where x.cust_id in (k.cust_id, k.root_cust_id) and x.status = ${CustomerStatus.Exited}::int) as active,
             cfg.ip_whitelist_enabled,
             (select r.permissions from roles r
               where r.built_in and r.role_type = case when c.level = ${CustomerLevel.First}::int then ${RoleType.Enterprise}::int else ${RoleType.SubCustomer}::int end
               order by r.role_id limit 1) as role_permissions
        from api_keys k
        join customers c on c.cust_id = k.cust_id
        left join api_configs cfg on cfg.cust_id = k.cust_id
       where k.app_key = ${appKey}`);
    return rowsOf<KeyRow>(rows)[0] ?? null;
  }

  private async ipAllowed(custId: number, ip: string): Promise<boolean> {
    const rows = rowsOf<{ start_ip: string; end_ip: string | null }>(await this.db.execute(sql`
      select start_ip, end_ip from user_ips where cust_id = ${custId} and open`));
    return inRanges(ip, rows.map((r) => ({ startIp: r.start_ip, endIp: r.end_ip })));
  }

  /** Remembers a nonce for the window; a nonce already remembered is a replay. */
  private async useNonce(appKey: string, nonce: string, now: number): Promise<void> {
    if (now - this.lastSweep > NONCE_SWEEP_MS) {
      this.lastSweep = now;
      await this.db.execute(sql`delete from api_nonces where expires_at < ${new Date(now).toISOString()}::timestamptz`);
    }
    const inserted = rowsOf<{ nonce: string }>(await this.db.execute(sql`
      insert into api_nonces (app_key, nonce, expires_at) values (${appKey}, ${nonce}, ${new Date(now + NONCE_TTL_MS).toISOString()}::timestamptz)
      on conflict (app_key, nonce) do update set expires_at = excluded.expires_at where api_nonces.expires_at < ${new Date(now).toISOString()}::timestamptz
      returning nonce`));
    if (inserted.length === 0) throw new AppError(ErrorCode.OpenApiNonceReused, undefined, 401);
  }
}


/**
 * Hooks of the gate on the whole app: the raw body of a signed call is hashed while it is read (the signature covers
 * the bytes sent, not a re-serialisation), and every signed call is counted when answered.
 */
export function installOpenApiGate(app: FastifyInstance, gate: OpenApiGate): void {
  app.addHook('preParsing', async (req, _reply, payload) => {
    if (!gate.claims(req)) return payload;
    const hash = crypto.createHash('sha256');
    const tap = new Transform({
      transform(chunk: Buffer, _enc, done) {
        hash.update(chunk);
        done(null, chunk);
      },
      flush(done) {
        req.signedBodySha256 = hash.digest('hex');
        done();
      },
    });
    payload.on('error', (err) => tap.destroy(err));
    return payload.pipe(tap);
  });
  app.addHook('onResponse', async (req, reply) => {
    if (req.signedCall) gate.record(req, reply.statusCode);
  });
  app.addHook('onClose', async () => {
    await gate.usage.close();
  });
}
