/**
 * Platform overhead benchmark: the real customer list endpoint (rate limiter, session, schema validation,
 * permission check, two SQL queries, envelope, response schema serialization, API log) against a bare
 * Fastify 5 route that answers the same bytes. Loopback only.
 *
 *   npm run bench                                                             # embedded PGlite in a temp dir
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench  # a fresh database on that server
 *
 * BENCH_SECONDS (10), BENCH_CONNECTIONS (10), BENCH_WARMUP_SECONDS (3), BENCH_BARE (auto | object | string).
 * A third route runs the real list service without the platform, so the platform's own cost shows too.
 * Runs bare, service, platform twice and keeps the better run of each. Exits 0 whatever the ratio (it is a
 * measurement), non-zero when any request failed, timed out, was not 2xx or did not return the expected body.
 */
import Fastify from 'fastify';
import { hashToken } from '../apps/server/src/platform/sessions.ts';
import { CustomerService } from '../apps/server/src/modules/account/customers.ts';
import {
  HOST, LIST_BODY, LIST_PATH, QUERY, LoadGen, capture, failures, gitInfo, machineBusyOver, machineInfo, measure, portOf,
  posInt, runBench, sleep, startPlatform, writeResults, type Summary,
} from './common.ts';

const TARGET_RATIO = 0.6;
const SETTLE_MS = 1500;
const SECONDS = posInt('BENCH_SECONDS', 10);
const CONNECTIONS = posInt('BENCH_CONNECTIONS', 10);
const WARMUP_SECONDS = posInt('BENCH_WARMUP_SECONDS', 3);
const BARE_MODE = (process.env.BENCH_BARE || 'auto') as 'auto' | 'object' | 'string';
if (!['auto', 'object', 'string'].includes(BARE_MODE)) throw new Error(`BENCH_BARE must be auto, object or string (got ${BARE_MODE})`);

type Target = 'bare' | 'service' | 'platform';

// bounded: warm-ups, four measured runs, settling, start and stop
const budgetMs = (3 * WARMUP_SECONDS + 6 * SECONDS) * 1000 + 9 * SETTLE_MS + 180_000;

