import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { CardState, ErrorCode, StockBatchState, StockItemStatus, StockMatchState, StockOpType, StockOutState } from '@lynx/contract';
import ExcelJS from 'exceljs';
import { backends, iccidsOf, multipart, seededInstallation, startTestApp, waitFor, type TestApp } from '../../../test/harness.ts';
import { opRefusal } from './rules.ts';
import { digitsPrefixEnd } from './items/service.ts';
import { BatchRunner } from '../card/batch/runner.ts';
import { stockBatchHandler } from './ops/handler.ts';

/**
 * Physical stock (issue 16, docs/stock.md): the state rules, the list and its filters, batch update with the spec's
 * remark limit, the operations in, match, out (allocation makes "out") and scrap as card batch engine batches (types
 * 20-23) with per-item failures, stock in from a file, the 10,000 limit, restart safety through the engine (a server
 * stopped mid-run and started again on the same database), and staff-only access on every endpoint.
 */
const S = 'core/stock/stock/';
const O = 'core/stock/operation/';
const M = StockMatchState;
const X = StockOutState;

describe('stock state rules', () => {
  const item = (matchState: number, outState: number, codes = true) => ({ matchState, outState, imsi: codes ? '460001234567890' : null, msisdn: codes ? '1064900000001' : null });
  const start = { state: CardState.Start, custId: null };
  const cases: [string, number, ReturnType<typeof item> | null, { state: number; custId: number | null } | null, number | null][] = [
    ['match: not matched with codes', StockOpType.Match, item(M.NotMatched, X.NotOut), null, null],
    ['match: without IMSI / MSISDN', StockOpType.Match, item(M.NotMatched, X.NotOut, false), null, ErrorCode.StockCodesIncomplete],
    ['match: already matched', StockOpType.Match, item(M.Matched, X.NotOut), start, ErrorCode.StockNotMatchable],
    ['match: being matched', StockOpType.Match, item(M.Matching, X.NotOut), null, ErrorCode.StockNotMatchable],
    ['match: scrapped', StockOpType.Match, item(M.Scrapped, X.Scrapped), null, ErrorCode.StockNotMatchable],
    ['match: a card exists', StockOpType.Match, item(M.NotMatched, X.NotOut), start, ErrorCode.StockCardExists],
    ['match: unknown item', StockOpType.Match, null, null, ErrorCode.StockItemNotFound],
    ['out: matched, not out', StockOpType.Out, item(M.Matched, X.NotOut), start, null],
    ['out: not matched', StockOpType.Out, item(M.NotMatched, X.NotOut), null, ErrorCode.StockNotOutable],
    ['out: outgoing', StockOpType.Out, item(M.Matched, X.Outgoing), start, ErrorCode.StockNotOutable],
    ['out: out', StockOpType.Out, item(M.Matched, X.Out), { state: CardState.Start, custId: 3 }, ErrorCode.StockNotOutable],
    ['scrap: not matched', StockOpType.Scrap, item(M.NotMatched, X.NotOut), null, null],
    ['scrap: matched, card in platform stock', StockOpType.Scrap, item(M.Matched, X.NotOut), start, null],
    ['scrap: matched, card allocated', StockOpType.Scrap, item(M.Matched, X.NotOut), { state: CardState.Start, custId: 3 }, ErrorCode.StockCardInUse],
    ['scrap: matched, card activated', StockOpType.Scrap, item(M.Matched, X.NotOut), { state: CardState.Activated, custId: null }, ErrorCode.StockCardInUse],
    ['scrap: outgoing', StockOpType.Scrap, item(M.Matched, X.Outgoing), start, ErrorCode.StockNotScrappable],
    ['scrap: out', StockOpType.Scrap, item(M.Matched, X.Out), start, ErrorCode.StockNotScrappable],
    ['scrap: being matched', StockOpType.Scrap, item(M.Matching, X.NotOut), null, ErrorCode.StockNotScrappable],
    ['scrap: scrapped', StockOpType.Scrap, item(M.Scrapped, X.Scrapped), null, ErrorCode.StockNotScrappable],
  ];
  it.each(cases)('%s', (_name, type, it_, card, code) => {
    expect(opRefusal(type, it_, card)?.code ?? null).toBe(code);
  });
  it('turns an ICCID prefix into a key range', () => {
    expect(digitsPrefixEnd('8986')).toBe('8987');
    expect(digitsPrefixEnd('89869')).toBe('8987');
    expect(digitsPrefixEnd('999')).toBeNull();
  });
});

