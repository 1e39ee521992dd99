import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import ExcelJS from 'exceljs';
import { CardChangeSource, CardState, ErrorCode, ExportState, Operator, Perm, PlanOperationMode, RoleType, batch } from '@lynx/contract';
import { accessConfigThatNoLongerOpens, backends, iccidsOf, insertCards, multipart, ownerOf, seededInstallation, startTestApp, waitFor, type Owner, type TestApp, type TestCards } from './harness.ts';
import { simulatorSecretFor } from '../src/operators/simulator.ts';
import { iccidColumn, uniqueIccids } from '../src/modules/card/batch/service.ts';
import { nextLabels } from '../src/modules/card/batch/ops.ts';

const { BatchType, BatchState, BatchVerdict, BatchItemStatus } = batch;
const VALIDATE = 'core/sim/batchOperate/validate';
const VALIDATE_FILE = 'core/sim/batchOperate/validateFile';
const CONFIRM = 'core/sim/batchOperate/process';
const CANCEL = 'core/sim/batchOperate/cancel';
const PAGE = 'core/sim/batchOperate/getBatchListPage';
const DETAIL = 'core/sim/batchOperate/getBatchDetail';
const ITEMS = 'core/sim/batchOperate/getItemPage';
const EXPORT = 'core/sim/batchOperate/exportItems';
const APP_KEY = 'LYNXKEY5512BATCH';


describe('batch helpers (pure)', () => {
  it('collapses repeated ICCIDs and keeps the first order', () => {
    expect(uniqueIccids([' 1 ', '2', '1', '', null, '3', '2'])).toEqual({ iccids: ['1', '2', '3'], duplicates: 2 });
  });
  it('finds the ICCID column by its title, or a first column of ICCIDs', () => {
    expect(iccidColumn([['No.', 'iccid'], ['1', '89860000000000000001'], ['2', null]])).toEqual(['89860000000000000001']);
    expect(iccidColumn([['89860000000000000001'], ['89860000000000000002']])).toHaveLength(2);
    expect(() => iccidColumn([['MSISDN'], ['1064']])).toThrow();
  });
  it('computes label sets for add, remove and replace', () => {
    expect(nextLabels([3, 1], { labelOp: 'add', labelIds: [2, 3] })).toEqual([1, 2, 3]);
    expect(nextLabels([3, 1], { labelOp: 'remove', labelIds: [3] })).toEqual([1]);
    expect(nextLabels([3, 1], { labelOp: 'replace', labelIds: [5] })).toEqual([5]);
  });
});

type CardsOf = Omit<TestCards, 'operatorId'> & { operatorId?: number };
/** Cards straight in the table (China Telecom unless told). */
const cardsAt = (t: TestApp, prefix: string, from: number, n: number, o: CardsOf) =>
  insertCards(t, iccidsOf(prefix, from, n), { ...o, operatorId: o.operatorId ?? Operator.ChinaTelecom });

