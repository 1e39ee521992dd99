import { describe, it, expect, beforeAll } from 'vitest';
import { CardState, ChannelCardState, ErrorCode, ExportFormat, Operator, businessToday, channelcard as api } from '@lynx/contract';
import { backends, iccidsOf, insertCards, type TestApp } from '../../../test/harness.ts';
import { csvFile as csv, moduleSuite } from '../../../test/module-suite.ts';
import { checkChannelCardRows } from './import.ts';

/**
 * Channel cards (16000000): the import all or nothing with per-line errors in both languages and the §9 limit, the
 * cards and their state, the bills per channel, month and first-level customer, and every endpoint kept to the
 * viewer's tenant (staff see all, the channel customer its own, the enterprise lacks the page).
 */
const C = 'core/sim/channelSim/';
const L = 'core/sim/channelCard/';
const B = 'core/finance/channelCardBill/';
const HEADER = 'ICCID,Channel,Monthly cost (CNY)';
const HEADER_ZH = 'ICCID,渠道,月成本(元)';

describe('import rows on their own', () => {
  it('checks formats, repeats and amounts, with the header in either language', () => {
    const r = checkChannelCardRows([
      ['ICCID', '渠道', '月成本(元)'],
      ['89860000000000000001', '华南渠道', '3.5'],
      ['89860000000000000001', '华南渠道', '3.5'],
      ['123', '', '-1'],
      ['89860000000000000002', 'x'.repeat(api.CHANNEL_NAME_MAX + 1), '1.234'],
      [null, null, null],
    ]);
    expect(r.dataRows).toBe(4);
    expect(r.rows).toEqual([{ row: 2, iccid: '89860000000000000001', channel: '华南渠道', cost: '3.5' }]);
    expect(r.errors.map((e) => `${e.row}:${e.column}:${e.reason.en}`)).toEqual([
      '3:iccid:appears more than once in the file',
      '4:iccid:must be 19-20 digits',
      '4:channel:is required',
      '4:cost:must be an amount of at least 0 with at most two decimals',
      '5:channel:must be at most 40 characters',
      '5:cost:must be an amount of at least 0 with at most two decimals',
    ]);
    expect(checkChannelCardRows([['ICCID', 'x']]).missing).toEqual(['channel', 'cost']);
  });
});

