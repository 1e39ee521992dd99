import { sql } from 'drizzle-orm';
import { ErrorCode, LedgerAccount, fenToMoney, formatMoney, moneyToFen, type JournalKind } from '@lynx/contract';
import type { Executor, Tx } from '../../db/client.ts';
import { AppError, notFound } from '../../platform/errors.ts';

/**
 * The double-entry ledger (issue 13, docs/money.md). Every movement of money is one journal whose postings sum to
 * zero; a customer's balances (customer_balances) are the projection of its postings, updated in the same
 * transaction under the balance row's lock. Amounts are integer fen (bigint) in code and `numeric` in the database;
 * never a JavaScript float.
 */

/** One posting: a customer account (LedgerAccount below 100, of the journal's customer) or a platform account. */
export interface PostingLine {
  account: LedgerAccount;
  /** fen; positive adds to the account, negative takes from it */
  fen: bigint;
}

export interface JournalInput {
  kind: JournalKind;
  custId: number;
  lines: PostingLine[];
  refType?: string;
  refId?: string | number;
  memo?: string;
  /** a movement that must happen exactly once carries a key: posting it again does nothing and says so */
  idempotencyKey?: string;
  /** who caused it (a person, or 'system' for jobs and notifications) */
  by: { accountId: number | null; loginName: string | null };
  /**
   * When it happened, for opening balances brought in from before (the demo's customers existed before the first
   * start); every other movement happens now. Never later than now.
   */
  at?: Date;
}

/** A customer's money in fen, as locked and changed by a journal. */
export interface BalanceFen {
  custId: number;
  rootCustId: number;
  preDeposit: bigint;
  grants: bigint;
  contractPayment: bigint;
  withdrawHold: bigint;
  credit: bigint;
}

const COLUMN: Record<number, keyof BalanceFen> = {
  [LedgerAccount.PreDeposit]: 'preDeposit',
  [LedgerAccount.Grants]: 'grants',
  [LedgerAccount.ContractPayment]: 'contractPayment',
  [LedgerAccount.WithdrawHold]: 'withdrawHold',
};

export const isCustomerAccount = (a: number) => a < 100;
const fen = (v: unknown) => moneyToFen(String(v ?? '0')) ?? 0n;

/** What can be spent now: pre-deposit + grants + contract payments + valid credit. */
export const availableFen = (b: BalanceFen) => b.preDeposit + b.grants + b.contractPayment + b.credit;
/** What can be withdrawn now: only pre-deposit, and only what is above zero (docs/decisions.md). */
export const withdrawableFen = (b: BalanceFen) => (b.preDeposit > 0n ? b.preDeposit : 0n);

/** The contract's Balances of a customer (decimal strings). */
export function balancesOut(b: BalanceFen) {
  return {
    preDeposit: fenToMoney(b.preDeposit), grants: fenToMoney(b.grants), contractPayment: fenToMoney(b.contractPayment),
    credit: fenToMoney(b.credit), withdrawHold: fenToMoney(b.withdrawHold),
    available: fenToMoney(availableFen(b)), withdrawable: fenToMoney(withdrawableFen(b)),
  };
}

/** Reads a balance row (raw SQL, numeric as text) into fen. */
export function balanceFromRow(r: Record<string, unknown>): BalanceFen {
  return {
    custId: Number(r.cust_id), rootCustId: Number(r.root_cust_id), preDeposit: fen(r.pre_deposit), grants: fen(r.grants),
    contractPayment: fen(r.contract_payment), withdrawHold: fen(r.withdraw_hold), credit: fen(r.credit),
  };
}

const rowsOf = <T>(r: unknown): T[] => ((r as { rows?: T[] }).rows ?? (r as T[]));

/**
 * Locks a customer's balance row for the rest of the transaction (creating it at zero the first time), so that
 * checks on it and the journal that follows see and change the same money. NotFound when the customer does not exist.
 */
export async function lockBalances(tx: Executor, custId: number): Promise<BalanceFen> {
  await tx.execute(sql`insert into customer_balances (cust_id, root_cust_id)
    select cust_id, root_cust_id from customers where cust_id = ${custId} on conflict (cust_id) do nothing`);
  const [row] = rowsOf<Record<string, unknown>>(await tx.execute(sql`select cust_id, root_cust_id, pre_deposit::text, grants::text,
    contract_payment::text, withdraw_hold::text, credit::text from customer_balances where cust_id = ${custId} for update`));
  if (!row) throw notFound();
  return balanceFromRow(row);
}

/** A customer's balances without a lock (zero for a customer with no money yet). */
export async function readBalances(ex: Executor, custId: number): Promise<BalanceFen | null> {
  const [row] = rowsOf<Record<string, unknown>>(await ex.execute(sql`select c.cust_id, c.root_cust_id, coalesce(b.pre_deposit, 0)::text as pre_deposit,
    coalesce(b.grants, 0)::text as grants, coalesce(b.contract_payment, 0)::text as contract_payment,
    coalesce(b.withdraw_hold, 0)::text as withdraw_hold, coalesce(b.credit, 0)::text as credit
    from customers c left join customer_balances b on b.cust_id = c.cust_id where c.cust_id = ${custId}`));
  return row ? balanceFromRow(row) : null;
}

export interface Posted {
  journalId: number;
  /** true when the idempotency key had been posted before: nothing was posted now */
  duplicate: boolean;
  balances: BalanceFen;
}

