/**
 * Webhook delivery at the issue-15 target: 10,000 events to a local receiver that fails 30 % of the time (half of those
 * a 5xx answer, half a dropped connection), the server killed with SIGKILL in the middle and started again, and in the
 * end every event delivered exactly once after the receiver's dedupe by event id (docs/webhooks.md, docs/performance.md).
 *
 * The server is the production process (`node --import tsx apps/server/src/main.ts`, NODE_ENV=production, every
 * background job on) on a throwaway PostgreSQL database (BENCH_DATABASE_URL, loopback only: several processes share it);
 * retry delays are shortened through CMP_WEBHOOK_RETRY_SECONDS. The events are written by this process through the real
 * outbox (`enqueueEvents` in its own transactions, 100 events each), as a producer module does. The receiver (node:http,
 * in this process) checks every signature with its own HMAC, dedupes by event id and counts the duplicates: 2xx answers
 * to an event it had already accepted (an attempt whose answer the killed server never recorded).
 *
 * WEBHOOK_BENCH_EVENTS (default 10000), WEBHOOK_BENCH_KILL_AT (share delivered before the kill, default 0.4),
 * WEBHOOK_BENCH_FAIL (failure share, default 0.3).
 */
import fs from 'node:fs';
import os from 'node:os';
import net from 'node:net';
import path from 'node:path';
import { once } from 'node:events';
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { CardState, WebhookEventType } from '@lynx/contract';
import { openDatabase } from '../apps/server/src/db/client.ts';
import { SessionStore } from '../apps/server/src/platform/sessions.ts';
import { enqueueEvents, type WebhookEventInput } from '../apps/server/src/modules/delivery/webhook/outbox.ts';
import { TestReceiver } from '../apps/server/src/modules/delivery/webhook/test-receiver.ts';
import { HOST, baseDatabaseUrl, freshPostgres, gitInfo, machineInfo, posInt, redact, runBench, sleep, writeResults } from './common.ts';

const EVENTS = posInt('WEBHOOK_BENCH_EVENTS', 10_000);
const KILL_AT = Number(process.env.WEBHOOK_BENCH_KILL_AT ?? 0.4);
const FAIL = Number(process.env.WEBHOOK_BENCH_FAIL ?? 0.3);
/** 12 attempts: an event fails them all with probability 0.3^12 ≈ 5e-7 */
const RETRY_SECONDS = '0.2,0.5,1,1,2,2,3,3,5,5,5';
const TIMEOUT_SECONDS = '5';
const TX_SIZE = 100;

const freePort = () => new Promise<number>((resolve, reject) => {
  const s = net.createServer();
  s.once('error', reject);
  s.listen(0, HOST, () => {
    const port = (s.address() as net.AddressInfo).port;
    s.close(() => resolve(port));
  });
});

