import type { Db } from '../db/client.ts';
import { apiLog } from './tables.ts';

type Row = typeof apiLog.$inferInsert;

/**
 * The API request log. Rows are buffered and written in batches so logging never adds a database round
 * trip to a request; a batch is written every second, at 500 rows, and on shutdown.
 */
export class ApiLogWriter {
  private buffer: Row[] = [];
  private timer: NodeJS.Timeout;
  private flushing: Promise<void> = Promise.resolve();
  constructor(
    private db: Db,
    private onError: (e: unknown) => void,
  ) {
    this.timer = setInterval(() => void this.flush(), 1000);
    this.timer.unref();
  }
  push(row: Row): void {
    this.buffer.push(row);
    if (this.buffer.length >= 500) void this.flush();
  }
  flush(): Promise<void> {
    if (!this.buffer.length) return this.flushing;
    const rows = this.buffer;
    this.buffer = [];
    this.flushing = this.flushing.then(() => this.db.insert(apiLog).values(rows).then(() => undefined, this.onError));
    return this.flushing;
  }
  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }
}
