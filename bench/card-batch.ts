/**
 * Batch status change at fleet scale: 10,000 cards of a customer in the inventory state, on an operator with
 * an access configuration (the built-in network simulator), activated by one batch through the real HTTP
 * endpoints as that customer. Measures validation (upload of the selection → counts) and, the target, the
 * time from confirm to done: the durable job with every card's lifecycle change, history row, audit row and
 * operator gateway call. Checks afterwards that every card changed exactly once. The server runs as in production
 * (every background job on: the usage feed, the lifecycle scheduler, maintenance). PGlite by default, PostgreSQL on
 * loopback with BENCH_DATABASE_URL; with BENCH_FLEET_TEMPLATE (a database holding the 1,000,000-card fleet) and
 * BENCH_FLEET_DATA_DIR (the DATA_DIR it was seeded with, for its secret key) on a
 * copy of it, the size the target names. CARD_BATCH_CARDS overrides the card count (at most 10,000).
 * CARD_BATCH_WEBHOOK=on subscribes the customer to card.state_changed and batch.finished at a local receiver, so every
 * card's change also writes its webhook event in the chunk's transaction (and the delivery worker sends them meanwhile);
 * off (default) measures the producers' cost when nobody listens.
 */
import os from 'node:os';
import { fleetTemplate, posInt, runBench, sessionOf, sleep, startPlatform } from './common.ts';
import { CardState, Operator, batch } from '@lynx/contract';
import { simulatorSecretFor } from '../apps/server/src/operators/simulator.ts';
import { BATCH_CONCURRENCY } from '../apps/server/src/modules/card/batch/runner.ts';
import { TestReceiver } from '../apps/server/src/modules/delivery/webhook/test-receiver.ts';

const CARDS = Math.min(posInt('CARD_BATCH_CARDS', 10_000), batch.BATCH_MAX_CARDS);
const TARGET_MS = 10_000;
const APP_KEY = 'LYNXBENCHBATCH01';
const WEBHOOK = process.env.CARD_BATCH_WEBHOOK === 'on';
// the receiver listens on 127.0.0.1, which production refuses as a callback address unless allowed
if (WEBHOOK) process.env.CMP_OUTBOUND_ALLOW_PRIVATE = 'on';