describe.each(backends)('physical stock on %s', (backend) => {
  let t: TestApp;
  const tok: Record<string, string> = {};
  const q = <T = Record<string, unknown>>(text: string, params: unknown[] = []) => t.database.sql.query<T>(text, params);
  const call = (name: string, body: object, who = 'admin', lang: 'zh' | 'en' = 'en') => t.call(name, body, { token: tok[who], lang });
  const ok = async (name: string, body: object, who = 'admin') => {
    const r = await call(name, body, who);
    expect(r.body.errorCode, r.body.msg).toBeNull();
    return r.body.data;
  };
  const codes = (iccid: string) => ({ iccid, imsi: `46000${iccid.slice(-10)}`, msisdn: `10649${iccid.slice(-8)}` });
  /** validate + confirm, then wait for the job to finish the batch */
  const runOp = async (body: object) => {
    const v = await ok(`${O}validate`, body);
    await ok(`${O}confirm`, { batchId: v.batchId });
    await waitFor(async () => (await ok(`${O}getDetail`, { batchId: v.batchId })).state === StockBatchState.Done);
    return { v, d: await ok(`${O}getDetail`, { batchId: v.batchId }) };
  };
  const A = iccidsOf('8986990001', 1, 6);
  const csv = (lines: string[]) => Buffer.from(`\ufeff${lines.join('\r\n')}\r\n`);
  /** stock in from a file: the upload with the form's fields */
  const upload = async (file: Buffer, fields: Record<string, string>, lang: 'zh' | 'en' = 'en', token = tok.admin, name = 'stock.csv') => {
    const type = name.endsWith('.xlsx') ? 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' : 'text/csv';
    const m = multipart([...Object.entries(fields).map(([k, value]) => ({ name: k, value })), { name: 'file', filename: name, type, data: file }]);
    const res = await t.app.inject({ method: 'POST', url: `/api/cmp/${O}validateFile?ts=1&lang=${lang}`, payload: m.payload, headers: { ...m.headers, authorization: token } });
    return res.json();
  };

  beforeAll(async () => {
    t = await startTestApp(backend, { rateLimitPerToken: 1_000_000, rateLimitPerIp: 1_000_000 });
    for (const who of ['admin', 'manager', 'enterprise', 'channel', 'subcustomer']) tok[who] = await t.login(who);
  });
  afterAll(async () => { await t?.stop(); });

  it('receives stock: invalid rows and repeats are reported before anything changes, the rest are stocked once', async () => {
    const rows = [...A.map((i, n) => (n < 4 ? codes(i) : { iccid: i, sn: 'SN-DUAL-1' })), { iccid: A[0] }, { iccid: '123' }, { iccid: A[5], imsi: '12' }];
    const v = await ok(`${O}validate`, { type: StockOpType.In, rows, operatorId: 1, location: 'A-01', balanceType: 2, remark: '首批' });
    // A[5] is kept once (first row: valid with its SN); the repeat of A[0] and of A[5] are duplicates
    expect(v).toMatchObject({ total: 7, valid: 6, invalid: 1, duplicates: 2 });
    expect(Number((await q<{ n: number }>('select count(*)::int n from stock_items where iccid = any($1)', [A]))[0].n)).toBe(0);
    const zh = await call(`${O}getItemPage`, { batchId: v.batchId, failedOnly: true }, 'admin', 'zh');
    expect(zh.body.data.list.map((r: { reason: string }) => r.reason)).toEqual(['ICCID 格式不正确（应为 19-20 位数字）']);
    const en = await call(`${O}getItemPage`, { batchId: v.batchId, failedOnly: true }, 'admin', 'en');
    expect(en.body.data.list[0].reason).toBe('ICCID has an invalid format (19-20 digits)');
    await ok(`${O}confirm`, { batchId: v.batchId });
    await waitFor(async () => (await ok(`${O}getDetail`, { batchId: v.batchId })).state === StockBatchState.Done);
    expect(await ok(`${O}getDetail`, { batchId: v.batchId })).toMatchObject({ succeeded: 6, failed: 0, processed: 6 });
    const page = await ok(`${S}getStockPage`, { iccid: '8986990001' });
    expect(page.list.map((r: { iccid: string }) => r.iccid)).toEqual(A);
    expect(page.list[0]).toMatchObject({ operatorId: 1, location: 'A-01', balanceType: 2, remark: '首批', matchState: M.NotMatched, outState: X.NotOut });
    // a second stock-in of the same ICCID is invalid at validation
    const again = await ok(`${O}validate`, { type: StockOpType.In, rows: [{ iccid: A[0] }], operatorId: 1 });
    expect(again).toMatchObject({ valid: 0, invalid: 1 });
    expect((await call(`${O}confirm`, { batchId: again.batchId })).body.errorCode).toBe(ErrorCode.StockBatchNothingValid);
    // the dual SIM's stock items by SN
    expect((await ok(`${S}getDoubleCardDetail`, { sn: 'SN-DUAL-1' })).items.map((r: { iccid: string }) => r.iccid)).toEqual([A[4], A[5]]);
    expect((await call(`${S}getDoubleCardDetail`, { sn: 'NOPE' })).body.errorCode).toBe(ErrorCode.NotFound);
  });

  it('lists by key with filters and updates in batch with the remark limit in both languages', async () => {
    const p1 = await ok(`${S}getStockPage`, { iccid: '8986990001', pageSize: 2 });
    expect(p1).toMatchObject({ total: 6, totalCapped: false });
    const p2 = await ok(`${S}getStockPage`, { iccid: '8986990001', pageSize: 2, afterIccid: p1.list[1].iccid });
    expect(p2.list.map((r: { iccid: string }) => r.iccid)).toEqual(A.slice(2, 4));
    expect((await ok(`${S}getStockPage`, { location: 'A-01', balanceType: 2, iccid: A[3] })).list).toHaveLength(1);
    expect((await ok(`${S}getStockPage`, { location: 'A-01', balanceType: 1, iccid: '8986990001' })).total).toBe(0);
    expect(await ok(`${S}getLocations`, {})).toContain('A-01');
    const long = { iccids: [A[0]], remark: '一二三四五六七八九十一' };
    const zh = await call(`${S}batchUpdate`, long, 'admin', 'zh');
    expect(zh.body).toMatchObject({ success: false, errorCode: ErrorCode.StockRemarkTooLong, msg: '库存备注最多 10 个字符' });
    expect((await call(`${S}batchUpdate`, long)).body.msg).toBe('A stock remark has at most 10 characters');
    expect((await call(`${S}batchUpdate`, { iccids: [A[0]] })).body.errorCode).toBe(ErrorCode.StockNothingToUpdate);
    expect(await ok(`${S}batchUpdate`, { iccids: [A[0], A[1], '8986000000000000000'], remark: '一二三四五六七八九十', location: 'B-02' })).toEqual({ updated: 2 });
    const d = await ok(`${S}getStockDetail`, { iccid: A[0] });
    expect(d).toMatchObject({ item: { remark: '一二三四五六七八九十', location: 'B-02' }, card: null });
    const ch = await ok(`${S}getChangePage`, { iccid: A[0] });
    expect(ch.list.map((c: { kind: number }) => c.kind)).toEqual([2, 1]);
    expect(ch.list[0]).toMatchObject({ loginName: 'admin', before: { remark: '首批', location: 'A-01' }, after: { remark: '一二三四五六七八九十', location: 'B-02' } });
    const [a] = await q<{ n: number }>(`select count(*)::int n from audit_log where entity = 'stockItems'`);
    expect(Number(a.n)).toBeGreaterThan(0);
  });

  it('matches into platform stock cards, goes out on allocation, scraps only what never left', async () => {
    // match: A[4], A[5] have no IMSI / MSISDN → invalid with the reason
    const m = await runOp({ type: StockOpType.Match, iccids: A });
    expect(m.v).toMatchObject({ valid: 4, invalid: 2 });
    expect(m.d).toMatchObject({ succeeded: 4 });
    const cards = await q<{ iccid: string; state: number; cust_id: number | null; imsi: string }>('select iccid, state, cust_id, imsi from cards where iccid = any($1) order by iccid', [A]);
    expect(cards.map((c) => [c.iccid, Number(c.state), c.cust_id])).toEqual(A.slice(0, 4).map((i) => [i, CardState.Start, null]));
    expect(cards[0].imsi).toBe(codes(A[0]).imsi);
    expect((await ok(`${S}getStockPage`, { iccid: '8986990001', matchState: M.Matched })).total).toBe(4);
    // out: A[0], A[1] picked → outgoing; allocating A[0]'s card makes it out; A[2] allocated without an out operation is out too
    await runOp({ type: StockOpType.Out, iccids: [A[0], A[1]] });
    expect((await ok(`${S}getStockDetail`, { iccid: A[0] })).item.outState).toBe(X.Outgoing);
    const [ent] = await q<{ cust_id: number }>(`select cust_id from accounts where login_name = 'enterprise'`);
    await q('update cards set cust_id = $1, root_cust_id = $1 where iccid = any($2)', [ent.cust_id, [A[0], A[2]]]);
    expect((await ok(`${S}getStockDetail`, { iccid: A[0] })).item.outState).toBe(X.Out);
    expect((await ok(`${S}getStockDetail`, { iccid: A[2] })).item.outState).toBe(X.Out);
    expect((await ok(`${S}getStockDetail`, { iccid: A[1] })).item.outState).toBe(X.Outgoing);
    expect((await ok(`${S}getChangePage`, { iccid: A[0] })).list[0].kind).toBe(5);
    // scrap: A[0] out, A[1] outgoing → refused; A[3] matched in platform stock → scrapped with its card; A[4] not matched → scrapped
    const s = await runOp({ type: StockOpType.Scrap, iccids: [A[0], A[1], A[3], A[4]] });
    expect(s.v).toMatchObject({ valid: 2, invalid: 2 });
    const items = await ok(`${O}getItemPage`, { batchId: s.v.batchId, failedOnly: true });
    expect(items.list.map((r: { reason: string }) => r.reason)).toEqual([
      'Items outgoing, out or scrapped cannot be scrapped (now: Out)', 'Items outgoing, out or scrapped cannot be scrapped (now: Outgoing)',
    ]);
    expect((await ok(`${S}getStockDetail`, { iccid: A[3] })).item).toMatchObject({ matchState: M.Scrapped, outState: X.Scrapped });
    expect(await q('select 1 from cards where iccid = $1', [A[3]])).toHaveLength(0);
  });

  it('refuses more than 10,000 items with the spec\'s text, by list or by filter', async () => {
    const many = iccidsOf('8986991', 1, 10_001);
    // an operation is a card engine batch: the card batch's limit text (spec §9, 20501)
    const zh = await call(`${O}validate`, { type: StockOpType.Match, iccids: many }, 'admin', 'zh');
    expect(zh.body).toMatchObject({ errorCode: ErrorCode.BatchTooMany, msg: '所选卡数量过多（10001 张），每批最多 10000 张，请缩小筛选范围' });
    const en = await call(`${O}validate`, { type: StockOpType.In, operatorId: 1, rows: many.map((iccid) => ({ iccid })) }, 'admin', 'en');
    expect(en.body.msg).toBe('Selection too large (10001 cards): at most 10000 cards per batch, narrow the filters');
    const file = await upload(csv(['ICCID', ...many]), { operatorId: '1' }, 'zh');
    expect(file).toMatchObject({ errorCode: ErrorCode.BatchTooMany, msg: '所选卡数量过多（10001 张），每批最多 10000 张，请缩小筛选范围' });
    expect((await call(`${S}batchUpdate`, { iccids: many, remark: 'x' })).body.errorCode).toBe(ErrorCode.StockSelectionTooLarge);
    expect((await call(`${O}validate`, { type: StockOpType.Match, iccids: [] })).body.errorCode).toBe(ErrorCode.StockSelectionEmpty);
    await q(`insert into stock_items (iccid, operator_id) select '8986992' || lpad(g::text, 12, '0'), 1 from generate_series(1, 10001) g`);
    const f = await call(`${O}validate`, { type: StockOpType.Scrap, filter: { iccid: '8986992' } });
    expect(f.body).toMatchObject({ errorCode: ErrorCode.BatchTooMany });
    expect(f.body.msg).toContain('10001');
    const page = await ok(`${S}getStockPage`, { iccid: '8986992' });
    expect(page).toMatchObject({ total: 10_000, totalCapped: true });
    await q(`delete from stock_items where iccid like '8986992%'`);
  });

  it('serves operator staff only: every endpoint refuses customers, even a customer role holding the codes', async () => {
    const [v] = await q<{ batch_id: string }>('select batch_id from card_batches where type between 20 and 23 limit 1');
    const calls: [string, object][] = [
      [`${S}getStockPage`, {}], [`${S}getLocations`, {}], [`${S}getStockDetail`, { iccid: A[0] }], [`${S}getDoubleCardDetail`, { sn: 'SN-DUAL-1' }],
      [`${S}getChangePage`, { iccid: A[0] }], [`${S}batchUpdate`, { iccids: [A[0]], remark: 'x' }], [`${S}exportThreeCodes`, {}],
      [`${O}validate`, { type: StockOpType.Scrap, iccids: [A[5]] }], [`${O}confirm`, { batchId: v.batch_id }], [`${O}cancel`, { batchId: v.batch_id }],
      [`${O}getPage`, {}], [`${O}getDetail`, { batchId: v.batch_id }], [`${O}getItemPage`, { batchId: v.batch_id }],
    ];
    const file = csv(['ICCID', A[5]]);
    for (const who of ['enterprise', 'channel', 'subcustomer']) {
      for (const [name, body] of calls) expect((await call(name, body, who)).body.errorCode, `${who} ${name}`).toBe(ErrorCode.PermissionDenied);
      expect((await upload(file, { operatorId: '1' }, 'en', tok[who])).errorCode, `${who} validateFile`).toBe(ErrorCode.PermissionDenied);
      const tpl = await t.app.inject({ method: 'GET', url: `/api/cmp/${O}template?ts=1&format=csv`, headers: { authorization: tok[who] } });
      expect(tpl.json().errorCode, `${who} template`).toBe(ErrorCode.PermissionDenied);
    }
    // not on the card batch screens either: a customer's batch list and detail do not show the platform's stock batches
    const cardList = await call('core/sim/batchOperate/getBatchListPage', { types: [20, 21, 22, 23] }, 'enterprise');
    expect(cardList.body.data?.total ?? 0).toBe(0);
    expect((await call('core/sim/batchOperate/getBatchDetail', { batchId: v.batch_id }, 'enterprise')).body.errorCode).not.toBeNull();
    // a customer role given the stock codes is still refused: the warehouse is the platform's
    await q(`update roles set permissions = permissions || array[11000000, 11010000, 11030000] where role_id = 3000`);
    const again = await t.login('enterprise');
    for (const [name, body] of calls) expect((await t.call(name, body, { token: again })).body.errorCode, name).toBe(ErrorCode.PermissionDenied);
    expect((await upload(file, { operatorId: '1' }, 'en', again)).errorCode).toBe(ErrorCode.PermissionDenied);
    expect((await t.call('core/sim/batchOperate/getBatchDetail', { batchId: v.batch_id }, { token: again })).body.errorCode).not.toBeNull();
    expect((await t.call('core/sim/batchOperate/process', { batchId: v.batch_id }, { token: again })).body.errorCode).not.toBeNull();
    expect((await ok(`${S}getStockDetail`, { iccid: A[5] }, 'manager')).item.remark).toBe('首批');
    expect((await call(`${S}getStockPage`, {}, 'nobody')).body.errorCode).toBe(ErrorCode.SessionInvalid);
  });

  it('receives stock from a file: template in both languages, rows with their own location and balance type, wrong rows listed', async () => {
    for (const [lang, title] of [['zh', '库位'], ['en', 'Location']] as const) {
      const tpl = await t.app.inject({ method: 'GET', url: `/api/cmp/${O}template?ts=1&format=csv&templateLang=${lang}`, headers: { authorization: tok.admin } });
      expect(tpl.statusCode).toBe(200);
      expect(tpl.body.replace(/^\ufeff/, '').split(/\r?\n/)[0].split(',')).toContain(title);
      const xlsx = await t.app.inject({ method: 'GET', url: `/api/cmp/${O}template?ts=1&format=xlsx&templateLang=${lang}`, headers: { authorization: tok.admin } });
      expect(xlsx.statusCode).toBe(200);
      expect(xlsx.rawPayload.subarray(0, 2).toString()).toBe('PK');
    }
    const F = iccidsOf('8986990004', 1, 4);
    // an xlsx with the English header (the template's), a repeated ICCID merged
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Stock in');
    ws.addRow(['ICCID', 'IMSI', 'MSISDN', 'SN (dual / super SIM)', 'Location', 'Balance type']);
    ws.addRow([F[0], codes(F[0]).imsi, codes(F[0]).msisdn, '', 'F-01', 'Prepaid']);
    ws.addRow([F[1], codes(F[1]).imsi, codes(F[1]).msisdn, 'SN-F-1', '', '']);
    ws.addRow([F[2], '', '', 'SN-F-1', '', '后付费']);
    ws.addRow([F[0], '', '', '', '', '']);
    ws.addRow([A[0], '', '', '', '', '']);
    const buf = Buffer.from(await wb.xlsx.writeBuffer());
    const v = await upload(buf, { operatorId: '2', location: 'F-00', balanceType: '1', remark: '文件' }, 'en', tok.admin, 'stock-in.xlsx');
    expect(v.errorCode, v.msg).toBeNull();
    // A[0] is in stock already: invalid with its reason
    expect(v.data).toMatchObject({ total: 4, valid: 3, invalid: 1, duplicates: 1 });
    expect((await ok(`${O}getDetail`, { batchId: v.data.batchId })).fileName).toBe('stock-in.xlsx');
    const items = await ok(`${O}getItemPage`, { batchId: v.data.batchId });
    expect(items.list[1]).toMatchObject({ iccid: F[1], imsi: codes(F[1]).imsi, sn: 'SN-F-1' });
    expect(items.list[3]).toMatchObject({ iccid: A[0], reason: 'This ICCID is already in stock' });
    await ok(`${O}confirm`, { batchId: v.data.batchId });
    await waitFor(async () => (await ok(`${O}getDetail`, { batchId: v.data.batchId })).state === StockBatchState.Done);
    const got = await q<{ iccid: string; location: string; balance_type: number; operator_id: number; remark: string; sn: string | null }>(
      'select iccid, location, balance_type, operator_id, remark, sn from stock_items where iccid = any($1) order by iccid', [F]);
    expect(got.map((r) => [r.iccid, r.location, Number(r.balance_type), Number(r.operator_id), r.remark, r.sn])).toEqual([
      [F[0], 'F-01', 2, 2, '文件', null], [F[1], 'F-00', 1, 2, '文件', 'SN-F-1'], [F[2], 'F-00', 1, 2, '文件', 'SN-F-1'],
    ]);
    // the batch is a card engine batch of type 20 with the codes in its items' payload
    const [row] = await q<{ type: number; n: number }>('select b.type, count(i.payload)::int n from card_batches b join card_batch_items i using (batch_id) where b.batch_id = $1 group by b.type', [v.data.batchId]);
    expect([Number(row.type), Number(row.n)]).toEqual([20, 4]);

    // wrong rows: listed with their column and reason in the reader's language, nothing stored
    const before = Number((await q<{ n: number }>('select count(*)::int n from card_batches'))[0].n);
    const bad = csv(['ICCID,IMSI,MSISDN,库位,余额类型', `${F[3]},123,,,`, '12345,,,,', `${iccidsOf('8986990005', 1, 1)[0]},,,,月付`]);
    const zh = await upload(bad, { operatorId: '1' }, 'zh');
    expect(zh).toMatchObject({ errorCode: ErrorCode.StockFileInvalid, msg: '文件中有 3 行有误，未校验任何库存' });
    expect(zh.data.errors).toEqual([
      { row: 2, iccid: F[3], column: 'IMSI', reason: '应为 15 位数字' },
      { row: 3, iccid: '12345', column: 'ICCID', reason: '应为 19-20 位数字' },
      { row: 4, iccid: iccidsOf('8986990005', 1, 1)[0], column: '余额类型', reason: '应为“后付费”或“预付费”' },
    ]);
    const en = await upload(bad, { operatorId: '1' }, 'en');
    expect(en.msg).toBe('3 rows of the file are wrong; nothing was validated');
    expect(en.data.errors[0]).toMatchObject({ column: 'IMSI', reason: 'must be 15 digits' });
    expect((await upload(csv(['IMSI', '460001234567890']), { operatorId: '1' }, 'zh')).msg).toBe('文件缺少列：ICCID，请使用入库模板');
    expect((await upload(csv(['ICCID']), { operatorId: '1' })).errorCode).toBe(ErrorCode.StockFileEmpty);
    expect((await upload(csv(['ICCID', F[3]]), {})).errorCode).toBe(ErrorCode.StockOperatorRequired);
    expect((await upload(csv(['ICCID', F[3]]), { operatorId: '1', remark: '一二三四五六七八九十一' })).errorCode).toBe(ErrorCode.StockRemarkTooLong);
    expect(Number((await q<{ n: number }>('select count(*)::int n from card_batches'))[0].n)).toBe(before);
  });

  it('shows on the card batch screen for staff who may see stock batches, typed 20-23', async () => {
    const page = await ok('core/sim/batchOperate/getBatchListPage', { types: [20, 21, 22, 23], pageSize: 50 });
    expect(page.total).toBeGreaterThan(3);
    expect(new Set(page.list.map((b: { type: number }) => b.type))).toEqual(new Set([20, 21, 22, 23]));
    const d = await ok('core/sim/batchOperate/getBatchDetail', { batchId: page.list[0].batchId });
    expect(d.type).toBeGreaterThanOrEqual(20);
  });
});

