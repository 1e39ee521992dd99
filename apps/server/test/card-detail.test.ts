import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import JSZip from 'jszip';
import { CardActionKind, CardState, ErrorCode, Operator, RoleType, TariffType, carddetail } from '@lynx/contract';
import { backends, ownerOf, startTestApp, waitFor, type TestApp } from './harness.ts';
import { simulatorSecretFor } from '../src/operators/simulator.ts';

const { AllocationStatus, SmsStatus } = carddetail;
const D = (e: { name: string }) => e.name;
const API = {
  detail: D(carddetail.getCardDetail), history: D(carddetail.getCardHistoryPage), cycle: D(carddetail.getCardCycle),
  policy: D(carddetail.getCardPolicy), apn: D(carddetail.getCardApnOnline), billing: D(carddetail.getCardBilling),
  edit: D(carddetail.editCard), renew: D(carddetail.renewCard), planOptions: D(carddetail.getChangePlanOptions), changePlan: D(carddetail.changeCardPlan),
  packOptions: D(carddetail.getEventPackOptions), order: D(carddetail.orderEventPack), zone: D(carddetail.changeCardZone),
  sms: D(carddetail.sendCardSms), smsPage: D(carddetail.getCardSmsPage), params: D(carddetail.getAssignParams), plans: D(carddetail.getAssignPlans),
  selectNum: D(carddetail.getAssignSelectNum), assign: D(carddetail.assignCards), result: D(carddetail.getAssignResult),
  records: D(carddetail.getAssignPage), qrCards: D(carddetail.getQrCodeCards), qr: D(carddetail.exportQrCodes),
};
const CHANGE_STATUS = 'core/sim/singleCard/changeStatus';
const APP_KEY = 'LYNXKEY2058DETAIL';

type Owner = { cust_id: number; root_cust_id: number } | null;

