import type { SqlClient } from '../db/client.ts';

export interface ApiLogRow {
  accountId: number | null;
  loginName: string | null;
  custId: number | null;
  rootCustId: number | null;
  method: string;
  path: string;
  status: number;
  errorCode: number | null;
  durationMs: number;
  ip: string | null;
  createdAt: Date;
}

// one statement with one array per column: cheap to build however many rows a batch has
const INSERT = `insert into api_log (account_id, login_name, cust_id, root_cust_id, method, path, status, error_code, duration_ms, ip, created_at)
select * from unnest($1::int[], $2::text[], $3::int[], $4::int[], $5::text[], $6::text[], $7::smallint[], $8::int[], $9::real[], $10::text[], $11::timestamptz[])`;

/**
 * The API request log. Rows are buffered and written in batches so logging never adds a database round
 * trip to a request; a batch is written every second, at 500 rows, and on shutdown.
 */
export class ApiLogWriter {
  private buffer: ApiLogRow[] = [];
  private timer: NodeJS.Timeout;
  private flushing: Promise<void> = Promise.resolve();
  constructor(
    private sql: SqlClient,
    private onError: (e: unknown) => void,
  ) {
    this.timer = setInterval(() => void this.flush(), 1000);
    this.timer.unref();
  }
  push(row: ApiLogRow): void {
    this.buffer.push(row);
    if (this.buffer.length >= 500) void this.flush();
  }
  flush(): Promise<void> {
    if (!this.buffer.length) return this.flushing;
    const rows = this.buffer;
    this.buffer = [];
    const col = <K extends keyof ApiLogRow>(k: K) => rows.map((r) => r[k]);
    const params = [
      col('accountId'), col('loginName'), col('custId'), col('rootCustId'), col('method'), col('path'), col('status'),
      col('errorCode'), col('durationMs'), col('ip'), rows.map((r) => r.createdAt.toISOString()),
    ];
    this.flushing = this.flushing.then(() => this.sql.query(INSERT, params).then(() => undefined, this.onError));
    return this.flushing;
  }
  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }
}
