/**
 * Card import at fleet scale: a 100,000-row CSV (ICCID, MSISDN, IMSI, operator, batch) uploaded through the
 * real HTTP endpoint as operator staff, the server running as in production (every background job on), on a fresh
 * database (PGlite, or PostgreSQL on loopback with BENCH_DATABASE_URL), or with BENCH_FLEET_TEMPLATE on a copy of a
 * database holding the 1,000,000-card fleet (every row is checked against the stored cards). Prints the time from
 * upload to answer, rows per second and the ratio to the 30 s target. CARD_IMPORT_ROWS overrides the row count.
 */
import os from 'node:os';
import { fleetTemplate, posInt, runBench, sessionOf, startPlatform } from './common.ts';

const ROWS = posInt('CARD_IMPORT_ROWS', 100_000);
const TARGET_MS = 30_000;

function csv(rows: number): Buffer {
  const ops = ['中国移动', '中国联通', '中国电信'];
  const lines = ['ICCID,MSISDN,IMSI,运营商,批次/备注'];
  for (let i = 0; i < rows; i++) {
    const n = String(i).padStart(9, '0');
    lines.push(`89860777${n}000,1077${n},46077${n}0,${ops[i % 3]},BENCH-${Math.floor(i / 10_000)}`);
  }
  return Buffer.from(`\ufeff${lines.join('\r\n')}\r\n`);
}

runBench(15 * 60_000, async (cleanup) => {
  const p = await startPlatform(cleanup, { production: true, fleet: fleetTemplate() !== null });
  const token = await sessionOf(p.built, p.database, 'admin');
  const [{ n: stored }] = await p.database.sql.query<{ n: string }>('select count(*) n from cards');
  const file = csv(ROWS);
  const form = new FormData();
  form.append('remark', 'bench');
  form.append('file', new Blob([file], { type: 'text/csv' }), 'bench.csv');
  const t0 = performance.now();
  const res = await fetch(`${p.origin}/api/cmp/core/sim/simEnter/insert?ts=1&lang=en`, { method: 'POST', headers: { authorization: token }, body: form });
  const body = (await res.json()) as { success: boolean; msg: string; data: { successRows: number; failedRows: number } };
  const ms = performance.now() - t0;
  if (!body.success) throw new Error(`import failed: ${body.msg}`);
  const [{ n }] = await p.database.sql.query<{ n: string }>(`select count(*) n from cards where batch_no like 'BENCH-%'`);
  if (body.data.successRows !== ROWS || Number(n) !== ROWS) throw new Error(`expected ${ROWS} cards, got ${body.data.successRows} / ${n}`);
  console.log(`card import: ${ROWS} rows (${(file.length / 1024 / 1024).toFixed(1)} MB CSV) on ${p.dbVersion} holding ${Number(stored).toLocaleString('en')} cards, background jobs on`);
  console.log(`  machine load (1 min) ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} CPUs`);
  console.log(`  upload → answer: ${(ms / 1000).toFixed(2)} s, ${Math.round(ROWS / (ms / 1000))} rows/s`);
  console.log(`  ratio to the 30 s target: ${(ms / TARGET_MS).toFixed(3)} (${ms < TARGET_MS ? 'within' : 'OVER'} target)`);
  return ms < TARGET_MS ? 0 : 2;
});
