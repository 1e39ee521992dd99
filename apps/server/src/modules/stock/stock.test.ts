import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { CardState, ErrorCode, StockBatchState, StockItemStatus, StockMatchState, StockOpType, StockOutState } from '@lynx/contract';
import { backends, iccidsOf, startTestApp, waitFor, type TestApp } from '../../../test/harness.ts';
import { opRefusal } from './rules.ts';
import { digitsPrefixEnd } from './items/service.ts';
import { StockBatchRunner } from './ops/runner.ts';

/**
 * Physical stock (issue 16, docs/stock.md): the state rules, the list and its filters, batch update with the spec's
 * remark limit, the operations in, match, out (allocation makes "out") and scrap as durable batches with per-item
 * failures, the 10,000 limit, restart safety, and staff-only access on every endpoint.
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
    const zh = await call(`${O}validate`, { type: StockOpType.Match, iccids: many }, 'admin', 'zh');
    expect(zh.body).toMatchObject({ errorCode: ErrorCode.StockSelectionTooLarge, msg: '所选数量过多（10001 条），每批最多 10000 条，请缩小筛选范围' });
    const en = await call(`${O}validate`, { type: StockOpType.In, operatorId: 1, rows: many.map((iccid) => ({ iccid })) }, 'admin', 'en');
    expect(en.body.msg).toBe('Selection too large (10001 items): at most 10000 items per operation, narrow the filters');
    expect((await call(`${S}batchUpdate`, { iccids: many, remark: 'x' })).body.errorCode).toBe(ErrorCode.StockSelectionTooLarge);
    expect((await call(`${O}validate`, { type: StockOpType.Match, iccids: [] })).body.errorCode).toBe(ErrorCode.StockSelectionEmpty);
    await q(`insert into stock_items (iccid, operator_id) select '8986992' || lpad(g::text, 12, '0'), 1 from generate_series(1, 10001) g`);
    const f = await call(`${O}validate`, { type: StockOpType.Scrap, filter: { iccid: '8986992' } });
    expect(f.body).toMatchObject({ errorCode: ErrorCode.StockSelectionTooLarge });
    expect(f.body.msg).toContain('10001');
    const page = await ok(`${S}getStockPage`, { iccid: '8986992' });
    expect(page).toMatchObject({ total: 10_000, totalCapped: true });
    await q(`delete from stock_items where iccid like '8986992%'`);
  });

  it('serves operator staff only: every endpoint refuses customers, even a customer role holding the codes', async () => {
    const [v] = await q<{ batch_id: string }>('select batch_id from stock_batches limit 1');
    const calls: [string, object][] = [
      [`${S}getStockPage`, {}], [`${S}getLocations`, {}], [`${S}getStockDetail`, { iccid: A[0] }], [`${S}getDoubleCardDetail`, { sn: 'SN-DUAL-1' }],
      [`${S}getChangePage`, { iccid: A[0] }], [`${S}batchUpdate`, { iccids: [A[0]], remark: 'x' }], [`${S}exportThreeCodes`, {}],
      [`${O}validate`, { type: StockOpType.Scrap, iccids: [A[5]] }], [`${O}confirm`, { batchId: v.batch_id }], [`${O}cancel`, { batchId: v.batch_id }],
      [`${O}getPage`, {}], [`${O}getDetail`, { batchId: v.batch_id }], [`${O}getItemPage`, { batchId: v.batch_id }],
    ];
    for (const who of ['enterprise', 'channel', 'subcustomer']) {
      for (const [name, body] of calls) expect((await call(name, body, who)).body.errorCode, `${who} ${name}`).toBe(ErrorCode.PermissionDenied);
    }
    // a customer role given the stock codes is still refused: the warehouse is the platform's
    await q(`update roles set permissions = permissions || array[11000000, 11010000, 11030000] where role_id = 3000`);
    const again = await t.login('enterprise');
    for (const [name, body] of calls) expect((await t.call(name, body, { token: again })).body.errorCode, name).toBe(ErrorCode.PermissionDenied);
    expect((await ok(`${S}getStockDetail`, { iccid: A[5] }, 'manager')).item.remark).toBe('首批');
    expect((await call(`${S}getStockPage`, {}, 'nobody')).body.errorCode).toBe(ErrorCode.SessionInvalid);
  });

  it('survives a restart: an interrupted or crashed stock-in goes on and stocks every item exactly once', async () => {
    const ids = iccidsOf('8986993', 1, 1200);
    const v = await ok(`${O}validate`, { type: StockOpType.In, rows: ids.map((iccid) => ({ iccid })), operatorId: 2, location: 'R-1' });
    // the job is made to stop (a shutdown) after its first chunk, then to crash inside the next chunk
    // (confirmed by hand, with a heartbeat, so neither the queue nor the sweep's re-queue runs it meanwhile)
    const [{ state }] = await q<{ state: number }>('update stock_batches set state = $2, heartbeat_at = now() where batch_id = $1 returning state', [v.batchId, StockBatchState.Running]);
    expect(Number(state)).toBe(StockBatchState.Running);
    const log = { error: () => {} };
    // one chunk at a time (as on PGlite), so "after the first chunk" is one chunk on PostgreSQL too
    const one = { ...t.deps, database: { kind: 'pglite' as const } };
    const stopping = new StockBatchRunner(one, log);
    const chunk = stopping.chunk.bind(stopping);
    stopping.chunk = async (run) => { const n = await chunk(run); stopping.stop(); return n; };
    await expect(stopping.run(v.batchId)).rejects.toThrow(/interrupted/);
    const crashing = new StockBatchRunner(one, log);
    (crashing as unknown as { stockIn: () => Promise<never> }).stockIn = async () => { throw new Error('crash'); };
    await expect(crashing.run(v.batchId)).rejects.toThrow('crash');
    const mid = await q<{ status: number; n: number }>('select status, count(*)::int n from stock_batch_items where batch_id = $1 group by status order by status', [v.batchId]);
    expect(mid.map((r) => [Number(r.status), Number(r.n)])).toEqual([[StockItemStatus.Pending, 700], [StockItemStatus.Succeeded, 500]]);
    expect(Number((await q<{ n: number }>(`select count(*)::int n from stock_items where iccid like '8986993%'`))[0].n)).toBe(500);
    await new StockBatchRunner(t.deps, log).run(v.batchId);
    expect(await ok(`${O}getDetail`, { batchId: v.batchId })).toMatchObject({ state: StockBatchState.Done, succeeded: 1200, failed: 0 });
    const [c] = await q<{ items: number; changes: number }>(`select (select count(*)::int from stock_items where iccid like '8986993%') items,
      (select count(*)::int from stock_changes where iccid like '8986993%') changes`);
    expect([Number(c.items), Number(c.changes)]).toEqual([1200, 1200]);
  });
});
