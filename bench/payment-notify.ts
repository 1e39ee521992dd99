/**
 * Payment notifications under a burst (issue 13): 1,000 signed notifications for 200 paid online top-ups arrive at
 * the public notify endpoint at once, over HTTP, in a shuffled order: for every order the same notification resent
 * twice and three fresh notifications of the same payment (as channels retry). The real server runs as in production
 * (job workers on, the expiry job among them).
 *
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench:payment-notify
 *
 * (without BENCH_DATABASE_URL: embedded PGlite). Checks that every order is credited exactly once (one ledger journal
 * per order, pre-deposit up by the orders' sum, every order confirmed), that every notification was recorded, and that
 * the nightly balance check passes; prints the burst's wall time and the answers' p50 / p95.
 */
import { recharge as api, moneyToFen, pathOf } from '@lynx/contract';
import { paymentsOf } from '../apps/server/src/modules/money/recharge/recharge-routes.ts';
import { runLedgerCheck } from '../apps/server/src/modules/money/ledger-check.ts';
import type { SimNotification } from '../apps/server/src/payments/simulator.ts';
import { machineInfo, posInt, runBench, startPlatform, writeResults } from './common.ts';

const ORDERS = posInt('BENCH_ORDERS', 200);
const PER_ORDER = 5;

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
const round = (v: number) => Math.round(v * 100) / 100;

runBench(20 * 60_000, async (cleanup) => {
  const platform = await startPlatform(cleanup, { production: true });
  await platform.built.startJobs();
  const { database, origin, token } = platform;
  const q = database.sql.query.bind(database.sql);
  const sim = paymentsOf(platform.built.app).simulator;
  console.log(`${platform.dbDescribe} (${platform.dbVersion}); ${ORDERS} orders, ${ORDERS * PER_ORDER} notifications`);

  // 200 online top-ups of the enterprise, amounts drawn across 0.01 … 9,999.99, created through the API
  const post = async (endpoint: { name: string }, body: unknown, auth?: string) => {
    const res = await fetch(`${origin}${pathOf(endpoint)}?ts=1&lang=en`, {
      method: 'POST', headers: { 'content-type': 'application/json', ...(auth ? { authorization: auth } : {}) }, body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as { success: boolean; msg: string; errorCode: number | null; data: any } };
  };
  const orders: { payOrderNo: string; fen: bigint }[] = [];
  for (let i = 0; i < ORDERS; i++) {
    const fen = BigInt(1 + ((i * 7919 + 13) % 999_999));
    const amount = `${fen / 100n}.${String(fen % 100n).padStart(2, '0')}`;
    const r = await post(api.saveRecharge, { amount }, token);
    if (!r.body.success) throw new Error(`saveRecharge: ${r.body.msg}`);
    orders.push({ payOrderNo: r.body.data.payOrderNo, fen });
    // the payer pays at the channel; the channel's notifications are what the burst delivers
    await sim.pay(r.body.data.payOrderNo, { notify: false });
  }
  const [owner] = await q<{ cust_id: number }>(`select cust_id from accounts where login_name = 'enterprise'`);
  const preOf = async () => moneyToFen((await q<{ p: string }>('select pre_deposit::text as p from customer_balances where cust_id = $1', [owner.cust_id]))[0].p)!;
  const before = await preOf();

  const burst: SimNotification[] = [];
  for (const o of orders) {
    const resent = sim.notification(o.payOrderNo, 'paid');
    burst.push(resent, resent, sim.notification(o.payOrderNo, 'paid'), sim.notification(o.payOrderNo, 'paid'), sim.notification(o.payOrderNo, 'paid'));
  }
  // a fixed shuffle
  let x = 7;
  for (let i = burst.length - 1; i > 0; i--) {
    x = (x * 1103515245 + 12345) % 2147483648;
    const j = x % (i + 1);
    [burst[i], burst[j]] = [burst[j], burst[i]];
  }

  const ms: number[] = [];
  const outcomes = new Map<string, number>();
  let non200 = 0;
  const t0 = performance.now();
  await Promise.all(burst.map(async (n) => {
    const s = performance.now();
    const r = await post(api.simulatorNotify, n);
    ms.push(performance.now() - s);
    if (r.status !== 200 || !r.body.success) non200++;
    const outcome = String(r.body.data?.outcome ?? r.body.errorCode);
    outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
  }));
  const wallMs = performance.now() - t0;
  ms.sort((a, b) => a - b);

  // exactly once
  const journals = await q<{ k: string; n: string }>(`select idempotency_key as k, count(*) as n from ledger_journals
    where idempotency_key = any($1) group by idempotency_key`, [orders.map((o) => `pay:${o.payOrderNo}`)]);
  const once = journals.length === orders.length && journals.every((j) => Number(j.n) === 1);
  const expected = orders.reduce((s, o) => s + o.fen, 0n);
  const delta = (await preOf()) - before;
  const [{ n: recorded }] = await q<{ n: string }>('select count(*) as n from payment_notifications where pay_order_no = any($1)', [orders.map((o) => o.payOrderNo)]);
  const [{ n: confirmed }] = await q<{ n: string }>('select count(*) as n from recharge_orders where pay_order_no = any($1) and pay_state = 3', [orders.map((o) => o.payOrderNo)]);
  const check = await runLedgerCheck(database.db);

  const result = {
    machine: machineInfo(), backend: platform.backend, orders: ORDERS, notifications: burst.length,
    wallMs: round(wallMs), p50: round(pct(ms, 50)), p95: round(pct(ms, 95)), max: round(ms[ms.length - 1]),
    outcomes: Object.fromEntries(outcomes), non200, creditedOnce: once, preDepositDelta: String(delta), expected: String(expected),
    recorded: Number(recorded), confirmed: Number(confirmed), ledgerBalanced: check.ok,
  };
  console.log(`burst of ${burst.length} notifications: ${round(wallMs)} ms wall; answers p50 ${result.p50} ms, p95 ${result.p95} ms, max ${result.max} ms; non-200 ${non200}`);
  console.log(`outcomes ${JSON.stringify(result.outcomes)}`);
  console.log(`credited exactly once: ${once} (${journals.length} journals); pre-deposit +${delta} fen, expected +${expected} fen; ${recorded} notifications recorded; ${confirmed} orders confirmed; ledger balanced: ${check.ok}`);
  const ok = once && delta === expected && Number(recorded) === burst.length && Number(confirmed) === ORDERS && check.ok;
  const file = writeResults(`payment-notify-${platform.backend}`, result);
  console.log(`${ok ? 'every order credited exactly once, ledger balanced' : 'FAILED'}; written to ${file}`);
  return ok ? 0 : 1;
});
