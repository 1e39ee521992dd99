// The cards' maintained cycle usage and quota (issue 12, migration 0019): cycle_from / cycle_to (the current cycle's
// China days), cycle_used_bytes, cycle_sms (migration 0050: the cycle's SMS, for the automation rules),
// cycle_quota_bytes (null: no quota), cycle_used_pct (generated) and cycle_next_at
// (when they must be worked out again). The card list shows and sorts by them; near / over quota reads them.
//
// Who keeps them right (docs/cards.md "Cycle usage"):
// - the usage feed adds each daily row's difference to its card when the day is in the card's cycle, in the same
//   statement that writes the daily rows (usage-write.ts writeDaily);
// - whatever changes a card's plan, contract cycle or event packs works its cards out again in its own transaction
//   (the lifecycle engine's applyRows, allocation with a plan, imports and seeds through refreshDeadlines);
// - the lifecycle tick works out the cards whose cycle ended or whose event pack started or ended (cycle_next_at).
// All of it is the SQL function card_cycle_refresh (migration 0019), which the migration's backfill ran too.
import { sql } from 'drizzle-orm';
import type { Db, Executor } from '../../db/client.ts';
import { rows } from './usage-write.ts';

/**
 * Works the cycle columns out again for these cards at `at` (their cycle, quota and next change; the usage is summed
 * again where the cycle changed, or always with `resum`). Set-based, in the caller's transaction. Returns the rows
 * written.
 */
export async function refreshCardCycles(ex: Executor, iccids: string[], at: Date, opts: { resum?: boolean } = {}): Promise<number> {
  if (iccids.length === 0) return 0;
  const [r] = rows<{ n: number }>(await ex.execute(sql`
    select card_cycle_refresh(${at.toISOString()}::timestamptz, ${sql.param([...new Set(iccids)])}::text[], false, ${opts.resum ?? false}) as n`));
  return Number(r?.n ?? 0);
}

/** How many cards a roll-over transaction works out (each chunk is all or nothing; the next chunk goes on). */
export const CYCLE_CHUNK = 5_000;

/**
 * The roll-over (the lifecycle tick): works out every card whose cycle values are due at `now` — its cycle ended,
 * a contract cycle began, an event pack started or ended — or were never worked out, CYCLE_CHUNK cards per
 * transaction, for at most `budgetMs` (the next tick goes on). Returns the cards written.
 */
export async function rollCycles(db: Db, now = new Date(), budgetMs = 40_000): Promise<number> {
  const started = Date.now();
  let written = 0;
  for (;;) {
    const due = rows<{ iccid: string }>(await db.execute(sql`
      select iccid from cards where cycle_next_at is null or cycle_next_at <= ${now.toISOString()}::timestamptz limit ${CYCLE_CHUNK}`));
    if (due.length === 0) break;
    const n = await db.transaction(async (tx) => {
      const [r] = rows<{ n: number }>(await tx.execute(sql`
        select card_cycle_refresh(${now.toISOString()}::timestamptz, ${sql.param(due.map((d) => d.iccid))}::text[], true, false) as n`));
      return Number(r?.n ?? 0);
    });
    written += n;
    if (due.length < CYCLE_CHUNK || Date.now() - started > budgetMs) break;
    // the embedded database runs in this thread: let timers and requests in between chunks
    await new Promise((resolve) => setImmediate(resolve));
  }
  return written;
}

export interface CycleMismatch {
  iccid: string;
  field: string;
  kept: unknown;
  computed: unknown;
}

/**
 * The consistency check: the maintained values against a from-scratch computation at `at` (every card, or these).
 * Reads only (the computation runs in a transaction that is rolled back). Returns the differences, at most `limit`.
 */
export async function cycleMismatches(db: Db, at: Date, iccids: string[] | null = null, limit = 100): Promise<CycleMismatch[]> {
  const out: CycleMismatch[] = [];
  const cols = sql`iccid, cycle_from::text as cycle_from, cycle_to::text as cycle_to, cycle_next_at, cycle_used_bytes::text as used, cycle_sms::text as sms, cycle_quota_bytes::text as quota`;
  const scope = iccids ? sql`where iccid = any(${sql.param(iccids)}::text[])` : sql``;
  type Row = Record<string, unknown> & { iccid: string };
  const ROLLBACK = new Error('rollback');
  await db.transaction(async (tx) => {
    const kept = rows<Row>(await tx.execute(sql`select ${cols} from cards ${scope} order by iccid`));
    await tx.execute(sql`select card_cycle_refresh(${at.toISOString()}::timestamptz, ${iccids ? sql`${sql.param(iccids)}::text[]` : sql`null`}, false, true)`);
    const computed = rows<Row>(await tx.execute(sql`select ${cols} from cards ${scope} order by iccid`));
    const byIccid = new Map(computed.map((r) => [r.iccid, r]));
    for (const k of kept) {
      const c = byIccid.get(k.iccid)!;
      for (const f of ['cycle_from', 'cycle_to', 'cycle_next_at', 'used', 'sms', 'quota']) {
        const a = k[f] instanceof Date ? (k[f] as Date).toISOString() : k[f] == null ? null : String(k[f]);
        const b = c[f] instanceof Date ? (c[f] as Date).toISOString() : c[f] == null ? null : String(c[f]);
        if (a !== b && out.length < limit) out.push({ iccid: k.iccid, field: f, kept: a, computed: b });
      }
    }
    throw ROLLBACK;
  }).catch((e) => {
    if (e !== ROLLBACK) throw e;
  });
  return out;
}
