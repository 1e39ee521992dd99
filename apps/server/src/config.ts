import net from 'node:net';
import path from 'node:path';
import { DEFAULT_TIME_ZONE, isValidTimeZone } from '@lynx/contract';

export type CaptchaMode = 'always' | 'after-failures' | 'off';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | null;
  redisUrl: string | null;
  demoPassword: string | null;
  captchaMode: CaptchaMode;
  /** calls per minute per token */
  rateLimitPerToken: number;
  /** calls per minute per client IP */
  rateLimitPerIp: number;
  sessionTtlHours: number;
  apiLogRetentionDays: number;
  /** run background job workers in this process */
  runWorkers: boolean;
  /** seed demo data into an empty database */
  seedDemo: boolean;
  logLevel: string;
  /** static console build served at / when present */
  webDist: string;
  /**
   * key (32 bytes, hex or base64) encrypting operator credentials and platform secrets at rest; when
   * absent a random key is generated once into DATA_DIR/secret.key (mode 0600)
   */
  secretKey: string | null;
  /**
   * minutes between runs of the usage feed (operators' usage into sessions and daily totals); 0 turns the
   * scheduled feed off (the default under NODE_ENV=test, where tests run it themselves)
   */
  usageFeedMinutes: number;
  /**
   * demo data includes one access configuration per operator on the built-in network simulator (off by default
   * under NODE_ENV=test, where each test sets up the gateway it needs)
   */
  demoSimulator: boolean;
  /**
   * demo data includes a top-up paid online, a bank transfer waiting for review and a withdrawal waiting for review
   * of the channel customer (off by default under NODE_ENV=test, whose tests start from the demo balances)
   */
  demoMoney: boolean;
  /**
   * addresses and CIDR ranges of the reverse proxies in front of the server (CMP_TRUSTED_PROXIES); only a request
   * arriving from one of them may name the client in X-Forwarded-For. Empty: the peer address is the client.
   */
  trustedProxies: string[];
  /**
   * the product's business time zone (CMP_TIME_ZONE, an IANA name; default Asia/Shanghai): business days, months,
   * billing cycles, job schedules, and every time shown on screens, in exports and in server-written sentences
   */
  timeZone: string;
  /**
   * key signing the payment simulator's notifications (CMP_PAY_SIM_KEY, HMAC-SHA256); when absent a random key is
   * generated once into DATA_DIR/payment-sim.key (docs/payments.md)
   */
  paymentSimKey: string | null;
}

const int = (v: string | undefined, fallback: number): number => {
  const n = Number(v);
  return v !== undefined && v !== '' && Number.isFinite(n) ? Math.trunc(n) : fallback;
};

/** proxy-addr's names for the loopback, link-local and private ranges (IPv4 and IPv6) */
const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

/** Parses CMP_TRUSTED_PROXIES: comma-separated IP addresses, CIDR ranges or range names; throws naming the bad entry. */
export function parseTrustedProxies(value: string | undefined): string[] {
  const entries = (value ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  for (const entry of entries) {
    if (PROXY_RANGE_NAMES.includes(entry)) continue;
    const [address, prefix, ...rest] = entry.split('/');
    const family = net.isIP(address);
    const prefixOk = prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 6 ? 128 : 32));
    if (!family || !prefixOk || rest.length) {
      throw new Error(
        `CMP_TRUSTED_PROXIES: "${entry}" is not an IP address, a CIDR range or one of ${PROXY_RANGE_NAMES.join(', ')} (example: 10.0.0.5,172.16.0.0/12)`,
      );
    }
  }
  return entries;
}

/** Reads CMP_TIME_ZONE; throws a message naming the bad value and giving examples. */
export function parseTimeZone(value: string | undefined): string {
  const tz = (value ?? '').trim() || DEFAULT_TIME_ZONE;
  if (!isValidTimeZone(tz)) {
    throw new Error(`CMP_TIME_ZONE: "${tz}" is not an IANA time zone name (examples: Asia/Shanghai, Europe/Berlin, UTC)`);
  }
  return tz;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const captcha = (env.CMP_LOGIN_CAPTCHA ?? 'after-failures') as CaptchaMode;
  if (!['always', 'after-failures', 'off'].includes(captcha)) {
    throw new Error(`CMP_LOGIN_CAPTCHA must be always, after-failures or off (got ${captcha})`);
  }
  return {
    port: int(env.PORT, 8080),
    host: env.HOST ?? '0.0.0.0',
    // npm runs the server inside apps/server; relative paths mean the folder npm was started from
    dataDir: path.resolve(env.INIT_CWD ?? process.cwd(), env.DATA_DIR ?? 'data'),
    databaseUrl: env.DATABASE_URL || null,
    redisUrl: env.REDIS_URL || null,
    demoPassword: env.CMP_DEMO_PASSWORD || null,
    captchaMode: captcha,
    rateLimitPerToken: int(env.CMP_RATE_LIMIT, 1200),
    rateLimitPerIp: int(env.CMP_RATE_LIMIT_IP, 6000),
    sessionTtlHours: int(env.CMP_SESSION_TTL_HOURS, 12),
    apiLogRetentionDays: int(env.CMP_API_LOG_RETENTION_DAYS, 90),
    runWorkers: env.CMP_WORKERS !== 'off',
    seedDemo: env.CMP_SEED !== 'off',
    demoSimulator: env.CMP_DEMO_SIMULATOR ? env.CMP_DEMO_SIMULATOR !== 'off' : env.NODE_ENV !== 'test',
    demoMoney: env.CMP_DEMO_MONEY ? env.CMP_DEMO_MONEY !== 'off' : env.NODE_ENV !== 'test',
    logLevel: env.LOG_LEVEL ?? (env.NODE_ENV === 'test' ? 'silent' : 'info'),
    webDist: path.resolve(env.CMP_WEB_DIST ?? path.join(import.meta.dirname, '../../web/dist')),
    secretKey: env.CMP_SECRET_KEY || null,
    usageFeedMinutes: Math.max(0, int(env.CMP_USAGE_FEED_MINUTES, env.NODE_ENV === 'test' ? 0 : 5)),
    trustedProxies: parseTrustedProxies(env.CMP_TRUSTED_PROXIES),
    timeZone: parseTimeZone(env.CMP_TIME_ZONE),
    paymentSimKey: env.CMP_PAY_SIM_KEY || null,
    ...overrides,
  };
}
