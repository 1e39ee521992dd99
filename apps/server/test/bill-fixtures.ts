import { JournalKind, LedgerAccount, businessToday, moneyToFen } from '@lynx/contract';
import { callOk, startTestApp, HD, HD_SZ, ZX, ZX_COLD, ZX_EAST, type Backend, type TestApp } from './harness.ts';
import { lockBalances, postJournal } from '../src/modules/money/ledger.ts';
import { dayPlus } from '../src/modules/money/credit/credit-service.ts';
import type { Actor } from '../src/platform/context.ts';
import type { Tx } from '../src/db/client.ts';

/**
 * The bill tests' world (issue 14): the demo app, its logins and customers, and bills written straight into the
 * tables (the run engine has its own tests), so that each rule is tried on exactly the bill it needs.
 */
export const B = 'core/finance/bill/';
export const W = 'core/finance/cancelBill/';
export const F = 'core/finance/oneOffFee/';
const SYSTEM = { accountId: null, loginName: 'system' };

export interface BillSpec {
  cust: string;
  /** amount due (and total, plan fee) */
  due?: string;
  published?: boolean;
  /** default: 5 days from today for a published bill */
  dueDate?: string | null;
  rated?: boolean;
  periodKey?: string;
  lineCount?: number;
}

export interface BillWorld {
  t: TestApp;
  ids: Record<string, number>;
  admin: string;
  enterprise: string;
  channel: string;
  sub: string;
  today: string;
  q<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  /** a period key no other test bill of this world uses */
  nextPeriod(): string;
  bill(o: BillSpec): Promise<number>;
  /** sets a customer's pre-deposit and grants to these amounts (an adjustment journal) */
  setMoney(cust: string, preDeposit: string, grants: string): Promise<void>;
  money(cust: string): Promise<{ pre: string; grants: string }>;
  billRow(billId: number, token?: string): Promise<Record<string, any>>;
  writeOff(billId: number, amount: string, token?: string): ReturnType<TestApp['call']>;
  actorOf(loginName: string): Promise<Actor>;
}

export async function openBillWorld(backend: Backend): Promise<BillWorld> {
  const t = await startTestApp(backend, {}, { jobs: false });
  const q = <T = Record<string, unknown>>(text: string, params: unknown[] = []) => t.database.sql.query<T>(text, params);
  const ids: Record<string, number> = {};
  for (const name of [ZX, ZX_EAST, ZX_COLD, HD, HD_SZ]) {
    ids[name] = (await q<{ cust_id: number }>('select cust_id from customers where cust_name = $1', [name]))[0].cust_id;
  }
  const today = businessToday();
  const admin = await t.login('admin');
  let seq = 0;
  const nextPeriod = () => {
    seq++;
    return `20${String(10 + Math.floor(seq / 12)).padStart(2, '0')}-${String((seq % 12) + 1).padStart(2, '0')}`;
  };
  return {
    t, ids, admin, today, q, nextPeriod,
    enterprise: await t.login('enterprise'),
    channel: await t.login('channel'),
    sub: await t.login('subcustomer'),
    async bill(o) {
      const periodKey = o.periodKey ?? nextPeriod();
      const custId = ids[o.cust];
      const published = o.published ?? true;
      const dueDate = !published ? null : o.dueDate === undefined ? dayPlus(today, 5) : o.dueDate;
      const [r] = await q<{ bill_id: string }>(`insert into bills (bill_no, period_key, cust_id, root_cust_id, period_from, period_to, published,
          published_at, published_by, due_date, card_count, line_count, total, tax, plan_fee, amount_due, rated_at, unbilled_over_bytes)
        select $1, $2, c.cust_id, c.root_cust_id, ($2 || '-01')::date, ($2 || '-28')::date, $3, case when $3 then now() end,
          case when $3 then 'admin' end, $4::date, 3, $5, $6::numeric, 0.57, $6::numeric, $6::numeric, case when $7 then now() end, 4096
        from customers c where c.cust_id = $8 returning bill_id`,
      [`B${periodKey.replace('-', '')}${custId}`, periodKey, published, dueDate, o.lineCount ?? 0, o.due ?? '100.00', o.rated ?? true, custId]);
      return Number(r.bill_id);
    },
    async setMoney(cust, preDeposit, grants) {
      const custId = ids[cust];
      await t.deps.db.transaction(async (tx: Tx) => {
        const b = await lockBalances(tx, custId);
        const dPre = moneyToFen(preDeposit)! - b.preDeposit;
        const dGrants = moneyToFen(grants)! - b.grants;
        const lines = [];
        if (dPre !== 0n) lines.push({ account: LedgerAccount.PreDeposit, fen: dPre });
        if (dGrants !== 0n) lines.push({ account: LedgerAccount.Grants, fen: dGrants });
        if (!lines.length) return;
        if (dPre + dGrants !== 0n) lines.push({ account: LedgerAccount.Opening, fen: -(dPre + dGrants) });
        await postJournal(tx, { kind: JournalKind.Adjust, custId, lines, by: SYSTEM });
      });
    },
    async money(cust) {
      return (await q<{ pre: string; grants: string }>(
        'select coalesce(pre_deposit, 0)::text as pre, coalesce(grants, 0)::text as grants from customer_balances where cust_id = $1', [ids[cust]]))[0];
    },
    async billRow(billId, token = admin) {
      return (await callOk(t, `${B}getBillDetail`, { billId }, token)).bill;
    },
    writeOff(billId, amount, token = admin) {
      return t.call(`${W}writeOffBill`, { billId, amount }, { token });
    },
    async actorOf(loginName) {
      const [{ account_id: id }] = await q<{ account_id: number }>('select account_id from accounts where login_name = $1', [loginName]);
      return (await t.deps.sessions.actorOf(id))!;
    },
  };
}