describe.each(backends)('stock operations across a restart on %s', (backend) => {
  it('a stock-in stopped mid-run and crashed goes on after the server starts again on the same database, every item once', async () => {
    const inst = await seededInstallation(backend);
    const log = { error: () => {} };
    const ids = iccidsOf('8986993', 1, 1200);
    let t: TestApp | null = await inst.open({ rateLimitPerToken: 1_000_000, rateLimitPerIp: 1_000_000 }, { jobs: false });
    try {
      const tok = await t.login('admin');
      const v = (await t.call(`${O}validate`, { type: StockOpType.In, rows: ids.map((iccid) => ({ iccid })), operatorId: 2, location: 'R-1' }, { token: tok })).body.data;
      // confirmed; this server runs no job workers, so the job waits (or was not queued at all)
      expect((await t.call(`${O}confirm`, { batchId: v.batchId }, { token: tok })).body.errorCode).toBeNull();
      // the engine's job, one chunk at a time (as on PGlite): a shutdown after its first chunk, then a crash inside the next
      const one = { ...t.deps, database: { kind: 'pglite' as const } };
      const stopping = new BatchRunner(one, log);
      const inner = stopping as unknown as { chunk: (run: unknown) => Promise<number> };
      const chunk = inner.chunk.bind(stopping);
      inner.chunk = async (run) => { const n = await chunk(run); stopping.stop(); return n; };
      await expect(stopping.run(v.batchId)).rejects.toThrow(/interrupted/);
      const apply = stockBatchHandler.apply;
      stockBatchHandler.apply = async () => { throw new Error('crash'); };
      try {
        await expect(new BatchRunner(one, log).run(v.batchId)).rejects.toThrow('crash');
      } finally {
        stockBatchHandler.apply = apply;
      }
      const q = <T,>(text: string, params: unknown[] = []) => t!.database.sql.query<T>(text, params);
      const mid = await q<{ status: number; n: number }>('select status, count(*)::int n from card_batch_items where batch_id = $1 group by status order by status', [v.batchId]);
      expect(mid.map((r) => [Number(r.status), Number(r.n)])).toEqual([[StockItemStatus.Pending, 700], [StockItemStatus.Succeeded, 500]]);
      expect(Number((await q<{ n: number }>(`select count(*)::int n from stock_items where iccid like '8986993%'`))[0].n)).toBe(500);
      // the process goes away with its job "running"; a while later a new one starts on the same database
      await q(`update card_batches set heartbeat_at = now() - interval '10 minutes' where batch_id = $1`, [v.batchId]);
      await t.stop();
      t = null;
      t = await inst.open({ rateLimitPerToken: 1_000_000, rateLimitPerIp: 1_000_000 });
      // its sweep queues the lost job again (it runs every minute; called here so the test need not wait)
      await new BatchRunner(t.deps, log).sweep();
      const tok2 = await t.login('admin');
      const detail = async () => (await t!.call(`${O}getDetail`, { batchId: v.batchId }, { token: tok2 })).body.data;
      await waitFor(async () => (await detail()).state === StockBatchState.Done, 60_000);
      expect(await detail()).toMatchObject({ state: StockBatchState.Done, succeeded: 1200, failed: 0 });
      const q2 = <T,>(text: string) => t!.database.sql.query<T>(text, []);
      const [c] = await q2<{ items: number; changes: number }>(`select (select count(*)::int from stock_items where iccid like '8986993%') items,
        (select count(*)::int from stock_changes where iccid like '8986993%') changes`);
      expect([Number(c.items), Number(c.changes)]).toEqual([1200, 1200]);
    } finally {
      await t?.stop();
      await inst.remove();
    }
  }, 180_000);
});
