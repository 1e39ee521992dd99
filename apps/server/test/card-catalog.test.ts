import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { CardActionKind, CardFormFactor, CardGrade, CardState, ErrorCode, Operator, Perm, allPermissionCodes } from '@lynx/contract';
import { backends, multipart, startTestApp, type TestApp } from './harness.ts';
import { setCardLabels } from '../src/modules/card/labels.ts';
import { extendedTestEnd, latestTestEnd } from '../src/modules/card/testcard/test-cards.ts';
import { checkCardRows } from '../src/modules/card/import/rows.ts';
import { builtInRolePermissions } from '../src/seed/demo.ts';
import type { SessionContext } from '../src/platform/context.ts';
import { ensureUsagePartitions } from '../src/modules/usage/usage-partitions.ts';

const DAY = 86_400_000;
/** ICCIDs of this file's own cards: 8986 99 + 14 digits */
const icc = (n: number) => `898699${String(n).padStart(14, '0')}`;

describe('test period extension (pure)', () => {
  const start = new Date('2026-01-10T00:00:00+08:00');
  it('adds the days to the test end, or to now once the end has passed', () => {
    const now = new Date('2026-02-01T00:00:00+08:00');
    const r = extendedTestEnd({ state: CardState.Test, testEndAt: new Date('2026-02-10T00:00:00+08:00') }, start, 3, 30, now);
    expect(r).toEqual({ ok: true, end: new Date('2026-03-12T00:00:00+08:00') });
    const late = extendedTestEnd({ state: CardState.Test, testEndAt: new Date('2026-01-20T00:00:00+08:00') }, start, 3, 30, now);
    expect(late).toEqual({ ok: true, end: new Date('2026-03-03T00:00:00+08:00') });
  });
  it('keeps test plus inventory period within 12 months (spec §4)', () => {
    expect(latestTestEnd(start, 3)).toEqual(new Date('2026-10-10T00:00:00+08:00'));
    expect(latestTestEnd(start, 0)).toEqual(new Date('2027-01-10T00:00:00+08:00'));
    const now = new Date('2026-02-01T00:00:00+08:00');
    const r = extendedTestEnd({ state: CardState.Test, testEndAt: new Date('2026-09-01T00:00:00+08:00') }, start, 3, 60, now);
    expect(r).toEqual({ ok: false, error: ErrorCode.TestPeriodTooLong, params: { months: 12, latest: '2026-10-10' } });
    // exactly at the limit is allowed
    const edge = extendedTestEnd({ state: CardState.Test, testEndAt: new Date('2026-09-10T00:00:00+08:00') }, start, 3, 30, now);
    expect(edge).toEqual({ ok: true, end: new Date('2026-10-10T00:00:00+08:00') });
  });
  it('refuses cards that are not in test', () => {
    const r = extendedTestEnd({ state: CardState.Activated, testEndAt: null }, start, 0, 30, new Date());
    expect(r).toMatchObject({ ok: false, error: ErrorCode.TestCardNotInTest, params: { stateEn: 'Activated' } });
  });
  it('matches the card type column in either language, ignoring case', () => {
    const ops = [{ operatorId: 2, code: 'CUCC', nameZh: '中国联通', nameEn: 'China Unicom' }];
    const types = [{ cardTypeId: 7, nameZh: '工业级贴片', nameEn: 'Industrial MFF2' }];
    const cells = [
      ['ICCID', 'MSISDN', 'IMSI', 'Operator', 'Card type'],
      ['89860100000000000001', '1064100000001', '460010000000001', 'CUCC', 'industrial mff2'],
      ['89860100000000000002', '1064100000002', '460010000000002', 'CUCC', '工业级贴片'],
      ['89860100000000000003', '1064100000003', '460010000000003', 'CUCC', null],
      ['89860100000000000004', '1064100000004', '460010000000004', 'CUCC', 'Nano'],
    ];
    const { rows, errors } = checkCardRows(cells, ops, types);
    expect(rows.map((r) => [r.row, r.cardTypeId])).toEqual([[2, 7], [3, 7], [4, null]]);
    expect(errors).toMatchObject([{ row: 5, column: 'cardType' }]);
  });
});

describe('built-in roles', () => {
  it('give card type add/delete to staff only; customers keep the read-only page', () => {
    const p = builtInRolePermissions();
    for (const role of [3000, 4000]) {
      expect(p[role]).toContain(2050000);
      expect(p[role]).not.toContain(2050001);
      expect(p[role]).not.toContain(2050002);
      expect(p[role]).toContain(2110001);
      expect(p[role]).toContain(2100001);
    }
    expect(p[1000]).toEqual(expect.arrayContaining([2050001, 2050002, 2100001, 2110001, 2110002]));
    expect(allPermissionCodes).toContain(2100001);
    expect(p[5000]).not.toContain(2050000);
    expect(p[5000]).not.toContain(2100000);
    expect(p[5000]).toContain(Perm.CardList);
  });
});