describe.each(backends)('channel cards on %s', (backend) => {
  const s = moduleSuite(backend);
  const { tok, own, q, call, ok } = s;
  let t: TestApp;
  const upload = (who: string, file: Buffer, lang: 'zh' | 'en' = 'en', salesOrder = 'SOTEST0001') =>
    s.upload(`${C}insert`, who, file, { lang, name: 'cards.csv', fields: { salesOrder } });
  const chan = iccidsOf('8986002063', 1, 3);
  const ent = iccidsOf('8986002064', 1, 2);

  beforeAll(async () => {
    t = s.t;
    await insertCards(t, chan, { state: CardState.Activated, owner: own.channel, operatorId: Operator.ChinaMobile });
    await insertCards(t, ent, { state: CardState.Activated, owner: own.enterprise, operatorId: Operator.ChinaMobile });
  });

  it('imports all or nothing: every wrong row listed in the reader\'s language, nothing stored; staff only; over 10,000 refused', async () => {
    const bad = await upload('admin', csv([
      HEADER_ZH,
      `${chan[0]},测试渠道A,3.50`,
      `${ent[0]},测试渠道A,3.50`,
      '89860999999999999999,测试渠道A,1',
      `${chan[1]},测试渠道A,abc`,
    ]), 'zh');
    expect(bad.errorCode).toBe(ErrorCode.ChannelCardImportInvalid);
    expect(bad.msg).toBe('文件中有 3 行有误，未导入任何数据');
    expect(bad.data.errors.map((e: { row: number; column: string; reason: string }) => `${e.row}:${e.column}:${e.reason}`)).toEqual([
      '3:ICCID:一个文件中的卡须属于同一个一级客户',
      '4:ICCID:平台中没有这张卡，请先导入卡',
      '5:月成本(元):应为不小于 0 的金额，最多两位小数',
    ]);
    const badEn = await upload('admin', csv([HEADER, `${chan[0]},Channel A,3.50`, '89860999999999999999,Channel A,1']));
    expect(badEn.msg).toBe('1 rows of the file are wrong; nothing was imported');
    expect(badEn.data.errors[0]).toEqual({ row: 3, iccid: '89860999999999999999', column: 'ICCID', reason: 'no such card on the platform; import the card first' });
    expect(await q('select 1 from channel_cards where iccid = $1', [chan[0]])).toHaveLength(0);
    expect(await q("select 1 from channel_card_imports where sales_order = 'SOTEST0001'")).toHaveLength(0);

    // the channel customer and the enterprise cannot import
    expect((await upload('channel', csv([HEADER, `${chan[0]},A,1`]))).errorCode).not.toBeNull();
    expect((await upload('enterprise', csv([HEADER, `${ent[0]},A,1`]))).errorCode).not.toBeNull();
    // sales order checked; missing columns; empty; more than 10,000 rows: the spec's "selection too large" text
    expect((await upload('admin', csv([HEADER, `${chan[0]},A,1`]), 'en', 'bad order!')).errorCode).not.toBeNull();
    expect((await upload('admin', csv(['ICCID,foo', `${chan[0]},1`]))).errorCode).toBe(ErrorCode.ChannelCardImportMissingColumns);
    expect((await upload('admin', csv([HEADER]), 'zh')).msg).toBe('文件中没有渠道卡数据');
    const many = [HEADER, ...Array.from({ length: api.CHANNEL_CARD_IMPORT_MAX_ROWS + 1 }, (_, i) => `${iccidsOf('8986009', i, 1)[0]},A,1`)];
    const tooMany = await upload('admin', csv(many));
    expect(tooMany.errorCode).toBe(ErrorCode.ChannelCardImportTooMany);
    expect(tooMany.msg).toContain('Selection too large');

    const good = await upload('admin', csv([HEADER, `${chan[0]},Test channel A,3.50`, `${chan[1]},Test channel A,3.5`, `${chan[2]},Test channel B,0`]));
    expect(good.errorCode, good.msg).toBeNull();
    expect(good.data).toMatchObject({ cardCount: 3, salesOrder: 'SOTEST0001', custId: own.channel.root_cust_id });
    const entGood = await upload('admin', csv([HEADER, `${ent[0]},Test channel A,5`, `${ent[1]},Test channel A,5`]), 'en', 'SOTEST0002');
    expect(entGood.errorCode, entGood.msg).toBeNull();
    const again = await upload('admin', csv([HEADER, `${chan[0]},Test channel A,3.50`]));
    expect(again.data.errors[0].reason).toBe('is already a channel card');
    const [audit] = await q<{ n: string }>("select count(*) as n from audit_log where entity = 'channelCardImport'");
    expect(Number(audit.n)).toBe(2);
  });

  it('lists imports and cards within the tenant; the channel customer sees only its own, the enterprise has no page', async () => {
    const staff = await ok(`${C}getImportPage`, { salesOrder: 'SOTEST0001' }, 'admin');
    expect(staff.total).toBe(1);
    const chanImports = await ok(`${C}getImportPage`, { pageSize: 100 }, 'channel');
    expect(chanImports.list.map((b: { salesOrder: string }) => b.salesOrder)).toContain('SOTEST0001');
    expect(chanImports.list.map((b: { salesOrder: string }) => b.salesOrder)).not.toContain('SOTEST0002');

    const all = await ok(`${L}getPage`, { channelName: 'Test channel A', pageSize: 100 }, 'admin');
    expect(all.total).toBe(4);
    const mine = await ok(`${L}getPage`, { channelName: 'Test channel A', pageSize: 100 }, 'channel');
    expect(mine.list.map((c: { iccid: string }) => c.iccid).sort()).toEqual([chan[0], chan[1]]);
    expect(mine.list[0]).toMatchObject({ monthlyCost: '3.50', state: ChannelCardState.InUse, cardState: CardState.Activated, salesOrder: 'SOTEST0001' });
    expect(await ok(`${L}getPage`, { iccid: chan[0].slice(0, 15) }, 'channel')).toMatchObject({ total: 3 });

    const entCard = all.list.find((c: { iccid: string }) => c.iccid === ent[0]);
    // another tenant's card: the same answer as a card that does not exist
    const foreign = await call(`${L}detail`, { id: entCard.id }, 'channel');
    const missing = await call(`${L}detail`, { id: 999_999_999 }, 'channel');
    expect(foreign.body.errorCode).toBe(ErrorCode.NotFound);
    expect(foreign.body).toEqual(missing.body);
    for (const path of [`${L}getPage`, `${C}getImportPage`, `${B}getPage`]) expect((await call(path, {}, 'enterprise')).body.errorCode).not.toBeNull();
    expect((await call(`${L}changeState`, { id: entCard.id, state: 2 }, 'channel')).body.errorCode).not.toBeNull();
    expect(await ok(`${L}channelNames`, {}, 'channel')).toEqual(expect.arrayContaining(['Test channel A', 'Test channel B']));
  });

  it('exports the card list with its filters and the viewer\'s tenant, headers in the reader\'s language', async () => {
    const exportCsv = async (who: string, filters: Record<string, unknown>, lang: 'zh' | 'en') => {
      const created = await call('core/downloadTask/createExport', { source: `${L}getPage`, filters, format: ExportFormat.Csv }, who, lang);
      expect(created.body.errorCode, created.body.msg).toBeNull();
      expect(created.body.data.direct).toBe(true);
      const file = await t.app.inject({ method: 'GET', url: `/api/cmp/core/downloadTask/download?taskId=${created.body.data.taskId}`, headers: { authorization: tok[who] } });
      expect(file.statusCode).toBe(200);
      return file.body.replace(/^\ufeff/, '').trim().split(/\r?\n/);
    };
    const en = await exportCsv('admin', { channelName: 'Test channel A' }, 'en');
    expect(en[0]).toBe('ICCID,MSISDN,Operator,Channel,Sales order,Monthly cost (CNY),Channel card state,Stopped at (UTC+8),Card state,Customer,Imported at (UTC+8)');
    expect(en).toHaveLength(5);
    expect(en.find((l) => l.startsWith(chan[0]))).toMatch(/,Test channel A,SOTEST0001,3\.50,In use,,Activated,/);
    // the channel customer's export holds its own cards only; Chinese headers and labels
    const zh = await exportCsv('channel', { channelName: 'Test channel A' }, 'zh');
    expect(zh[0]).toBe('ICCID,MSISDN,运营商,渠道,销售订单号,月成本(元),渠道卡状态,停用时间 (UTC+8),卡状态,客户,导入时间 (UTC+8)');
    expect(zh.slice(1).map((l) => l.split(',')[0]).sort()).toEqual([chan[0], chan[1]]);
    expect(zh.find((l) => l.startsWith(chan[0]))).toContain(',使用中,');
    // a filter of the list narrows the file; without the page permission there is no export
    expect(await exportCsv('admin', { iccid: chan[0] }, 'en')).toHaveLength(2);
    expect((await call('core/downloadTask/createExport', { source: `${L}getPage`, filters: {}, format: ExportFormat.Csv }, 'enterprise')).body.errorCode).toBe(ErrorCode.PermissionDenied);
  });

  it('stops a card (audited, not billed from the next month), generates bills per customer, refuses twice and open months', async () => {
    const [chanA] = (await ok(`${L}getPage`, { iccid: chan[1] }, 'admin')).list;
    const stopped = await ok(`${L}changeState`, { id: chanA.id, state: ChannelCardState.Stopped }, 'admin');
    expect(stopped.state).toBe(ChannelCardState.Stopped);
    expect(stopped.stoppedAt).not.toBeNull();
    expect((await call(`${L}changeState`, { id: chanA.id, state: ChannelCardState.Stopped }, 'admin', 'zh')).body.msg).toBe('渠道卡已是该状态');
    expect(await q("select 1 from audit_log where entity = 'channelCard' and entity_id = $1", [String(chanA.id)])).toHaveLength(1);

    const month = businessToday().slice(0, 7);
    const open = await call(`${B}generate`, { channelName: 'Test channel A', periodKey: month }, 'admin', 'zh');
    expect(open.body.errorCode).toBe(ErrorCode.ChannelCardBillPeriodOpen);
    expect(open.body.msg).toBe(`账期 ${month} 尚未结束，不能生成账单`);
    // the cards were imported "two months ago"; the stopped card was stopped before last month began
    await q("update channel_cards set created_at = now() - interval '70 days' where iccid = any($1)", [[...chan, ...ent]]);
    await q("update channel_cards set stopped_at = now() - interval '65 days' where iccid = $1", [chan[1]]);
    const [y, m] = month.split('-').map(Number);
    const last = m === 1 ? `${y - 1}-12` : `${y}-${String(m - 1).padStart(2, '0')}`;
    expect((await call(`${B}generate`, { channelName: 'Test channel A', periodKey: last }, 'channel')).body.errorCode).not.toBeNull();
    const made = await ok(`${B}generate`, { channelName: 'Test channel A', periodKey: last }, 'admin');
    expect(made).toEqual({ bills: 2, cards: 3 });
    const twice = await call(`${B}generate`, { channelName: 'Test channel A', periodKey: last }, 'admin');
    expect(twice.body.errorCode).toBe(ErrorCode.ChannelCardBillExists);
    expect((await call(`${B}generate`, { channelName: 'No such channel', periodKey: last }, 'admin')).body.errorCode).toBe(ErrorCode.ChannelCardBillNoCards);

    const mine = await ok(`${B}getPage`, { channelName: 'Test channel A' }, 'channel');
    expect(mine.total).toBe(1);
    expect(mine.list[0]).toMatchObject({ periodKey: last, cardCount: 1, totalAmount: '3.50', custId: own.channel.root_cust_id, reconcileBillId: null });
    const lines = await ok(`${B}getLinePage`, { billId: mine.list[0].billId }, 'channel');
    expect(lines.list).toEqual([{ iccid: chan[0], monthlyCost: '3.50', amount: '3.50', channelCardId: expect.any(Number) }]);
    const detail = await ok(`${L}detail`, { id: lines.list[0].channelCardId }, 'channel');
    expect(detail.bills).toEqual([{ billId: mine.list[0].billId, periodKey: last, amount: '3.50' }]);

    const staff = await ok(`${B}getPage`, { channelName: 'Test channel A' }, 'admin');
    const entBill = staff.list.find((b: { custId: number }) => b.custId === own.enterprise.root_cust_id);
    expect(entBill).toMatchObject({ cardCount: 2, totalAmount: '10.00' });
    const foreign = await call(`${B}detail`, { billId: entBill.billId }, 'channel');
    expect(foreign.body.errorCode).toBe(ErrorCode.NotFound);
    expect((await call(`${B}getLinePage`, { billId: entBill.billId }, 'channel')).body.errorCode).toBe(ErrorCode.NotFound);
    expect((await call(`${B}delete`, { billId: entBill.billId }, 'channel')).body.errorCode).not.toBeNull();
    await ok(`${B}delete`, { billId: entBill.billId }, 'admin');
    expect(await q('select 1 from channel_card_bill_lines where bill_id = $1', [entBill.billId])).toHaveLength(0);
  });
});