describe.each(backends)('card batches on %s', (backend) => {
  let t: TestApp;
  let admin: string;
  let enterprise: string;
  let channel: string;
  let ent: Owner;
  let chan: Owner;
  let next = 0;
  const fresh = async (n: number, o: CardsOf) => {
    const ids = await cardsAt(t, '8986099', next, n, o);
    next += n;
    return ids;
  };

  beforeAll(async () => {
    t = await startTestApp(backend);
    admin = await t.login('admin');
    enterprise = await t.login('enterprise');
    channel = await t.login('channel');
    ent = await ownerOf(t, 'enterprise');
    chan = await ownerOf(t, 'channel');
  });
  afterAll(() => t?.stop());

  const stateOf = async (iccids: string[]) =>
    (await t.database.sql.query<{ iccid: string; state: number }>('select iccid, state from cards where iccid = any($1) order by iccid', [iccids])).map((r) => Number(r.state));
  const historyCount = async (iccids: string[]) =>
    Number((await t.database.sql.query<{ n: string }>('select count(*) n from card_history where iccid = any($1)', [iccids]))[0].n);
  const items = async (batchId: string, token: string, extra: Record<string, unknown> = {}, lang: 'zh' | 'en' = 'en') =>
    (await t.call(ITEMS, { batchId, pageSize: 500, ...extra }, { token, lang })).body;
  const done = (batchId: string, token: string) =>
    waitFor(async () => {
      const d = (await t.call(DETAIL, { batchId }, { token })).body.data;
      return d?.state === BatchState.Done ? d : null;
    }, 90_000);

  it('validates without changing anything: valid, invalid and already counts with reasons, duplicates collapsed', async () => {
    const inventory = await fresh(5, { state: CardState.Inventory, owner: ent });
    const active = await fresh(2, { state: CardState.Activated, owner: ent });
    const retired = await fresh(1, { state: CardState.Retired, owner: ent });
    const foreign = await fresh(1, { state: CardState.Inventory, owner: chan });
    const stock = await fresh(1, { state: CardState.Inventory, owner: null });
    const iccids = [...inventory, ...active, ...retired, ...foreign, ...stock, '89860990000099999999', '12345', inventory[0], active[0]];
    const r = await t.call(VALIDATE, { params: { type: BatchType.StatusChange, action: 'activate' }, sourceKind: 'paste', iccids }, { token: enterprise });
    expect(r.body.success).toBe(true);
    expect(r.body.data).toMatchObject({
      state: BatchState.Validated, type: BatchType.StatusChange, source: batch.BatchSource.Pasted, totalCount: 12, validCount: 5,
      invalidCount: 5, alreadyCount: 2, duplicateCount: 2, processedCount: 0, params: { action: 'activate' },
    });
    const batchId = r.body.data.batchId;
    const invalid = await items(batchId, enterprise, { verdict: BatchVerdict.Invalid });
    expect(invalid.data.total).toBe(5);
    expect(invalid.data.list.map((i: { iccid: string; reason: string }) => [i.iccid, i.reason])).toEqual([
      [retired[0], 'Illegal transition from "Retired" to "Activated"'],
      // another customer's card and a stock card look exactly like a card that does not exist
      [foreign[0], 'Card not found'],
      [stock[0], 'Card not found'],
      ['89860990000099999999', 'Card not found'],
      ['12345', 'Invalid ICCID: it has 19-20 digits'],
    ]);
    const already = await items(batchId, enterprise, { verdict: BatchVerdict.Already }, 'zh');
    expect(already.data.list.map((i: { reason: string }) => i.reason)).toEqual(['卡已处于“已激活”状态', '卡已处于“已激活”状态']);
    expect(await stateOf([...inventory, ...foreign, ...stock])).toEqual(Array(7).fill(CardState.Inventory));
    expect(await historyCount(iccids)).toBe(0);
  });

  it('refuses more than 10,000 cards (1,000 for data recovery) with the spec message, and an empty selection', async () => {
    const many = Array.from({ length: 10_001 }, (_, i) => `8986098${String(i).padStart(13, '0')}`);
    const r = await t.call(VALIDATE, { params: { type: BatchType.StatusChange, action: 'deactivate' }, sourceKind: 'selection', iccids: many }, { token: admin });
    expect(r.body).toMatchObject({ success: false, errorCode: ErrorCode.BatchTooMany, msg: 'Selection too large (10001 cards): at most 10000 cards per batch, narrow the filters' });
    const zh = await t.call(VALIDATE, { params: { type: BatchType.DataRecovery }, sourceKind: 'selection', iccids: many.slice(0, 1001) }, { token: admin, lang: 'zh' });
    expect(zh.body).toMatchObject({ errorCode: ErrorCode.BatchTooMany, msg: '所选卡数量过多（1001 张），每批最多 1000 张，请缩小筛选范围' });
    // exactly at the limit is taken (duplicates do not count)
    const ok = await t.call(VALIDATE, { params: { type: BatchType.DataRecovery }, sourceKind: 'selection', iccids: [...many.slice(0, 1000), many[0]] }, { token: admin });
    expect(ok.body.data).toMatchObject({ totalCount: 1000, invalidCount: 1000, duplicateCount: 1 });
    // a filter that matches more than the limit: refused before anything is read
    await cardsAt(t, '8986095', 0, 1001, { state: CardState.Activated, owner: ent });
    const byFilter = await t.call(VALIDATE, { params: { type: BatchType.DataRecovery }, sourceKind: 'filter', filters: { iccid: '8986095' } }, { token: enterprise });
    expect(byFilter.body).toMatchObject({ errorCode: ErrorCode.BatchTooMany, msg: 'Selection too large (1001 cards): at most 1000 cards per batch, narrow the filters' });
    const narrowed = await t.call(VALIDATE, { params: { type: BatchType.DataRecovery }, sourceKind: 'filter', filters: { iccidStart: '89860950000000000000', iccidEnd: '89860950000000000999' } }, { token: enterprise });
    expect(narrowed.body.data).toMatchObject({ source: batch.BatchSource.Filter, totalCount: 1000, validCount: 1000 });
    const none = await t.call(VALIDATE, { params: { type: BatchType.StatusChange, action: 'activate' }, sourceKind: 'paste', iccids: [' '] }, { token: admin });
    expect(none.body.errorCode).toBe(ErrorCode.BatchEmpty);
    const missing = await t.call(VALIDATE, { params: { type: BatchType.StatusChange }, sourceKind: 'paste', iccids: many.slice(0, 1) }, { token: admin });
    expect(missing.body).toMatchObject({ errorCode: ErrorCode.Validation, msg: 'Field params.action: choose the status action' });
  });

  it('confirms into a job that changes every valid card once, with history; progress and results are visible', async () => {
    const cards = await fresh(60, { state: CardState.Inventory, owner: ent });
    const active = await fresh(3, { state: CardState.Activated, owner: ent });
    const v = await t.call(VALIDATE, { params: { type: BatchType.StatusChange, action: 'activate', reason: '批量开通' }, sourceKind: 'selection', iccids: [...cards, ...active] }, { token: enterprise });
    const batchId = v.body.data.batchId;
    const c = await t.call(CONFIRM, { batchId }, { token: enterprise });
    expect(c.body.data).toMatchObject({ state: BatchState.Running });
    const d = await done(batchId, enterprise);
    expect(d).toMatchObject({ validCount: 60, alreadyCount: 3, succeededCount: 60, failedCount: 0, processedCount: 60 });
    expect(d.finishedAt).not.toBeNull();
    expect(await stateOf(cards)).toEqual(Array(60).fill(CardState.Activated));
    const h = await t.database.sql.query<{ iccid: string; source: number; actor: string; reason: string; note_zh: string; note_en: string }>(
      'select iccid, source, actor, reason, note_zh, note_en from card_history where iccid = any($1)', [cards]);
    expect(h).toHaveLength(60);
    expect(h[0]).toMatchObject({ source: CardChangeSource.User, actor: 'enterprise' });
    // the creator's words as typed; the batch number in both languages
    expect(h[0].reason).toBe('批量开通');
    expect(h[0].note_zh).toContain(`批量操作 ${batchId.slice(0, 8)}`);
    expect(h[0].note_en).toContain(`batch ${batchId.slice(0, 8)}`);
    const ok = await items(batchId, enterprise, { status: BatchItemStatus.Succeeded });
    expect(ok.data.total).toBe(60);
    expect((await items(batchId, enterprise, { status: BatchItemStatus.Skipped })).data.total).toBe(3);
    // a batch runs once
    const again = await t.call(CONFIRM, { batchId }, { token: enterprise });
    expect(again.body).toMatchObject({ success: false, errorCode: ErrorCode.BatchNotValidated });
    expect(await historyCount(cards)).toBe(60);
  });

  it('records per-card failures with a bilingual message and goes on: operator refusal and a card changed since validation', async () => {
    const saved = await t.call('network/operatorsAccount/save', {
      operatorId: Operator.ChinaMobile, accountName: '批量演练', endpointUrl: 'https://api.onelink.example.com/openapi', apiVersion: 'v2',
      adapter: 'simulator', appKey: APP_KEY, appSecret: simulatorSecretFor(APP_KEY), password: 'Plain-Password-Batch-2026', simFailIccidPattern: '89860977*',
    }, { token: admin });
    expect(saved.body.success).toBe(true);
    const fine = await cardsAt(t, '89860976', 0, 4, { state: CardState.Activated, owner: ent, operatorId: Operator.ChinaMobile });
    const refused = await cardsAt(t, '89860977', 0, 2, { state: CardState.Activated, owner: ent, operatorId: Operator.ChinaMobile });
    const v = await t.call(VALIDATE, { params: { type: BatchType.StatusChange, action: 'deactivate' }, sourceKind: 'selection', iccids: [...fine, ...refused] }, { token: enterprise });
    expect(v.body.data.validCount).toBe(6);
    // one card is retired by someone else before the batch is confirmed
    await t.database.sql.query('update cards set state = $2 where iccid = $1', [fine[3], CardState.Retired]);
    const batchId = v.body.data.batchId;
    await t.call(CONFIRM, { batchId }, { token: enterprise });
    const d = await done(batchId, enterprise);
    expect(d).toMatchObject({ succeededCount: 3, failedCount: 3, processedCount: 6 });
    expect(await stateOf(fine.slice(0, 3))).toEqual(Array(3).fill(CardState.Deactivated));
    expect(await stateOf(refused)).toEqual(Array(2).fill(CardState.Activated));
    const failed = await items(batchId, enterprise, { status: BatchItemStatus.Failed });
    expect(failed.data.list.map((i: { iccid: string }) => i.iccid)).toEqual([fine[3], ...refused]);
    expect(failed.data.list[0].error).toBe('Illegal transition from "Retired" to "Deactivated"');
    expect(failed.data.list[1].error).toMatch(/^The operator refused the state change; the card state is unchanged: .+ \(recorded as a card change failure\)$/);
    const zh = await items(batchId, enterprise, { status: BatchItemStatus.Failed }, 'zh');
    expect(zh.data.list[1].error).toMatch(/^运营商拒绝了状态变更，卡状态未改变/);
    // the refusals are kept as card change failures (the operator screen lists them for retry)
    expect(Number((await t.database.sql.query<{ n: string }>('select count(*) n from card_change_failures where iccid = any($1)', [refused]))[0].n)).toBe(2);
    // the failures export as a download task
    const ex = await t.call(EXPORT, { batchId, status: BatchItemStatus.Failed, format: 2 }, { token: enterprise });
    expect(ex.body.success).toBe(true);
    const task = await waitFor(async () => {
      const l = await t.call('core/downloadTask/getListPage', {}, { token: enterprise });
      const found = l.body.data.list.find((x: { taskId: string }) => x.taskId === ex.body.data.taskId);
      return found?.state === ExportState.Succeeded ? found : null;
    });
    expect(task.rowCount).toBe(3);
  });

  it('fails its cards with the re-enter message when the operator credentials no longer open (the key changed), instead of retrying forever', async () => {
    const id = await accessConfigThatNoLongerOpens(t, admin, Operator.ChinaUnicom);
    try {
      const cards = await cardsAt(t, '89860978', 0, 3, { state: CardState.Activated, owner: ent, operatorId: Operator.ChinaUnicom });
      const v = await t.call(VALIDATE, { params: { type: BatchType.StatusChange, action: 'deactivate' }, sourceKind: 'selection', iccids: cards }, { token: enterprise });
      expect(v.body.data.validCount).toBe(3);
      await t.call(CONFIRM, { batchId: v.body.data.batchId }, { token: enterprise });
      const d = await done(v.body.data.batchId, enterprise);
      expect(d).toMatchObject({ succeededCount: 0, failedCount: 3, processedCount: 3 });
      expect(await stateOf(cards)).toEqual(Array(3).fill(CardState.Activated));
      expect(await historyCount(cards)).toBe(0);
      const failed = await items(v.body.data.batchId, enterprise, { status: BatchItemStatus.Failed });
      expect(failed.data.list[0].error).toMatch(/cannot be decrypted .*enter them again/);
    } finally {
      await t.database.sql.query('delete from operator_accounts where oper_account_id = $1', [id]);
    }
  });

  it('takes an uploaded csv or xlsx with an ICCID column; a file without one is refused', async () => {
    const cards = await fresh(3, { state: CardState.Activated, owner: ent });
    const send = async (data: Buffer, filename: string, params: unknown, token = enterprise) => {
      const m = multipart([{ name: 'params', value: JSON.stringify(params) }, { name: 'file', filename, type: 'application/octet-stream', data }]);
      const res = await t.app.inject({ method: 'POST', url: `/api/cmp/${VALIDATE_FILE}?lang=en`, payload: m.payload, headers: { ...m.headers, authorization: token } });
      return res.json();
    };
    const csv = await send(Buffer.from(`\ufeffICCID\r\n${cards.join('\r\n')}\r\n${cards[0]}\r\n`), 'cards.csv', { type: BatchType.StatusChange, action: 'deactivate' });
    expect(csv.data).toMatchObject({ source: batch.BatchSource.File, fileName: 'cards.csv', totalCount: 3, validCount: 3, duplicateCount: 1 });
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Cards');
    ws.addRow(['序号', 'ICCID']);
    cards.forEach((c, i) => ws.addRow([i + 1, c]));
    const xlsx = await send(Buffer.from(await wb.xlsx.writeBuffer()), 'cards.xlsx', { type: BatchType.StatusChange, action: 'freeze' });
    expect(xlsx.data).toMatchObject({ totalCount: 3, validCount: 3 });
    const noColumn = await send(Buffer.from('MSISDN\r\n1064\r\n'), 'x.csv', { type: BatchType.StatusChange, action: 'freeze' });
    expect(noColumn).toMatchObject({ success: false, errorCode: ErrorCode.BatchFileNoIccid, msg: 'The file has no ICCID column. Use the batch template' });
    const badParams = await send(Buffer.from('ICCID\r\n'), 'x.csv', { type: 99 });
    expect(badParams.errorCode).toBe(ErrorCode.Validation);
    const tooMany = await send(Buffer.from(`ICCID\r\n${Array.from({ length: 1001 }, (_, i) => `8986097${String(i).padStart(13, '0')}`).join('\r\n')}`), 'x.csv', { type: BatchType.DataRecovery });
    expect(tooMany.errorCode).toBe(ErrorCode.BatchTooMany);
    const tpl = await t.app.inject({ method: 'GET', url: `/api/cmp/core/sim/batchOperate/template?format=xlsx&lang=zh`, headers: { authorization: enterprise } });
    expect(tpl.statusCode).toBe(200);
    const read = new ExcelJS.Workbook();
    await read.xlsx.load(tpl.rawPayload as unknown as ArrayBuffer);
    expect(read.worksheets[0].getRow(1).getCell(1).value).toBe('ICCID');
  });

  it("keeps tenants apart: another customer's ICCIDs are not found and never changed; batches are seen only in their scope", async () => {
    const theirs = await fresh(3, { state: CardState.Inventory, owner: chan });
    const mine = await fresh(1, { state: CardState.Inventory, owner: ent });
    const v = await t.call(VALIDATE, { params: { type: BatchType.StatusChange, action: 'activate' }, sourceKind: 'paste', iccids: [...theirs, ...mine] }, { token: enterprise });
    expect(v.body.data).toMatchObject({ validCount: 1, invalidCount: 3 });
    const batchId = v.body.data.batchId;
    await t.call(CONFIRM, { batchId }, { token: enterprise });
    await done(batchId, enterprise);
    expect(await stateOf(theirs)).toEqual(Array(3).fill(CardState.Inventory));
    expect(await historyCount(theirs)).toBe(0);
    // the channel customer neither sees nor touches the enterprise's batch
    for (const call of [DETAIL, ITEMS, CONFIRM, CANCEL, EXPORT]) {
      const r = await t.call(call, { batchId }, { token: channel });
      expect(r.body).toMatchObject({ success: false, errorCode: ErrorCode.NotFound });
    }
    const list = await t.call(PAGE, { pageSize: 500 }, { token: channel });
    expect(list.body.data.list.some((b: { batchId: string }) => b.batchId === batchId)).toBe(false);
    expect((await t.call(PAGE, { pageSize: 500 }, { token: enterprise })).body.data.list.some((b: { batchId: string }) => b.batchId === batchId)).toBe(true);
    // staff see every batch
    expect((await t.call(DETAIL, { batchId }, { token: admin })).body.success).toBe(true);
    // a filter never reaches outside the caller's tenant either
    const byFilter = await t.call(VALIDATE, { params: { type: BatchType.StatusChange, action: 'activate' }, sourceKind: 'filter', filters: { iccid: theirs[0] } }, { token: enterprise });
    expect(byFilter.body.errorCode).toBe(ErrorCode.BatchEmpty);
  });

  it('checks the permission code of the batch type on the server', async () => {
    const role = await t.call('system/role/saveRole', { roleCode: 'BATCHSTATUS', roleName: '批量变更状态', roleType: RoleType.Manager, permissions: [Perm.Shortcuts, 6080000] }, { token: admin });
    expect(role.body.success).toBe(true);
    const acc = await t.call('core/account/account/saveAccount', { loginName: 'batchonly', userName: '批量', roleId: role.body.data.roleId, password: 'Batch#2026pass' }, { token: admin });
    expect(acc.body.success).toBe(true);
    const only = await t.login('batchonly', 'Batch#2026pass');
    const cards = await fresh(1, { state: CardState.Activated, owner: ent });
    expect((await t.call(VALIDATE, { params: { type: BatchType.StatusChange, action: 'deactivate' }, sourceKind: 'paste', iccids: cards }, { token: only })).body.success).toBe(true);
    for (const params of [{ type: BatchType.PlanChange, goodsReleaseId: 2 }, { type: BatchType.Zone, zoneOp: 'block', targetKind: 'network', targetId: 1 }, { type: BatchType.DataRecovery }]) {
      const r = await t.call(VALIDATE, { params, sourceKind: 'paste', iccids: cards }, { token: only });
      expect(r.body.errorCode).toBe(ErrorCode.PermissionDenied);
    }
    // the list shows only the types the caller may run
    const adminBatch = await t.call(VALIDATE, { params: { type: BatchType.DataRecovery }, sourceKind: 'paste', iccids: cards }, { token: admin });
    expect((await t.call(DETAIL, { batchId: adminBatch.body.data.batchId }, { token: only })).body.errorCode).toBe(ErrorCode.NotFound);
    const types = (await t.call(PAGE, { pageSize: 500 }, { token: only })).body.data.list.map((b: { type: number }) => b.type);
    expect(new Set(types)).toEqual(new Set([BatchType.StatusChange]));
    // no batch code at all: the endpoint refuses
    expect((await t.call(PAGE, {}, { token: await t.login('subcustomer') })).body.errorCode).toBe(ErrorCode.PermissionDenied);
  });

  it('changes plans, blocks and permits zones, recovers data, runs standard-card operations and labels', async () => {
    // plan 1 and plan 2 of the demo data share their APNs and are released to the enterprise
    const onPlan1 = await fresh(2, { state: CardState.Activated, owner: ent, plan: 1 });
    const onPlan2 = await fresh(1, { state: CardState.Activated, owner: ent, plan: 2 });
    const plan = await t.call(VALIDATE, { params: { type: BatchType.PlanChange, goodsReleaseId: 2 }, sourceKind: 'paste', iccids: [...onPlan1, ...onPlan2] }, { token: enterprise });
    expect(plan.body.data).toMatchObject({ validCount: 2, alreadyCount: 1, params: { goodsReleaseId: 2, planName: '冷链监控预付年包 2GB/月' } });
    await t.call(CONFIRM, { batchId: plan.body.data.batchId }, { token: enterprise });
    expect(await done(plan.body.data.batchId, enterprise)).toMatchObject({ succeededCount: 2 });
    const pending = await t.database.sql.query<{ pending_plan_id: number }>('select pending_plan_id from cards where iccid = any($1)', [onPlan1]);
    expect(pending.map((p) => p.pending_plan_id)).toEqual([2, 2]);
    expect((await t.call(VALIDATE, { params: { type: BatchType.PlanChange, goodsReleaseId: 999 }, sourceKind: 'paste', iccids: onPlan1 }, { token: enterprise })).body.errorCode).toBe(ErrorCode.BatchPlanUnknown);

    // zone 1 belongs to plan 1: block it on plan-1 cards; a plan-2 card is invalid
    const zoneCards = await fresh(2, { state: CardState.Activated, owner: ent, plan: 1 });
    const block = await t.call(VALIDATE, { params: { type: BatchType.Zone, zoneOp: 'block', targetKind: 'zone', targetId: 1 }, sourceKind: 'paste', iccids: [...zoneCards, ...onPlan2] }, { token: enterprise });
    expect(block.body.data).toMatchObject({ validCount: 2, invalidCount: 1 });
    expect((await items(block.body.data.batchId, enterprise, { verdict: BatchVerdict.Invalid })).data.list[0].reason).toBe("The card's plan does not include this zone");
    await t.call(CONFIRM, { batchId: block.body.data.batchId }, { token: enterprise });
    await done(block.body.data.batchId, enterprise);
    expect(Number((await t.database.sql.query<{ n: string }>(`select count(*) n from card_zone_blocks where iccid = any($1) and kind = 'zone' and target_id = 1`, [zoneCards]))[0].n)).toBe(2);
    const again = await t.call(VALIDATE, { params: { type: BatchType.Zone, zoneOp: 'block', targetKind: 'zone', targetId: 1 }, sourceKind: 'paste', iccids: zoneCards }, { token: enterprise });
    expect(again.body.data).toMatchObject({ validCount: 0, alreadyCount: 2 });
    expect((await t.call(CONFIRM, { batchId: again.body.data.batchId }, { token: enterprise })).body.errorCode).toBe(ErrorCode.BatchNothingValid);

    // data recovery: the blocked zone is permitted and the session reset; a second run within 3 minutes is refused by the engine
    const recovery = await t.call(VALIDATE, { params: { type: BatchType.DataRecovery }, sourceKind: 'paste', iccids: zoneCards }, { token: enterprise });
    expect(recovery.body.data.validCount).toBe(2);
    await t.call(CONFIRM, { batchId: recovery.body.data.batchId }, { token: enterprise });
    expect(await done(recovery.body.data.batchId, enterprise)).toMatchObject({ succeededCount: 2 });
    expect(Number((await t.database.sql.query<{ n: string }>('select count(*) n from card_zone_blocks where iccid = any($1)', [zoneCards]))[0].n)).toBe(0);
    const reset = await t.database.sql.query<{ last_network_reset_at: Date | null }>('select last_network_reset_at from cards where iccid = any($1)', [zoneCards]);
    expect(reset.every((r) => r.last_network_reset_at !== null)).toBe(true);
    const tooSoon = await t.call(VALIDATE, { params: { type: BatchType.DataRecovery }, sourceKind: 'paste', iccids: zoneCards }, { token: enterprise });
    expect(tooSoon.body.data.invalidCount).toBe(2);

    // standard-card operation: a professional-version card is invalid
    const pro = await fresh(1, { state: CardState.Activated, owner: ent, mode: PlanOperationMode.Professional });
    const std = await fresh(1, { state: CardState.Activated, owner: ent });
    const so = await t.call(VALIDATE, { params: { type: BatchType.StandardCard, action: 'deactivate' }, sourceKind: 'paste', iccids: [...pro, ...std] }, { token: enterprise });
    expect(so.body.data).toMatchObject({ validCount: 1, invalidCount: 1 });
    expect((await items(so.body.data.batchId, enterprise, { verdict: BatchVerdict.Invalid })).data.list[0].reason).toBe('Only standard-version cards can take a standard-card operation');

    // labels: a label of the enterprise, a platform label; another customer's label is unknown to the enterprise
    const lbl = async (name: string, owner: Owner | null) =>
      (await t.database.sql.query<{ label_id: number }>('insert into card_labels (name, colour, cust_id, root_cust_id, created_by) values ($1, $2, $3, $4, $5) returning label_id',
        [name, '#1677ff', owner?.cust_id ?? null, owner?.root_cust_id ?? null, 'test']))[0].label_id;
    const own = await lbl('冷链', ent);
    const platform = await lbl('平台', null);
    const other = await lbl('他人', chan);
    const labelled = await fresh(2, { state: CardState.Activated, owner: ent });
    const unknown = await t.call(VALIDATE, { params: { type: BatchType.Labels, labelOp: 'add', labelIds: [own, other] }, sourceKind: 'paste', iccids: labelled }, { token: enterprise });
    expect(unknown.body).toMatchObject({ errorCode: ErrorCode.BatchLabelUnknown, msg: `No such label: ${other}` });
    const add = await t.call(VALIDATE, { params: { type: BatchType.Labels, labelOp: 'add', labelIds: [own, platform] }, sourceKind: 'paste', iccids: labelled }, { token: enterprise });
    await t.call(CONFIRM, { batchId: add.body.data.batchId }, { token: enterprise });
    await done(add.body.data.batchId, enterprise);
    const labels = await t.database.sql.query<{ label_ids: number[] }>('select label_ids from cards where iccid = any($1)', [labelled]);
    expect(labels.map((l) => l.label_ids)).toEqual([[own, platform].sort((a, b) => a - b), [own, platform].sort((a, b) => a - b)]);
    const same = await t.call(VALIDATE, { params: { type: BatchType.Labels, labelOp: 'add', labelIds: [own] }, sourceKind: 'paste', iccids: labelled }, { token: enterprise });
    expect(same.body.data.alreadyCount).toBe(2);
  });

  it('cancels a validated batch; a cancelled batch cannot be confirmed', async () => {
    const cards = await fresh(1, { state: CardState.Inventory, owner: ent });
    const v = await t.call(VALIDATE, { params: { type: BatchType.StatusChange, action: 'activate' }, sourceKind: 'paste', iccids: cards }, { token: enterprise });
    const c = await t.call(CANCEL, { batchId: v.body.data.batchId }, { token: enterprise });
    expect(c.body.data.state).toBe(BatchState.Cancelled);
    expect((await t.call(CONFIRM, { batchId: v.body.data.batchId }, { token: enterprise })).body.errorCode).toBe(ErrorCode.BatchNotValidated);
    expect((await t.call(CANCEL, { batchId: v.body.data.batchId }, { token: enterprise })).body.errorCode).toBe(ErrorCode.BatchNotCancellable);
    expect(await stateOf(cards)).toEqual([CardState.Inventory]);
  });
});

