import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';

const rowsOf = <T>(r: unknown): T[] => ((r as { rows?: T[] }).rows ?? (r as T[]));

export const LEDGER_CHECK_QUEUE = 'ledger-check';

export interface Mismatch {
  custId: number | null;
  account: number | null;
  journalId: number | null;
  expected: string;
  actual: string;
}

/**
 * The nightly check (issue 13): every customer's projected balances against the sum of its postings, and every
 * journal's postings against zero. A difference is recorded in ledger_checks as an alarm (finance sees it on the
 * capital list) and logged as an error; nothing is corrected silently. Two aggregate scans of the postings: by
 * customer and account, and by journal (which also counts them).
 */
export async function runLedgerCheck(db: Db, log?: { error: (obj: unknown, msg: string) => void }) {
  const started = Date.now();
  const accounts = rowsOf<{ cust_id: number; account: number; expected: string; actual: string }>(await db.execute(sql`
    with sums as (
      select cust_id, account, sum(amount) as s from ledger_postings where cust_id is not null group by cust_id, account
    ), projected as (
      select b.cust_id, a.account, a.v
      from customer_balances b
      cross join lateral (values (1, b.pre_deposit), (2, b.grants), (3, b.contract_payment), (4, b.withdraw_hold)) as a (account, v)
    )
    select coalesce(p.cust_id, s.cust_id) as cust_id, coalesce(p.account, s.account) as account,
      coalesce(s.s, 0)::numeric(18, 2)::text as expected, coalesce(p.v, 0)::numeric(18, 2)::text as actual
    from projected p full join sums s on s.cust_id = p.cust_id and s.account = p.account
    where coalesce(s.s, 0) <> coalesce(p.v, 0)
    limit 1000`));
  // one scan for both the journals that do not sum to zero and the number of postings: the grand total row of the
  // grouping sets (journal_id null, grouping 1) carries the count, the per-journal rows only the unbalanced ones
  const perJournal = rowsOf<{ journal_id: string | null; s: string; n: string; total: number }>(await db.execute(sql`
    select journal_id, sum(amount)::numeric(18, 2)::text as s, count(*)::text as n, grouping(journal_id) as total
    from ledger_postings group by grouping sets ((journal_id), ())
    having grouping(journal_id) = 1 or sum(amount) <> 0
    order by grouping(journal_id) desc, journal_id limit 1001`));
  const n = perJournal.find((r) => Number(r.total) === 1)?.n ?? '0';
  const journals = perJournal.filter((r) => Number(r.total) === 0).map((r) => ({ journal_id: String(r.journal_id), s: r.s }));
  const mismatches: Mismatch[] = [
    ...accounts.map((a) => ({ custId: Number(a.cust_id), account: Number(a.account), journalId: null, expected: a.expected, actual: a.actual })),
    ...journals.map((j) => ({ custId: null, account: null, journalId: Number(j.journal_id), expected: '0.00', actual: j.s })),
  ];
  const durationMs = Date.now() - started;
  await db.execute(sql`insert into ledger_checks (ok, postings, duration_ms, mismatches)
    values (${mismatches.length === 0}, ${Number(n)}, ${durationMs}, ${JSON.stringify(mismatches)}::jsonb)`);
  if (mismatches.length) log?.error({ mismatches: mismatches.slice(0, 20), count: mismatches.length }, 'ledger check: balances differ from the postings');
  return { ok: mismatches.length === 0, postings: Number(n), durationMs, mismatches };
}

export async function lastLedgerCheck(db: Db) {
  const [r] = rowsOf<{ checked_at: string; ok: boolean; postings: string; duration_ms: number; mismatches: Mismatch[] }>(
    await db.execute(sql`select checked_at, ok, postings, duration_ms, mismatches from ledger_checks order by check_id desc limit 1`),
  );
  if (!r) return null;
  return {
    checkedAt: new Date(r.checked_at).toISOString(), ok: r.ok, postings: Number(r.postings), durationMs: r.duration_ms,
    mismatches: (r.mismatches ?? []).slice(0, 100),
  };
}
