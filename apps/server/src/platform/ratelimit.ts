import type { Redis } from 'ioredis';

export interface CounterStore {
  /** adds one to key in the current window; returns the count and ms until the window ends */
  hit(key: string, windowMs: number): Promise<{ count: number; resetMs: number }>;
  close(): Promise<void>;
}

/** Fixed windows in memory: enough for one process. */
export class MemoryCounterStore implements CounterStore {
  private windows = new Map<string, { count: number; endsAt: number }>();
  private sweeper = setInterval(() => {
    const now = Date.now();
    for (const [k, w] of this.windows) if (w.endsAt <= now) this.windows.delete(k);
  }, 60_000);
  constructor() {
    this.sweeper.unref();
  }
  async hit(key: string, windowMs: number) {
    const now = Date.now();
    let w = this.windows.get(key);
    if (!w || w.endsAt <= now) {
      w = { count: 0, endsAt: now + windowMs };
      this.windows.set(key, w);
    }
    w.count++;
    return { count: w.count, resetMs: w.endsAt - now };
  }
  async close() {
    clearInterval(this.sweeper);
  }
}

/** Shared counters for several server instances. */
export class RedisCounterStore implements CounterStore {
  constructor(private redis: Redis) {}
  async hit(key: string, windowMs: number) {
    const k = `lynx:rl:${key}`;
    const res = await this.redis.multi().incr(k).pexpire(k, windowMs, 'NX').pttl(k).exec();
    const count = Number(res?.[0]?.[1] ?? 1);
    const ttl = Number(res?.[2]?.[1] ?? windowMs);
    return { count, resetMs: ttl > 0 ? ttl : windowMs };
  }
  async close() {
    await this.redis.quit().catch(() => {});
  }
}

export interface RateLimits {
  perToken: number;
  perIp: number;
  windowMs: number;
}

/** Returns seconds to wait when over a limit, else null. Both the token's and the IP's counters count. */
export async function checkRate(store: CounterStore, limits: RateLimits, ip: string, tokenKey: string | null): Promise<number | null> {
  const checks: Promise<{ count: number; resetMs: number; limit: number }>[] = [
    store.hit(`ip:${ip}`, limits.windowMs).then((r) => ({ ...r, limit: limits.perIp })),
  ];
  if (tokenKey) checks.push(store.hit(`t:${tokenKey}`, limits.windowMs).then((r) => ({ ...r, limit: limits.perToken })));
  let wait: number | null = null;
  for (const r of await Promise.all(checks)) {
    if (r.count > r.limit) wait = Math.max(wait ?? 0, Math.ceil(r.resetMs / 1000));
  }
  return wait;
}