describe.each(backends)('a batch interrupted by a restart on %s', (backend) => {
  it('goes on after the restart: every card done exactly once, one history entry per card', async () => {
    // PGlite: the first start from the seeded image (the test pays for the restart only). PostgreSQL: a fresh database,
    // as before: its 6 parallel chunks can finish all 2,000 cards before the stop on a fast start, and the restart must
    // land mid-batch
    const installation = await seededInstallation(backend, { freshPostgres: true });
    const open = () => installation.open();
    let t = await open();
    try {
      const token = await t.login('enterprise');
      const [ent] = await t.database.sql.query<{ cust_id: number; root_cust_id: number }>(`select cust_id, root_cust_id from accounts where login_name = 'enterprise'`);
      const N = backend === 'postgres' ? 2000 : 600;
      const cards = await cardsAt(t, '8986096', 0, N, { state: CardState.Inventory, owner: ent });
      const v = await t.call(VALIDATE, { params: { type: BatchType.StatusChange, action: 'activate' }, sourceKind: 'selection', iccids: cards }, { token });
      expect(v.body.data.validCount).toBe(N);
      const batchId = v.body.data.batchId;
      await t.call(CONFIRM, { batchId }, { token });
      const processed = async () => Number((await t.database.sql.query<{ n: string }>('select count(*) n from card_batch_items where batch_id = $1 and status <> $2', [batchId, BatchItemStatus.Pending]))[0].n);
      await waitFor(async () => (await processed()) > 0, 60_000, 20);
      await t.stop();
      t = await open();
      const before = await processed();
      expect(before).toBeGreaterThan(0);
      expect(before).toBeLessThan(N);
      const again = await t.login('enterprise');
      const d = await waitFor(async () => {
        const r = (await t.call(DETAIL, { batchId }, { token: again })).body.data;
        return r?.state === BatchState.Done ? r : null;
      }, 180_000);
      expect(d).toMatchObject({ succeededCount: N, failedCount: 0, processedCount: N });
      const states = await t.database.sql.query<{ state: number; n: string }>('select state, count(*) n from cards where iccid = any($1) group by state', [cards]);
      expect(states.map((s) => [Number(s.state), Number(s.n)])).toEqual([[CardState.Activated, N]]);
      const h = await t.database.sql.query<{ n: string }>('select count(*) n from card_history where iccid = any($1) group by iccid having count(*) <> 1', [cards]);
      expect(h).toHaveLength(0);
      expect(Number((await t.database.sql.query<{ n: string }>('select count(*) n from card_history where iccid = any($1)', [cards]))[0].n)).toBe(N);
    } finally {
      await t.stop();
      await installation.remove();
    }
  }, 300_000);
});