runBench(30 * 60_000, async (cleanup) => {
  const base = baseDatabaseUrl();
  if (!base) throw new Error('set BENCH_DATABASE_URL to a loopback PostgreSQL server (e.g. postgres://postgres@127.0.0.1:5432/postgres): the server and this process share the database');
  const fresh = await freshPostgres(base);
  cleanup.add(fresh.drop);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lynx-bench-webhook-'));
  cleanup.add(async () => fs.rmSync(dir, { recursive: true, force: true }));
  const root = fileURLToPath(new URL('..', import.meta.url));
  const port = await freePort();
  const origin = `http://${HOST}:${port}`;

  const rx = await new TestReceiver().start();
  cleanup.add(() => rx.stop());
  let injected5xx = 0;
  let injectedDrops = 0;
  let badSignatures = 0;
  rx.behave = (r) => {
    if (r.signatureOk !== true) badSignatures++;
    const draw = Math.random();
    if (draw < FAIL / 2) {
      injected5xx++;
      return { status: draw < FAIL / 4 ? 500 : 503, body: 'try later' };
    }
    if (draw < FAIL) {
      injectedDrops++;
      return 'drop';
    }
    return { status: 200, body: 'ok' };
  };

  let server: ChildProcess | null = null;
  const startServer = async () => {
    const child = fork(path.join(root, 'apps/server/src/main.ts'), [], {
      cwd: root,
      execArgv: ['--import', 'tsx'],
      env: {
        ...process.env, NODE_ENV: 'production', PORT: String(port), HOST, DATABASE_URL: fresh.url, DATA_DIR: path.join(dir, 'data'), LOG_LEVEL: 'warn',
        CMP_WORKERS: 'on', CMP_OUTBOUND_ALLOW_PRIVATE: 'on', CMP_DEMO_PASSWORD: 'Bench@2026pass', CMP_WEBHOOK_RETRY_SECONDS: RETRY_SECONDS, CMP_WEBHOOK_TIMEOUT_SECONDS: TIMEOUT_SECONDS,
      },
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    server = child;
    const t0 = performance.now();
    for (let i = 0; ; i++) {
      if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode})`);
      try {
        if ((await fetch(`${origin}/api/health`)).ok) break;
      } catch {
        /* not listening yet */
      }
      if (i > 1800) throw new Error('the server did not start within 180 s');
      await sleep(100);
    }
    return (performance.now() - t0) / 1000;
  };
  cleanup.add(async () => {
    const child = server;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    if (!(await Promise.race([exited.then(() => true), sleep(15_000).then(() => false)]))) child.kill('SIGKILL');
  });

  const firstStartS = await startServer();
  console.log(`server started on ${redact(fresh.url)} in ${firstStartS.toFixed(1)} s (first start: migrations and demo data)`);
  const database = await openDatabase({ databaseUrl: fresh.url, dataDir: dir, memory: false });
  cleanup.add(() => database.close());
  const [ent] = await database.sql.query<{ account_id: number; cust_id: number }>(`select account_id, cust_id from accounts where login_name = 'enterprise'`);
  const token = (await new SessionStore(database.db, 1).create(database.db, ent.account_id, HOST)).token;
  const post = async <T>(name: string, body: object): Promise<T> => {
    const r = await fetch(`${origin}/api/cmp/${name}?ts=1&lang=en`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: token }, body: JSON.stringify(body) });
    const j = (await r.json()) as { success: boolean; msg: string; data: T };
    if (!j.success) throw new Error(`${name}: ${j.msg}`);
    return j.data;
  };
  // the customer's callback address, its subscription to the events and the signing secret, through the API as the customer sets them
  await post('openapi/subscribe/save', { callbackUrl: rx.url, eventTypes: [...WebhookEventType.values] });
  const secret = await post<{ keyId: string; secret: string }>('openapi/webhook/secret/rotate', {});
  rx.secrets.set(secret.keyId, secret.secret);

  const event = (n: number): WebhookEventInput => ({
    custId: ent.cust_id, type: WebhookEventType.CardStateChanged,
    payload: {
      iccid: `89860999${String(n).padStart(12, '0')}`, msisdn: null, custId: ent.cust_id, fromState: CardState.Inventory, toState: CardState.Activated,
      source: 'batch', reason: 'webhook bench', changedAt: new Date().toISOString(),
    },
  });
  const t0 = performance.now();
  const eventIds: string[] = [];
  for (let i = 0; i < EVENTS; i += TX_SIZE) {
    const batch = Array.from({ length: Math.min(TX_SIZE, EVENTS - i) }, (_, k) => event(i + k));
    const written = await database.db.transaction((tx) => enqueueEvents(tx, batch));
    eventIds.push(...written.map((w) => w.eventId));
  }
  const enqueueS = (performance.now() - t0) / 1000;
  if (eventIds.length !== EVENTS) throw new Error(`expected ${EVENTS} events written, got ${eventIds.length}`);
  console.log(`${EVENTS.toLocaleString('en')} events enqueued in ${enqueueS.toFixed(1)} s (${EVENTS / TX_SIZE} transactions)`);

  // kill -9 once KILL_AT of the events have been accepted by the receiver
  while (rx.delivered.size < EVENTS * KILL_AT) {
    if (performance.now() - t0 > 20 * 60_000) throw new Error(`only ${rx.delivered.size} delivered after 20 minutes`);
    await sleep(20);
  }
  server!.kill('SIGKILL');
  await once(server!, 'exit');
  const killS = (performance.now() - t0) / 1000;
  const [atKill] = await database.sql.query<{ delivered: string; leased: string; open: string }>(`select
    count(*) filter (where state = 3) delivered, count(*) filter (where lease_until > now()) leased,
    (select count(*) from webhook_attempts where outcome is null) open from webhook_deliveries`);
  console.log(`SIGKILL after ${killS.toFixed(1)} s: receiver has ${rx.delivered.size.toLocaleString('en')} events, the database ${Number(atKill.delivered).toLocaleString('en')} delivered, `
    + `${atKill.leased} leased, ${atKill.open} attempts in flight`);
  const restartS = await startServer();
  console.log(`server started again in ${restartS.toFixed(1)} s`);

  let last = -1;
  for (;;) {
    const [s] = await database.sql.query<{ delivered: string; dead: string }>(`select count(*) filter (where state = 3) delivered, count(*) filter (where state = 4) dead from webhook_deliveries`);
    if (Number(s.delivered) + Number(s.dead) >= EVENTS && rx.delivered.size >= EVENTS - Number(s.dead)) break;
    if (performance.now() - t0 > 25 * 60_000) throw new Error(`not done after 25 minutes: ${s.delivered} delivered, ${s.dead} dead`);
    if (Number(s.delivered) !== last && Math.floor(Number(s.delivered) / 2000) !== Math.floor(last / 2000)) console.log(`  ${Number(s.delivered).toLocaleString('en')} delivered`);
    last = Number(s.delivered);
    await sleep(200);
  }
  const totalS = (performance.now() - t0) / 1000;

  const [db] = await database.sql.query<{ delivered: string; dead: string; attempts: string; interrupted: string; max_attempts: string; rows: string }>(`select
    (select count(*) from webhook_deliveries where state = 3) delivered, (select count(*) from webhook_deliveries where state = 4) dead,
    (select coalesce(sum(total_attempts), 0) from webhook_deliveries) attempts, (select max(total_attempts) from webhook_deliveries) max_attempts,
    (select count(*) from webhook_attempts) rows, (select count(*) from webhook_attempts where outcome = 6) interrupted`);
  const wanted = new Set(eventIds);
  const lost = eventIds.filter((id) => !rx.delivered.has(id)).length;
  const strangers = [...rx.delivered].filter((id) => !wanted.has(id)).length;
  const result = {
    events: EVENTS,
    failureShare: FAIL,
    retrySeconds: RETRY_SECONDS,
    receivedRequests: rx.requests.length,
    injected5xx,
    injectedDrops,
    badSignatures,
    distinctDeliveredAtReceiver: rx.delivered.size,
    duplicatesBeforeDedupe: rx.duplicates,
    lost,
    strangers,
    database: {
      delivered: Number(db.delivered), dead: Number(db.dead), attempts: Number(db.attempts), attemptRows: Number(db.rows),
      interruptedAttempts: Number(db.interrupted), maxAttemptsOfOneDelivery: Number(db.max_attempts),
    },
    seconds: { enqueue: Number(enqueueS.toFixed(2)), kill: Number(killS.toFixed(2)), restart: Number(restartS.toFixed(2)), total: Number(totalS.toFixed(2)) },
    deliveriesPerSecond: Math.round(EVENTS / totalS),
    machine: machineInfo(),
    git: gitInfo(),
  };
  console.log(JSON.stringify(result, null, 2));
  console.log(`results: ${writeResults('webhook-delivery', result)}`);
  const ok = lost === 0 && strangers === 0 && badSignatures === 0 && Number(db.delivered) === EVENTS && rx.delivered.size === EVENTS;
  console.log(ok
    ? `PASS: all ${EVENTS.toLocaleString('en')} events delivered exactly once after dedupe (${rx.duplicates} duplicate arrivals before dedupe), ${rx.requests.length.toLocaleString('en')} requests, ${totalS.toFixed(1)} s, across a SIGKILL`
    : `FAIL: ${lost} lost, ${strangers} unknown, ${badSignatures} bad signatures, ${db.delivered} delivered in the database, ${db.dead} dead`);
  return ok ? 0 : 1;
});