runBench(budgetMs, async (cleanup) => {
  const platform = await startPlatform(cleanup, { production: true });
  const headers = { 'content-type': 'application/json', authorization: platform.token };
  const platformUrl = `${platform.origin}${LIST_PATH}${QUERY}`;
  const captured = await capture(platformUrl, headers, LIST_BODY);
  const parsed = captured.parsed as { data: { list: unknown[]; total: number } };

  // the bare app: no hooks, no plugins, no schema, logger off; the same path, answering the same bytes
  const roundTrips = JSON.stringify(captured.parsed) === captured.text;
  const bareMode: 'object' | 'string' = BARE_MODE === 'string' || (BARE_MODE === 'auto' && !roundTrips) ? 'string' : 'object';
  if (bareMode === 'object' && !roundTrips) throw new Error('BENCH_BARE=object: JSON.stringify would not give the captured bytes');
  const bare = Fastify({ logger: false });
  if (bareMode === 'object') bare.post(LIST_PATH, async () => captured.parsed);
  else bare.post(LIST_PATH, async (_req, reply) => reply.type(captured.contentType).send(captured.text));
  cleanup.add(() => bare.close());
  await bare.listen({ host: HOST, port: 0 });
  const bareUrl = `http://${HOST}:${portOf(bare)}${LIST_PATH}${QUERY}`;
  const check = await capture(bareUrl, headers, LIST_BODY);
  if (check.text !== captured.text) throw new Error('the bare route does not answer the captured bytes');

  // the same list read without the platform: a bare route calling the real service for the same actor, so
  // platform ÷ service is what the platform itself costs (ARCHITECTURE §6: API vs the same SQL run directly)
  const actor = await platform.built.deps.sessions.lookup(hashToken(platform.token));
  if (!actor) throw new Error('no session for the benchmark token');
  const service = new CustomerService(platform.database.db);
  const direct = Fastify({ logger: false });
  direct.post(LIST_PATH, async (req) => ({ success: true, msg: 'Operation success', errorCode: null, data: await service.list(req.body as never, actor) }));
  cleanup.add(() => direct.close());
  await direct.listen({ host: HOST, port: 0 });
  const serviceUrl = `http://${HOST}:${portOf(direct)}${LIST_PATH}${QUERY}`;
  const viaService = await capture(serviceUrl, headers, LIST_BODY);
  if (JSON.stringify((viaService.parsed as { data: unknown }).data) !== JSON.stringify((captured.parsed as { data: unknown }).data)) {
    throw new Error('the service route does not answer the same data');
  }

  const loadgen = new LoadGen(cleanup);
  const urls: Record<Target, string> = { bare: bareUrl, service: serviceUrl, platform: platformUrl };
  // expectBody: every response must be byte-identical to the captured one (so success:true on the platform)
  const load = (target: Target, duration: number) =>
    measure(loadgen, target, {
      url: urls[target], method: 'POST', headers, body: LIST_BODY, connections: CONNECTIONS, pipelining: 1,
      duration, timeout: 10, expectBody: target === 'service' ? viaService.text : captured.text,
    });

  const machine = machineInfo();
  const git = gitInfo();
  const bytes = Buffer.byteLength(captured.text);
  const idleBusy = await machineBusyOver(2000);
  console.log(`Lynx CMP: list endpoint vs bare Fastify route (${platform.backend})`);
  console.log(`  database   ${platform.dbDescribe}, ${platform.dbVersion}`);
  console.log(`  machine    ${machine.cpus} CPUs (${machine.cpuModel}), Node ${machine.node}, commit ${git.commit ?? '?'}${git.dirty ? ' + local changes' : ''}`);
  console.log(
    `  before     machine ${Math.round(idleBusy * 100)} % busy over 2 s with no load` +
      (idleBusy > 0.15 ? ': other work is running on this machine, the numbers will be noisy' : ''),
  );
  console.log(`  endpoint   POST ${LIST_PATH}${QUERY} as enterprise, body ${LIST_BODY}`);
  console.log(
    `  response   ${bytes} bytes, ${parsed.data.list.length} of ${parsed.data.total} customers; the bare route returns it as ` +
      (bareMode === 'object' ? 'the parsed object (JSON.stringify)' : 'the captured string'),
  );
  console.log(`  load       ${CONNECTIONS} connections, ${SECONDS} s per run, warm-up ${WARMUP_SECONDS} s each, runs bare/service/platform twice\n`);

  const line = (s: Summary) =>
    `${s.requestsPerSec.toFixed(0)} req/s, p50 ${s.latencyMs.p50.toFixed(2)} ms, p99 ${s.latencyMs.p99.toFixed(2)} ms, ` +
    `CPU µs/req server ${s.serverCpuUsPerRequest} machine ${s.machineCpuUsPerRequest}, machine ${Math.round(s.machineBusy * 100)} % busy` +
    `${failures(s) ? `, ${failures(s)} FAILED` : ''}`;

  const warmups: Summary[] = [];
  for (const target of ['bare', 'service', 'platform'] as const) {
    process.stdout.write(`  warm-up   ${target.padEnd(9)}`);
    const s = await load(target, WARMUP_SECONDS);
    warmups.push(s);
    console.log(line(s));
    await sleep(SETTLE_MS);
  }

  const order: Target[] = ['bare', 'service', 'platform', 'bare', 'service', 'platform'];
  const runs: Summary[] = [];
  for (let i = 0; i < order.length; i++) {
    process.stdout.write(`  run ${i + 1}/${order.length}   ${order[i].padEnd(9)}`);
    const s = await load(order[i], SECONDS);
    runs.push(s);
    console.log(line(s));
    await sleep(SETTLE_MS);
  }

  const best = (t: Target) => runs.filter((r) => r.target === t).sort((a, b) => b.requestsPerSec - a.requestsPerSec)[0];
  const b = best('bare');
  const p = best('platform');
  const sv = best('service');
  const ratio = p.requestsPerSec / b.requestsPerSec;
  const overhead = p.requestsPerSec / sv.requestsPerSec;
  const pass = ratio >= TARGET_RATIO;
  const all = [...warmups, ...runs];
  const total = (t: Target, f: (s: Summary) => number) => all.filter((s) => s.target === t).reduce((n, s) => n + f(s), 0);
  const problems = Object.fromEntries(
    (['bare', 'service', 'platform'] as const).map((t) => [
      t,
      {
        responses2xx: total(t, (s) => s.status2xx), errors: total(t, (s) => s.errors), timeouts: total(t, (s) => s.timeouts),
        non2xx: total(t, (s) => s.non2xx), unexpectedBody: total(t, (s) => s.mismatches),
      },
    ]),
  ) as Record<Target, { responses2xx: number; errors: number; timeouts: number; non2xx: number; unexpectedBody: number }>;
  const failed = total('bare', failures) + total('service', failures) + total('platform', failures);

  const cols = (a: string, b2: string, c: string, d: string, e: string, f: string) =>
    `  ${a.padEnd(10)}${b2.padStart(12)}${c.padStart(10)}${d.padStart(11)}${e.padStart(10)}${f.padStart(20)}`;
  const row = (name: string, s: Summary) =>
    cols(name, s.requestsPerSec.toFixed(1), s.latencyMs.p50.toFixed(2), s.latencyMs.p97_5.toFixed(2), s.latencyMs.p99.toFixed(2), `${s.errors + s.timeouts} / ${s.non2xx}`);
  console.log(`\n  best of two runs each (${CONNECTIONS} connections, ${SECONDS} s):`);
  console.log(cols('', 'req/s mean', 'p50 ms', 'p97.5 ms', 'p99 ms', 'errors / non-2xx'));
  console.log(row('bare', b));
  console.log(row('service', sv));
  console.log(row('platform', p));
  console.log(`\n  ratio platform ÷ bare requests/s: ${ratio.toFixed(3)}   target ≥ ${TARGET_RATIO.toFixed(2)}   ${pass ? 'PASS' : 'FAIL'}`);
  console.log(`  ratio platform ÷ the same service call without the platform: ${overhead.toFixed(3)}   (what auth, permission, tenancy, validation, envelope and logging cost)`);
  const pp = problems.platform;
  console.log(
    `  platform responses (warm-ups included): ${pp.responses2xx} 2xx with the expected body (success:true), ${pp.non2xx} non-2xx, ` +
      `${pp.unexpectedBody} with another body, ${pp.errors + pp.timeouts} errors/timeouts`,
  );

  const file = writeResults(`list-vs-bare-${platform.backend}`, {
    benchmark: 'list-vs-bare',
    date: new Date().toISOString(),
    backend: platform.backend,
    database: { describe: platform.dbDescribe, version: platform.dbVersion },
    machine: { ...machine, busyBeforeRuns: idleBusy },
    git,
    settings: { seconds: SECONDS, connections: CONNECTIONS, warmupSeconds: WARMUP_SECONDS, pipelining: 1, order, bareMode },
    request: { method: 'POST', path: `${LIST_PATH}${QUERY}`, body: JSON.parse(LIST_BODY), login: 'enterprise', responseBytes: bytes },
    best: { bare: b, service: sv, platform: p },
    overheadRatio: overhead,
    ratio,
    target: TARGET_RATIO,
    pass,
    problems,
    warmups,
    runs,
  });
  console.log(`  results written to ${file}`);

  if (failed) console.error(`\n  ${failed} requests failed (errors, timeouts, non-2xx or another body): exit 1`);
  return failed ? 1 : 0;
});
