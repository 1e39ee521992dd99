import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { CardState, ErrorCode, ExportFormat, ExportState, Operator } from '@lynx/contract';
import { backends, insertCards, multipart, ownerOf, startTestApp, waitFor, type TestApp } from './harness.ts';
import { cardTemplateXlsx, checkCardRows } from '../src/modules/card/import/rows.ts';

const HEAD = 'ICCID,MSISDN,IMSI,运营商,批次/备注';
const csv = (lines: string[], head = HEAD) => Buffer.from(`\ufeff${head}\r\n${lines.join('\r\n')}\r\n`);
const OPS = [
  { operatorId: 1, code: 'CMCC', nameZh: '中国移动', nameEn: 'China Mobile' },
  { operatorId: 2, code: 'CUCC', nameZh: '中国联通', nameEn: 'China Unicom' },
];

describe('card file rows (pure)', () => {
  it('checks every row and names the column and the reason', () => {
    const cells = [
      ['ICCID', 'MSISDN', 'IMSI', 'Operator', 'Batch / remark'],
      ['89860100000000000001', '1064100000001', '460010000000001', 'CUCC', 'B1'],
      ['8986010000000000002', '1064100000002', '460010000000002', '中国联通', null],
      ['898601000000000000', '10641000000x3', '46001000000000', 'Tietong', null],
      [null, null, null, null, null],
      ['89860100000000000001', '1064100000001', '460010000000001', 'china unicom', 'x'.repeat(65)],
    ];
    const { rows, errors, dataRows } = checkCardRows(cells, OPS);
    expect(dataRows).toBe(4);
    expect(rows.map((r) => r.row)).toEqual([2, 3]);
    expect(rows[0]).toMatchObject({ iccid: '89860100000000000001', operatorId: 2, batchNo: 'B1' });
    expect(errors.map((e) => [e.row, e.column, e.reason.en])).toEqual([
      [4, 'iccid', 'must be 19-20 digits'],
      [4, 'msisdn', 'must be 5-15 digits'],
      [4, 'imsi', 'must be 15 digits'],
      [4, 'operator', 'unknown operator (China Mobile / China Unicom / China Telecom)'],
      [6, 'iccid', 'duplicates row 2'],
      [6, 'msisdn', 'duplicates row 2'],
      [6, 'imsi', 'duplicates row 2'],
      [6, 'batchNo', 'must be at most 64 characters'],
    ]);
  });

  it('reports missing required columns', () => {
    expect(checkCardRows([['ICCID', 'IMSI']], OPS).missing).toEqual(['msisdn', 'operator']);
  });
});

