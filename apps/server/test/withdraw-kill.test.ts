import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { ErrorCode, JournalKind, LedgerAccount } from '@lynx/contract';
import { DEMO_PASSWORD, freshPostgres } from './harness.ts';
import { openDatabase, type Database } from '../src/db/client.ts';
import { postJournal } from '../src/modules/money/ledger.ts';
import { runLedgerCheck } from '../src/modules/money/ledger-check.ts';

/**
 * Issue 13: kill -9 during the withdrawal payout run loses and repeats nothing. The real server runs as a child
 * process with its job workers on PostgreSQL; finance starts a payout run of WITHDRAWALS approved withdrawals; the
 * process is killed with SIGKILL while the run is paying; a new process starts on the same database and finance
 * presses "run payouts" again (the unfinished run is resumed). Every withdrawal ends paid exactly once: one
 * WithdrawPaid journal each, the held money gone to the bank in full, the ledger balanced.
 */
const WITHDRAWALS = 600;
const AMOUNT = '100.00';
const ROOT = path.resolve(import.meta.dirname, '../../..');

const freePort = () => new Promise<number>((resolve, reject) => {
  const srv = net.createServer();
  srv.listen(0, '127.0.0.1', () => {
    const port = (srv.address() as net.AddressInfo).port;
    srv.close(() => resolve(port));
  });
  srv.on('error', reject);
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('withdrawal payout run under kill -9 (PostgreSQL, a real server process)', () => {
  let url: string;
  let drop: () => Promise<void>;
  let database: Database;
  let dataDir: string;
  let child: ChildProcess | null = null;
  let port: number;
  const q = <T = Record<string, unknown>>(text: string, params: unknown[] = []) => database.sql.query<T>(text, params);
  const n = async (text: string, params: unknown[] = []) => Number((await q<{ n: string }>(text, params))[0].n);

  async function startServer() {
    port = await freePort();
    child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
      cwd: ROOT,
      env: {
        ...process.env, NODE_ENV: 'test', DATABASE_URL: url, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1',
        CMP_DEMO_PASSWORD: DEMO_PASSWORD, CMP_WORKERS: 'on', CMP_DEMO_SIMULATOR: 'off', LOG_LEVEL: 'silent', CMP_WEB_DIST: path.join(dataDir, 'no-web'),
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    for (let i = 0; i < 300; i++) {
      try {
        if ((await fetch(`http://127.0.0.1:${port}/api/health`)).ok) return;
      } catch {
        /* not listening yet */
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error('the server did not start');
  }
  const call = async (endpoint: string, body: object, token?: string) => {
    const res = await fetch(`http://127.0.0.1:${port}/api/cmp/${endpoint}?ts=1&lang=en`, {
      method: 'POST', headers: { 'content-type': 'application/json', ...(token ? { authorization: token } : {}) }, body: JSON.stringify(body),
    });
    return (await res.json()) as { success: boolean; msg: string; errorCode: number | null; data: any };
  };
  const login = async () => (await call('base/oauth/user/login', { loginName: 'admin', password: DEMO_PASSWORD })).data.accessToken as string;

  beforeAll(async () => {
    ({ url, drop } = await freshPostgres());
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lynx-kill-'));
    // the first start migrates and seeds; then the test's withdrawals are written beside it
    await startServer();
    database = await openDatabase({ databaseUrl: url, dataDir });
    await q(`insert into customers (cust_name, root_cust_id, level, status, admin_name, admin_email, admin_phone, payment_model, bank_name, bank_account)
      select 'Kill test ' || g, 0, 1, 2, 'K', 'k@example.com', '13800138000', 1, 'Bank', '6222' || lpad(g::text, 12, '0') from generate_series(1, ${WITHDRAWALS}) g`);
    await q(`update customers set root_cust_id = cust_id where cust_name like 'Kill test %'`);
    const custs = await q<{ cust_id: number }>(`select cust_id from customers where cust_name like 'Kill test %' order by cust_id`);
    const by = { accountId: null, loginName: 'system' };
    for (const [i, c] of custs.entries()) {
      await database.db.transaction(async (tx) => {
        await postJournal(tx, { kind: JournalKind.Opening, custId: c.cust_id, by, lines: [{ account: LedgerAccount.PreDeposit, fen: 100_000n }, { account: LedgerAccount.Opening, fen: -100_000n }] });
        const hold = await postJournal(tx, {
          kind: JournalKind.WithdrawHold, custId: c.cust_id, by, refType: 'withdraw', refId: `WKILL${i}`,
          lines: [{ account: LedgerAccount.PreDeposit, fen: -10_000n }, { account: LedgerAccount.WithdrawHold, fen: 10_000n }],
        });
        await tx.execute(sql.raw(`insert into withdrawals (withdraw_no, cust_id, root_cust_id, amount, account_name, bank_name, bank_account, state, applied_by,
            expected_run_day, expected_arrival_day, reviewed_by, reviewed_at, hold_journal_id)
          values ('WKILL${i}', ${c.cust_id}, ${c.cust_id}, ${AMOUNT}, 'Kill test', 'Bank', '6222', 2, 'k', '2026-12-10', '2026-12-21', 'admin', now(), ${hold.journalId})`));
      });
    }
  }, 240_000);

  afterAll(async () => {
    child?.kill('SIGKILL');
    await database?.close();
    await drop?.();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('pays every withdrawal exactly once across a kill -9 and a restart', async () => {
    const token = await login();
    const started = await call('core/finance/withdraw/runPayouts', {}, token);
    expect(started.success, started.msg).toBe(true);
    const runId = started.data.runId as number;
    expect(started.data.itemCount).toBe(WITHDRAWALS);

    // kill the process while the run is paying
    let paidAtKill = 0;
    for (let i = 0; i < 3000; i++) {
      paidAtKill = await n('select count(*) as n from withdrawals where run_id = $1 and state = 3', [runId]);
      if (paidAtKill > 0) break;
      await new Promise((r) => setTimeout(r, 5));
    }
    child!.kill('SIGKILL');
    await new Promise<void>((r) => child!.once('exit', () => r()));
    child = null;
    paidAtKill = await n('select count(*) as n from withdrawals where run_id = $1 and state = 3', [runId]);
    expect(paidAtKill, 'killed while paying').toBeGreaterThan(0);
    expect(paidAtKill, 'killed before the run ended').toBeLessThan(WITHDRAWALS);
    // nothing half done: each withdrawal is either paid with its journal or approved without one
    expect(await n(`select count(*) as n from withdrawals w where w.run_id = $1 and ((w.state = 3) <> exists
      (select 1 from ledger_journals j where j.idempotency_key = 'withdraw:' || w.withdraw_id || ':paid'))`, [runId])).toBe(0);

    // a new process; finance presses the button again: the unfinished run is resumed (answered "a run is in progress")
    await startServer();
    const again = await call('core/finance/withdraw/runPayouts', {}, await login());
    expect(again.errorCode).toBe(ErrorCode.WithdrawRunBusy);
    for (let i = 0; i < 600; i++) {
      if ((await n('select count(*) as n from withdraw_runs where run_id = $1 and state = 2', [runId])) === 1) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(await n('select count(*) as n from withdrawals where run_id = $1 and state = 3', [runId])).toBe(WITHDRAWALS);
    // exactly once: one payout journal per withdrawal, the bank got the held money in full, nothing held any more
    expect(await n(`select count(*) as n from ledger_journals where kind = ${JournalKind.WithdrawPaid} and ref_id like 'WKILL%'`)).toBe(WITHDRAWALS);
    const [{ s }] = await q<{ s: string }>(`select coalesce(sum(p.amount), 0)::text as s from ledger_postings p join ledger_journals j on j.journal_id = p.journal_id
      where j.kind = ${JournalKind.WithdrawPaid} and p.account = ${LedgerAccount.Bank}`);
    expect(s).toBe(String(WITHDRAWALS * 100) + '.00');
    expect(await n(`select count(*) as n from customer_balances b join customers c on c.cust_id = b.cust_id
      where c.cust_name like 'Kill test %' and (b.withdraw_hold <> 0 or b.pre_deposit <> 900)`)).toBe(0);
    const [run] = await q<{ paid_count: number; item_count: number }>('select paid_count, item_count from withdraw_runs where run_id = $1', [runId]);
    expect(run).toEqual({ paid_count: WITHDRAWALS, item_count: WITHDRAWALS });
    expect((await runLedgerCheck(database.db)).ok).toBe(true);
  }, 240_000);
});
