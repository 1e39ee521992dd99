/**
 * eUICC profile downloads at scale (issue 16, docs/euicc.md): 10,000 eUICCs, each with a profile bound to it (imported
 * through the real endpoint, ES2+ DownloadOrder + ConfirmOrder at the simulated SM-DP+), then a "download" batch for
 * all 10,000 as the enterprise customer through the card batch engine: the check (a validated batch), the confirm,
 * the engine's job placing the operations a chunk at a time, the dispatch job sending them to the simulator and the
 * simulator's answers applied set-based. Measures the check, the confirm and, the target, the time from the check
 * until every profile is in a final state (downloaded or download failed). The server runs as in production (every
 * background job on). PGlite by default, PostgreSQL on loopback with BENCH_DATABASE_URL. Knobs: EUICC_PROFILES (at
 * most 10,000), the simulator's CMP_SMDP_DELAY_MS (default here 200-1500) and CMP_SMDP_FAIL_RATE (default here 0.01).
 */
import os from 'node:os';
import { posInt, runBench, sleep, startPlatform } from './common.ts';
import { EuiccAction, EuiccProfileState, batch, euicc } from '@lynx/contract';

const N = Math.min(posInt('EUICC_PROFILES', 10_000), euicc.EUICC_BATCH_MAX);
const TARGET_MS = 60_000;
process.env.CMP_SMDP_DELAY_MS ??= '200-1500';
process.env.CMP_SMDP_FAIL_RATE ??= '0.01';

runBench(10 * 60_000, async (cleanup) => {
  const p = await startPlatform(cleanup, { production: true });
  const post = async <T>(name: string, body: unknown) => {
    const res = await fetch(`${p.origin}/api/cmp/${name}?ts=1&lang=en`, {
      method: 'POST', headers: { 'content-type': 'application/json', authorization: p.token }, body: JSON.stringify(body),
    });
    const parsed = (await res.json()) as { success: boolean; msg: string; data: T };
    if (!parsed.success) throw new Error(`${name}: ${parsed.msg}`);
    return parsed.data;
  };
  const eid = (i: number) => `8904903277${String(i).padStart(22, '0')}`;
  const iccid = (i: number) => `8986077${String(i).padStart(13, '0')}`;
  const rows = Array.from({ length: N }, (_, i) => ({ eid: eid(i), iccid: iccid(i), operatorId: 1 + (i % 3) }));
  const iccids = rows.map((r) => r.iccid);

  const t0 = performance.now();
  await post('core/esim/euicc/batchInsert', { rows });
  const importMs = performance.now() - t0;

  const t1 = performance.now();
  const checked = await post<{ batchId: string; valid: number }>('core/esim/euicc/check', { iccids, action: EuiccAction.Download });
  if (checked.valid !== N) throw new Error(`check: ${checked.valid} of ${N} valid`);
  const checkMs = performance.now() - t1;
  const t2 = performance.now();
  await post('core/esim/euicc/changeState', { batchId: checked.batchId });
  const requestMs = performance.now() - t2;
  let placedMs = 0;
  const count = async (where: string) => Number((await p.database.sql.query<{ n: string }>(
    `select count(*) n from euicc_profiles where iccid = any($1) and ${where}`, [iccids]))[0].n);
  let polls = 0;
  let final = 0;
  for (;;) {
    if (!placedMs) {
      const b = await post<{ state: number }>('core/esim/euicc/batch', { batchId: checked.batchId });
      if (b.state === batch.BatchState.Done) placedMs = performance.now() - t1;
    }
    final = await count(`op_id is null and state in (${EuiccProfileState.Downloaded}, ${EuiccProfileState.DownloadFailed})`);
    polls++;
    if (final === N) break;
    if (performance.now() - t1 > 5 * 60_000) throw new Error(`only ${final} of ${N} profiles final after 5 minutes`);
    await sleep(200);
  }
  const runMs = performance.now() - t1;
  const downloaded = await count(`state = ${EuiccProfileState.Downloaded}`);
  const failed = await count(`state = ${EuiccProfileState.DownloadFailed} and reason_en is not null`);
  if (downloaded + failed !== N) throw new Error(`wrong outcome: ${downloaded} downloaded, ${failed} failed with a reason, of ${N}`);
  console.log(`euicc download: ${N} profiles on ${p.dbVersion}, simulator delay ${process.env.CMP_SMDP_DELAY_MS} ms, fail rate ${process.env.CMP_SMDP_FAIL_RATE}, background jobs on`);
  console.log(`  machine load (1 min) ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} CPUs`);
  console.log(`  import (${N} eUICCs + ${N} bound profiles, ES2+ orders): ${(importMs / 1000).toFixed(2)} s`);
  console.log(`  check (${N} verdicts stored as a validated batch): ${(checkMs / 1000).toFixed(2)} s; confirm: ${(requestMs / 1000).toFixed(2)} s`);
  console.log(`  check → batch done (every operation placed by the engine): ${(placedMs / 1000).toFixed(2)} s`);
  console.log(`  check → every profile final: ${(runMs / 1000).toFixed(2)} s, ${Math.round(N / (runMs / 1000))} profiles/s (${polls} polls)`);
  console.log(`  checked: ${downloaded} downloaded, ${failed} download failed with the SM-DP+'s reason, 0 pending`);
  console.log(`  ratio to the 60 s target: ${(runMs / TARGET_MS).toFixed(3)} (${runMs < TARGET_MS ? 'within' : 'OVER'} target)`);
  return runMs < TARGET_MS ? 0 : 2;
});
