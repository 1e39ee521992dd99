/**
 * Card list export at fleet scale (issue 5 target: 1,000,000 cards to CSV with the server's memory growing by
 * less than 200 MB).
 *
 *   CARD_LIST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench_1m npm run bench:card-export
 *
 * Needs a loopback PostgreSQL database holding the fleet (`npm run seed -- --cards 1000000`; CARD_LIST_DATABASE_URL,
 * else BENCH_DATABASE_URL / DATABASE_URL). Starts the real server as a child process (apps/server/src/main.ts on
 * 127.0.0.1:BENCH_PORT, default 8095, its own DATA_DIR, job workers on) with a preload that reports
 * process.memoryUsage() every 100 ms. As operator staff it first runs a small export (ICCID prefix) so every code
 * path is loaded, takes the baseline after a full garbage collection over 2.5 s of idle, then exports the whole card list to CSV through the download
 * task path (exportSimList → job → keyed pages → streamed file) and records the peak RSS and heap until the task
 * finishes. Checks the file has one line per card. Exits 0 when the RSS growth is under 200 MB, 2 otherwise.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { ExportFormat, ExportState } from '@lynx/contract';
import { openDatabase } from '../apps/server/src/db/client.ts';
import { SessionStore } from '../apps/server/src/platform/sessions.ts';
import { FLEET_ICCID_LIKE } from '../apps/server/src/seed/fleet.ts';
import { assertLoopbackDb, gitInfo, machineInfo, posInt, runBench, sleep, startServerChild, writeResults } from './common.ts';

const TARGET_MB = 200;
const PORT = posInt('BENCH_PORT', 8095);
const MB = 1024 * 1024;

interface Mem { rss: number; heapUsed: number; heapTotal: number; external: number; arrayBuffers: number; at: number }

runBench(60 * 60_000, async (cleanup) => {
  const url = process.env.CARD_LIST_DATABASE_URL || process.env.BENCH_DATABASE_URL || process.env.DATABASE_URL;
  if (!url) throw new Error('set CARD_LIST_DATABASE_URL to a PostgreSQL database on loopback holding the fleet');
  assertLoopbackDb(url);
  const database = await openDatabase({ databaseUrl: url, dataDir: os.tmpdir() });
  cleanup.add(() => database.close());
  const [{ n: cards }] = await database.sql.query<{ n: string }>('select count(*) n from cards');
  const [{ n: fleet }] = await database.sql.query<{ n: string }>('select count(*) n from cards where iccid like $1', [FLEET_ICCID_LIKE]);
  if (Number(fleet) === 0) throw new Error('the database holds no fleet: run npm run seed -- --cards 1000000 on it first');

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lynx-bench-export-'));
  cleanup.add(async () => fs.rmSync(dataDir, { recursive: true, force: true }));
  const { child, origin, samples } = await startServerChild<Mem>(cleanup, {
    port: PORT, startSeconds: 60, memProbe: true,
    env: { DATABASE_URL: url, DATA_DIR: dataDir, CMP_RATE_LIMIT: '1000000', CMP_RATE_LIMIT_IP: '1000000' },
  });

  const [admin] = await database.sql.query<{ account_id: number }>(`select account_id from accounts where login_name = 'admin'`);
  const token = (await new SessionStore(database.db, 1).create(database.db, admin.account_id, '127.0.0.1')).token;
  const post = async <T,>(name: string, body: unknown): Promise<T> => {
    const res = await fetch(`${origin}/api/cmp/${name}?ts=1&lang=en`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: token }, body: JSON.stringify(body) });
    const json = (await res.json()) as { success: boolean; msg: string; data: T };
    if (!json.success) throw new Error(`${name}: ${json.msg}`);
    return json.data;
  };
  const exportAll = async (filters: Record<string, unknown>) => {
    const { taskId } = await post<{ taskId: string }>('core/sim/simQuery/exportSimList', { ...filters, format: ExportFormat.Csv });
    const t0 = performance.now();
    for (;;) {
      const page = await post<{ list: { taskId: string; state: number; rowCount: number | null; fileSize: number | null; error: string | null }[] }>('core/downloadTask/getListPage', { current: 1, pageSize: 10 });
      const task = page.list.find((t) => t.taskId === taskId);
      if (task && task.state !== ExportState.InProcess) {
        if (task.state !== ExportState.Succeeded) throw new Error(`export failed: ${task.error}`);
        return { taskId, ms: performance.now() - t0, rows: task.rowCount ?? 0, bytes: task.fileSize ?? 0 };
      }
      await sleep(250);
    }
  };

  // warm up: a small export loads every code path (exports, CSV writer, list, decorations)
  const warm = await exportAll({ iccid: '8986009000000099', iccidMatch: 'prefix' });
  // the baseline after a full collection, so garbage of the warm-up does not hide growth
  child.send({ gc: true });
  await sleep(3000);
  const idle = samples.filter((s) => s.at > Date.now() - 2500);
  const base = { rss: Math.max(...idle.map((s) => s.rss)), heapUsed: Math.max(...idle.map((s) => s.heapUsed)) };

  const from = samples.length;
  const big = await exportAll({});
  await sleep(300);
  const during = samples.slice(from);
  const peak = { rss: Math.max(...during.map((s) => s.rss)), heapUsed: Math.max(...during.map((s) => s.heapUsed)), external: Math.max(...during.map((s) => s.external)) };

  // one CSV line per card, plus the header
  const file = path.join(dataDir, 'files', 'exports', `${big.taskId}.csv`);
  let lines = 0;
  for await (const _ of readline.createInterface({ input: fs.createReadStream(file) })) lines++;
  if (lines !== Number(cards) + 1 || big.rows !== Number(cards)) throw new Error(`expected ${cards} cards in the file, found ${lines - 1} lines (task says ${big.rows})`);

  const growthMb = Math.round(((peak.rss - base.rss) / MB) * 10) / 10;
  // the course of the export in tenths: a steady climb would be rows kept; a saw-tooth is garbage collected late
  const tenths = Array.from({ length: 10 }, (_, k) => during.slice(Math.floor((k * during.length) / 10), Math.floor(((k + 1) * during.length) / 10)))
    .filter((w) => w.length)
    .map((w) => ({ rssMb: Math.round(Math.max(...w.map((x) => x.rss)) / MB), heapUsedMinMb: Math.round(Math.min(...w.map((x) => x.heapUsed)) / MB), heapUsedMaxMb: Math.round(Math.max(...w.map((x) => x.heapUsed)) / MB) }));
  const result = {
    at: new Date().toISOString(), cards: Number(cards), rows: big.rows, fileMb: Math.round((big.bytes / MB) * 10) / 10, seconds: Math.round(big.ms / 100) / 10,
    rowsPerSecond: Math.round(big.rows / (big.ms / 1000)), warmUpRows: warm.rows,
    rssMb: { baseline: Math.round(base.rss / MB), peak: Math.round(peak.rss / MB), growth: growthMb },
    heapUsedMb: { baseline: Math.round(base.heapUsed / MB), peak: Math.round(peak.heapUsed / MB) }, externalPeakMb: Math.round(peak.external / MB),
    samples: during.length, course: tenths, targetMb: TARGET_MB, met: growthMb < TARGET_MB, machine: machineInfo(), git: gitInfo(),
  };
  console.log(`card export: ${big.rows.toLocaleString('en')} cards to CSV (${result.fileMb} MB) in ${result.seconds} s, ${result.rowsPerSecond.toLocaleString('en')} rows/s`);
  console.log(`  server RSS: ${result.rssMb.baseline} MB idle → ${result.rssMb.peak} MB peak: growth ${growthMb} MB (target < ${TARGET_MB} MB: ${result.met ? 'met' : 'MISSED'})`);
  console.log(`  server heap used: ${result.heapUsedMb.baseline} MB idle → ${result.heapUsedMb.peak} MB peak (${during.length} samples)`);
  console.log(`  by tenth of the export: RSS ${tenths.map((x) => x.rssMb).join(' ')} MB; heap used low ${tenths.map((x) => x.heapUsedMinMb).join(' ')} MB`);
  console.log(`results: ${writeResults('card-export-postgres', result)}`);
  return result.met ? 0 : 2;
});
