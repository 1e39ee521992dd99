import pg from 'pg';
import type { Db } from '../../../db/client.ts';

/** The runs this process is paying, per database: two jobs of one process never pay the same run at once. */
const paying = new WeakMap<object, Set<number>>();

/**
 * Takes a payout run for the caller alone, or answers null when another job already pays it (in this process, or on
 * PostgreSQL in any process). Without it a second job on the run would count attempts of its own and could mark a
 * withdrawal "payout failed" while the first job was still making its last attempt.
 *
 * On PostgreSQL the claim is a session advisory lock (key space 'withdraw-run', the run's id) on a connection held
 * for the run: a process killed with -9 loses its connection and with it the lock, so the run's next job resumes at
 * once. PGlite is one process's own database (a second process cannot open it), and its single session would take
 * an advisory lock again and again, so there the process's own record is the claim. Returns the release.
 */
export async function claimRun(db: Db, runId: number): Promise<(() => Promise<void>) | null> {
  const client = (db as unknown as { $client?: object }).$client ?? db;
  let runs = paying.get(client);
  if (!runs) paying.set(client, (runs = new Set()));
  if (runs.has(runId)) return null;
  runs.add(runId);
  const mine = runs;
  if (!(client instanceof pg.Pool)) {
    return async () => {
      mine.delete(runId);
    };
  }
  let conn: pg.PoolClient | null = null;
  try {
    conn = await client.connect();
    const { rows } = await conn.query<{ ok: boolean }>(`select pg_try_advisory_lock(hashtext('withdraw-run'), $1) as ok`, [runId]);
    if (!rows[0]?.ok) {
      conn.release();
      mine.delete(runId);
      return null;
    }
  } catch (e) {
    conn?.release(e as Error);
    mine.delete(runId);
    throw e;
  }
  const held = conn;
  return async () => {
    try {
      await held.query(`select pg_advisory_unlock(hashtext('withdraw-run'), $1)`, [runId]);
      held.release();
    } catch (e) {
      // a connection that cannot unlock is dropped, which frees its lock
      held.release(e as Error);
    } finally {
      mine.delete(runId);
    }
  };
}
