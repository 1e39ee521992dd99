import PgBoss from 'pg-boss';
import { getBusinessTimeZone } from '@lynx/contract';
import type { Database } from '../db/client.ts';

export type JobHandler = (data: any, job: { id: string; name: string }) => Promise<void>;

interface QueueDef {
  handler: JobHandler;
  retryLimit: number;
  expireInSeconds: number;
}

/**
 * Durable background jobs on pg-boss 10 in the same database (on PGlite through its executeSql adapter).
 * A job is fetched with SKIP LOCKED, so two processes sharing a PostgreSQL database never run it at once;
 * one interrupted by a crash is retried after it expires. Handlers must be idempotent.
 */
export class Jobs {
  readonly boss: PgBoss;
  private queues = new Map<string, QueueDef>();
  private schedules = new Map<string, string | null>();
  private atStart = new Set<string>();
  private started = false;

  constructor(
    database: Database,
    private log: { error: (obj: unknown, msg: string) => void },
    /** the business time zone crons are read in ("0 2 * * *" is 02:00 there) */
    private timeZone: string = getBusinessTimeZone(),
  ) {
    this.boss = new PgBoss({ ...(database.bossDb as object), schema: 'pgboss', supervise: true, migrate: true } as PgBoss.ConstructorOptions);
    this.boss.on('error', (err) => this.log.error({ err }, 'job queue error'));
  }

  define(name: string, handler: JobHandler, opts: { retryLimit?: number; expireInSeconds?: number } = {}): void {
    this.queues.set(name, { handler, retryLimit: opts.retryLimit ?? 2, expireInSeconds: opts.expireInSeconds ?? 15 * 60 });
  }

  /**
   * Runs a defined queue on a cron schedule (one instance per schedule across all processes). `null`: configuration
   * turns the job off; the schedule lives in the database, so the one an earlier start left there is removed.
   */
  schedule(name: string, cron: string | null): void {
    this.schedules.set(name, cron);
  }

  /** Also runs a defined queue once when the workers start (a job that catches up, e.g. the days a stopped server missed). */
  runAtStart(name: string): void {
    this.atStart.add(name);
  }

  async start(runWorkers: boolean, pollingIntervalSeconds = 1): Promise<void> {
    await this.boss.start();
    this.started = true;
    for (const [name, q] of this.queues) {
      await this.boss.createQueue(name, { name, retryLimit: q.retryLimit, retryDelay: 5, expireInSeconds: q.expireInSeconds } as PgBoss.Queue);
      if (runWorkers) {
        await this.boss.work(name, { batchSize: 1, pollingIntervalSeconds }, async (jobs) => {
          for (const job of jobs) await q.handler(job.data, { id: job.id, name: job.name });
        });
      }
    }
    // the processes that run the jobs own their schedules: an API-only process (CMP_WORKERS=off) may be configured
    // differently (say, without CMP_USAGE_FEED_MINUTES) and must neither remove nor bring back the workers' schedules
    if (!runWorkers) return;
    for (const [name, cron] of this.schedules) {
      if (cron === null) await this.boss.unschedule(name);
      else await this.boss.schedule(name, cron, {}, { tz: this.timeZone });
    }
    for (const name of this.atStart) await this.boss.send(name, {}, { singletonKey: `${name}:start` });
  }

  async send(name: string, data: object, opts: PgBoss.SendOptions = {}): Promise<string | null> {
    return this.boss.send(name, data, opts);
  }

  async stop(): Promise<void> {
    if (!this.started) return;
    this.started = false;
    await this.boss.stop({ graceful: true, wait: true, timeout: 10_000 });
  }
}
