import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import ExcelJS from 'exceljs';
import { CardState, ErrorCode, EuiccAction, EuiccProfileState as S, ExportFormat, Operator, batch, errorMessage } from '@lynx/contract';
import { backends, multipart, ownerOf, startTestApp, waitFor, type Owner, type TestApp } from '../../../test/harness.ts';
import { BatchRunner } from '../card/batch/runner.ts';
import { euiccEngineOf } from './routes.ts';
import type { SmdpSimulator } from '../../operators/esim/simulator.ts';

/**
 * Card › eUICC: import, EID assignment (ES2+ orders at the simulated SM-DP+), profile operations that end in a final
 * state when the SM-DP+ answers, fails or never answers, the spec's batch limit, activation-code QR rules, the page and
 * button codes, and each tenant kept to its own eUICCs and profiles.
 */
const API = 'core/esim/euicc/';
const eid = (n: number) => `8904903200000000000000000000${String(n).padStart(4, '0')}`;
const iccid = (n: number) => `8986${String(n).padStart(16, '0')}`;

describe.each(backends)('eUICC on %s', (backend) => {
  let t: TestApp;
  let sim: SmdpSimulator;
  const tok: Record<string, string> = {};
  let zx: Owner;
  const q = <T = Record<string, unknown>>(text: string, params: unknown[] = []) => t.database.sql.query<T>(text, params);
  const call = (name: string, body: object, who: string, lang: 'zh' | 'en' = 'en') => t.call(`${API}${name}`, body, { token: tok[who], lang });
  const ok = async (name: string, body: object, who: string) => {
    const r = await call(name, body, who);
    expect(r.body.errorCode, r.body.msg).toBeNull();
    return r.body.data;
  };
  /** a state change through the engine, back once its batch has placed the operations (the SM-DP+ answers later) */
  const change = async (body: object, who: string) => {
    const r = await ok('changeState', body, who);
    await waitFor(async () => (await ok('batch', { batchId: r.batchId }, who)).state === batch.BatchState.Done, 15_000, 25);
    return r;
  };
  const stateOf = async (i: string) => (await q<{ state: number; reason_zh: string | null; reason_en: string | null; op_id: string | null; eid: string | null }>(
    'select state, reason_zh, reason_en, op_id, eid from euicc_profiles where iccid = $1', [i]))[0];
  const settled = (i: string, state: number) => waitFor(async () => {
    const r = await stateOf(i);
    return r.state === state && r.op_id === null ? r : null;
  }, 15_000, 100);

  beforeAll(async () => {
    t = await startTestApp(backend);
    for (const who of ['admin', 'enterprise', 'channel', 'subcustomer']) tok[who] = await t.login(who);
    zx = await ownerOf(t, 'enterprise');
    const engine = euiccEngineOf(t.app);
    sim = engine.gateway as SmdpSimulator;
    sim.options.delayMs = [5, 30];
    engine.timeoutSeconds = 1;
    await ok('batchInsert', {
      rows: [
        { eid: eid(1) }, { eid: eid(2) },
        { iccid: iccid(1), operatorId: Operator.ChinaMobile }, { iccid: iccid(2), operatorId: Operator.ChinaUnicom },
        { iccid: iccid(3), operatorId: Operator.ChinaMobile, eid: eid(2) },
        ...[4, 5, 6, 7, 8].map((n) => ({ iccid: iccid(n), operatorId: Operator.ChinaTelecom })),
      ],
    }, 'enterprise');
  }, 240_000);
  afterAll(async () => t?.stop());

  it('imports eUICCs and profiles for the importer, the profile with an EID bound at the SM-DP+', async () => {
    const page = await ok('list', { eid: eid(2).slice(0, 30) }, 'enterprise');
    const e2 = page.list.find((e: { eid: string }) => e.eid === eid(2));
    expect(e2.profiles).toHaveLength(1);
    expect(e2.profiles[0]).toMatchObject({ iccid: iccid(3), state: S.Bound, custId: zx.cust_id });
    expect(e2.profiles[0].activationCode).toMatch(/^LPA:1\$smdp\.sim\.lynx-cmp\.local\$[0-9A-F]{20}$/);
    expect((await stateOf(iccid(1))).state).toBe(S.Unbound);
    // the same EID or ICCID again: refused with the row, nothing added
    const again = await call('batchInsert', { rows: [{ eid: eid(9) }, { iccid: iccid(1), operatorId: 1 }] }, 'enterprise', 'zh');
    expect(again.body.errorCode).toBe(ErrorCode.EuiccProfileExists);
    expect(again.body.msg).toBe(errorMessage(ErrorCode.EuiccProfileExists, 'zh', { row: 2, value: iccid(1) }));
    expect(await q('select 1 from euiccs where eid = $1', [eid(9)])).toHaveLength(0);
    // a bad row is named in the user's language
    const bad = await call('batchInsert', { rows: [{ eid: '123' }] }, 'enterprise', 'en');
    expect(bad.body.msg).toContain('Row 1: not an EID (32 digits): 123');
    // staff must say for which customer
    expect((await call('batchInsert', { rows: [{ eid: eid(9) }] }, 'admin')).body.errorCode).toBe(ErrorCode.Validation);
  });

  it('assigns an EID (bound, matching id, the card gets the EID), then downloads, enables, disables and deletes', async () => {
    await q(`insert into cards (iccid, msisdn, imsi, state, operator_id, cust_id, root_cust_id) values ($1, '10640000001', '460000000000001', $2, 1, $3, $4)`,
      [iccid(1), CardState.Activated, zx.cust_id, zx.root_cust_id]);
    const p = await ok('assignEid', { iccid: iccid(1), eid: eid(1) }, 'enterprise');
    expect(p).toMatchObject({ iccid: iccid(1), eid: eid(1), state: S.Bound });
    expect(sim.calls.filter((c) => c.iccid === iccid(1)).map((c) => c.call)).toEqual(['downloadOrder', 'confirmOrder']);
    expect((await q('select euicc, eid from cards where iccid = $1', [iccid(1)]))[0]).toEqual({ euicc: true, eid: eid(1) });

    await change({ iccids: [iccid(1)], action: EuiccAction.Download }, 'enterprise');
    await settled(iccid(1), S.Downloaded);
    const one = await change({ iccids: [iccid(1)], action: EuiccAction.Enable }, 'enterprise');
    expect(one).toMatchObject({ accepted: 1, batchId: expect.any(String) });
    await settled(iccid(1), S.Enabled);
    // even one profile's change is a batch of the card batch engine, done with its item succeeded
    expect((await q<{ type: number; state: number; status: number }>(
      'select b.type, b.state, i.status from card_batches b join card_batch_items i using (batch_id) where b.batch_id = $1', [one.batchId]))[0])
      .toEqual({ type: batch.BatchType.EuiccEnable, state: batch.BatchState.Done, status: batch.BatchItemStatus.Succeeded });
    // an enabled profile cannot be deleted: refused in both languages, nothing changes
    for (const lang of ['zh', 'en'] as const) {
      const r = await call('changeState', { iccids: [iccid(1)], action: EuiccAction.Delete }, 'enterprise', lang);
      expect(r.body.errorCode).toBe(ErrorCode.EuiccTransitionRefused);
      expect(r.body.msg).toContain(S.label(S.Enabled, lang));
    }
    await change({ iccids: [iccid(1)], action: EuiccAction.Disable }, 'enterprise');
    await settled(iccid(1), S.Disabled);
    await change({ iccids: [iccid(1)], action: EuiccAction.Delete }, 'enterprise');
    const gone = await settled(iccid(1), S.Unbound);
    expect(gone.eid).toBeNull();
    expect((await q('select eid from cards where iccid = $1', [iccid(1)]))[0].eid).toBeNull();
    const audits = await q<{ entity: string }>(`select entity from audit_log where entity like 'euicc%' and after::text like $1`, [`%${iccid(1)}%`]);
    expect(audits.length).toBeGreaterThanOrEqual(5);
  });

  it('refuses a transition the table does not allow, and the whole request with it', async () => {
    await ok('assignEid', { iccid: iccid(4), eid: eid(1) }, 'enterprise');
    const check = await ok('check', { iccids: [iccid(4), iccid(5), '89860000000000009999'], action: EuiccAction.Download }, 'enterprise');
    expect(check).toMatchObject({ total: 3, valid: 1, invalid: 2, already: 0, validIccids: [iccid(4)], batchId: expect.any(String) });
    expect(check.refused.map((r: { reasonEn: string }) => r.reasonEn)).toEqual([
      errorMessage(ErrorCode.EuiccTransitionRefused, 'en', { iccid: iccid(5), stateZh: '', stateEn: 'Unbound', actionZh: '', actionEn: 'download' }),
      errorMessage(ErrorCode.EuiccProfileNotFound, 'en', { iccid: '89860000000000009999' }),
    ]);
    const r = await call('changeState', { iccids: [iccid(4), iccid(5)], action: EuiccAction.Download }, 'enterprise');
    expect(r.body.errorCode).toBe(ErrorCode.EuiccTransitionRefused);
    expect((await stateOf(iccid(4))).state).toBe(S.Bound);
  });

  it('ends an unanswered download in "download failed" with the reason, and an SM-DP+ error with its reason', async () => {
    sim.inject(iccid(4), { mode: 'silent', kind: 'download', times: 1 });
    await change({ iccids: [iccid(4)], action: EuiccAction.Download }, 'enterprise');
    await waitFor(async () => (await stateOf(iccid(4))).state === S.Downloading, 15_000, 50);
    const failed = await settled(iccid(4), S.DownloadFailed);
    expect(failed.reason_en).toBe(errorMessage(ErrorCode.EuiccNoAnswer, 'en', { seconds: 1 }));

    sim.inject(iccid(4), { mode: 'error', reason: 'eUICC memory full (8.2.5)', times: 1 });
    await change({ iccids: [iccid(4)], action: EuiccAction.Download }, 'enterprise');
    expect((await settled(iccid(4), S.DownloadFailed)).reason_en).toContain('eUICC memory full (8.2.5)');

    sim.inject(iccid(4), { mode: 'refuse', reason: 'profile not released', times: 1 });
    await change({ iccids: [iccid(4)], action: EuiccAction.Download }, 'enterprise');
    expect((await settled(iccid(4), S.DownloadFailed)).reason_en).toContain('profile not released');

    // retried, it works; an unanswered enable ends in "enable failed"
    await change({ iccids: [iccid(4)], action: EuiccAction.Download }, 'enterprise');
    await settled(iccid(4), S.Downloaded);
    sim.inject(iccid(4), { mode: 'silent', kind: 'enable', times: 1 });
    await change({ iccids: [iccid(4)], action: EuiccAction.Enable }, 'enterprise');
    expect((await settled(iccid(4), S.EnableFailed)).reason_zh).toBe(errorMessage(ErrorCode.EuiccNoAnswer, 'zh', { seconds: 1 }));
  });

  it('sends an operation a stopped process left unsent (restart) and never twice', async () => {
    await ok('assignEid', { iccid: iccid(6), eid: eid(1) }, 'enterprise');
    // as if the request committed and the process died before any dispatch
    await q(`update euicc_profiles set op_id = gen_random_uuid(), op_action = $2, op_sent = false, state = $3,
      op_deadline = now() + interval '1 minute' where iccid = $1`, [iccid(6), EuiccAction.Download, S.Downloading]);
    const [{ op_id }] = await q<{ op_id: string }>('select op_id from euicc_profiles where iccid = $1', [iccid(6)]);
    await euiccEngineOf(t.app).sweep();
    await settled(iccid(6), S.Downloaded);
    expect(sim.calls.filter((c) => c.opId === op_id)).toHaveLength(1);
  });

  it('refuses more than 10,000 profiles with the spec\'s text', async () => {
    const many = Array.from({ length: 10_001 }, (_, i) => iccid(100_000 + i));
    for (const lang of ['zh', 'en'] as const) {
      const r = await call('changeState', { iccids: many, action: EuiccAction.Download }, 'enterprise', lang);
      expect(r.body.errorCode).toBe(ErrorCode.BatchTooMany);
      expect(r.body.msg).toBe(errorMessage(ErrorCode.BatchTooMany, lang, { count: 10_001, max: 10_000 }));
    }
    const rows = many.map((i) => ({ iccid: i, operatorId: 1 }));
    expect((await call('batchInsert', { rows }, 'enterprise')).body.errorCode).toBe(ErrorCode.BatchTooMany);
    const pairs = many.map((i) => ({ iccid: i, eid: eid(1) }));
    expect((await call('batchAssignEid', { pairs }, 'enterprise')).body.errorCode).toBe(ErrorCode.BatchTooMany);
    expect((await call('check', { iccids: many, action: EuiccAction.Enable }, 'enterprise')).body.errorCode).toBe(ErrorCode.BatchTooMany);
  });

  it('batch assigns all or nothing', async () => {
    const r = await call('batchAssignEid', { pairs: [{ iccid: iccid(7), eid: eid(2) }, { iccid: iccid(8), eid: eid(77) }] }, 'enterprise');
    expect(r.body.errorCode).toBe(ErrorCode.EuiccNotFound);
    expect((await stateOf(iccid(7))).state).toBe(S.Unbound);
    expect(await ok('batchAssignEid', { pairs: [{ iccid: iccid(7), eid: eid(2) }, { iccid: iccid(8), eid: eid(2) }] }, 'enterprise')).toEqual({ assigned: 2 });
    expect((await stateOf(iccid(8))).eid).toBe(eid(2));
  });

  it('issues activation-code QR codes by the card rules: frozen, retired, invalidated skipped; start unavailable', async () => {
    await q(`insert into cards (iccid, msisdn, imsi, state, operator_id, cust_id, root_cust_id) values
      ($1, '10640000007', '460000000000007', $3, 1, $4, $5), ($2, '10640000008', '460000000000008', $6, 1, $4, $5)`,
    [iccid(7), iccid(8), CardState.Frozen, zx.cust_id, zx.root_cust_id, CardState.Start]);
    const r = await ok('activationCode', { iccids: [iccid(3), iccid(7), iccid(8), iccid(2)] }, 'enterprise');
    expect(r.codes.map((c: { iccid: string }) => c.iccid)).toEqual([iccid(3)]);
    expect(r.codes[0].activationCode).toMatch(/^LPA:1\$/);
    expect(r.codes[0].activationCode).not.toContain(iccid(3));
    expect(r.codes[0].png).toMatch(/^data:image\/png;base64,/);
    expect(r.skipped.map((s: { iccid: string }) => s.iccid)).toEqual([iccid(7), iccid(8), iccid(2)]);
    expect(r.skipped[0].reasonEn).toMatch(/invalidated, retired or frozen/i);
    expect(r.skipped[1].reasonEn).toMatch(/start/i);
    expect((await stateOf(iccid(3))).state).toBe(S.Occupied);
  });

  it('keeps each tenant to its own eUICCs and profiles, and checks the codes', async () => {
    const seen = await ok('list', { eid: eid(1) }, 'channel');
    expect(seen.total).toBe(0);
    expect((await ok('downloadProfileList', { iccid: iccid(3) }, 'channel')).total).toBe(0);
    expect((await call('assignEid', { iccid: iccid(2), eid: eid(1) }, 'channel')).body.errorCode).toBe(ErrorCode.EuiccProfileNotFound);
    expect((await call('changeState', { iccids: [iccid(3)], action: EuiccAction.Download }, 'channel')).body.errorCode).toBe(ErrorCode.EuiccProfileNotFound);
    expect((await ok('activationCode', { iccids: [iccid(3)] }, 'channel')).codes).toHaveLength(0);
    // staff see everything; a second-level customer without the page code is refused
    expect((await ok('list', { eid: eid(1) }, 'admin')).total).toBe(1);
    expect((await call('list', {}, 'subcustomer')).body.errorCode).toBe(ErrorCode.PermissionDenied);
    expect((await call('changeState', { iccids: [iccid(3)], action: 4 }, 'subcustomer')).body.errorCode).toBe(ErrorCode.PermissionDenied);
    // the channel customer's own import lands in its own tenant
    await ok('batchInsert', { rows: [{ eid: eid(50), iccid: iccid(50), operatorId: 2 }] }, 'channel');
    expect((await ok('list', {}, 'channel')).list.map((e: { eid: string }) => e.eid)).toEqual([eid(50)]);
    expect((await ok('list', { eid: eid(50) }, 'enterprise')).total).toBe(0);
  });

  it('deletes a bound profile (the order cancelled at the SM-DP+): unbound again, EID cleared, ready for another eUICC', async () => {
    expect((await stateOf(iccid(8))).state).toBe(S.Bound);
    await change({ iccids: [iccid(8)], action: EuiccAction.Delete }, 'enterprise');
    const r = await settled(iccid(8), S.Unbound);
    expect(r.eid).toBeNull();
    expect((await q('select eid from cards where iccid = $1', [iccid(8)]))[0].eid).toBeNull();
    expect((await ok('assignEid', { iccid: iccid(8), eid: eid(1) }, 'enterprise')).state).toBe(S.Bound);
  });
  const upload = async (who: string, file: Buffer, name: string, lang: 'zh' | 'en' = 'en', fields: Record<string, string> = {}) => {
    const m = multipart([...Object.entries(fields).map(([n, value]) => ({ name: n, value })), { name: 'file', filename: name, type: 'application/octet-stream', data: file }]);
    const res = await t.app.inject({ method: 'POST', url: `/api/cmp/${API}importFile?ts=1&lang=${lang}`, payload: m.payload, headers: { ...m.headers, authorization: tok[who] } });
    return res.json();
  };
  const xlsx = async (rows: string[][]) => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('s');
    for (const r of rows) ws.addRow(r);
    return Buffer.from(await wb.xlsx.writeBuffer());
  };
  const batchOf = (batchId: string, who = 'enterprise') => ok('batch', { batchId }, who);

  it('imports an xlsx file (Chinese headers, operator names) and a txt file; wrong rows listed in both languages, nothing stored', async () => {
    const good = await xlsx([['EID', 'Profile ICCID', '运营商', 'SM-DP+ 地址'], [eid(60), '', '', ''], [eid(60), iccid(60), '中国联通', ''], ['', iccid(61), '3', '']]);
    expect(await upload('enterprise', good, 'euicc.xlsx')).toMatchObject({ success: true, data: { euiccs: 1, profiles: 2 } });
    expect(await stateOf(iccid(60))).toMatchObject({ state: S.Bound, eid: eid(60) });
    expect((await stateOf(iccid(61))).state).toBe(S.Unbound);
    const txt = Buffer.from(`eid,iccid,operator\n${eid(62)},,\n,${iccid(62)},China Mobile\n`);
    expect((await upload('enterprise', txt, 'euicc.txt')).data).toEqual({ euiccs: 1, profiles: 1 });
    for (const lang of ['zh', 'en'] as const) {
      const bad = await xlsx([['EID', 'ICCID', 'Operator'], ['123', '', ''], ['', iccid(63), 'Vodafone'], ['', '', '']]);
      const r = await upload('enterprise', bad, 'bad.xlsx', lang);
      expect(r.errorCode).toBe(ErrorCode.EuiccImportInvalid);
      expect(r.msg).toBe(errorMessage(ErrorCode.EuiccImportInvalid, lang, { count: 2 }));
      expect(r.data.errors.map((e: { row: number; column: string }) => [e.row, e.column])).toEqual([[2, 'EID'], [3, lang === 'zh' ? '运营商' : 'Operator']]);
    }
    expect(await q('select 1 from euicc_profiles where iccid = $1', [iccid(63)])).toHaveLength(0);
    // not an eUICC file; the bilingual templates
    expect((await upload('enterprise', await xlsx([['SN'], ['x']]), 'x.xlsx')).errorCode).toBe(ErrorCode.EuiccImportMissingColumns);
    for (const [lang, head] of [['zh', '运营商'], ['en', 'Operator']] as const) {
      const res = await t.app.inject({ method: 'GET', url: `/api/cmp/${API}template?ts=1&format=csv&templateLang=${lang}`, headers: { authorization: tok.enterprise } });
      expect(res.body).toContain(head);
    }
  });

  it('runs a batch state change through the card batch engine: verdicts, progress, placed profiles end in their final state', async () => {
    // three bound profiles to download, one downloaded already (already), one unbound (invalid), one unknown (invalid)
    const ids = [70, 71, 72, 73, 74].map(iccid);
    await ok('batchInsert', { rows: [...ids.map((i) => ({ iccid: i, operatorId: 1 }))] }, 'enterprise');
    await ok('batchAssignEid', { pairs: ids.slice(0, 4).map((i) => ({ iccid: i, eid: eid(60) })) }, 'enterprise');
    await change({ iccids: [ids[3]], action: EuiccAction.Download }, 'enterprise');
    await settled(ids[3], S.Downloaded);
    const check = await ok('check', { iccids: [...ids, iccid(9999)], action: EuiccAction.Download }, 'enterprise');
    expect(check).toMatchObject({ total: 6, valid: 3, invalid: 2, already: 1 });
    expect((await stateOf(ids[0])).op_id).toBeNull();
    const v = await batchOf(check.batchId);
    expect(v).toMatchObject({ state: batch.BatchState.Validated, action: EuiccAction.Download, valid: 3, invalid: 2, already: 1, succeeded: 0 });
    // a profile that changes after the check fails when the batch runs, with the reason
    await change({ iccids: [ids[2]], action: EuiccAction.Delete }, 'enterprise');
    await settled(ids[2], S.Unbound);
    const run = await change({ batchId: check.batchId }, 'enterprise');
    expect(run).toEqual({ accepted: 3, batchId: check.batchId });
    const done = await waitFor(async () => {
      const b = await batchOf(check.batchId);
      return b.state === batch.BatchState.Done && b.inFlight === 0 ? b : null;
    }, 15_000, 100);
    expect(done).toMatchObject({ succeeded: 2, failed: 1, processed: 3, states: [{ state: S.Downloaded, count: 2 }] });
    const items = await q<{ iccid: string; status: number; error_en: string | null }>(
      'select iccid, status, error_en from card_batch_items where batch_id = $1 and verdict = $2 order by seq', [check.batchId, batch.BatchVerdict.Valid]);
    expect(items.map((i) => Number(i.status))).toEqual([batch.BatchItemStatus.Succeeded, batch.BatchItemStatus.Succeeded, batch.BatchItemStatus.Failed]);
    expect(items[2].error_en).toContain('Unbound');
    // the profile list filtered by the batch shows where its profiles are now
    const listed = await ok('downloadProfileList', { batchId: check.batchId }, 'enterprise');
    expect(listed.list.map((p: { iccid: string; state: number }) => [p.iccid, p.state])).toEqual([[ids[0], S.Downloaded], [ids[1], S.Downloaded], [ids[2], S.Unbound]]);
    // confirmed once only; another tenant sees no such batch; a card batch id is not an eUICC batch
    expect((await call('changeState', { batchId: check.batchId }, 'enterprise')).body.errorCode).toBe(ErrorCode.BatchNotValidated);
    expect((await call('batch', { batchId: check.batchId }, 'channel')).body.errorCode).toBe(ErrorCode.NotFound);
    expect((await call('changeState', { batchId: check.batchId }, 'channel')).body.errorCode).toBe(ErrorCode.NotFound);
    expect((await ok('downloadProfileList', { batchId: check.batchId }, 'channel')).total).toBe(0);
  });

  it('survives a restart: a batch stopped after its first chunk and crashed in the next goes on, every profile changed once', async () => {
    const N = 1200;
    const ids = Array.from({ length: N }, (_, i) => iccid(20_000 + i));
    await ok('batchInsert', { rows: ids.map((i) => ({ iccid: i, operatorId: 2, eid: eid(60) })) }, 'enterprise');
    const check = await ok('check', { iccids: ids, action: EuiccAction.Download }, 'enterprise');
    expect(check.valid).toBe(N);
    // confirmed by hand with a heartbeat, so neither the queue nor the sweep runs it meanwhile
    await q('update card_batches set state = $2, confirmed_at = now(), heartbeat_at = now() where batch_id = $1', [check.batchId, batch.BatchState.Running]);
    const log = { error: () => {} };
    const one = { ...t.deps, database: { kind: 'pglite' as const } };
    const stopping = new BatchRunner(one, log) as unknown as { chunk: (run: unknown) => Promise<number>; stop: () => void; run: (id: string) => Promise<void> };
    const chunk = stopping.chunk.bind(stopping);
    stopping.chunk = async (r) => { const n = await chunk(r); stopping.stop(); return n; };
    await expect(stopping.run(check.batchId)).rejects.toThrow(/interrupted/);
    const crashing = new BatchRunner(one, log) as unknown as { chunk: (run: unknown) => Promise<number>; run: (id: string) => Promise<void> };
    const chunk2 = crashing.chunk.bind(crashing);
    let calls = 0;
    crashing.chunk = async (r) => { if (++calls === 2) throw new Error('crash'); return chunk2(r); };
    await expect(crashing.run(check.batchId)).rejects.toThrow('crash');
    const mid = await q<{ status: number; n: number }>('select status, count(*)::int n from card_batch_items where batch_id = $1 group by status order by status', [check.batchId]);
    expect(mid.map((r) => [Number(r.status), Number(r.n)])).toEqual([[batch.BatchItemStatus.Pending, 200], [batch.BatchItemStatus.Succeeded, 1000]]);
    await new BatchRunner(t.deps, log).run(check.batchId);
    await waitFor(async () => {
      const b = await batchOf(check.batchId);
      return b.state === batch.BatchState.Done && b.inFlight === 0 ? b : null;
    }, 60_000, 200);
    const [c] = await q<{ downloaded: number }>('select count(*)::int downloaded from euicc_profiles where iccid = any($1) and state = $2', [ids, S.Downloaded]);
    expect(Number(c.downloaded)).toBe(N);
    // one operation placed per profile (the audit rows of the batch's chunks), and the last ones sent once each
    const [a] = await q<{ n: number; d: number }>(`select count(*)::int n, count(distinct x)::int d from audit_log, jsonb_array_elements_text(after->'iccids') x
      where entity = 'euiccProfileState' and after->>'batchId' = $1`, [check.batchId]);
    expect([Number(a.n), Number(a.d)]).toEqual([N, N]);
    const sent = sim.calls.filter((x) => x.call === 'download' && ids.includes(x.iccid));
    expect(sent.length).toBeGreaterThan(0);
    expect(new Set(sent.map((x) => x.iccid)).size).toBe(sent.length);
  }, 120_000);

  it('exports the profile list and the eUICC list, headers in the reader\'s language, the viewer\'s tenant only', async () => {
    const exportCsv = async (who: string, source: string, filters: Record<string, unknown>, lang: 'zh' | 'en') => {
      const created = await t.call('core/downloadTask/createExport', { source: `${API}${source}`, filters, format: ExportFormat.Csv }, { token: tok[who], lang });
      expect(created.body.errorCode, created.body.msg).toBeNull();
      const file = await t.app.inject({ method: 'GET', url: `/api/cmp/core/downloadTask/download?taskId=${created.body.data.taskId}`, headers: { authorization: tok[who] } });
      expect(file.statusCode).toBe(200);
      return file.body.replace(/^\ufeff/, '').trim().split(/\r?\n/);
    };
    const en = await exportCsv('enterprise', 'downloadProfileList', { iccid: iccid(60) }, 'en');
    expect(en[0]).toMatch(/^Profile ICCID,EID,Operator,State,Waiting for the SM-DP\+,Reason,Activation code,Customer,State since/);
    expect(en[1]).toContain(`${iccid(60)},${eid(60)},China Unicom,Bound,`);
    const zh = await exportCsv('enterprise', 'downloadProfileList', { iccid: iccid(60) }, 'zh');
    expect(zh[0]).toContain('状态');
    expect(zh[1]).toContain(',已绑定,');
    expect(await exportCsv('channel', 'downloadProfileList', { iccid: iccid(60) }, 'en')).toHaveLength(1);
    const list = await exportCsv('enterprise', 'list', { eid: eid(62) }, 'en');
    expect(list[0]).toMatch(/^EID,Customer,Profiles,Profiles \(ICCID and state\),Imported/);
    expect(list).toHaveLength(2);
    expect((await t.call('core/downloadTask/createExport', { source: `${API}list`, filters: {}, format: ExportFormat.Csv }, { token: tok.subcustomer })).body.errorCode).toBe(ErrorCode.PermissionDenied);
  });
});
