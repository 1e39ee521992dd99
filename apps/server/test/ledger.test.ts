import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { ErrorCode, JournalKind, LedgerAccount, fenToMoney, moneyToFen } from '@lynx/contract';
import { backends, ownerOf, startTestApp, ZX, HD, type TestApp } from './harness.ts';
import { lockBalances, postJournal } from '../src/modules/money/ledger.ts';
import { runLedgerCheck } from '../src/modules/money/ledger-check.ts';
import { AppError } from '../src/platform/errors.ts';
import type { Tx } from '../src/db/client.ts';

/**
 * Issue 13, the ledger: journals balance, the projection follows the postings under concurrency, an idempotency key
 * posts once, a movement the balance cannot carry changes nothing, the nightly check finds a tampered balance, and
 * the capital screens' calls keep every customer to its tenant.
 */
const SYSTEM = { accountId: null, loginName: 'system' };
const topUp = (custId: number, yuan: string, key?: string) => ({
  kind: JournalKind.Recharge, custId, idempotencyKey: key, by: SYSTEM,
  lines: [{ account: LedgerAccount.PreDeposit, fen: moneyToFen(yuan)! }, { account: LedgerAccount.PaymentClearing, fen: -moneyToFen(yuan)! }],
});
const spend = (custId: number, yuan: string) => ({
  kind: JournalKind.Spend, custId, by: SYSTEM,
  lines: [{ account: LedgerAccount.PreDeposit, fen: -moneyToFen(yuan)! }, { account: LedgerAccount.Revenue, fen: moneyToFen(yuan)! }],
});

describe('money as integer fen', () => {
  it('parses and prints exact amounts, refusing a third decimal', () => {
    expect(moneyToFen('0.1')).toBe(10n);
    expect(moneyToFen('1234567890123.45')).toBe(123456789012345n);
    expect(moneyToFen('-20')).toBe(-2000n);
    expect(moneyToFen('1.005')).toBeNull();
    expect(moneyToFen('abc')).toBeNull();
    expect(fenToMoney(-5n)).toBe('-0.05');
    expect(fenToMoney(123456789012345n)).toBe('1234567890123.45');
  });
});