describe.each(backends)('card catalogue on %s', (backend) => {
  let t: TestApp;
  let admin: string;
  let enterprise: string;
  let sub: string;
  let channel: string;
  const cust: Record<'zhixing' | 'east' | 'huadian', number> = { zhixing: 0, east: 0, huadian: 0 };
  let plan3: number;

  const q = <T = any>(text: string, params?: unknown[]) => t.database.sql.query<T>(text, params);
  const ctxOf = async (loginName: string): Promise<SessionContext> => {
    const [{ account_id }] = await q<{ account_id: number }>('select account_id from accounts where login_name = $1', [loginName]);
    const actor = (await t.deps.sessions.actorOf(account_id))!;
    return { actor, lang: 'en', ip: '127.0.0.1', endpoint: 'test', tokenHash: null, audited: false };
  };
  const call = async (endpoint: string, body: Record<string, unknown>, token: string, lang: 'zh' | 'en' = 'en') =>
    (await t.call(`core/sim/${endpoint}`, body, { token, lang })).body;
  const labelsOf = async (iccid: string) => (await q<{ label_ids: number[] }>('select label_ids from cards where iccid = $1', [iccid]))[0].label_ids;

  beforeAll(async () => {
    t = await startTestApp(backend);
    [admin, enterprise, sub, channel] = await Promise.all(['admin', 'enterprise', 'subcustomer', 'channel'].map((n) => t.login(n)));
    const custs = await q<{ cust_id: number; cust_name: string }>('select cust_id, cust_name from customers');
    cust.zhixing = custs.find((c) => c.cust_name === '智行物流科技有限公司')!.cust_id;
    cust.east = custs.find((c) => c.cust_name === '智行物流华东分公司')!.cust_id;
    cust.huadian = custs.find((c) => c.cust_name === '华电智能表计有限公司')!.cust_id;
    [{ goods_release_id: plan3 }] = await q<{ goods_release_id: number }>('select goods_release_id from basic_plans where silent_period_months = 3 order by goods_release_id limit 1');
    // this file's cards: 1-3 zhixing's own, 4-5 its second-level customer 华东, 6-7 华电, 8 platform stock
    const owner = (n: number) => (n <= 3 ? [cust.zhixing, cust.zhixing] : n <= 5 ? [cust.east, cust.zhixing] : n <= 7 ? [cust.huadian, cust.huadian] : [null, null]);
    for (let n = 1; n <= 8; n++) {
      const [c, r] = owner(n);
      await q(
        `insert into cards (iccid, msisdn, imsi, operator_id, state, cust_id, root_cust_id, custom1, custom2, first_used_at, activated_at)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10)`,
        [icc(n), `10649900000${n}`, `4600199000000${String(n).padStart(2, '0')}`, Operator.ChinaUnicom, c ? CardState.Activated : CardState.Start, c, r,
          n <= 5 ? `TRUCK-${n}0${n}` : null, n === 2 ? 'fleet_a%b' : null, n <= 2 ? new Date(`2026-03-0${n}T10:00:00+08:00`) : null],
      );
    }
  });
  afterAll(() => t?.stop());

  it('keeps labels per owner: staff labels are platform-wide, a customer sees only its own tenant', async () => {
    const vip = await call('cardLabel/addLabel', { name: 'VIP', colour: '#F5222D', description: '重点客户' }, admin);
    expect(vip).toMatchObject({ success: true, data: { name: 'VIP', colour: '#f5222d', platform: true, custId: null, editable: true } });
    expect((await call('cardLabel/addLabel', { name: 'vip', colour: '#1677ff' }, admin, 'zh'))).toMatchObject({ errorCode: ErrorCode.CardLabelNameTaken, msg: '标签名称“vip”已存在' });
    const cold = await call('cardLabel/addLabel', { name: '冷链', colour: '#13c2c2' }, enterprise);
    expect(cold.data).toMatchObject({ platform: false, custId: cust.zhixing, editable: true });
    // another owner may use the same name
    expect((await call('cardLabel/addLabel', { name: 'VIP', colour: '#722ed1' }, enterprise)).success).toBe(true);
    expect((await call('cardLabel/addLabel', { name: ' 冷链 ', colour: '#722ed1' }, enterprise)).errorCode).toBe(ErrorCode.CardLabelNameTaken);
    const east = await call('cardLabel/addLabel', { name: '华东仓', colour: '#52c41a' }, sub);
    expect(east.data).toMatchObject({ custId: cust.east });
    const meter = await call('cardLabel/addLabel', { name: '电表', colour: '#fa8c16' }, channel);
    expect((await call('cardLabel/addLabel', { name: '   ', colour: '#fa8c16' }, channel)).errorCode).toBe(ErrorCode.Validation);
    expect((await t.call('core/sim/cardLabel/addLabel', { name: 'x', colour: 'red' }, { token: channel })).status).toBe(400);

    // the demo's own labels aside: 重点监控 and 待回收 (platform), 冷链运输 (智行), 华南电表 (华电)
    const names = async (token: string) => (await call('cardLabel/getLabelListPage', { pageSize: 100 }, token)).data.list.map((l: any) => l.name).sort();
    expect(await names(sub)).toEqual(['VIP', '华东仓', '待回收', '重点监控'].sort());
    expect(await names(channel)).toEqual(['VIP', '华南电表', '待回收', '电表', '重点监控'].sort());
    expect(await names(admin)).toEqual(['VIP', 'VIP', '冷链', '华东仓', '电表', '冷链运输', '华南电表', '待回收', '重点监控'].sort());
    expect(await names(enterprise)).toEqual(['VIP', 'VIP', '冷链', '华东仓', '冷链运输', '待回收', '重点监控'].sort());
    const platform = (await call('cardLabel/getLabelListPage', { scope: 'platform' }, enterprise)).data.list.map((l: any) => l.name).sort();
    expect(platform).toEqual(['VIP', '待回收', '重点监控'].sort());
    const opts = (await call('cardLabel/getLabelOptions', {}, channel)).data;
    // platform labels first, then the customer's own, each by name
    expect(opts.map((o: any) => o.platform)).toEqual([true, true, true, false, false]);
    expect(opts.filter((o: any) => !o.platform).map((o: any) => o.name).sort()).toEqual(['华南电表', '电表'].sort());

    // another customer's label is answered like a missing one; platform labels are read-only for customers
    expect((await call('cardLabel/getLabelDetail', { labelId: cold.data.labelId }, channel)).errorCode).toBe(ErrorCode.NotFound);
    expect((await call('cardLabel/updateLabel', { labelId: cold.data.labelId, name: 'mine', colour: '#000000' }, channel)).errorCode).toBe(ErrorCode.NotFound);
    expect((await call('cardLabel/deleteLabel', { labelId: meter.data.labelId }, enterprise)).errorCode).toBe(ErrorCode.NotFound);
    const ro = await call('cardLabel/getLabelDetail', { labelId: vip.data.labelId }, enterprise);
    expect(ro.data).toMatchObject({ platform: true, editable: false });
    expect((await call('cardLabel/updateLabel', { labelId: vip.data.labelId, name: 'VIP2', colour: '#000000' }, enterprise)).errorCode).toBe(ErrorCode.CardLabelPlatformStaffOnly);
    // a channel customer manages its second-level customer's labels
    const renamed = await call('cardLabel/updateLabel', { labelId: east.data.labelId, name: '华东仓库', colour: '#52C41A', description: ' 仓储 ' }, enterprise);
    expect(renamed.data).toMatchObject({ name: '华东仓库', description: '仓储', editable: true });
    expect((await call('cardLabel/updateLabel', { labelId: east.data.labelId, name: '冷链', colour: '#52c41a' }, sub)).success).toBe(true);
    expect((await call('cardLabel/updateLabel', { labelId: east.data.labelId, name: '华东仓', colour: '#52c41a' }, sub)).success).toBe(true);
    const audits = await q<{ n: string }>(`select count(*) n from audit_log where entity = 'cardLabel' and entity_id = $1`, [String(east.data.labelId)]);
    expect(Number(audits[0].n)).toBe(4);
  });

  it('puts labels on cards set-based, within the caller tenant and the label owner', async () => {
    const byName = async (name: string, token = admin) => (await call('cardLabel/getLabelListPage', { name, pageSize: 100 }, token)).data.list;
    const [vip] = (await byName('VIP')).filter((l: any) => l.platform);
    const [cold] = await byName('冷链');
    const [eastL] = await byName('华东仓');
    const [meter] = await byName('电表');
    const ent = await ctxOf('enterprise');
    const eastCtx = await ctxOf('subcustomer');
    const chan = await ctxOf('channel');
    const staff = await ctxOf('admin');

    // the enterprise labels its tree; 华电's card and a stock card are not there for it
    const r = await setCardLabels(t.database.db, ent, [icc(1), icc(2), icc(4), icc(6), icc(8), icc(99)], [cold.labelId, vip.labelId], 'add');
    expect(r).toEqual({ changed: [icc(1), icc(2), icc(4)], unchanged: [], missing: [icc(6), icc(8), icc(99)], refused: [] });
    expect(await labelsOf(icc(1))).toEqual([vip.labelId, cold.labelId].sort((a, b) => a - b));
    expect(await labelsOf(icc(6))).toEqual([]);
    expect(ent.audited).toBe(true);
    const [a] = await q<{ after: any }>(`select after from audit_log where entity = 'cardLabels' order by created_at desc limit 1`);
    expect(a.after.cards.map((c: any) => c.iccid)).toEqual([icc(1), icc(2), icc(4)]);
    // again: nothing changes
    expect((await setCardLabels(t.database.db, ent, [icc(1)], [cold.labelId], 'add')).unchanged).toEqual([icc(1)]);

    // a label the caller cannot see refuses the whole call
    await expect(setCardLabels(t.database.db, chan, [icc(6)], [cold.labelId, meter.labelId], 'add')).rejects.toMatchObject({ code: ErrorCode.CardLabelUnavailable, params: { ids: String(cold.labelId) } });
    expect(await labelsOf(icc(6))).toEqual([]);
    // staff cannot put a customer's label on another customer's card, nor a second-level customer's label on its parent's card
    const s = await setCardLabels(t.database.db, staff, [icc(6), icc(1), icc(4)], [eastL.labelId], 'add');
    expect(s.changed).toEqual([icc(4)]);
    expect(s.refused.map((x) => [x.iccid, x.code])).toEqual([[icc(6), ErrorCode.CardLabelOtherOwner], [icc(1), ErrorCode.CardLabelOtherOwner]]);
    await expect(setCardLabels(t.database.db, staff, [icc(6)], [cold.labelId], 'add', { strict: true })).rejects.toMatchObject({ code: ErrorCode.CardLabelOtherOwner });
    await expect(setCardLabels(t.database.db, chan, [icc(1)], [meter.labelId], 'add', { strict: true })).rejects.toMatchObject({ code: ErrorCode.NotFound });

    // replace by the second-level customer keeps the labels it cannot see (its parent's 冷链)
    expect(await labelsOf(icc(4))).toEqual([vip.labelId, cold.labelId, eastL.labelId].sort((x, y) => x - y));
    const rep = await setCardLabels(t.database.db, eastCtx, [icc(4)], [], 'replace');
    expect(rep.changed).toEqual([icc(4)]);
    expect(await labelsOf(icc(4))).toEqual([cold.labelId]);
    // remove, and a dry run that writes nothing
    const dry = await setCardLabels(t.database.db, ent, [icc(2)], [cold.labelId], 'remove', { dryRun: true });
    expect(dry.changed).toEqual([icc(2)]);
    expect(await labelsOf(icc(2))).toContain(cold.labelId);
    await setCardLabels(t.database.db, ent, [icc(2)], [vip.labelId], 'remove');
    expect(await labelsOf(icc(2))).toEqual([cold.labelId]);

    // at most 20 labels on a card
    const many: number[] = [];
    for (let i = 0; i < 20; i++) many.push((await call('cardLabel/addLabel', { name: `L${i}`, colour: '#8c8c8c' }, channel)).data.labelId);
    expect((await setCardLabels(t.database.db, chan, [icc(7)], many, 'add')).changed).toEqual([icc(7)]);
    const over = await setCardLabels(t.database.db, chan, [icc(7)], [meter.labelId], 'add');
    expect(over.refused).toMatchObject([{ iccid: icc(7), code: ErrorCode.CardLabelTooManyOnCard }]);
  });

  it('lists the cards of a label within the caller tenant and deletes a label in use only when confirmed', async () => {
    const [cold] = (await call('cardLabel/getLabelListPage', { name: '冷链' }, enterprise)).data.list;
    const cardsOf = async (token: string) => (await call('cardLabel/getLabelCardPage', { labelId: cold.labelId }, token)).data;
    const ent = await cardsOf(enterprise);
    expect(ent.list.map((c: any) => c.iccid)).toEqual([icc(1), icc(2), icc(4)]);
    expect(ent.list[2]).toMatchObject({ custName: '智行物流华东分公司', state: CardState.Activated });
    expect((await call('cardLabel/getLabelCardPage', { labelId: cold.labelId, iccid: icc(2) }, enterprise)).data.total).toBe(1);
    // the second-level customer cannot see the label itself
    expect((await call('cardLabel/getLabelCardPage', { labelId: cold.labelId }, sub)).errorCode).toBe(ErrorCode.NotFound);

    const first = await call('cardLabel/deleteLabel', { labelId: cold.labelId }, enterprise, 'zh');
    expect(first).toMatchObject({ success: false, errorCode: ErrorCode.CardLabelInUse, msg: '标签“冷链”已用于 3 张卡，确认删除后将同时从这些卡上移除', data: { cardCount: 3 } });
    expect(await labelsOf(icc(1))).toContain(cold.labelId);
    const done = await call('cardLabel/deleteLabel', { labelId: cold.labelId, confirmInUse: true }, enterprise);
    expect(done.data).toEqual({ labelId: cold.labelId, removedFromCards: 3 });
    for (const n of [1, 2, 4]) expect(await labelsOf(icc(n))).not.toContain(cold.labelId);
    expect((await q('select 1 from card_labels where label_id = $1', [cold.labelId])).length).toBe(0);
    const [au] = await q<{ after: any }>(`select after from audit_log where entity = 'cardLabel' and entity_id = $1 order by created_at desc limit 1`, [String(cold.labelId)]);
    expect(au.after).toEqual({ deleted: true, removedFromCards: 3 });
    // an unused label goes at once
    const tmp = await call('cardLabel/addLabel', { name: 'tmp', colour: '#8c8c8c' }, enterprise);
    expect((await call('cardLabel/deleteLabel', { labelId: tmp.data.labelId }, enterprise)).data).toEqual({ labelId: tmp.data.labelId, removedFromCards: 0 });
    // permission codes: the sub-customer has label edit/delete, not card types or test cards
    expect((await call('cardLabel/getLabelListPage', {}, sub)).success).toBe(true);
    expect((await call('cardProduct/getCardTypeListPage', {}, sub)).errorCode).toBe(ErrorCode.PermissionDenied);
    expect((await call('testCard/getTestCardListPage', {}, sub)).errorCode).toBe(ErrorCode.PermissionDenied);
  });

  it('keeps card types: staff write, customers read, a type in use cannot be deleted', async () => {
    const body = { nameZh: '工业级贴片卡', nameEn: 'Industrial MFF2', formFactor: CardFormFactor.Mff2, grade: CardGrade.Industrial, tempMin: -40, tempMax: 105 };
    const added = await call('cardProduct/addCardType', body, admin);
    expect(added.data).toMatchObject({ ...body, description: null, createdBy: 'admin' });
    const nano = await call('cardProduct/addCardType', { ...body, nameZh: '消费级 Nano', nameEn: 'Consumer nano', formFactor: CardFormFactor.Nano4FF, grade: CardGrade.Consumer, description: '手持终端' }, admin);
    expect(nano.success).toBe(true);
    // names are unique across both languages, case-insensitively
    expect(await call('cardProduct/addCardType', { ...body, nameZh: 'industrial mff2', nameEn: 'Other' }, admin, 'zh')).toMatchObject({ errorCode: ErrorCode.CardTypeNameTaken, msg: '卡类型名称“industrial mff2”已存在', data: { field: 'nameZh' } });
    expect((await call('cardProduct/addCardType', { ...body, nameZh: '别名', nameEn: '消费级 nano' }, admin)).errorCode).toBe(ErrorCode.CardTypeNameTaken);
    expect((await call('cardProduct/addCardType', { ...body, nameZh: 'A', nameEn: 'A', tempMin: 85, tempMax: 85 }, admin)).errorCode).toBe(ErrorCode.CardTypeTemperatureRange);
    expect((await call('cardProduct/addCardType', { ...body, nameZh: 'B', nameEn: 'B', formFactor: 99 }, admin)).errorCode).toBe(ErrorCode.Validation);
    expect((await t.call('core/sim/cardProduct/addCardType', { ...body, tempMin: -100 }, { token: admin })).status).toBe(400);
    const edited = await call('cardProduct/updateCardType', { ...body, cardTypeId: nano.data.cardTypeId, nameZh: '消费级 Nano 卡', nameEn: 'Consumer nano', formFactor: CardFormFactor.Nano4FF, grade: CardGrade.Consumer }, admin);
    expect(edited.data).toMatchObject({ nameZh: '消费级 Nano 卡', description: null });

    // customers see the catalogue read-only; the server refuses writes even to a customer role given the codes
    const list = await call('cardProduct/getCardTypeListPage', { name: 'nano' }, enterprise);
    expect(list.data.list.map((x: any) => x.nameEn)).toEqual(['Consumer nano']);
    expect((await call('cardProduct/addCardType', { ...body, nameZh: 'C', nameEn: 'C' }, enterprise)).errorCode).toBe(ErrorCode.PermissionDenied);
    await q(`update roles set permissions = permissions || array[2050001, 2050002] where role_id = 3000`);
    const widened = await t.login('enterprise');
    expect(await call('cardProduct/addCardType', { ...body, nameZh: 'C', nameEn: 'C' }, widened, 'zh')).toMatchObject({ errorCode: ErrorCode.CardTypeStaffOnly, msg: '卡类型由运营方人员维护，客户账号只能查看' });
    expect((await call('cardProduct/deleteCardType', { cardTypeId: nano.data.cardTypeId }, widened)).errorCode).toBe(ErrorCode.CardTypeStaffOnly);
    await q(`update roles set permissions = array(select unnest(permissions) except select unnest(array[2050001, 2050002])) where role_id = 3000`);

    // the import takes the card type column in either language; unknown names fail the row
    const file = Buffer.from('\ufeffICCID,MSISDN,IMSI,运营商,卡类型,批次/备注\r\n'
      + `${icc(11)},1064990000011,460019900000011,中国联通,industrial mff2,CT\r\n`
      + `${icc(12)},1064990000012,460019900000012,中国联通,工业级贴片卡,CT\r\n`
      + `${icc(13)},1064990000013,460019900000013,中国联通,,CT\r\n`
      + `${icc(14)},1064990000014,460019900000014,中国联通,Nano 3000,CT\r\n`);
    const m = multipart([{ name: 'file', filename: 'types.csv', type: 'text/csv', data: file }]);
    const res = (await t.app.inject({ method: 'POST', url: '/api/cmp/core/sim/simEnter/insert?lang=zh', payload: m.payload, headers: { ...m.headers, authorization: admin } })).json();
    expect(res.data).toMatchObject({ totalRows: 4, successRows: 3, failedRows: 1 });
    const types = await q<{ iccid: string; card_type_id: number | null }>('select iccid, card_type_id from cards where iccid = any($1) order by iccid', [[icc(11), icc(12), icc(13)]]);
    expect(types.map((x) => x.card_type_id)).toEqual([added.data.cardTypeId, added.data.cardTypeId, null]);
    const errs = await call('simEnter/getImportErrorPage', { batchId: res.data.batchId }, admin, 'zh');
    expect(errs.data.list).toMatchObject([{ row: 5, column: '卡类型', reason: '未知的卡类型（请使用“卡类型”中已有的名称）' }]);

    const inUse = await call('cardProduct/deleteCardType', { cardTypeId: added.data.cardTypeId }, admin, 'zh');
    expect(inUse).toMatchObject({ errorCode: ErrorCode.CardTypeInUse, msg: '卡类型“工业级贴片卡 / Industrial MFF2”已被卡使用，不能删除' });
    expect((await call('cardProduct/deleteCardType', { cardTypeId: nano.data.cardTypeId }, admin)).data).toEqual({ cardTypeId: nano.data.cardTypeId });
    const options = (await call('cardProduct/getCardTypeOptions', {}, enterprise)).data;
    expect(options).toContainEqual({ cardTypeId: added.data.cardTypeId, nameZh: '工业级贴片卡', nameEn: 'Industrial MFF2' });
    expect(options.map((o: any) => o.cardTypeId)).not.toContain(nano.data.cardTypeId);
    expect(options.map((o: any) => o.nameEn)).toEqual(expect.arrayContaining(['Industrial MFF2 chip', 'Consumer triple-cut', 'Automotive MFF2 chip']));
    // the card list filters by type and shows its names
    const byType = await call('simQuery/getSimListPage', { cardTypeId: added.data.cardTypeId }, admin);
    expect(byType.data.list.map((c: any) => [c.iccid, c.cardTypeNameEn])).toEqual([[icc(11), 'Industrial MFF2'], [icc(12), 'Industrial MFF2']]);
  });

  it('searches the card list by label, first use and custom fields, inside the tenant', async () => {
    const lab = (await call('cardLabel/addLabel', { name: '巡检', colour: '#2f54eb' }, enterprise)).data;
    const vip = (await call('cardLabel/getLabelListPage', { scope: 'platform', name: 'VIP' }, admin)).data.list[0];
    await setCardLabels(t.database.db, await ctxOf('enterprise'), [icc(1), icc(3), icc(5)], [lab.labelId], 'add');
    await setCardLabels(t.database.db, await ctxOf('enterprise'), [icc(3)], [vip.labelId], 'add');
    await setCardLabels(t.database.db, await ctxOf('channel'), [icc(6)], [vip.labelId], 'add');
    const iccids = async (body: Record<string, unknown>, token = admin) =>
      (await call('simQuery/getSimListPage', { iccid: '898699', pageSize: 100, ...body }, token)).data.list.map((c: any) => c.iccid);

    expect(await iccids({ labelIds: [lab.labelId] }, enterprise)).toEqual([icc(1), icc(3), icc(5)]);
    // few matches: the page is read through the label index, sorted and paged like any other
    expect(await iccids({ labelIds: [lab.labelId], sortField: 'iccid', sortOrder: 'descend' }, enterprise)).toEqual([icc(5), icc(3), icc(1)]);
    const second = await call('simQuery/getSimListPage', { labelIds: [lab.labelId], pageSize: 1, current: 2 }, enterprise);
    expect(second.data).toMatchObject({ total: 3, current: 2, list: [{ iccid: icc(3), labels: [{ name: 'VIP' }, { name: '巡检' }] }] });
    expect(await iccids({ labelIds: [lab.labelId, vip.labelId] }, enterprise)).toEqual([icc(1), icc(3), icc(5)]);
    // 1 kept the platform VIP label from before
    expect(await iccids({ labelIds: [lab.labelId, vip.labelId], labelMatch: 'all' }, enterprise)).toEqual([icc(1), icc(3)]);
    expect(await iccids({ labelIds: [vip.labelId] }, admin)).toEqual([icc(1), icc(3), icc(6)]);
    expect(await iccids({ labelIds: [vip.labelId] }, channel)).toEqual([icc(6)]);
    expect(await iccids({ labelIds: [lab.labelId] }, sub)).toEqual([icc(5)]);
    // the rows carry only the labels the reader may see
    const row = (await call('simQuery/getSimListPage', { iccid: icc(5) }, sub)).data.list[0];
    expect(row.labelIds).toContain(lab.labelId);
    expect(row.labels).toEqual([]);
    const entRow = (await call('simQuery/getSimListPage', { iccid: icc(3) }, enterprise)).data.list[0];
    expect(entRow.labels.map((l: any) => l.name).sort()).toEqual(['VIP', '巡检'].sort());

    expect(await iccids({ firstUsedFrom: '2026-03-01', firstUsedTo: '2026-03-01' })).toEqual([icc(1)]);
    expect(await iccids({ firstUsedFrom: '2026-03-01', firstUsedTo: '2026-03-02' })).toEqual([icc(1), icc(2)]);
    expect(await iccids({ custom1: 'TRUCK-303' })).toEqual([icc(3)]);
    expect(await iccids({ custom1: 'TRUCK-303', custom1Match: 'exact' }, channel)).toEqual([]);
    expect(await iccids({ custom1: 'TRUCK-', custom1Match: 'prefix' }, enterprise)).toEqual([icc(1), icc(2), icc(3), icc(4), icc(5)]);
    expect(await iccids({ custom1: 'truck-4', custom1Match: 'contains' }, sub)).toEqual([icc(4)]);
    expect(await iccids({ custom1: '0', custom1Match: 'contains' }, sub)).toEqual([icc(4), icc(5)]);
    // % and _ are literal characters, not wildcards
    expect(await iccids({ custom2: 'fleet_a%', custom2Match: 'prefix' })).toEqual([icc(2)]);
    expect(await iccids({ custom2: 'fleet%', custom2Match: 'prefix' })).toEqual([]);
    expect(await iccids({ custom2: 'a%b', custom2Match: 'contains' })).toEqual([icc(2)]);
  });

  it('lists test cards per tenant and ends or extends a test through the lifecycle rules', async () => {
    const now = Date.now();
    const mk = async (n: number, custId: number, rootCustId: number, endDays: number, startDays: number) => {
      await q(
        `insert into cards (iccid, msisdn, imsi, operator_id, state, cust_id, root_cust_id, goods_release_id, test_end_at, next_deadline_at)
         values ($1, $2, $3, $4, 61, $5, $6, $7, $8, $8)`,
        [icc(n), `1064990000${n}`, `4600199000000${n}`, Operator.ChinaUnicom, custId, rootCustId, plan3, new Date(now + endDays * DAY)],
      );
      await q(`insert into card_history (iccid, from_state, to_state, action, source, actor, at) values ($1, 60, 61, $2, 1, 'admin', $3)`,
        [icc(n), CardActionKind.StartTest, new Date(now - startDays * DAY)]);
    };
    await mk(21, cust.zhixing, cust.zhixing, 20, 10);
    await mk(22, cust.east, cust.zhixing, 5, 40);
    await mk(23, cust.huadian, cust.huadian, 12, 10);
    // test data used: the daily totals from the day the test started (the row from before it does not count)
    await ensureUsagePartitions(t.database.db);
    const day = (ago: number) => new Date(now - ago * DAY + 8 * 3_600_000).toISOString().slice(0, 10);
    for (const [ago, kb] of [[2, 300], [20, 999]]) {
      await q(`insert into card_usage_daily (iccid, day, bytes, apn, operator_id, cust_id, root_cust_id) values ($1, $2, $3, 'cmiot', $4, $5, $5)
        on conflict (iccid, day) do update set bytes = card_usage_daily.bytes + excluded.bytes`, [icc(21), day(ago), kb * 1024, Operator.ChinaUnicom, cust.zhixing]);
    }
    const [{ b }] = await q<{ b: string }>('select coalesce(sum(bytes), 0) b from card_usage_daily where iccid = $1 and day >= $2', [icc(21), day(10)]);
    const list = async (token: string, body: Record<string, unknown> = {}) => (await call('testCard/getTestCardListPage', { iccid: '898699', ...body }, token)).data;
    const ent = await list(enterprise);
    expect(ent.list.map((c: any) => c.iccid)).toEqual([icc(22), icc(21)]);
    expect(ent.list[1]).toMatchObject({ state: CardState.Test, custName: '智行物流科技有限公司', goodsReleaseId: plan3, testQuotaKb: 100 });
    expect(new Date(ent.list[1].testStartAt).getTime()).toBe(now - 10 * DAY);
    expect(ent.list[1].testUsedKb).toBe(Number(b) / 1024);
    expect(ent.list[1].testUsedKb).toBeGreaterThanOrEqual(300);
    expect(ent.list[1].testUsedKb).toBeLessThan(999);
    expect((await list(channel)).list.map((c: any) => c.iccid)).toEqual([icc(23)]);
    expect((await list(admin, { sortField: 'testEndAt', sortOrder: 'descend' })).list.map((c: any) => c.iccid)).toEqual([icc(21), icc(23), icc(22)]);
    const soon = new Date(now + 6 * DAY + 8 * 3_600_000).toISOString().slice(0, 10);
    expect((await list(admin, { testEndTo: soon })).list.map((c: any) => c.iccid)).toEqual([icc(22)]);
    expect((await call('testCard/getTestCardDetail', { iccid: icc(23) }, enterprise)).errorCode).toBe(ErrorCode.NotFound);
    expect((await call('singleCard/updateTestCard', { iccid: icc(23), action: 'end' }, enterprise)).errorCode).toBe(ErrorCode.NotFound);

    // extend: the test end moves, and with it the scheduler's deadline; the history says so
    const ext = await call('singleCard/updateTestCard', { iccid: icc(21), action: 'extend', days: 90, reason: '客户要求' }, enterprise);
    expect(ext.success).toBe(true);
    const [row] = await q<{ test_end_at: Date; next_deadline_at: Date; state: number }>('select test_end_at, next_deadline_at, state from cards where iccid = $1', [icc(21)]);
    expect(new Date(row.test_end_at).getTime()).toBe(now + 110 * DAY);
    expect(new Date(row.next_deadline_at).getTime()).toBe(now + 110 * DAY);
    expect(row.state).toBe(CardState.Test);
    const detail = (await call('testCard/getTestCardDetail', { iccid: icc(21) }, enterprise)).data;
    expect(detail.history[0]).toMatchObject({ fromState: 61, toState: 61, actor: 'enterprise' });
    // what was typed as typed; what the server noted in the reader's language
    expect(detail.history[0]).toMatchObject({ reason: '客户要求' });
    expect(detail.history[0].note).toMatch(/^test period extended by 90 days, to \d{4}-\d{2}-\d{2}$/);
    const detailZh = (await call('testCard/getTestCardDetail', { iccid: icc(21) }, enterprise, 'zh')).data;
    expect(detailZh.history[0].note).toMatch(/^测试期延长 90 天，至 \d{4}-\d{2}-\d{2}$/);
    expect(new Date(detail.latestTestEnd).getTime()).toBe(latestTestEnd(new Date(now - 10 * DAY), 3).getTime());
    // test plus the plan's 3-month inventory period may not pass 12 months
    const tooLong = await call('singleCard/updateTestCard', { iccid: icc(21), action: 'extend', days: 360 }, enterprise);
    expect(tooLong.errorCode).toBe(ErrorCode.TestPeriodTooLong);
    expect((await call('singleCard/updateTestCard', { iccid: icc(21), action: 'extend' }, enterprise)).errorCode).toBe(ErrorCode.TestCardExtendDaysRequired);
    expect((await t.call('core/sim/singleCard/updateTestCard', { iccid: icc(21), action: 'extend', days: 45 }, { token: enterprise })).status).toBe(400);

    // end: the lifecycle engine moves the card into its inventory (silent) period and records it
    const end = await call('singleCard/updateTestCard', { iccid: icc(22), action: 'end', reason: '测试完成' }, enterprise);
    expect(end.data).toMatchObject({ iccid: icc(22), state: CardState.Inventory, testEndAt: null });
    const [h] = await q<{ from_state: number; to_state: number; action: number; actor: string }>('select from_state, to_state, action, actor from card_history where iccid = $1 order by at desc limit 1', [icc(22)]);
    expect(h).toMatchObject({ from_state: CardState.Test, to_state: CardState.Inventory, action: CardActionKind.EndTest, actor: 'enterprise' });
    const again = await call('singleCard/updateTestCard', { iccid: icc(22), action: 'extend', days: 30 }, enterprise, 'zh');
    expect(again).toMatchObject({ errorCode: ErrorCode.TestCardNotInTest, msg: '该卡当前为“库存期”状态，不在测试期，不能更新测试期' });
    expect((await call('singleCard/updateTestCard', { iccid: icc(22), action: 'end' }, enterprise)).errorCode).toBe(ErrorCode.TestCardNotInTest);
    expect((await list(enterprise)).list.map((c: any) => c.iccid)).toEqual([icc(21)]);
  });
});