/**
 * Posts one journal in the caller's transaction: checks that its postings sum to zero, locks the customer's
 * balances, refuses a movement that would take an account below what the rules allow (grants, contract payments
 * and held money never below zero; pre-deposit, when this journal lowers it, never below minus the valid credit:
 * 20800 with what is available), writes the journal, its postings with each customer account's balance after it,
 * and the new projection. With an idempotency key posted before, nothing changes and `duplicate` is true.
 */
export async function postJournal(tx: Tx, j: JournalInput): Promise<Posted> {
  if (!j.lines.length) throw new Error('a journal needs postings');
  const sum = j.lines.reduce((s, l) => s + l.fen, 0n);
  if (sum !== 0n) throw new Error(`journal postings must sum to zero (sum ${sum} fen)`);
  if (j.lines.some((l) => l.fen === 0n)) throw new Error('a posting of zero');
  const before = await lockBalances(tx, j.custId);
  const prior = async () => {
    const [row] = rowsOf<{ journal_id: string }>(await tx.execute(sql`select journal_id from ledger_journals where idempotency_key = ${j.idempotencyKey!}`));
    return row ? { journalId: Number(row.journal_id), duplicate: true, balances: before } : null;
  };
  // a key posted before answers its journal, whatever the balance is now (checked under the balance lock)
  if (j.idempotencyKey != null) {
    const done = await prior();
    if (done) return done;
  }

  // the rules are checked before anything is written: a refusal writes nothing, even for a caller that catches it
  // and goes on in its transaction (a journal row written first would keep the key and answer "duplicate" forever)
  const after: BalanceFen = { ...before };
  const values: { cust: number | null; account: number; amount: string; balance: string | null }[] = [];
  for (const line of j.lines) {
    if (isCustomerAccount(line.account)) {
      const col = COLUMN[line.account];
      if (!col) throw new Error(`unknown customer account ${line.account}`);
      (after[col] as bigint) += line.fen;
      values.push({ cust: j.custId, account: line.account, amount: fenToMoney(line.fen), balance: fenToMoney(after[col] as bigint) });
    } else {
      values.push({ cust: null, account: line.account, amount: fenToMoney(line.fen), balance: null });
    }
  }
  const lowersPre = after.preDeposit < before.preDeposit;
  if (after.grants < 0n || after.contractPayment < 0n || after.withdrawHold < 0n || (lowersPre && after.preDeposit < -after.credit)) {
    throw new AppError(ErrorCode.BalanceInsufficient, { available: formatMoney(fenToMoney(availableFen(before))) });
  }

  const at = j.at ? j.at.toISOString() : null;
  const [journal] = rowsOf<{ journal_id: string }>(await tx.execute(sql`insert into ledger_journals
      (kind, cust_id, root_cust_id, ref_type, ref_id, memo, idempotency_key, account_id, created_by, created_at)
    values (${j.kind}, ${j.custId}, ${before.rootCustId}, ${j.refType ?? null}, ${j.refId == null ? null : String(j.refId)}, ${j.memo ?? null},
      ${j.idempotencyKey ?? null}, ${j.by.accountId}, ${j.by.loginName}, least(coalesce(${at}::timestamptz, now()), now()))
    on conflict (idempotency_key) where idempotency_key is not null do nothing
    returning journal_id`));
  if (!journal) {
    // the same key posted meanwhile by a journal of another customer (not serialised by this balance lock)
    const done = await prior();
    if (done) return done;
    throw new Error(`idempotency key ${j.idempotencyKey} conflicted but was not found`);
  }
  const journalId = Number(journal.journal_id);

  await tx.execute(sql`insert into ledger_postings (journal_id, cust_id, account, kind, amount, balance_after, created_at)
    select ${journalId}, v.cust, v.account, ${j.kind}, v.amount, v.balance, least(coalesce(${at}::timestamptz, now()), now())
    from jsonb_to_recordset(${JSON.stringify(values)}::jsonb) as v (cust integer, account smallint, amount numeric, balance numeric)`);
  await tx.execute(sql`update customer_balances set pre_deposit = ${fenToMoney(after.preDeposit)}::numeric, grants = ${fenToMoney(after.grants)}::numeric,
    contract_payment = ${fenToMoney(after.contractPayment)}::numeric, withdraw_hold = ${fenToMoney(after.withdrawHold)}::numeric, updated_at = now()
    where cust_id = ${j.custId}`);
  return { journalId, duplicate: false, balances: after };
}

/** Sets a customer's valid credit in the projection (the credit orders' sum; the credit module's one writer). */
export async function setCredit(tx: Tx, custId: number, creditFen: bigint): Promise<BalanceFen> {
  const b = await lockBalances(tx, custId);
  await tx.execute(sql`update customer_balances set credit = ${fenToMoney(creditFen)}::numeric, updated_at = now() where cust_id = ${custId}`);
  return { ...b, credit: creditFen };
}

/** The balances of several customers at once (zero for those with no money yet), for lists of customers. */
export async function balancesFor(ex: Executor, custIds: number[]): Promise<Map<number, BalanceFen>> {
  const out = new Map<number, BalanceFen>();
  if (!custIds.length) return out;
  const rows = rowsOf<Record<string, unknown>>(await ex.execute(sql`select cust_id, root_cust_id, pre_deposit::text, grants::text, contract_payment::text,
    withdraw_hold::text, credit::text from customer_balances where cust_id in (${sql.join(custIds.map((id) => sql`${id}`), sql`, `)})`));
  for (const r of rows) out.set(Number(r.cust_id), balanceFromRow(r));
  return out;
}

export const ZERO_BALANCES = (custId: number, rootCustId: number): BalanceFen => ({
  custId, rootCustId, preDeposit: 0n, grants: 0n, contractPayment: 0n, withdrawHold: 0n, credit: 0n,
});
