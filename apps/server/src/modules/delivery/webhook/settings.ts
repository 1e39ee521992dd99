// How webhook delivery retries, times out and runs (docs/webhooks.md "Settings"). Read once from the environment when the
// server starts; a bad value stops the start with a message naming the variable.

export interface WebhookSettings {
  /** seconds to wait after failed attempt 1, 2, …; attempts in a series = retryDelays.length + 1 */
  retryDelaysSeconds: number[];
  /** ± share of each delay drawn at random, so receivers that failed together are not retried together */
  jitter: number;
  /** one attempt's whole time: connect, send, answer */
  timeoutMs: number;
  /** attempts in flight at once per process */
  concurrency: number;
  /** how often an idle worker looks for due deliveries */
  pollMs: number;
  /** delivered deliveries (and their attempts and events) are deleted after this many days; dead letters after 3× */
  retentionDays: number;
}

/** 30 s, 2 min, 10 min, 1 h, 6 h, 12 h, 24 h: 8 attempts over about 43.5 hours, then the dead letter. */
export const DEFAULT_RETRY_DELAYS_SECONDS = [30, 120, 600, 3600, 21_600, 43_200, 86_400];

export const DEFAULT_WEBHOOK_SETTINGS: WebhookSettings = {
  retryDelaysSeconds: DEFAULT_RETRY_DELAYS_SECONDS,
  jitter: 0.2,
  timeoutMs: 10_000,
  concurrency: 16,
  pollMs: 500,
  retentionDays: 30,
};

function positive(env: NodeJS.ProcessEnv, name: string, fallback: number, { integer = true, min = 1, max = Number.MAX_SAFE_INTEGER } = {}): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || (integer && !Number.isInteger(n)) || n < min || n > max) {
    throw new Error(`${name} must be ${integer ? 'an integer' : 'a number'} from ${min} to ${max} (got "${raw}")`);
  }
  return n;
}

/**
 * CMP_WEBHOOK_RETRY_SECONDS (comma-separated delays, e.g. "30,120,600,3600,21600"; fractions allowed for tests and
 * benchmarks), CMP_WEBHOOK_TIMEOUT_SECONDS, CMP_WEBHOOK_CONCURRENCY, CMP_WEBHOOK_POLL_MS, CMP_WEBHOOK_RETENTION_DAYS.
 */
export function webhookSettingsFrom(env: NodeJS.ProcessEnv = process.env): WebhookSettings {
  let retryDelaysSeconds = DEFAULT_RETRY_DELAYS_SECONDS;
  const raw = env.CMP_WEBHOOK_RETRY_SECONDS;
  if (raw !== undefined && raw.trim() !== '') {
    const parts = raw.split(',').map((s) => Number(s.trim()));
    if (parts.length > 30 || parts.some((n) => !Number.isFinite(n) || n <= 0 || n > 7 * 86_400)) {
      throw new Error(`CMP_WEBHOOK_RETRY_SECONDS must be up to 30 comma-separated delays in seconds, each above 0 and at most 604800 (got "${raw}")`);
    }
    retryDelaysSeconds = parts;
  }
  return {
    retryDelaysSeconds,
    jitter: DEFAULT_WEBHOOK_SETTINGS.jitter,
    timeoutMs: positive(env, 'CMP_WEBHOOK_TIMEOUT_SECONDS', DEFAULT_WEBHOOK_SETTINGS.timeoutMs / 1000, { integer: false, min: 0.1, max: 120 }) * 1000,
    concurrency: positive(env, 'CMP_WEBHOOK_CONCURRENCY', DEFAULT_WEBHOOK_SETTINGS.concurrency, { max: 256 }),
    pollMs: positive(env, 'CMP_WEBHOOK_POLL_MS', DEFAULT_WEBHOOK_SETTINGS.pollMs, { min: 10, max: 60_000 }),
    retentionDays: positive(env, 'CMP_WEBHOOK_RETENTION_DAYS', DEFAULT_WEBHOOK_SETTINGS.retentionDays, { max: 3650 }),
  };
}

export const maxAttemptsOf = (s: Pick<WebhookSettings, 'retryDelaysSeconds'>) => s.retryDelaysSeconds.length + 1;

/**
 * The wait after failed attempt `attempt` (1-based) of a series, in ms, with ± jitter; null when it was the last
 * attempt (the delivery goes to the dead letter). `random` is in [0, 1).
 */
export function retryDelayMs(s: Pick<WebhookSettings, 'retryDelaysSeconds' | 'jitter'>, attempt: number, random: number): number | null {
  if (attempt >= maxAttemptsOf(s)) return null;
  const base = s.retryDelaysSeconds[attempt - 1] * 1000;
  return Math.max(1, Math.round(base * (1 - s.jitter + 2 * s.jitter * random)));
}