describe.each(backends)('the ledger on %s', (backend) => {
  let t: TestApp;
  let zx: number;
  let hd: number;
  let admin: string;
  let enterprise: string;
  const q = <T = Record<string, unknown>>(text: string, params: unknown[] = []) => t.database.sql.query<T>(text, params);
  const balance = async (custId: number) => (await q<{ pre_deposit: string; credit: string }>('select pre_deposit::text, credit::text from customer_balances where cust_id = $1', [custId]))[0];
  const post = (j: Parameters<typeof postJournal>[1]) => t.deps.db.transaction((tx: Tx) => postJournal(tx, j));

  beforeAll(async () => {
    t = await startTestApp(backend, {}, { jobs: false });
    [{ cust_id: zx }] = await q<{ cust_id: number }>('select cust_id from customers where cust_name = $1', [ZX]);
    [{ cust_id: hd }] = await q<{ cust_id: number }>('select cust_id from customers where cust_name = $1', [HD]);
    admin = await t.login('admin');
    enterprise = await t.login('enterprise');
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('the demo money is opening journals: the projection equals the postings and the check passes', async () => {
    expect(await balance(zx)).toEqual({ pre_deposit: '50000.00', credit: '10000.00' });
    const check = await runLedgerCheck(t.deps.db);
    expect(check.mismatches).toEqual([]);
    expect(check.ok).toBe(true);
  });

  it('refuses postings that do not sum to zero, and a charge beyond pre-deposit plus credit (nothing written)', async () => {
    await expect(post({ ...topUp(zx, '1'), lines: [{ account: LedgerAccount.PreDeposit, fen: 100n }] })).rejects.toThrow(/sum to zero/);
    const journals = Number((await q<{ n: string }>('select count(*) as n from ledger_journals'))[0].n);
    // 50,000 pre-deposit + 10,000 credit: 60,000.01 is one fen too much
    const err = await post(spend(zx, '60000.01')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe(ErrorCode.BalanceInsufficient);
    expect((err as AppError).params).toEqual({ available: '60,000.00' });
    expect(Number((await q<{ n: string }>('select count(*) as n from ledger_journals'))[0].n)).toBe(journals);
    expect((await balance(zx)).pre_deposit).toBe('50000.00');
    // exactly down to minus the credit is allowed, and back
    await post(spend(zx, '60000.00'));
    expect((await balance(zx)).pre_deposit).toBe('-10000.00');
    await post(topUp(zx, '60000'));
    expect((await balance(zx)).pre_deposit).toBe('50000.00');
  });

  it('an idempotency key posts once, also when the same movement arrives many times at once', async () => {
    const before = BigInt(moneyToFen((await balance(hd)).pre_deposit)!);
    const results = await Promise.all(Array.from({ length: 20 }, () => post(topUp(hd, '10.01', `test-pay-${backend}`))));
    expect(results.filter((r) => !r.duplicate)).toHaveLength(1);
    expect(new Set(results.map((r) => r.journalId)).size).toBe(1);
    expect(moneyToFen((await balance(hd)).pre_deposit)).toBe(before + 1001n);
  });

  it('keeps the projection equal to the postings under concurrent movements, with running balances in order', async () => {
    const start = moneyToFen((await balance(hd)).pre_deposit)!;
    const ops = Array.from({ length: 40 }, (_, i) => (i % 4 === 3 ? post(spend(hd, '3.33')) : post(topUp(hd, '1.11'))));
    await Promise.all(ops);
    expect(moneyToFen((await balance(hd)).pre_deposit)).toBe(start + 30n * 111n - 10n * 333n);
    const rows = await q<{ amount: string; balance_after: string }>(
      'select amount::text, balance_after::text from ledger_postings where cust_id = $1 and account = 1 order by posting_id', [hd]);
    let running = 0n;
    for (const r of rows) {
      running += moneyToFen(r.amount)!;
      expect(moneyToFen(r.balance_after)).toBe(running);
    }
    expect((await runLedgerCheck(t.deps.db)).ok).toBe(true);
  });

  it('the nightly check reports a balance changed behind the ledger, and does not correct it', async () => {
    await q('update customer_balances set grants = grants + 1 where cust_id = $1', [hd]);
    const check = await runLedgerCheck(t.deps.db);
    expect(check.ok).toBe(false);
    expect(check.mismatches).toContainEqual({ custId: hd, account: LedgerAccount.Grants, journalId: null, expected: '0.00', actual: '1.00' });
    const last = await t.call('core/finance/capital/getLedgerCheck', {}, { token: admin });
    expect(last.body.data).toMatchObject({ ok: false, mismatches: [{ custId: hd, account: LedgerAccount.Grants }] });
    // a customer does not see the platform's check
    expect((await t.call('core/finance/capital/getLedgerCheck', {}, { token: enterprise })).body.errorCode).toBe(ErrorCode.PermissionDenied);
    await q('update customer_balances set grants = grants - 1 where cust_id = $1', [hd]);
    expect((await runLedgerCheck(t.deps.db)).ok).toBe(true);
  });

  it('capital list and ledger: staff see every customer; a customer its tree and never another one', async () => {
    const all = (await t.call('core/finance/capital/getCapitalListPage', { pageSize: 100 }, { token: admin })).body.data;
    expect(all.list.map((r: { custId: number }) => r.custId)).toEqual(expect.arrayContaining([zx, hd]));
    const mine = (await t.call('core/finance/capital/getCapitalListPage', { pageSize: 100 }, { token: enterprise })).body.data;
    const owner = await ownerOf(t, 'enterprise');
    expect(mine.list.length).toBeGreaterThan(0);
    expect(mine.list.every((r: { custId: number }) => r.custId !== hd)).toBe(true);
    const own = mine.list.find((r: { custId: number }) => r.custId === owner.cust_id);
    expect(own).toMatchObject({ preDeposit: '50000.00', credit: '10000.00', available: '60000.00', withdrawable: '50000.00', withdrawHold: '0.00' });
    // another tenant's customer: the same answer as one that does not exist
    for (const id of [hd, 999_999]) {
      const r = (await t.call('core/finance/capital/getCapitalLedgerPage', { custId: id }, { token: enterprise })).body;
      expect(r.errorCode).toBe(ErrorCode.NotFound);
    }
    // its own ledger, newest first, with balances after each posting; filtered by kind
    const ledger = (await t.call('core/finance/capital/getCapitalLedgerPage', { pageSize: 5 }, { token: enterprise })).body.data;
    expect(ledger.total).toBeGreaterThanOrEqual(3);
    expect(ledger.list[0]).toMatchObject({ kind: JournalKind.Recharge, account: LedgerAccount.PreDeposit, amount: '60000.00', balanceAfter: '50000.00' });
    const spends = (await t.call('core/finance/capital/getCapitalLedgerPage', { kind: JournalKind.Spend }, { token: enterprise })).body.data;
    expect(spends.list.every((l: { kind: number }) => l.kind === JournalKind.Spend)).toBe(true);
    // staff must name the customer
    expect((await t.call('core/finance/capital/getCapitalLedgerPage', {}, { token: admin })).body.errorCode).toBe(ErrorCode.Validation);
    // the customer list reads the same projection
    const cust = (await t.call('core/account/customer/getCustomerInfo', { custId: zx }, { token: admin })).body.data;
    expect(cust).toMatchObject({ preDeposit: '50000.00', credit: '10000.00', available: '60000.00' });
  });

  it('the capital list sorts by each balance (ties by customer) and pages without gaps; a new customer has its zero row', async () => {
    const created = (await t.call('core/account/customer/saveCustomer', {
      custName: `Ledger sort ${backend}`, adminName: 'A', adminEmail: 'a@example.com', adminPhone: '13800138000',
    }, { token: admin })).body.data.custId as number;
    expect((await balance(created)).pre_deposit).toBe('0.00');
    const [{ root_cust_id }] = await q<{ root_cust_id: number }>('select root_cust_id from customer_balances where cust_id = $1', [created]);
    expect(root_cust_id).toBe(created);
    for (const sortField of ['available', 'preDeposit', 'credit', 'custName']) {
      for (const sortOrder of ['ascend', 'descend'] as const) {
        const p1 = (await t.call('core/finance/capital/getCapitalListPage', { sortField, sortOrder, pageSize: 3 }, { token: admin })).body.data;
        const p2 = (await t.call('core/finance/capital/getCapitalListPage', { sortField, sortOrder, pageSize: 3, current: 2 }, { token: admin })).body.data;
        const all = (await t.call('core/finance/capital/getCapitalListPage', { sortField, sortOrder, pageSize: 500 }, { token: admin })).body.data;
        expect(all.total).toBe(all.list.length);
        expect([...p1.list, ...p2.list].map((r: { custId: number }) => r.custId)).toEqual(all.list.slice(0, 6).map((r: { custId: number }) => r.custId));
        const key = (r: Record<string, string>) => (sortField === 'custName' ? r.custName.toLowerCase() : Number(moneyToFen(r[sortField])));
        const keys = all.list.map(key);
        const sorted = [...keys].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
        expect(keys).toEqual(sortOrder === 'ascend' ? sorted : sorted.reverse());
      }
    }
  });

  it('locks and creates the balance row of a customer without money', async () => {
    const [{ cust_id: sub }] = await q<{ cust_id: number }>('select cust_id from customers where level = 2 order by cust_id limit 1');
    const b = await t.deps.db.transaction((tx: Tx) => lockBalances(tx, sub));
    expect(b.preDeposit).toBe(0n);
  });

  it('a refused movement writes nothing, even when its caller catches the refusal and commits: its key stays free', async () => {
    const key = `test-refused-${backend}`;
    const journals = async () => Number((await q<{ n: string }>('select count(*) as n from ledger_journals where idempotency_key = $1', [key]))[0].n);
    const start = moneyToFen((await balance(hd)).pre_deposit)!;
    const tooMuch = fenToMoney(start + 100_000_000_00n);
    await t.deps.db.transaction(async (tx: Tx) => {
      const err = await postJournal(tx, { ...spend(hd, tooMuch), idempotencyKey: key }).catch((e: unknown) => e);
      expect((err as AppError).code).toBe(ErrorCode.BalanceInsufficient);
    });
    expect(await journals()).toBe(0);
    // the same key, now affordable, posts (it must not answer "duplicate" without moving any money)
    const ok = await post({ ...spend(hd, '1.00'), idempotencyKey: key });
    expect(ok.duplicate).toBe(false);
    expect(moneyToFen((await balance(hd)).pre_deposit)).toBe(start - 100n);
    expect(await journals()).toBe(1);
    // a key posted before answers its journal, even when the balance could no longer carry it
    const again = await post({ ...spend(hd, tooMuch), idempotencyKey: key });
    expect(again).toMatchObject({ duplicate: true, journalId: ok.journalId });
    expect(moneyToFen((await balance(hd)).pre_deposit)).toBe(start - 100n);
    expect((await runLedgerCheck(t.deps.db)).ok).toBe(true);
  });
});
