import { sql } from 'drizzle-orm';
import { businessDay } from '@lynx/contract';
import type { Db } from '../../db/client.ts';

interface Counts {
  calls: number;
  errors: number;
  refused: number;
}

interface Cell extends Counts {
  custId: number;
  rootCustId: number;
  appKey: string;
  day: string;
}

/**
 * Open API usage per key and business day. Calls are added up in memory and written as one upsert per second (and
 * on shutdown), so counting never adds a database round trip to a call; a process killed hard loses at most the
 * last second's counts, which the API request log (api_log) still holds call by call.
 */
export class ApiUsageCounter {
  private cells = new Map<string, Cell>();
  private timer: NodeJS.Timeout;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private db: Db,
    private onError: (e: unknown) => void,
  ) {
    this.timer = setInterval(() => void this.flush(), 1000);
    this.timer.unref();
  }

  add(custId: number, rootCustId: number, appKey: string, n: Counts, now: number): void {
    const day = businessDay(now);
    const k = `${custId}|${day}|${appKey}`;
    let c = this.cells.get(k);
    if (!c) {
      c = { custId, rootCustId, appKey, day, calls: 0, errors: 0, refused: 0 };
      this.cells.set(k, c);
    }
    c.calls += n.calls;
    c.errors += n.errors;
    c.refused += n.refused;
  }

  /** Writes what was counted since the last flush; resolves once it (and every earlier flush) is in the database. */
  flush(): Promise<void> {
    if (this.cells.size === 0) return this.flushing;
    const rows = [...this.cells.values()];
    this.cells.clear();
    const col = <K extends keyof Cell>(key: K) => sql.param(rows.map((r) => r[key]));
    this.flushing = this.flushing.then(() =>
      this.db.execute(sql`
        insert into api_usage_daily (cust_id, day, app_key, root_cust_id, calls, errors, refused)
        select * from unnest(${col('custId')}::int[], ${col('day')}::date[], ${col('appKey')}::text[], ${col('rootCustId')}::int[],
                             ${col('calls')}::int[], ${col('errors')}::int[], ${col('refused')}::int[])
        on conflict (cust_id, day, app_key) do update set
          calls = api_usage_daily.calls + excluded.calls,
          errors = api_usage_daily.errors + excluded.errors,
          refused = api_usage_daily.refused + excluded.refused`).then(() => undefined, this.onError));
    return this.flushing;
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }
}
