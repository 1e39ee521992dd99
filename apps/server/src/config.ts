import path from 'node:path';

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
}

const int = (v: string | undefined, fallback: number): number => {
  const n = Number(v);
  return v !== undefined && v !== '' && Number.isFinite(n) ? Math.trunc(n) : fallback;
};

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
    logLevel: env.LOG_LEVEL ?? (env.NODE_ENV === 'test' ? 'silent' : 'info'),
    webDist: path.resolve(env.CMP_WEB_DIST ?? path.join(import.meta.dirname, '../../web/dist')),
    secretKey: env.CMP_SECRET_KEY || null,
    usageFeedMinutes: Math.max(0, int(env.CMP_USAGE_FEED_MINUTES, env.NODE_ENV === 'test' ? 0 : 5)),
    ...overrides,
  };
}
