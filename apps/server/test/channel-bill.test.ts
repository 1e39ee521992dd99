import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { ChannelBillLineState as L, ChannelBillState, ErrorCode, Operator, businessToday } from '@lynx/contract';
import { backends, callOk, insertCards, iccidsOf, multipart, ownerOf, startTestApp, ZX, type TestApp } from './harness.ts';
import { periodByKey, periodOfDay, shiftPeriodKey } from '../src/modules/billing/rating/periods.ts';
import { continueChannelBills } from '../src/modules/billing/channel/channel-bill-routes.ts';
import { continueChannelBill } from '../src/modules/billing/channel/channel-bill-job.ts';
import { getTableConfig } from 'drizzle-orm/pg-core';
import * as tables from '../src/modules/billing/channel/channel-bill-tables.ts';

/**
 * Issue 14, channel bills: the import as a durable job (validation refuses the whole file and stores nothing, a worker
 * killed in the middle is taken over and every line is stored once), the reconciliation states at their boundaries
 * (1 MB / 1 % data tolerance, SMS equal, the period's first and last day, China Unicom's 26th), delete and the
 * staff-only rule on every endpoint.
 */
const CB = 'core/finance/channelBill/';
const MiB = 1024 * 1024;

describe.each(backends)('channel bills on %s', (backend) => {
  let t: TestApp;
  let admin: string;
  let enterprise: string;
  const today = businessToday();
  // the last closed period of each operator
  const mobile = periodByKey(shiftPeriodKey(periodOfDay(today, 1).key, -1), 1);
  const unicom = periodByKey(shiftPeriodKey(periodOfDay(today, 26).key, -1), 26);
  const q = <T = Record<string, unknown>>(text: string, params: unknown[] = []) => t.database.sql.query<T>(text, params);
  const dayAfter = (d: string, n = 1) => new Date(Date.parse(`${d}T00:00:00Z`) + n * 86400_000).toISOString().slice(0, 10);

  const usage = async (iccid: string, day: string, bytes: number, operatorId: number, sms = 0) =>
    q(`insert into card_usage_daily (iccid, day, bytes_up, bytes_down, bytes, sms, apn, operator_id) values ($1, $2, 0, $3, $3, $4, 'cmiot', $5)
       on conflict (iccid, day) do update set bytes = excluded.bytes, bytes_down = excluded.bytes, sms = excluded.sms`, [iccid, day, bytes, sms, operatorId]);

  const upload = async (o: { csv: string; operatorId?: number; periodKey?: string; source?: string; name?: string; findMissing?: '0' | '1' }, token = admin, lang = 'en') => {
    const m = multipart([
      { name: 'operatorId', value: String(o.operatorId ?? Operator.ChinaMobile) },
      { name: 'periodKey', value: o.periodKey ?? mobile.key },
      { name: 'sourceType', value: '1' },
      { name: 'sourceName', value: o.source ?? 'CMCC account A' },
      ...(o.findMissing ? [{ name: 'findMissing', value: o.findMissing }] : []),
      { name: 'file', filename: o.name ?? 'bill.csv', type: 'text/csv', data: Buffer.from(o.csv) },
    ]);
    const r = await t.app.inject({ method: 'POST', url: `/api/cmp/${CB}save?lang=${lang}`, payload: m.payload, headers: { ...m.headers, authorization: token } });
    return r.json();
  };
  const importOk = async (o: Parameters<typeof upload>[0]) => {
    const r = await upload(o);
    expect(r.errorCode, r.msg).toBeNull();
    return r.data.billId as number;
  };
  const run = (billId?: number) => continueChannelBills(t.deps, billId, (err) => { throw err; });
  const detail = (billId: number, token = admin) => callOk(t, `${CB}detail`, { billId }, token);
  const lines = async (billId: number, extra: object = {}) => (await callOk(t, `${CB}lines`, { billId, pageSize: 500, ...extra }, admin)).list as Record<string, any>[];
  const csv = (rows: (string | number)[][], header = 'ICCID,Period,Data (KB),SMS,Amount (CNY)') => [header, ...rows.map((r) => r.join(','))].join('\n');
  const kb = (bytes: number) => bytes / 1024;

  beforeAll(async () => {
    t = await startTestApp(backend, {}, { jobs: false });
    admin = await t.login('admin');
    enterprise = await t.login('enterprise');
    await q(`select usage_ensure_partitions($1::date, $2::date)`, [unicom.firstDay, dayAfter(mobile.lastDay, 2)]);
  });
  afterAll(() => t?.stop());

  it('reconciles every line to matched, differs, missing on platform or missing in channel bill, at the tolerance boundaries', async () => {
    const zx = await ownerOf(t, 'enterprise');
    const [a, b, c, d, e, f, h, i, j] = await insertCards(t, iccidsOf('8986001', 1, 9), { state: 64, owner: zx, operatorId: Operator.ChinaMobile });
    const [g] = await insertCards(t, iccidsOf('8986002', 1, 1), { state: 64, owner: zx, operatorId: Operator.ChinaUnicom });
    const mid = dayAfter(mobile.firstDay, 9);
    await usage(a, mid, 10 * MiB, 1);
    await usage(b, mid, 10 * MiB, 1);
    await usage(c, mobile.firstDay, 100 * MiB, 1);
    await usage(c, mobile.lastDay, 100 * MiB, 1);
    await usage(d, mid, 200 * MiB, 1);
    await usage(e, mid, 5 * MiB, 1, 3);
    await usage(g, dayAfter(unicom.firstDay, 3), 7 * MiB, 2);
    await usage(h, mid, MiB, 1);
    // the day after the period is the next period's: not missing
    await usage(i, dayAfter(mobile.lastDay), 9 * MiB, 1);
    // the period's last day is in it
    await usage(j, mobile.lastDay, 4 * MiB, 1, 1);
    const unknown = '89860990000000000001';
    const billId = await importOk({
      csv: csv([
        [a, mobile.key, kb(11 * MiB), 0, '1.10'], // exactly 1 MB over: matched
        [b, mobile.key, kb(11 * MiB) + 1, 0, '1.20'], // 1 KB beyond: differs
        [c, mobile.key, kb(202 * MiB), 0, '20.00'], // 1 % of 200 MB = 2 MB: matched
        [d, '', kb(202 * MiB) + 1, 0, '20.10'], // beyond 1 %: differs
        [e, mobile.key, kb(5 * MiB), 2, '0.50'], // SMS 2 against 3: differs
        [f, mobile.key, 512, 0, '0.05'], // no usage on the platform, 0.5 MB: within 1 MB, matched
        [unknown, mobile.key, 100, 0, '3.00'], // not a card of the platform: missing on platform
        [g, mobile.key, kb(7 * MiB), 0, '0.70'], // a China Unicom card on a China Mobile bill: missing on platform
        [j, mobile.key, kb(4 * MiB), 1, '0.40'],
      ]),
    });
    const queued = await detail(billId);
    expect(queued.bill).toMatchObject({ state: ChannelBillState.Importing, periodFrom: mobile.firstDay, periodTo: mobile.lastDay, linesDone: 0 });
    await run(billId);
    const { bill, summaries } = await detail(billId);
    expect(bill).toMatchObject({ state: ChannelBillState.Reconciled, totalLines: 9, linesDone: 9, matched: 4, differs: 3, missingOnPlatform: 2, missingInChannel: 1, channelAmount: '47.05' });
    // what to dispute: the amounts of lines that differ or are not the platform's
    expect(bill.disputedAmount).toBe('25.50');
    const byIccid = new Map((await lines(billId)).map((l) => [l.iccid, l]));
    expect([a, b, c, d, e, f, unknown, g, j, h].map((x) => byIccid.get(x)?.state)).toEqual([L.Matched, L.Differs, L.Matched, L.Differs, L.Differs, L.Matched, L.MissingOnPlatform, L.MissingOnPlatform, L.Matched, L.MissingInChannel]);
    expect(byIccid.get(b)).toMatchObject({ channelBytes: 11 * MiB + 1024, platformBytes: 10 * MiB, diffBytes: MiB + 1024, channelAmount: '1.20' });
    expect(byIccid.get(e)).toMatchObject({ diffSms: -1, platformSms: 3 });
    expect(byIccid.get(unknown)).toMatchObject({ platformBytes: null, diffBytes: null });
    expect(byIccid.get(h)).toMatchObject({ lineNo: null, channelBytes: null, platformBytes: MiB });
    expect(byIccid.has(i)).toBe(false);
    expect(summaries.find((s: { state: number }) => s.state === L.Differs)).toMatchObject({ lines: 3, channelAmount: '21.80' });

    // paged by key and filtered by state
    const first = await callOk(t, `${CB}lines`, { billId, pageSize: 2 }, admin);
    expect(first.total).toBe(10);
    const second = await callOk(t, `${CB}lines`, { billId, pageSize: 2, after: first.next }, admin);
    expect(second.list[0].iccid > first.list[1].iccid).toBe(true);
    const differs = await callOk(t, `${CB}lines`, { billId, state: L.Differs }, admin);
    expect(differs.total).toBe(3);
    expect(differs.list.map((l: { iccid: string }) => l.iccid)).toEqual([b, d, e]);
    expect((await callOk(t, `${CB}lines`, { billId, iccid: '8986002' }, admin)).list.map((l: { iccid: string }) => l.iccid)).toEqual([g]);

    // late usage arrives: reconcile again moves the line
    await usage(b, dayAfter(mid), 1024, 1);
    await callOk(t, `${CB}reconcile`, { billId }, admin);
    await run(billId);
    expect((await detail(billId)).bill).toMatchObject({ matched: 5, differs: 2 });
    expect((await q(`select count(*)::int as n from channel_bill_lines where bill_id = $1`, [billId]))[0]).toEqual({ n: 10 });

    // the export is a task over the same lines
    const ex = await t.call(`${CB}export`, { billId, state: L.Differs }, { token: admin });
    expect(ex.body.errorCode).toBeNull();
    expect(ex.body.data.direct).toBe(true);
  });

  it('compares a China Unicom bill over the 26th-25th period', async () => {
    const [k] = await insertCards(t, iccidsOf('8986003', 1, 1), { state: 64, owner: null, operatorId: Operator.ChinaUnicom });
    // the period's first day (the 26th of the month before) and last (the 25th) count; the 26th after does not
    await usage(k, unicom.firstDay, 2 * MiB, 2);
    await usage(k, unicom.lastDay, MiB, 2);
    await usage(k, dayAfter(unicom.lastDay), 50 * MiB, 2);
    expect(unicom.firstDay.endsWith('-26') && unicom.lastDay.endsWith('-25')).toBe(true);
    const billId = await importOk({ csv: csv([[k, unicom.key, kb(3 * MiB), 0, '3.00']]), operatorId: Operator.ChinaUnicom, periodKey: unicom.key, source: 'CUCC', findMissing: '0' });
    await run(billId);
    const { bill } = await detail(billId);
    expect(bill).toMatchObject({ periodFrom: unicom.firstDay, periodTo: unicom.lastDay, matched: 1, missingInChannel: 0 });
    expect((await lines(billId))[0]).toMatchObject({ platformBytes: 3 * MiB, diffBytes: 0 });
  });

  it('refuses a whole file with a bad line: nothing stored, the errors listed by line in both languages', async () => {
    const before = (await q<{ n: number }>(`select count(*)::int as n from channel_bill_lines`))[0].n;
    const billId = await importOk({
      csv: csv([
        ['89860010000000000101', mobile.key, 10, 0, '1.00'],
        ['1234', mobile.key, 10, 0, '1.00'],
        ['89860010000000000101', '2020-01', -1, 'x', '1.234'],
      ]),
      source: 'bad file',
    });
    await run(billId);
    const { bill, summaries } = await detail(billId);
    expect(bill).toMatchObject({ state: ChannelBillState.Failed, errorCount: 2, totalLines: 3, linesDone: 0, matched: 0 });
    expect(summaries).toEqual([]);
    expect((await q<{ n: number }>(`select count(*)::int as n from channel_bill_lines`))[0].n).toBe(before);
    const en = await callOk(t, `${CB}errors`, { billId }, admin);
    expect(en.list[0]).toMatchObject({ lineNo: 3, column: 'ICCID', reason: 'must be 19-20 digits' });
    expect(en.list.map((e: { lineNo: number }) => e.lineNo)).toEqual([3, 4, 4, 4, 4, 4]);
    expect(en.list.some((e: { reason: string }) => e.reason === 'repeats the card of line 2 (one line a card)')).toBe(true);
    const zh = (await t.call(`${CB}errors`, { billId }, { token: admin, lang: 'zh' })).body.data;
    expect(zh.list[0]).toMatchObject({ column: 'ICCID', reason: '应为 19-20 位数字' });
    // a failed bill cannot be reconciled; it can be deleted and the same bill imported again
    expect((await t.call(`${CB}reconcile`, { billId }, { token: admin })).body.errorCode).toBe(ErrorCode.ChannelBillImportFailed);

    const noAmount = await importOk({ csv: 'ICCID,Data (MB)\n89860010000000000101,1', source: 'no amount' });
    await run(noAmount);
    expect((await detail(noAmount)).bill.state).toBe(ChannelBillState.Failed);
    expect((await callOk(t, `${CB}errors`, { billId: noAmount }, admin)).list[0]).toMatchObject({ lineNo: 0, column: 'File' });
    expect((await callOk(t, `${CB}errors`, { billId: noAmount }, admin)).list[0].reason).toContain('Amount (CNY)');
  });

  it('imports its own xlsx template (both languages\' headers) as a bill', async () => {
    for (const templateLang of ['zh', 'en']) {
      const r = await t.app.inject({ method: 'GET', url: `/api/cmp/${CB}template?format=xlsx&templateLang=${templateLang}`, headers: { authorization: admin } });
      expect(r.statusCode).toBe(200);
      const m = multipart([
        { name: 'operatorId', value: '1' }, { name: 'periodKey', value: mobile.key }, { name: 'sourceType', value: '2' }, { name: 'sourceName', value: `template ${templateLang}` },
        { name: 'findMissing', value: '0' }, { name: 'file', filename: 'template.xlsx', type: 'application/octet-stream', data: r.rawPayload },
      ]);
      const up = (await t.app.inject({ method: 'POST', url: `/api/cmp/${CB}save`, payload: m.payload, headers: { ...m.headers, authorization: admin } })).json();
      await run(up.data.billId);
      // the example cards are not the platform's
      expect((await detail(up.data.billId)).bill).toMatchObject({ state: ChannelBillState.Reconciled, totalLines: 2, missingOnPlatform: 2, channelAmount: '5.80' });
    }
  });

  it('refuses a period still running, a second live bill of the same issuer, and a file of another type', async () => {
    const open = await upload({ csv: csv([]), periodKey: periodOfDay(today, 1).key, source: 'open' }, admin, 'zh');
    expect(open.errorCode).toBe(ErrorCode.ChannelBillPeriodOpen);
    expect(open.msg).toContain(periodOfDay(today, 1).lastDay);
    const again = await upload({ csv: csv([]) });
    expect(again.errorCode).toBe(ErrorCode.ChannelBillExists);
    expect((await upload({ csv: 'x', name: 'bill.pdf', source: 'pdf' })).errorCode).toBe(ErrorCode.FileType);
  });

  it('goes on after a worker is killed in the middle: every line stored exactly once', async () => {
    const cards = await insertCards(t, iccidsOf('8986004', 1, 5), { state: 64, owner: null, operatorId: Operator.ChinaMobile });
    for (const c of cards) await usage(c, mobile.firstDay, MiB, 1);
    const billId = await importOk({ csv: csv(cards.map((c) => [c, mobile.key, kb(MiB), 0, '1.00'])), source: 'restart', findMissing: '0' });
    // the first worker stores one chunk of two and dies holding its lease
    await continueChannelBill(t.deps.db, t.deps.files.root, billId, 'worker-1', { chunk: 2, crashAfterChunks: 1 });
    expect((await detail(billId)).bill).toMatchObject({ state: ChannelBillState.Importing, linesDone: 2, totalLines: 5 });
    // while its lease runs, nobody else takes the bill; delete is refused
    await continueChannelBill(t.deps.db, t.deps.files.root, billId, 'worker-2', { chunk: 2 });
    expect((await detail(billId)).bill.linesDone).toBe(2);
    expect((await t.call(`${CB}delete`, { billId }, { token: admin })).body.errorCode).toBe(ErrorCode.ChannelBillBusy);
    // the lease runs out (a restarted server's job): the next worker goes on from the cursor
    await q(`update channel_bills set lease_until = now() - interval '1 second' where bill_id = $1`, [billId]);
    await continueChannelBill(t.deps.db, t.deps.files.root, billId, 'worker-2', { chunk: 2 });
    // the dead worker coming back finds nothing left to do
    await continueChannelBill(t.deps.db, t.deps.files.root, billId, 'worker-1', { chunk: 2 });
    expect((await detail(billId)).bill).toMatchObject({ state: ChannelBillState.Reconciled, linesDone: 5, matched: 5 });
    expect((await q(`select count(*)::int as n, count(distinct iccid)::int as d from channel_bill_lines where bill_id = $1`, [billId]))[0]).toEqual({ n: 5, d: 5 });

    // deleted with its lines (the bill's partition dropped)
    expect((await t.call(`${CB}delete`, { billId }, { token: admin })).body.errorCode).toBeNull();
    expect((await t.call(`${CB}detail`, { billId }, { token: admin })).body.errorCode).toBe(ErrorCode.NotFound);
    expect((await q(`select to_regclass($1) as r`, [`channel_bill_lines_b${billId}`]))[0].r).toBeNull();
  });

  it('has every column the Drizzle tables declare, the lines partitioned by bill', async () => {
    for (const table of Object.values(tables)) {
      const cfg = getTableConfig(table);
      const have = new Set((await q<{ column_name: string }>(`select column_name from information_schema.columns where table_name = $1`, [cfg.name])).map((r) => r.column_name));
      for (const col of cfg.columns) expect(have.has(col.name), `${cfg.name}.${col.name}`).toBe(true);
    }
    expect((await q<{ strategy: string }>(`select partstrat as strategy from pg_partitioned_table where partrelid = 'channel_bill_lines'::regclass`))[0].strategy).toBe('l');
  });

  it('is platform finance\'s only: customers are refused on every endpoint, even with the code granted, and see no record', async () => {
    const [bill] = (await callOk(t, `${CB}page`, { periodKey: mobile.key }, admin)).list;
    expect(bill).toBeTruthy();
    const calls: [string, object][] = [
      ['page', {}], ['detail', { billId: bill.billId }], ['lines', { billId: bill.billId }], ['errors', { billId: bill.billId }],
      ['delete', { billId: bill.billId }], ['reconcile', { billId: bill.billId }], ['export', { billId: bill.billId }],
    ];
    for (const [name, body] of calls) expect((await t.call(`${CB}${name}`, body, { token: enterprise })).body.errorCode, name).toBe(ErrorCode.PermissionDenied);
    // a customer role given the codes by hand is still refused: the bills cover the whole platform's cards
    await q(`update roles set permissions = permissions || array[4050000, 4050001] where role_type = 3000`);
    const granted = await t.login('enterprise');
    for (const [name, body] of calls) expect((await t.call(`${CB}${name}`, body, { token: granted })).body.errorCode, name).toBe(ErrorCode.PermissionDenied);
    expect((await upload({ csv: csv([]), source: 'customer' }, granted)).errorCode).toBe(ErrorCode.PermissionDenied);
    expect((await t.call(`${CB}detail`, { billId: bill.billId }, { token: admin })).body.data.bill.billId).toBe(bill.billId);
    // the built-in customer roles do not hold the page
    const perms = await q<{ role_type: number; has: boolean }>(`select role_type, 4050000 = any(permissions) as has from roles where built_in order by role_type`);
    expect(perms.map((p) => [p.role_type, p.has])).toEqual([[1000, true], [2000, true], [3000, true], [4000, false], [5000, false]]);
    void ZX;
  });
});