describe.each(backends)('cards on %s', (backend) => {
  let t: TestApp;
  let admin: string;
  let enterprise: string;
  let sub: string;
  let channel: string;
  beforeAll(async () => {
    t = await startTestApp(backend);
    admin = await t.login('admin');
    enterprise = await t.login('enterprise');
    sub = await t.login('subcustomer');
    channel = await t.login('channel');
  });
  afterAll(() => t?.stop());

  const upload = async (data: Buffer, opts: { filename?: string; type?: string; lang?: 'zh' | 'en'; token?: string; remark?: string } = {}) => {
    const parts: Parameters<typeof multipart>[0] = [{ name: 'file', filename: opts.filename ?? 'cards.csv', type: opts.type ?? 'text/csv', data }];
    if (opts.remark !== undefined) parts.push({ name: 'remark', value: opts.remark });
    const m = multipart(parts);
    const res = await t.app.inject({
      method: 'POST', url: `/api/cmp/core/sim/simEnter/insert?lang=${opts.lang ?? 'en'}`, payload: m.payload,
      headers: { ...m.headers, authorization: opts.token ?? admin },
    });
    return res.json();
  };
  const list = async (body: Record<string, unknown>, token = admin) => {
    const r = await t.call('core/sim/simQuery/getSimListPage', { pageSize: 500, ...body }, { token });
    return r.body;
  };
  const cardRow = async (iccid: string) => (await t.database.sql.query<Record<string, unknown>>('select * from cards where iccid = $1', [iccid]))[0];

  it('imports valid rows as start-state stock cards, lists bad rows, and never overwrites an existing card', async () => {
    const first = await upload(csv(['89860299000000000001,1064200000001,460020000000001,中国联通,LOT-1', '89860299000000000002,1064200000002,460020000000002,CMCC,LOT-1']), { remark: 'first lot' });
    expect(first.success).toBe(true);
    expect(first.data).toMatchObject({ totalRows: 2, successRows: 2, failedRows: 0, remark: 'first lot', createdBy: 'admin' });
    const before = await cardRow('89860299000000000001');
    expect(before).toMatchObject({ state: CardState.Start, cust_id: null, root_cust_id: null, operator_id: Operator.ChinaUnicom, batch_no: 'LOT-1', msisdn: '1064200000001' });
    // its cycle usage columns are worked out with the import: the operator's billing period, nothing used, no quota
    expect(before.cycle_from).not.toBeNull();
    expect(before.cycle_next_at).not.toBeNull();
    expect(Number(before.cycle_used_bytes)).toBe(0);
    expect(before.cycle_quota_bytes).toBeNull();
    // let staff change the card, as allocation would, to see that a re-import does not undo it
    await t.database.sql.query('update cards set custom1 = $1 where iccid = $2', ['kept', '89860299000000000001']);

    const second = await upload(
      csv([
        '89860299000000000001,1064299999999,460029999999999,中国移动,LOT-2',
        '89860299000000000003,1064200000001,460020000000003,中国联通,LOT-2',
        '89860299000000000004,1064200000004,460020000000004,中国联通,LOT-2',
        '123,abc,46002,中国铁通,LOT-2',
      ]),
      { lang: 'zh' },
    );
    expect(second.success).toBe(true);
    expect(second.data).toMatchObject({ totalRows: 4, successRows: 1, failedRows: 3 });
    const after = await cardRow('89860299000000000001');
    expect(after).toMatchObject({ msisdn: '1064200000001', imsi: '460020000000001', operator_id: Operator.ChinaUnicom, batch_no: 'LOT-1', custom1: 'kept' });
    expect(after.batch_id).toBe(before.batch_id);
    expect(await cardRow('89860299000000000003')).toBeUndefined();
    expect(await cardRow('89860299000000000004')).toMatchObject({ state: CardState.Start, batch_id: second.data.batchId });

    const errs = await t.call('core/sim/simEnter/getImportErrorPage', { batchId: second.data.batchId }, { token: admin, lang: 'zh' });
    expect(errs.body.data.list.map((e: any) => [e.row, e.column, e.reason])).toEqual([
      [2, 'ICCID', '卡已存在，未覆盖'],
      [3, 'MSISDN', '已被卡 89860299000000000001 使用'],
      [5, 'ICCID', '应为 19-20 位数字'],
      [5, 'MSISDN', '应为 5-15 位数字'],
      [5, 'IMSI', '应为 15 位数字'],
      [5, '运营商', '未知的运营商（中国移动 / 中国联通 / 中国电信）'],
    ]);
    const en = await t.call('core/sim/simEnter/getImportErrorPage', { batchId: second.data.batchId, pageSize: 1 }, { token: admin });
    expect(en.body.data).toMatchObject({ total: 6, list: [{ row: 2, column: 'ICCID', reason: 'the card already exists and was not overwritten', iccid: '89860299000000000001' }] });

    // the import list and detail
    const page = await t.call('core/sim/simEnter/getImportBatchPage', { withErrors: true }, { token: admin });
    expect(page.body.data.list.map((b: any) => b.batchId)).toEqual([second.data.batchId]);
    const detail = await t.call('core/sim/simEnter/getImportBatchDetail', { batchId: first.data.batchId }, { token: admin });
    expect(detail.body.data).toMatchObject({ totalRows: 2, successRows: 2, fileName: 'cards.csv' });

    // every import leaves an audit row with the counts
    const audits = await t.database.sql.query<{ entity_id: string; after: any; login_name: string }>(
      `select entity_id, after, login_name from audit_log where entity = 'cardImport' and entity_id = any($1::text[])`, [[first.data.batchId, second.data.batchId]],
    );
    expect(audits).toHaveLength(2);
    const a2 = audits.find((a) => a.entity_id === second.data.batchId)!;
    expect(a2.after).toMatchObject({ successRows: 1, failedRows: 3, firstIccid: '89860299000000000004', state: CardState.Start });
    expect(a2.login_name).toBe('admin');
  });

  it('refuses whole-file problems without creating an import', async () => {
    const count = async () => Number((await t.database.sql.query<{ n: string }>('select count(*) n from card_import_batches'))[0].n);
    const n = await count();
    expect((await upload(csv([]))).errorCode).toBe(ErrorCode.CardImportEmpty);
    const missing = await upload(csv(['1,2'], 'ICCID,IMSI'), { lang: 'zh' });
    expect(missing).toMatchObject({ errorCode: ErrorCode.CardImportMissingColumns, msg: '文件缺少列：MSISDN, 运营商，请使用导入模板' });
    expect((await upload(Buffer.from('%PDF-1.4'), { filename: 'cards.pdf', type: 'application/pdf' })).errorCode).toBe(ErrorCode.FileType);
    expect((await upload(Buffer.from('PK\u0003\u0004 broken'), { filename: 'cards.xlsx', type: 'application/octet-stream' })).errorCode).toBe(ErrorCode.FileType);
    expect((await upload(csv(['89860299000000000099,1064200000099,460020000000099,CUCC']), { remark: 'r'.repeat(101) })).errorCode).toBe(ErrorCode.Validation);
    expect(await count()).toBe(n);
  });

  it('reads the xlsx template in both languages and a GBK CSV', async () => {
    const zh = await t.app.inject({ method: 'GET', url: '/api/cmp/core/sim/simEnter/template?lang=zh&format=xlsx', headers: { authorization: admin } });
    expect(zh.statusCode).toBe(200);
    const r = await upload(zh.rawPayload, { filename: '卡导入模板.xlsx', type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' });
    expect(r.data).toMatchObject({ successRows: 1, failedRows: 0 });
    expect(await cardRow('89860123456789012345')).toMatchObject({ operator_id: Operator.ChinaUnicom });
    const enTpl = await cardTemplateXlsx('en');
    expect(enTpl.length).toBeGreaterThan(1000);
    // Excel on a Chinese Windows saves CSV in GBK: 运营商 and 中国联通 in GBK bytes
    const gbk = Buffer.concat([
      Buffer.from('ICCID,MSISDN,IMSI,'), Buffer.from('D4CBD3AAC9CC', 'hex'), Buffer.from('\r\n89860299000000000055,1064200000055,460020000000055,'),
      Buffer.from('D6D0B9FAC1AACDA8', 'hex'), Buffer.from('\r\n'),
    ]);
    expect((await upload(gbk, { filename: 'gbk.csv' })).data).toMatchObject({ successRows: 1, failedRows: 0 });
    expect(await cardRow('89860299000000000055')).toMatchObject({ operator_id: Operator.ChinaUnicom });
  });

  it('scopes the card list by tenant: staff all, a customer its tree, a second-level customer itself', async () => {
    const all = await list({});
    const custs = (await t.database.sql.query<{ cust_id: number; cust_name: string; root_cust_id: number; parent_cust_id: number | null }>('select cust_id, cust_name, root_cust_id, parent_cust_id from customers'));
    const zhixing = custs.find((c) => c.cust_name === '智行物流科技有限公司')!;
    const east = custs.find((c) => c.cust_name === '智行物流华东分公司')!;
    const huadian = custs.find((c) => c.cust_name === '华电智能表计有限公司')!;
    const [{ n }] = await t.database.sql.query<{ n: string }>('select count(*) n from cards');
    expect(all.data.total).toBe(Number(n));

    const ent = await list({}, enterprise);
    expect(ent.data.total).toBeGreaterThan(0);
    expect(ent.data.list.every((c: any) => c.custId === zhixing.cust_id || c.custId === east.cust_id)).toBe(true);
    const [{ n: entN }] = await t.database.sql.query<{ n: string }>('select count(*) n from cards where root_cust_id = $1', [zhixing.cust_id]);
    expect(ent.data.total).toBe(Number(entN));

    const mine = await list({}, sub);
    expect(mine.data.total).toBeGreaterThan(0);
    expect(mine.data.list.every((c: any) => c.custId === east.cust_id)).toBe(true);

    const ch = await list({}, channel);
    expect(ch.data.list.every((c: any) => c.custId !== zhixing.cust_id && c.custId !== east.cust_id)).toBe(true);

    // filters never widen the scope: another customer's id or ICCID gives nothing
    const foreign = all.data.list.find((c: any) => c.custId === huadian.cust_id);
    expect(foreign).toBeTruthy();
    expect((await list({ custId: huadian.cust_id }, enterprise)).data.total).toBe(0);
    expect((await list({ iccid: foreign.iccid }, enterprise)).data.total).toBe(0);
    expect((await list({ msisdn: foreign.msisdn }, sub)).data.total).toBe(0);
    // stock cards (no customer) are the platform's
    const stock = all.data.list.find((c: any) => c.custId === null);
    expect((await list({ iccid: stock.iccid }, enterprise)).data.total).toBe(0);
    expect((await list({ iccid: stock.iccid })).data.total).toBe(1);
    // a sub-customer cannot see its parent's own cards
    const parentOwn = ent.data.list.find((c: any) => c.custId === zhixing.cust_id);
    expect((await list({ iccid: parentOwn.iccid }, sub)).data.total).toBe(0);
    // staff filter by customer includes its second-level customers
    expect((await list({ custId: zhixing.cust_id })).data.total).toBe(Number(entN));
  });

  it('exports only the caller tenant cards', async () => {
    const created = await t.call('core/sim/simQuery/exportSimList', { format: ExportFormat.Csv }, { token: sub });
    expect(created.body.success).toBe(true);
    const task = await waitFor(async () => {
      const r = await t.call('core/downloadTask/getListPage', {}, { token: sub });
      const x = r.body.data.list.find((y: any) => y.taskId === created.body.data.taskId);
      return x && x.state !== ExportState.InProcess ? x : null;
    });
    expect(task.state).toBe(ExportState.Succeeded);
    const mine = await list({}, sub);
    expect(task.rowCount).toBe(mine.data.total);
    const res = await t.app.inject({ method: 'GET', url: `/api/cmp/core/downloadTask/download?taskId=${task.taskId}&ts=1&lang=en`, headers: { authorization: sub } });
    const lines = res.body.trim().split('\r\n').slice(1);
    const iccids = new Set(mine.data.list.map((c: any) => c.iccid));
    expect(lines).toHaveLength(mine.data.total);
    for (const l of lines) expect(iccids.has(l.split(',')[0])).toBe(true);
  });

  it('exports a large list completely by key, in ICCID order', async () => {
    const lines = Array.from({ length: 1203 }, (_, i) => `8986039900000${String(i).padStart(7, '0')},10643${String(i).padStart(8, '0')},46011${String(i).padStart(10, '0')},CTCC,BIG`);
    expect((await upload(csv(lines))).data.successRows).toBe(1203);
    const created = await t.call('core/sim/simQuery/exportSimList', { batch: 'BIG', format: ExportFormat.Csv }, { token: admin });
    const task = await waitFor(async () => {
      const r = await t.call('core/downloadTask/getListPage', {}, { token: admin });
      const x = r.body.data.list.find((y: any) => y.taskId === created.body.data.taskId);
      return x && x.state !== ExportState.InProcess ? x : null;
    });
    expect(task.rowCount).toBe(1203);
    const res = await t.app.inject({ method: 'GET', url: `/api/cmp/core/downloadTask/download?taskId=${task.taskId}&ts=1&lang=en`, headers: { authorization: admin } });
    const iccids = res.body.trim().split('\r\n').slice(1).map((l: string) => l.split(',')[0]);
    expect(new Set(iccids).size).toBe(1203);
    expect([...iccids].sort()).toEqual(iccids);
  });

  it('searches by ICCID exact, prefix and range, and by other filters', async () => {
    const base = '898602990000000000';
    expect((await list({ iccid: `${base}01` })).data.list.map((c: any) => c.iccid)).toEqual([`${base}01`]);
    const prefix = await list({ iccid: '89860299' });
    expect(prefix.data.list.map((c: any) => c.iccid)).toEqual([`${base}01`, `${base}02`, `${base}04`, `${base}55`]);
    expect((await list({ iccid: `${base}0`, iccidMatch: 'exact' })).data.total).toBe(0);
    const range = await list({ iccidStart: `${base}02`, iccidEnd: `${base}04` });
    expect(range.data.list.map((c: any) => c.iccid)).toEqual([`${base}02`, `${base}04`]);
    const bad = await t.call('core/sim/simQuery/getSimListPage', { iccidStart: `${base}04`, iccidEnd: `${base}02` }, { token: admin, lang: 'zh' });
    expect(bad.body).toMatchObject({ success: false, errorCode: ErrorCode.CardRangeInvalid });
    const mixed = await t.call('core/sim/simQuery/getSimListPage', { iccidStart: `${base}02`, iccidEnd: '8986029900000000009' }, { token: admin });
    expect(mixed.body.errorCode).toBe(ErrorCode.CardRangeInvalid);
    expect((await list({ msisdn: '1064200000002' })).data.list.map((c: any) => c.iccid)).toEqual([`${base}02`]);
    expect((await list({ imsi: '460020000000004' })).data.list.map((c: any) => c.iccid)).toEqual([`${base}04`]);
    expect((await list({ batch: 'LOT-1', operatorId: Operator.ChinaMobile })).data.list.map((c: any) => c.iccid)).toEqual([`${base}02`]);
    const activated = await list({ states: [CardState.Activated, CardState.Deactivated], sortField: 'activatedAt', sortOrder: 'descend' });
    expect(activated.data.total).toBeGreaterThan(0);
    expect(activated.data.list.every((c: any) => [CardState.Activated, CardState.Deactivated].includes(c.state))).toBe(true);
    const dates = activated.data.list.map((c: any) => c.activatedAt);
    expect([...dates].sort().reverse()).toEqual(dates);
    const d = dates[0].slice(0, 10);
    const day = await list({ activatedFrom: '2000-01-01', activatedTo: '2000-01-02' });
    expect(day.data.total).toBe(0);
    expect((await list({ activatedFrom: '2000-01-01', activatedTo: d })).data.total).toBeGreaterThan(0);
    const online = await list({ online: true });
    expect(online.data.total).toBeGreaterThan(0);
    expect(online.data.list.every((c: any) => c.online && c.state === CardState.Activated)).toBe(true);
    const page2 = await t.call('core/sim/simQuery/getSimListPage', { current: 2, pageSize: 10 }, { token: admin });
    const page1 = await t.call('core/sim/simQuery/getSimListPage', { current: 1, pageSize: 20 }, { token: admin });
    expect(page2.body.data.list.map((c: any) => c.iccid)).toEqual(page1.body.data.list.slice(10, 20).map((c: any) => c.iccid));
  });

  it('finds the same cards for an ICCID prefix as LIKE, as a key range, under every tenant and with other filters', async () => {
    // ICCIDs around the range edges: just below, 19 and 20 digits, runs of 9s, the next prefix, all 9s
    const ent = await ownerOf(t, 'enterprise');
    const subOwner = await ownerOf(t, 'subcustomer');
    const stock = ['89860789999999999999', '8986079000000000000', '89860800000000000000', '90000000000000000000', '9999999999999999999'];
    const mine = ['89860790000000000000', '89860790000000000001', '89860790999999999999', '8999999999999999999', '99999999999999999998'];
    const subs = ['89860791000000000000', '8986079999999999999', '89860799999999999999', '89999999999999999999', '99999999999999999999'];
    await insertCards(t, stock, { state: CardState.Start, owner: null, operatorId: Operator.ChinaTelecom });
    await insertCards(t, mine, { state: CardState.Activated, owner: ent, operatorId: Operator.ChinaTelecom });
    await insertCards(t, subs, { state: CardState.Deactivated, owner: subOwner, operatorId: Operator.ChinaTelecom });
    try {
      const prefixes = ['8', '89', '898607', '8986079', '89860790', '898607909', '8986079999', '8999', '9', '99', '9'.repeat(18),
        '8986079000000000000', '89860790000000000000', '9999999999999999999'];
      const viewers = [
        { token: admin, tenant: 'true', args: [] as unknown[] },
        { token: enterprise, tenant: 'root_cust_id = $2', args: [ent.root_cust_id] },
        { token: sub, tenant: 'cust_id = $2', args: [subOwner.cust_id] },
      ];
      for (const p of prefixes) {
        for (const v of viewers) {
          for (const states of [undefined, [CardState.Activated, CardState.Deactivated]]) {
            const like = await t.database.sql.query<{ iccid: string }>(
              `select iccid from cards where iccid like $1 and ${v.tenant} ${states ? `and state = any($${v.args.length + 2})` : ''} order by iccid`,
              [`${p}%`, ...v.args, ...(states ? [states] : [])],
            );
            const got = await list({ iccid: p, iccidMatch: 'prefix', ...(states ? { states } : {}) }, v.token);
            const why = `prefix ${p}, ${v.tenant}, states ${states ?? 'any'}`;
            expect(got.data.total, why).toBe(Math.min(like.length, 10_000));
            expect(got.data.list.map((c: any) => c.iccid), why).toEqual(like.slice(0, 500).map((r) => r.iccid));
          }
        }
      }
      // the default match: under 19 digits a prefix, a full ICCID exact (the 19-digit one does not find the 20-digit ones)
      expect((await list({ iccid: '8986079000000000000' })).data.list.map((c: any) => c.iccid)).toEqual(['8986079000000000000']);
      expect((await list({ iccid: '898607909' })).data.list.map((c: any) => c.iccid)).toEqual(['89860790999999999999']);
      // the enterprise sees its second-level customer's cards too; sorting and paging keep the range
      expect((await list({ iccid: '99', sortField: 'iccid', sortOrder: 'descend' }, enterprise)).data.list.map((c: any) => c.iccid)).toEqual(['99999999999999999999', '99999999999999999998']);
      expect((await list({ iccid: '9', pageSize: 2, current: 2 })).data.list.map((c: any) => c.iccid)).toEqual(['99999999999999999998', '99999999999999999999']);
    } finally {
      await t.database.sql.query('delete from cards where iccid = any($1)', [[...stock, ...mine, ...subs]]);
    }
  });

  it('refuses imports to customers and the list without the card list code', async () => {
    const r = await upload(csv(['89860299000000000077,1064200000077,460020000000077,CUCC']), { token: enterprise });
    expect(r.errorCode).toBe(ErrorCode.PermissionDenied);
    expect(await cardRow('89860299000000000077')).toBeUndefined();
    for (const name of ['core/sim/simEnter/getImportBatchPage']) {
      expect((await t.call(name, {}, { token: enterprise })).body.errorCode).toBe(ErrorCode.PermissionDenied);
    }
    expect((await t.call('core/sim/simEnter/getImportErrorPage', { batchId: '00000000-0000-4000-8000-000000000000' }, { token: admin })).body.errorCode).toBe(ErrorCode.NotFound);
    // a role without 2010000 is refused
    await t.database.sql.query('update roles set permissions = array_remove(permissions, 2010000) where role_id = 5000');
    const sub2 = await t.login('subcustomer');
    expect((await list({}, sub2)).errorCode).toBe(ErrorCode.PermissionDenied);
    expect((await t.call('core/sim/simQuery/exportSimList', {}, { token: sub2 })).body.errorCode).toBe(ErrorCode.PermissionDenied);
    await t.database.sql.query('update roles set permissions = array_append(permissions, 2010000) where role_id = 5000');
    expect((await t.call('core/sim/simQuery/getSimListPage', {}, {})).body.errorCode).toBe(ErrorCode.SessionInvalid);
  });
});