runBench(20 * 60_000, async (cleanup) => {
  const p = await startPlatform(cleanup, { production: true, fleet: fleetTemplate() !== null });
  const post = async <T>(name: string, body: unknown, token = p.token) => {
    const res = await fetch(`${p.origin}/api/cmp/${name}?ts=1&lang=en`, {
      method: 'POST', headers: { 'content-type': 'application/json', authorization: token }, body: JSON.stringify(body),
    });
    const parsed = (await res.json()) as { success: boolean; msg: string; data: T };
    if (!parsed.success) throw new Error(`${name}: ${parsed.msg}`);
    return parsed.data;
  };
  const admin = await sessionOf(p.built, p.database, 'admin');
  const [{ n: fleetCards }] = await p.database.sql.query<{ n: string }>('select count(*) n from cards');
  await post('network/operatorsAccount/save', {
    operatorId: Operator.ChinaTelecom, accountName: 'bench', endpointUrl: 'https://api.ctwing.example.com/openapi', apiVersion: 'v1',
    adapter: 'simulator', appKey: APP_KEY, appSecret: simulatorSecretFor(APP_KEY), password: 'Bench-Password-2026',
  }, admin);

  const [ent] = await p.database.sql.query<{ cust_id: number; root_cust_id: number }>(`select cust_id, root_cust_id from accounts where login_name = 'enterprise'`);
  let rx: TestReceiver | null = null;
  if (WEBHOOK) {
    rx = await new TestReceiver().start();
    cleanup.add(() => rx!.stop());
    await post('openapi/subscribe/save', { callbackUrl: rx.url, eventTypes: [1, 5] });
  } else {
    await p.database.sql.query('update api_configs set callback_url = null where cust_id = $1', [ent.cust_id]);
  }
  const iccids = Array.from({ length: CARDS }, (_, i) => `8986094${String(i).padStart(13, '0')}`);
  await p.database.sql.query(
    `insert into cards (iccid, msisdn, imsi, state, operator_id, cust_id, root_cust_id, goods_release_id, operation_mode)
     select i, '1064' || right(i, 9), '46011' || right(i, 10), $2, $3, $4, $5, 1, 1 from unnest($1::text[]) i`,
    [iccids, CardState.Inventory, Operator.ChinaTelecom, ent.cust_id, ent.root_cust_id],
  );

  const t0 = performance.now();
  const v = await post<{ batchId: string; validCount: number }>('core/sim/batchOperate/validate', {
    params: { type: batch.BatchType.StatusChange, action: 'activate', reason: 'bench' }, sourceKind: 'selection', iccids,
  });
  const validateMs = performance.now() - t0;
  if (v.validCount !== CARDS) throw new Error(`expected ${CARDS} valid cards, got ${v.validCount}`);

  const t1 = performance.now();
  await post('core/sim/batchOperate/process', { batchId: v.batchId });
  let d: { state: number; processedCount: number; failedCount: number };
  let polls = 0;
  for (;;) {
    d = await post('core/sim/batchOperate/getBatchDetail', { batchId: v.batchId });
    polls++;
    if (d.state === batch.BatchState.Done) break;
    if (performance.now() - t1 > 15 * 60_000) throw new Error('the batch did not finish in 15 minutes');
    await sleep(100);
  }
  const runMs = performance.now() - t1;

  const count = async (q: string) => Number((await p.database.sql.query<{ n: string }>(q, [iccids]))[0].n);
  const activated = await count(`select count(*) n from cards where iccid = any($1) and state = ${CardState.Activated}`);
  const history = await count('select count(*) n from card_history where iccid = any($1)');
  const twice = await count('select count(*) n from (select iccid from card_history where iccid = any($1) group by iccid having count(*) > 1) x');
  const audits = await count(`select count(*) n from audit_log where entity = 'card' and entity_id = any($1)`);
  if (d.failedCount !== 0 || activated !== CARDS || history !== CARDS || twice !== 0 || audits !== CARDS) {
    throw new Error(`wrong outcome: failed ${d.failedCount}, activated ${activated}, history ${history}, twice ${twice}, audits ${audits}`);
  }
  const chunks = p.backend === 'postgres' ? BATCH_CONCURRENCY : 1;
  console.log(`card batch: ${CARDS} cards, status change (activate) on ${p.dbVersion} holding ${Number(fleetCards).toLocaleString('en')} cards, ${chunks} chunk(s) in flight, background jobs on`);
  console.log(`  machine load (1 min) ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} CPUs`);
  console.log(`  validate (selection → counts): ${(validateMs / 1000).toFixed(2)} s`);
  console.log(`  confirm → done: ${(runMs / 1000).toFixed(2)} s, ${Math.round(CARDS / (runMs / 1000))} cards/s (${polls} progress polls)`);
  console.log(`  checked: ${activated} activated, ${history} history rows (none twice), ${audits} audit rows, 0 failures`);
  const events = await count(`select count(*) n from webhook_events where event_type = 1 and payload->>'iccid' = any($1)`);
  if (events !== (WEBHOOK ? CARDS : 0)) throw new Error(`expected ${WEBHOOK ? CARDS : 0} card.state_changed events, got ${events}`);
  console.log(`  webhook: ${WEBHOOK ? `subscribed: ${events} card.state_changed events written with the changes, ${rx!.delivered.size} delivered by then` : 'nobody subscribed: 0 events written'}`);
  console.log(`  ratio to the 10 s target: ${(runMs / TARGET_MS).toFixed(3)} (${runMs < TARGET_MS ? 'within' : 'OVER'} target)`);
  return runMs < TARGET_MS ? 0 : 2;
});