describe.each(backends)('card detail, allocation, SMS and QR codes on %s', (backend) => {
  let t: TestApp;
  let admin: string;
  let enterprise: string;
  let channel: string;
  let sub: string;
  let ent: { cust_id: number; root_cust_id: number };
  let chan: { cust_id: number; root_cust_id: number };
  let east: { cust_id: number; root_cust_id: number };
  const plan: Record<string, number> = {};
  let seq = 0;

  beforeAll(async () => {
    t = await startTestApp(backend);
    [admin, enterprise, channel, sub] = await Promise.all(['admin', 'enterprise', 'channel', 'subcustomer'].map((l) => t.login(l)));
    [ent, chan, east] = await Promise.all([ownerOf(t, 'enterprise'), ownerOf(t, 'channel'), ownerOf(t, 'subcustomer')]);
    for (const r of await t.database.sql.query<{ code: string; id: number }>('select code, goods_release_id id from basic_plans')) plan[r.code] = r.id;
    // the China Telecom access configuration: SMS and card changes of CT cards go through the simulator
    const saved = await t.call('network/operatorsAccount/save', {
      operatorId: Operator.ChinaTelecom, accountName: '卡详情演练', endpointUrl: 'https://api.ctwing.example.com/openapi', apiVersion: 'v2',
      adapter: 'simulator', appKey: APP_KEY, appSecret: simulatorSecretFor(APP_KEY), password: 'Plain-Password-Detail-2026', simFailIccidPattern: '8986113300*',
    }, { token: admin });
    expect(saved.body.success).toBe(true);
  });
  afterAll(() => t?.stop());

  const card = async (o: { state?: number; operatorId?: number; owner?: Owner; prefix?: string; planCode?: string; custom1?: string } = {}) => {
    seq++;
    const iccid = `${o.prefix ?? '8986112200'}${String(seq).padStart(10, '0')}`;
    const owner = o.owner === undefined ? ent : o.owner;
    const planId = o.planCode ? plan[o.planCode] : null;
    await t.database.sql.query(
      `insert into cards (iccid, msisdn, imsi, state, operator_id, cust_id, root_cust_id, goods_release_id, operation_mode, renewal_mode, custom1)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
      [iccid, `10649${String(seq).padStart(8, '0')}`, `4601122${String(seq).padStart(8, '0')}`, o.state ?? CardState.Start, o.operatorId ?? Operator.ChinaTelecom,
        owner?.cust_id ?? null, owner?.root_cust_id ?? null, planId, planId ? 1 : null, planId ? 1 : null, o.custom1 ?? null],
    );
    return iccid;
  };
  const row = async (iccid: string) =>
    (await t.database.sql.query<{ state: number; cust_id: number | null; root_cust_id: number | null; goods_release_id: number | null }>(
      'select state, cust_id, root_cust_id, goods_release_id from cards where iccid = $1', [iccid]))[0];
  /** A card with a running contract: transferred from stock with the monthly plan and activated, through the API. */
  const activeCard = async (owner = ent) => {
    const iccid = await card({ owner: null });
    const done = await allocate(admin, { mode: 'transfer', custId: owner.cust_id, selection: { by: 'list', iccids: [iccid] }, expectedNum: 1, goodsReleaseId: plan['CTCC-M10G'], initialState: CardState.Activated });
    expect(done.status).toBe(AllocationStatus.Succeeded);
    return iccid;
  };
  const allocate = async (token: string, body: Record<string, unknown>) => {
    const r = await t.call(API.assign, body, { token });
    expect(r.body.success, r.body.msg).toBe(true);
    return waitFor(async () => {
      const res = (await t.call(API.result, { allocationId: r.body.data.allocationId }, { token })).body.data;
      return res.status === AllocationStatus.Succeeded || res.status === AllocationStatus.Failed ? res : null;
    });
  };

  it('shows the basic info, history, plan and cycles, policy, APN status and billing of a card', async () => {
    const iccid = await card({ owner: ent, custom1: '车辆-77' });
    const d = await t.call(API.detail, { iccid }, { token: enterprise });
    expect(d.body.data).toMatchObject({ iccid, state: CardState.Start, operatorId: Operator.ChinaTelecom, custId: ent.cust_id, custName: '智行物流科技有限公司', custom1: '车辆-77', euicc: false, labels: [] });
    // the card type's name in the reader's language
    await t.database.sql.query(`update cards set card_type_id = (select card_type_id from card_types where name_en = 'Industrial MFF2 chip') where iccid = $1`, [iccid]);
    expect((await t.call(API.detail, { iccid }, { token: enterprise })).body.data.cardTypeName).toBe('Industrial MFF2 chip');
    expect((await t.call(API.detail, { iccid }, { token: enterprise, lang: 'zh' })).body.data.cardTypeName).toBe('工业级 MFF2 贴片卡');
    const c = await t.call(API.cycle, { iccid }, { token: enterprise });
    expect(c.body.data).toMatchObject({ plan: null, bCycles: { total: 0, used: 0, remaining: 0 }, cCycles: null, pendingPlan: null, eventPacks: [] });
    expect((await t.call(API.billing, { iccid }, { token: enterprise })).body.data).toMatchObject({ plan: null, price: null, eventPackCount: 0 });
    expect((await t.call(API.policy, { iccid }, { token: enterprise })).body.data).toEqual({ zones: [], blocks: [] });
    expect((await t.call(API.apn, { iccid }, { token: enterprise })).body.data).toMatchObject({ online: false, apn: null, planApns: [] });

    const active = await activeCard();
    const cyc = (await t.call(API.cycle, { iccid: active }, { token: enterprise })).body.data;
    expect(cyc.plan).toMatchObject({ goodsReleaseId: plan['CTCC-M10G'], name: '车载 4G 月付 10GB', durationMonths: 12 });
    expect(cyc.plan.apns.sort()).toEqual(['ctnet', 'zhixing.ctm2m']);
    expect(cyc.contractStartAt).not.toBeNull();
    expect(cyc.cycleEndAt).not.toBeNull();
    // monthly plan of 12 months started this month: 12 or 13 natural-month cycles, the first one in use
    expect(cyc.bCycles.used).toBe(1);
    expect(cyc.bCycles.total).toBeGreaterThanOrEqual(12);
    expect(cyc.bCycles.remaining).toBe(cyc.bCycles.total - 1);
    const bill = (await t.call(API.billing, { iccid: active }, { token: enterprise })).body.data;
    expect(bill).toMatchObject({ plan: { name: '车载 4G 月付 10GB' }, price: '39.90', currency: 'CNY', renewalMode: 1 });
    const pol = (await t.call(API.policy, { iccid: active }, { token: enterprise })).body.data;
    // catalogue names in the reader's language: the zones' and services' English names for an English request …
    expect(pol.zones.map((z: { zoneName: string }) => z.zoneName)).toEqual(['Nationwide public network', 'Enterprise private network']);
    expect(pol.zones[0].services.map((s: { name: string }) => s.name)).toEqual(['General internet data', 'Point-to-point SMS']);
    // … the Chinese ones for a Chinese request
    const polZh = (await t.call(API.policy, { iccid: active }, { token: enterprise, lang: 'zh' })).body.data;
    expect(polZh.zones.map((z: { zoneName: string }) => z.zoneName)).toEqual(['全国公网', '企业专网']);
    expect(polZh.zones[0].services.map((s: { name: string }) => s.name)).toEqual(['通用互联网数据', '点对点短信']);
    expect(pol.zones[0].services.length).toBeGreaterThan(0);
    // history, newest first: the activation after the allocation
    const h = (await t.call(API.history, { iccid: active }, { token: enterprise })).body.data;
    expect(h.total).toBe(2);
    expect(h.list.map((x: { action: number }) => x.action)).toEqual([CardActionKind.Activate, CardActionKind.Allocated]);
    expect(h.list[1]).toMatchObject({ fromState: CardState.Start, toState: CardState.Start, actor: 'admin', planName: '车载 4G 月付 10GB' });
    // the sentence the server wrote reads in the reader's language; the customer's name in it is as typed
    expect(h.list[1]).toMatchObject({ reason: null, note: 'transferred to 智行物流科技有限公司' });
    const zh = (await t.call(API.history, { iccid: active }, { token: enterprise, lang: 'zh' })).body.data;
    expect(zh.list[1]).toMatchObject({ reason: null, note: '划拨给 智行物流科技有限公司' });
  });

  it("a customer never sees nor touches another customer's card through any detail endpoint", async () => {
    const mine = await activeCard();
    const stock = await card({ owner: null });
    const reads = [API.detail, API.history, API.cycle, API.policy, API.apn, API.billing, API.smsPage, API.planOptions, API.packOptions];
    const writes: [string, Record<string, unknown>][] = [
      [API.edit, { custom1: 'x' }], [API.renew, { periods: 1 }], [API.changePlan, { goodsReleaseId: plan['CTCC-P2G12'] }],
      [API.order, { packId: plan['CTCC-EV5G'] }], [API.zone, { op: 'block', kind: 'network', targetId: 2 }], [API.sms, { content: 'hello' }],
      [CHANGE_STATUS, { action: 'deactivate' }],
    ];
    for (const [token, iccid] of [[channel, mine], [sub, mine], [enterprise, stock], [channel, stock]] as const) {
      for (const e of reads) expect((await t.call(e, { iccid }, { token })).body.errorCode, `${e}`).toBe(ErrorCode.NotFound);
      for (const [e, b] of writes) {
        const r = await t.call(e, { iccid, ...b }, { token });
        expect([ErrorCode.NotFound, ErrorCode.PermissionDenied], `${e}: ${r.body.msg}`).toContain(r.body.errorCode);
      }
    }
    expect(await row(mine)).toMatchObject({ state: CardState.Activated, cust_id: ent.cust_id });
    expect((await t.database.sql.query('select 1 from card_sms where iccid = $1', [mine]))).toHaveLength(0);
    // QR codes: another tenant's card is "not found", and a download of only such cards is refused
    const q = (await t.call(API.qrCards, { iccids: [mine] }, { token: channel })).body.data;
    expect(q).toMatchObject({ included: 0, skipped: 1, list: [{ iccid: mine, state: null, included: false, payload: null }] });
    expect((await t.call(API.qr, { iccids: [mine] }, { token: channel })).body.errorCode).toBe(ErrorCode.NotFound);
  });

  it('allocation is tenant-scoped: ranges only reach own cards, targets only own tree, transfer only for staff', async () => {
    const a = await card({ owner: ent, prefix: '8986114400' });
    const b = await card({ owner: ent, prefix: '8986114400' });
    const range = { by: 'range', ranges: [{ start: a, end: b }] };
    // the channel customer's range covers the enterprise's cards: none of them is its own
    const n = await t.call(API.selectNum, { mode: 'distribute', custId: chan.cust_id, selection: range }, { token: channel });
    expect(n.body.data).toMatchObject({ selectNum: 0 });
    const none = await t.call(API.assign, { mode: 'distribute', custId: chan.cust_id, selection: range, expectedNum: 2 }, { token: channel, lang: 'en' });
    expect(none.body.errorCode).toBe(ErrorCode.CardSelectionEmpty);
    // another tree as target, transfer by a customer, second-level customer
    expect((await t.call(API.selectNum, { mode: 'distribute', custId: ent.cust_id, selection: range }, { token: channel })).body.errorCode).toBe(ErrorCode.AllocationTargetInvalid);
    expect((await t.call(API.selectNum, { mode: 'transfer', custId: ent.cust_id, selection: range }, { token: enterprise })).body.errorCode).toBe(ErrorCode.AllocationTargetInvalid);
    expect([ErrorCode.PermissionDenied, ErrorCode.AllocationNotAllowed]).toContain((await t.call(API.selectNum, { mode: 'distribute', custId: east.cust_id, selection: range }, { token: sub })).body.errorCode);
    const params = (await t.call(API.params, {}, { token: enterprise })).body.data;
    expect(params.modes).toEqual(['distribute']);
    expect(params.customers.every((c: { rootCustId: number }) => c.rootCustId === ent.root_cust_id)).toBe(true);
    expect((await t.call(API.params, {}, { token: admin })).body.data.modes).toEqual(['transfer', 'distribute']);
    expect(await row(a)).toMatchObject({ cust_id: ent.cust_id });
    // allocation records are per tenant
    const mineRecords = (await t.call(API.records, {}, { token: channel })).body.data;
    expect(mineRecords.list.every((r: { createdBy: string }) => r.createdBy === 'channel')).toBe(true);
  });

  it('an enterprise distributes its cards to its second-level customer and back', async () => {
    const x = await activeCard();
    const y = await activeCard();
    const sel = { by: 'list', iccids: [x, y] };
    expect((await t.call(API.selectNum, { mode: 'distribute', custId: east.cust_id, selection: sel }, { token: enterprise })).body.data).toMatchObject({ selectNum: 2, ineligible: 0 });
    const done = await allocate(enterprise, { mode: 'distribute', custId: east.cust_id, selection: sel, expectedNum: 2 });
    expect(done).toMatchObject({ status: AllocationStatus.Succeeded, cardCount: 2, custName: '智行物流华东分公司' });
    expect(await row(x)).toMatchObject({ cust_id: east.cust_id, root_cust_id: ent.root_cust_id, state: CardState.Activated });
    expect((await t.call(API.detail, { iccid: x }, { token: sub })).body.data.custName).toBe('智行物流华东分公司');
    // and back to the first-level customer
    const back = await allocate(enterprise, { mode: 'distribute', custId: ent.cust_id, selection: { by: 'list', iccids: [x] }, expectedNum: 1 });
    expect(back.status).toBe(AllocationStatus.Succeeded);
    expect(await row(x)).toMatchObject({ cust_id: ent.cust_id });
    expect((await t.call(API.detail, { iccid: x }, { token: sub })).body.errorCode).toBe(ErrorCode.NotFound);
  });

  it('refuses more than 10,000 cards with the spec message, and counts up to the limit', async () => {
    const base = 898611550000000n;
    await t.database.sql.query(
      `insert into cards (iccid, state, operator_id) select ($1::bigint * 10000 + g)::text, 60, $2 from generate_series(0, 10000) g`,
      [String(base), Operator.ChinaTelecom],
    );
    const first = String(base * 10000n);
    const last = String(base * 10000n + 10000n);
    const tooMany = { mode: 'transfer', custId: ent.cust_id, selection: { by: 'range', ranges: [{ start: first, end: last }] } };
    for (const lang of ['en', 'zh'] as const) {
      const r = await t.call(API.selectNum, tooMany, { token: admin, lang });
      expect(r.body.errorCode).toBe(ErrorCode.CardSelectionTooLarge);
      expect(r.body.msg).toBe(lang === 'en' ? 'Selection too large (more than 10000 cards selected), narrow the filters' : '选择的卡过多（超过 10000 张），请缩小筛选范围');
    }
    expect((await t.call(API.assign, { ...tooMany, expectedNum: 10000 }, { token: admin })).body.errorCode).toBe(ErrorCode.CardSelectionTooLarge);
    // the same cards by the card list's filters
    const byFilter = await t.call(API.selectNum, { mode: 'transfer', custId: ent.cust_id, selection: { by: 'filter', filters: { iccid: String(base).slice(0, -1), iccidMatch: 'prefix' } } }, { token: admin });
    expect(byFilter.body.errorCode).toBe(ErrorCode.CardSelectionTooLarge);
    const ok = await t.call(API.selectNum, { ...tooMany, selection: { by: 'range', ranges: [{ start: first, end: String(base * 10000n + 9999n) }] } }, { token: admin });
    expect(ok.body.data).toMatchObject({ selectNum: 10000, max: 10000 });
    expect(Number((await t.database.sql.query<{ n: string }>('select count(*) n from cards where cust_id is null and iccid like $1', [`${String(base).slice(0, -1)}%`]))[0].n)).toBe(10001);
  });

  it('checks the plan, the initial state and the confirmed count before allocating', async () => {
    const s1 = await card({ owner: null });
    const s2 = await card({ owner: null });
    const cm = await card({ owner: null, operatorId: Operator.ChinaMobile });
    const body = (iccids: string[], extra: Record<string, unknown> = {}) => ({ mode: 'transfer', custId: ent.cust_id, selection: { by: 'list', iccids }, expectedNum: iccids.length, ...extra });
    const err = async (b: Record<string, unknown>) => (await t.call(API.assign, b, { token: admin, lang: 'en' })).body;
    expect(await err(body([s1, s2], { expectedNum: 3 }))).toMatchObject({ errorCode: ErrorCode.CardSelectionChanged, msg: 'The number of selected cards has changed (now 2); please confirm again' });
    const owned = await card({ owner: ent });
    expect(await err(body([s1, owned]))).toMatchObject({ errorCode: ErrorCode.CardSelectionIneligible });
    expect((await err(body([s1], { goodsReleaseId: plan['CTCC-EV5G'] }))).errorCode).toBe(ErrorCode.AllocationPlanNotReleased);
    expect((await err({ ...body([s1], { goodsReleaseId: plan['CTCC-M10G'] }), custId: chan.cust_id })).errorCode).toBe(ErrorCode.AllocationPlanNotReleased);
    expect(await err(body([s1, cm], { goodsReleaseId: plan['CTCC-M10G'] }))).toMatchObject({
      errorCode: ErrorCode.AllocationPlanOperatorMismatch, msg: 'The plan is for China Telecom; 1 of the selected cards belong to another operator',
    });
    const inv = await card({ owner: null, state: CardState.Inventory });
    expect((await err(body([s1, inv], { goodsReleaseId: plan['CTCC-M10G'] }))).errorCode).toBe(ErrorCode.AllocationCardsHavePlan);
    expect((await err(body([s1], { initialState: CardState.Deactivated }))).errorCode).toBe(ErrorCode.AllocationInitialStateInvalid);
    // active cards cannot go back to the test state
    const act = await activeCard();
    const illegal = (await t.call(API.assign, { mode: 'distribute', custId: east.cust_id, selection: { by: 'list', iccids: [act] }, expectedNum: 1, initialState: CardState.Test }, { token: enterprise, lang: 'en' })).body;
    expect(illegal).toMatchObject({ errorCode: ErrorCode.AllocationStateIllegal, msg: '1 of the selected cards are in state "Activated" and cannot become "Test"' });
    for (const i of [s1, s2, cm, inv]) expect((await row(i)).cust_id).toBeNull();
  });

  it('an allocation the operator refuses for one card changes no card at all', async () => {
    const fine = await card({ owner: null });
    const failing = await card({ owner: null, prefix: '8986113300' });
    const r = await allocate(admin, { mode: 'transfer', custId: ent.cust_id, selection: { by: 'list', iccids: [fine, failing] }, expectedNum: 2, goodsReleaseId: plan['CTCC-M10G'], initialState: CardState.Activated });
    expect(r.status).toBe(AllocationStatus.Failed);
    expect(r.failedIccid).toBe(failing);
    expect(r.error).toMatch(/^The allocation did not complete; no card was changed: card 8986113300/);
    for (const i of [fine, failing]) expect(await row(i)).toMatchObject({ cust_id: null, state: CardState.Start, goods_release_id: null });
    expect(await t.database.sql.query('select 1 from card_history where iccid = $1', [fine])).toHaveLength(0);
  });

  it('edits custom fields; renewal, plan change, event pack and zone actions answer the spec messages', async () => {
    const act = await activeCard();
    const edited = await t.call(API.edit, { iccid: act, custom1: ' 冷链-01 ', custom2: '' }, { token: enterprise });
    expect(edited.body.data).toMatchObject({ custom1: '冷链-01', custom2: null });
    expect((await t.call(API.edit, { iccid: act, custom1: 'x'.repeat(65) }, { token: enterprise })).body.errorCode).toBe(ErrorCode.Validation);
    // labels through the card catalogue: own labels yes, another customer's no
    const own = await t.call('core/sim/cardLabel/addLabel', { name: '冷链车队', colour: '#1677ff' }, { token: enterprise });
    const foreign = await t.call('core/sim/cardLabel/addLabel', { name: '电表', colour: '#52c41a' }, { token: channel });
    expect(own.body.success && foreign.body.success, own.body.msg + foreign.body.msg).toBe(true);
    const labelled = await t.call(API.edit, { iccid: act, labelIds: [own.body.data.labelId] }, { token: enterprise });
    expect(labelled.body.data.labels).toEqual([{ labelId: own.body.data.labelId, name: '冷链车队' }]);
    expect(labelled.body.data.custom1).toBe('冷链-01');
    expect((await t.call(API.edit, { iccid: act, labelIds: [foreign.body.data.labelId] }, { token: enterprise })).body.errorCode).toBe(ErrorCode.CardLabelUnavailable);
    expect((await t.call(API.detail, { iccid: act }, { token: enterprise })).body.data.labels).toHaveLength(1);

    // renewal: needs a plan; active cards only
    const noPlan = await card({ owner: ent, state: CardState.Activated });
    expect((await t.call(API.renew, { iccid: noPlan, periods: 1 }, { token: enterprise, lang: 'en' })).body).toMatchObject({ errorCode: ErrorCode.CardHasNoPlan, msg: 'The card has no plan yet' });
    expect((await t.call(API.renew, { iccid: act, periods: 0 }, { token: enterprise })).body.errorCode).toBe(ErrorCode.Validation);
    const before = (await t.call(API.cycle, { iccid: act }, { token: enterprise })).body.data.bCycles.total;
    const renewed = await t.call(API.renew, { iccid: act, periods: 1 }, { token: enterprise });
    expect(renewed.body.success, renewed.body.msg).toBe(true);
    expect((await t.call(API.cycle, { iccid: act }, { token: enterprise })).body.data.bCycles.total).toBeGreaterThan(before);

    // event pack: released packs only; active cards only
    const packs = (await t.call(API.packOptions, { iccid: act }, { token: enterprise })).body.data;
    expect(packs.map((p: { tariffType: number }) => p.tariffType)).toEqual([TariffType.EventPack]);
    expect((await t.call(API.order, { iccid: act, packId: plan['CTCC-P2G12'] }, { token: enterprise })).body.errorCode).toBe(ErrorCode.CardEventPackNotOffered);
    const ordered = await t.call(API.order, { iccid: act, packId: plan['CTCC-EV5G'] }, { token: enterprise });
    expect(ordered.body.success, ordered.body.msg).toBe(true);
    const cyc = (await t.call(API.cycle, { iccid: act }, { token: enterprise })).body.data;
    expect(cyc.eventPacks).toHaveLength(1);
    expect(cyc.eventPacks[0]).toMatchObject({ packName: '加油包 5GB（当月有效）', active: true, endsAt: cyc.cycleEndAt });

    // zones: a zone of the plan; permit refused when deactivated
    const zones = (await t.call(API.policy, { iccid: act }, { token: enterprise })).body.data.zones;
    expect((await t.call(API.zone, { iccid: act, op: 'block', kind: 'zone', targetId: 999999 }, { token: enterprise })).body.errorCode).toBe(ErrorCode.CardZoneNotOnPlan);
    expect((await t.call(API.zone, { iccid: act, op: 'block', kind: 'zone', targetId: zones[1].zoneId }, { token: enterprise })).body.success).toBe(true);
    const pol = (await t.call(API.policy, { iccid: act }, { token: enterprise })).body.data;
    expect(pol.zones[1].blocked).toBe(true);
    expect(pol.blocks[0]).toMatchObject({ kind: 'zone', targetId: zones[1].zoneId, name: 'Enterprise private network', byDeactivation: false, blockedBy: 'enterprise' });

    // plan change: only released plans with the same APN info
    const options = (await t.call(API.planOptions, { iccid: act }, { token: enterprise })).body.data;
    expect(options.map((p: { goodsReleaseId: number }) => p.goodsReleaseId)).toEqual([plan['CTCC-P2G12']]);
    expect((await t.call(API.changePlan, { iccid: act, goodsReleaseId: plan['CTCC-EV5G'] }, { token: enterprise })).body.errorCode).toBe(ErrorCode.CardPlanNotOffered);
    const [other] = await t.database.sql.query<{ id: number }>(
      `insert into basic_plans (code, name, goods_type, tariff_type, sale_price, status, operator_id, created_by)
       values ('CTCC-ONEAPN', '公网单 APN 月包', 2, 0, 20, 2, $1, 'admin') returning goods_release_id id`, [Operator.ChinaTelecom]);
    await t.database.sql.query(`insert into plan_apns (goods_release_id, apn_id) select $1, apn_id from apns where apn_name = 'ctnet'`, [other.id]);
    await t.database.sql.query('insert into plan_releases (goods_release_id, cust_id, root_cust_id, sale_price, released_by) values ($1, $2, $3, 20, $4)', [other.id, ent.cust_id, ent.root_cust_id, 'admin']);
    expect((await t.call(API.changePlan, { iccid: act, goodsReleaseId: other.id }, { token: enterprise, lang: 'en' })).body).toMatchObject({
      errorCode: ErrorCode.CardPlanApnMismatch, msg: 'Only plans with the same APN info can be chosen',
    });
    const changed = await t.call(API.changePlan, { iccid: act, goodsReleaseId: plan['CTCC-P2G12'] }, { token: enterprise });
    expect(changed.body.success, changed.body.msg).toBe(true);
    const pending = (await t.call(API.cycle, { iccid: act }, { token: enterprise })).body.data;
    expect(pending.pendingPlan).toMatchObject({ plan: { goodsReleaseId: plan['CTCC-P2G12'] } });
    expect(pending.pendingPlan.effectiveAt).toBe(pending.cycleEndAt);
    expect((await t.call(API.renew, { iccid: act, periods: 1 }, { token: enterprise, lang: 'en' })).body).toMatchObject({
      errorCode: ErrorCode.CardRenewalChangePending, msg: 'Renewal is not possible after a plan change or while a price change is pending',
    });

    // deactivated: no event pack, no permit
    expect((await t.call(CHANGE_STATUS, { iccid: act, action: 'deactivate' }, { token: enterprise })).body.success).toBe(true);
    expect((await t.call(API.order, { iccid: act, packId: plan['CTCC-EV5G'] }, { token: enterprise, lang: 'en' })).body).toMatchObject({
      errorCode: ErrorCode.CardNotActiveForOrder, msg: 'Only active cards can renew or order event packs',
    });
    expect((await t.call(API.zone, { iccid: act, op: 'permit', kind: 'zone', targetId: zones[1].zoneId }, { token: enterprise, lang: 'en' })).body).toMatchObject({
      errorCode: ErrorCode.CardPermitDeactivated, msg: 'The deactivated state does not support permit',
    });
  });

  it('each action needs its button code', async () => {
    const role = await t.call('system/role/saveRole', { roleCode: 'CARDLOOK', roleName: '卡详情查看', roleType: RoleType.Manager, permissions: [2000000, 2010000] }, { token: admin });
    expect(role.body.success).toBe(true);
    expect((await t.call('core/account/account/saveAccount', { loginName: 'cardlooker', userName: '查看', roleId: role.body.data.roleId, password: 'Look#2026pass' }, { token: admin })).body.success).toBe(true);
    const viewer = await t.login('cardlooker', 'Look#2026pass');
    const iccid = await activeCard();
    expect((await t.call(API.detail, { iccid }, { token: viewer })).body.success).toBe(true);
    for (const [e, b] of [[API.edit, { custom1: 'x' }], [API.renew, { periods: 1 }], [API.changePlan, { goodsReleaseId: 1 }], [API.order, { packId: 1 }], [API.sms, { content: 'hi' }], [API.params, {}]] as const) {
      expect((await t.call(e, { iccid, ...b }, { token: viewer })).body.errorCode, e).toBe(ErrorCode.PermissionDenied);
    }
  });

  it('sends an SMS through the operator and lists it; refusals for length, state and a missing access configuration', async () => {
    const act = await activeCard();
    const sent = await t.call(API.sms, { iccid: act, content: '请在 10 分钟内上报位置' }, { token: enterprise });
    expect(sent.body.success, sent.body.msg).toBe(true);
    // accepted by the operator; its delivery report moves it on later (docs/sms.md)
    expect(sent.body.data).toMatchObject({ iccid: act, status: SmsStatus.Submitted, direction: 1, createdBy: 'enterprise', failReason: null });
    expect(sent.body.data.messageId).toMatch(/^SIM-/);
    const list = (await t.call(API.smsPage, { iccid: act }, { token: enterprise })).body.data;
    expect(list).toMatchObject({ total: 1, list: [{ content: '请在 10 分钟内上报位置' }] });
    expect([SmsStatus.Submitted, SmsStatus.Sent]).toContain(list.list[0].status);
    expect(Number((await t.database.sql.query<{ n: string }>(`select count(*) n from audit_log where entity = 'cardSms'`))[0].n)).toBeGreaterThanOrEqual(1);

    expect((await t.call(API.sms, { iccid: act, content: '中'.repeat(71) }, { token: enterprise, lang: 'en' })).body).toMatchObject({
      errorCode: ErrorCode.SmsTooLong, msg: 'The message is too long: at most 70 characters (70 with Chinese or other non-GSM characters, otherwise 160)',
    });
    expect((await t.call(API.sms, { iccid: act, content: 'a'.repeat(160) }, { token: enterprise })).body.success).toBe(true);
    expect((await t.call(API.sms, { iccid: act, content: 'a'.repeat(161) }, { token: enterprise })).body.errorCode).toBe(ErrorCode.Validation);
    const start = await card({ owner: ent });
    expect((await t.call(API.sms, { iccid: start, content: 'hi' }, { token: enterprise })).body.errorCode).toBe(ErrorCode.SmsCardNotReachable);
    const unicom = await card({ owner: ent, state: CardState.Activated, operatorId: Operator.ChinaUnicom });
    expect((await t.call(API.sms, { iccid: unicom, content: 'hi' }, { token: enterprise })).body.errorCode).toBe(ErrorCode.SmsNoGateway);
    // the operator refuses the submission: kept as "submission failed" with the reason
    const refusedCard = await card({ owner: ent, state: CardState.Activated, prefix: '8986113300' });
    const refused = await t.call(API.sms, { iccid: refusedCard, content: 'hi' }, { token: enterprise });
    expect(refused.body.data).toMatchObject({ status: SmsStatus.SubmitFailed });
    expect(refused.body.data.failReason).toMatch(/CARD_REJECTED/);
  });

  it('QR codes: skipped cards with the spec message, start-state unsupported, a zip of PNGs by download task', async () => {
    const act = await activeCard();
    const frozen = await card({ owner: ent, state: CardState.Frozen });
    const retired = await card({ owner: ent, state: CardState.Retired });
    const start = await card({ owner: ent });
    const q = (await t.call(API.qrCards, { iccids: [act, frozen, retired, start] }, { token: enterprise, lang: 'en' })).body.data;
    expect(q).toMatchObject({ total: 4, included: 1, skipped: 3 });
    const byId = Object.fromEntries(q.list.map((r: { iccid: string }) => [r.iccid, r]));
    expect(byId[act]).toMatchObject({ included: true, payload: act, reason: null });
    expect(byId[frozen].reason).toBe('QR codes cannot be downloaded for invalidated, retired or frozen cards (such cards are skipped)');
    expect(byId[start].reason).toBe('Cards in start state are not supported');

    const only = await t.call(API.qr, { iccids: [frozen, retired] }, { token: enterprise, lang: 'en' });
    expect(only.body).toMatchObject({ errorCode: ErrorCode.CardQrNotDownloadable, msg: 'QR codes cannot be downloaded for invalidated, retired or frozen cards (such cards are skipped)' });
    expect((await t.call(API.qr, { iccids: [start] }, { token: enterprise })).body.errorCode).toBe(ErrorCode.CardStartStateUnsupported);

    const task = await t.call(API.qr, { iccids: [act, frozen, start] }, { token: enterprise, lang: 'en' });
    expect(task.body.data).toMatchObject({ included: 1, skipped: 2 });
    expect(task.body.data.skippedMessage).toContain('QR codes cannot be downloaded for invalidated, retired or frozen cards (such cards are skipped)');
    await waitFor(async () => {
      const l = (await t.call('core/downloadTask/getListPage', {}, { token: enterprise })).body.data.list;
      return l.find((x: { taskId: string; state: number }) => x.taskId === task.body.data.taskId && x.state !== 1);
    });
    const file = await t.app.inject({ method: 'GET', url: `/api/cmp/core/downloadTask/download?taskId=${task.body.data.taskId}&ts=1&lang=en`, headers: { authorization: enterprise } });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/zip');
    const zip = await JSZip.loadAsync(file.rawPayload);
    expect(Object.keys(zip.files).sort()).toEqual([`${act}.png`, 'skipped.csv']);
    const png = await zip.file(`${act}.png`)!.async('nodebuffer');
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    const csv = await zip.file('skipped.csv')!.async('string');
    expect(csv).toContain(frozen);
    expect(csv).toContain('QR codes cannot be downloaded');
    // another tenant cannot download it
    const foreign = await t.app.inject({ method: 'GET', url: `/api/cmp/core/downloadTask/download?taskId=${task.body.data.taskId}&ts=1&lang=en`, headers: { authorization: channel } });
    expect(foreign.json().errorCode).toBe(ErrorCode.NotFound);
  });
});
