import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { eq } from 'drizzle-orm';
import {
  ApnType, ErrorCode, ExportFormat, PlanChangeKind, ExportState, IpAllocation, NetworkType, Operator, OverageGrade, PlanCycleUnit, PlanGoodsType,
  PlanOperationMode, PlanRenewalMode, PlanStatus, PlanUseUpAction, PriceChangeFailure, PriceChangeResult, PriceChangeStatus,
  ProfitShareMethod, TariffType,
} from '@lynx/contract';
import { backends, startTestApp, waitFor, type TestApp } from './harness.ts';
import { commServiceQos, commServices } from '../src/modules/network/commserv/tables.ts';
import { retailPlans } from '../src/modules/plan/retail-tables.ts';
import { customers, accounts } from '../src/modules/account/tables.ts';
import { planReleases, planPriceChanges } from '../src/modules/plan/plan-tables.ts';
import { countPlansUsingCommService, visibleBasicPlan } from '../src/modules/plan/plan-service.ts';
import { applyDuePriceChanges, businessTodayOf } from '../src/modules/plan/plan-price.ts';
import { builtInRolePermissions } from '../src/seed/demo.ts';

const SAVE = 'goods/basicGoods/save';
const LIST = 'goods/basicGoods/getListPage';
const DETAIL = 'goods/basicGoods/detail';
const PUBLISH = 'goods/basicGoods/publish';
const UNPUBLISH = 'goods/basicGoods/unpublish';
const PRICE = 'goods/basicGoods/priceAdjustment';

describe.each(backends)('basic plans and supplementary packs on %s', (backend) => {
  let t: TestApp;
  let admin: string;
  let ent: string;
  let chan: string;
  let sub: string;
  let apnA: number;
  let apnB: number;
  const svc: Record<string, number> = {};
  const cust: Record<string, number> = {};
  let seq = 0;

  /** a communication service straight in the table (QoS count and whitelist as the test needs) */
  const service = async (name: string, opts: { qos?: boolean; whitelist?: string[] } = {}) => {
    const db = t.database.db;
    const [s] = await db.insert(commServices).values({
      commservName: name, commservType: 1, directional: false, priority: 5, whitelist: opts.whitelist ?? [], createdBy: 'test',
    }).returning();
    if (opts.qos !== false) {
      await db.insert(commServiceQos).values({ commservId: s.commservId, qosName: 'q', qci: 9, maxUplinkKbps: 1024, maxDownlinkKbps: 1024, arpPriority: 9, createdBy: 'test' });
    }
    return s.commservId;
  };

  const plan = (over: Record<string, unknown> = {}) => {
    seq += 1;
    return {
      code: `T-${seq}`, name: `测试套餐 ${seq}`, goodsType: PlanGoodsType.Monthly, tariffType: TariffType.MonthlySingle,
      standardPrice: '50', salePrice: '39.9', cycleUnit: PlanCycleUnit.Month, cycleValue: 1, durationMonths: 12, quotaMb: 1024,
      useUpAction: PlanUseUpAction.Overdraw, terminateByUsage: false, operatorId: Operator.ChinaTelecom, operationMode: PlanOperationMode.Standard,
      overageGrade: OverageGrade.PerMb, overagePrice: '0.3', testPeriodMonths: 3, testQuotaKb: 100, testPrice: '0', silentPeriodMonths: 6,
      renewalMode: PlanRenewalMode.AutoRenew, downtimeFee: '2', downtimeFreeMonths: 1, taxRate: 6, profitShareRatio: 10,
      profitShareMethod: ProfitShareMethod.ByProfit, networkTypes: [NetworkType.G4], apnIds: [apnA],
      zones: [
        { zoneName: '全国', zoneNameEn: ' Nationwide ', regions: ['全国'], commservIds: [svc.internet, svc.sms] },
        { zoneName: '专网', regions: ['上海'], quotaMb: 512, price: '5', commservIds: [svc.cloud] },
      ],
      ...over,
    };
  };
  const save = (body: Record<string, unknown>, lang: 'zh' | 'en' = 'en') => t.call(SAVE, body, { token: admin, lang });
  const created = async (over: Record<string, unknown> = {}) => {
    const r = await save(plan(over));
    expect(r.body.msg).toBe('Operation success');
    return r.body.data.goodsReleaseId as number;
  };
  const ids = (r: { body: { data: { list: { goodsReleaseId: number }[] } } }) => r.body.data.list.map((p) => p.goodsReleaseId);

  beforeAll(async () => {
    t = await startTestApp(backend);
    admin = await t.login('admin');
    ent = await t.login('enterprise');
    chan = await t.login('channel');
    sub = await t.login('subcustomer');
    const db = t.database.db;
    for (const name of ['通用互联网数据', '点对点短信', '企业云定向数据', '语音通话']) {
      const [s] = await db.select().from(commServices).where(eq(commServices.commservName, name));
      svc[{ 通用互联网数据: 'internet', 点对点短信: 'sms', 企业云定向数据: 'cloud', 语音通话: 'voice' }[name]!] = s.commservId;
    }
    const apn = async (apnName: string) =>
      (await t.call('network/apn/save', { apnName, operatorId: Operator.ChinaTelecom, apnType: ApnType.Private, ipAllocation: IpAllocation.Static }, { token: admin })).body.data.apnId as number;
    apnA = await apn('plan.a');
    apnB = await apn('plan.b');
    for (const [key, login] of [['ent', 'enterprise'], ['chan', 'channel'], ['sub', 'subcustomer']]) {
      const [a] = await db.select({ custId: accounts.custId }).from(accounts).where(eq(accounts.loginName, login));
      cust[key] = a.custId!;
    }
  });
  afterAll(() => t?.stop());

  it('adds a plan with two zones, APNs and services; the detail returns them; an audit row is written', async () => {
    const id = await created();
    const d = (await t.call(DETAIL, { goodsReleaseId: id }, { token: admin })).body.data;
    expect(d).toMatchObject({ status: PlanStatus.Draft, salePrice: '39.90', currency: 'CNY', testPeriodMonths: 3, silentPeriodMonths: 6, networkTypes: [NetworkType.G4] });
    expect(d.apns.map((a: any) => a.apnId)).toEqual([apnA]);
    expect(d.zones.map((z: any) => [z.zoneName, z.services.map((s: any) => s.commservId)])).toEqual([['全国', [svc.internet, svc.sms]], ['专网', [svc.cloud]]]);
    expect(d.zones[1]).toMatchObject({ quotaMb: 512, price: '5.00' });
    // the optional English name is kept (trimmed) beside the typed one; none is null
    expect(d.zones.map((z: any) => z.zoneNameEn)).toEqual(['Nationwide', null]);
    const trail = await t.call('system/audit/getListPage', { entity: 'basic_plan' }, { token: admin });
    expect(trail.body.data.list.some((a: any) => a.entityId === String(id))).toBe(true);
    expect(await countPlansUsingCommService(t.database.db, svc.cloud)).toBeGreaterThanOrEqual(2);
  });

  it('refuses a fifth APN', async () => {
    const more: number[] = [];
    for (const n of ['plan.c', 'plan.d', 'plan.e']) {
      more.push((await t.call('network/apn/save', { apnName: n, operatorId: Operator.ChinaTelecom, apnType: ApnType.Public, ipAllocation: IpAllocation.Dynamic }, { token: admin })).body.data.apnId);
    }
    const r = await save(plan({ apnIds: [apnA, apnB, ...more] }), 'zh');
    expect(r.body).toMatchObject({ errorCode: ErrorCode.PlanApnTooMany, data: { field: 'apnIds' } });
    expect(r.body.msg).toContain('最多选择 4 个 APN');
    await created({ apnIds: [apnA, apnB, ...more.slice(0, 2)] });
  });

  it('refuses an eleventh zone', async () => {
    const zones = (n: number) => Array.from({ length: n }, (_, i) => ({ zoneName: `区域 ${i + 1}`, commservIds: [] }));
    const r = await save(plan({ zones: zones(11) }));
    expect(r.body).toMatchObject({ errorCode: ErrorCode.PlanZoneTooMany, data: { field: 'zones' } });
    expect(r.body.msg).toContain('at most 10 zones');
    await created({ zones: zones(10) });
  });

  it('refuses a 41st communication service in one zone', async () => {
    const many: number[] = [];
    for (let i = 0; i < 41; i++) many.push(await service(`批量服务 ${i}`));
    const r = await save(plan({ zones: [{ zoneName: '大区', commservIds: many }] }));
    expect(r.body).toMatchObject({ errorCode: ErrorCode.PlanZoneServiceTooMany, data: { field: 'zones.0.commservIds' } });
    expect(r.body.msg).toContain('at most 40 communication services per zone');
    await created({ zones: [{ zoneName: '大区', commservIds: many.slice(0, 40) }] });
  });

  it('refuses the same communication service in two zones (and twice in one zone)', async () => {
    const r = await save(plan({ zones: [{ zoneName: 'A', commservIds: [svc.internet] }, { zoneName: 'B', commservIds: [svc.sms, svc.internet] }] }), 'zh');
    expect(r.body).toMatchObject({ errorCode: ErrorCode.PlanServiceRepeated, data: { field: 'zones.1.commservIds' } });
    expect(r.body.msg).toContain('请勿选择相同的通信服务');
    const en = await save(plan({ zones: [{ zoneName: 'A', commservIds: [svc.sms, svc.sms] }] }));
    expect(en.body.msg).toContain('do not select the same communication service');
  });

  it('refuses a communication service that does not exist', async () => {
    const r = await save(plan({ zones: [{ zoneName: 'A', commservIds: [svc.internet, 987654] }] }));
    expect(r.body).toMatchObject({ errorCode: ErrorCode.PlanServiceMissing, data: { field: 'zones.0.commservIds' } });
    expect(r.body.msg).toContain('no such communication service');
  });

  it('refuses a communication service without QoS', async () => {
    const bare = await service('无 QoS 服务', { qos: false });
    const r = await save(plan({ zones: [{ zoneName: 'A', commservIds: [bare] }] }), 'zh');
    expect(r.body).toMatchObject({ errorCode: ErrorCode.PlanServiceNoQos, data: { field: 'zones.0.commservIds' } });
    expect(r.body.msg).toContain('未配置 QoS，请重新选择');
    const en = await save(plan({ zones: [{ zoneName: 'A', commservIds: [bare] }] }));
    expect(en.body.msg).toContain('has no QoS configured, select again');
  });

  it('refuses a communication service with more than 32 addresses', async () => {
    const wide = await service('地址过多服务', { whitelist: Array.from({ length: 33 }, (_, i) => `h${i}.example.com`) });
    const ok = await service('地址 32 服务', { whitelist: Array.from({ length: 32 }, (_, i) => `k${i}.example.com`) });
    const r = await save(plan({ zones: [{ zoneName: 'A', commservIds: [wide] }] }));
    expect(r.body).toMatchObject({ errorCode: ErrorCode.PlanServiceAddressTooMany });
    await created({ zones: [{ zoneName: 'A', commservIds: [ok] }] });
  });

  it('allows a test period plus silent period of at most 12 months', async () => {
    const r = await save(plan({ testPeriodMonths: 5, silentPeriodMonths: 8 }));
    expect(r.body).toMatchObject({ errorCode: ErrorCode.PlanTestSilentTooLong, data: { field: 'silentPeriodMonths' } });
    await created({ testPeriodMonths: 4, silentPeriodMonths: 8 });
  });

  it('accepts only 30/60/90/180/360 test validity days', async () => {
    const r = await save(plan({ testValidityDays: 45 }));
    expect(r.body).toMatchObject({ errorCode: ErrorCode.PlanTestValidityInvalid, data: { field: 'testValidityDays' } });
    expect(r.body.msg).toContain('30/60/90/180/360');
    for (const days of [30, 360]) await created({ testValidityDays: days });
  });

  it('keeps the profit-sharing proportion within 0-100', async () => {
    for (const v of [101, -1]) {
      expect((await save(plan({ profitShareRatio: v }))).body).toMatchObject({ errorCode: ErrorCode.PlanProfitShareInvalid, data: { field: 'profitShareRatio' } });
    }
    await created({ profitShareRatio: 100 });
  });

  it('refuses negative prices and more than two decimals', async () => {
    expect((await save(plan({ salePrice: '-1.00' }))).body.errorCode).toBe(ErrorCode.Validation);
    const r = await save(plan({ salePrice: '9.999' }));
    expect(r.body).toMatchObject({ errorCode: ErrorCode.PlanMoneyInvalid, data: { field: 'salePrice' } });
    expect((await save(plan({ zones: [{ zoneName: 'Z', price: '0.001', commservIds: [] }] }))).body.data).toEqual({ field: 'zones.0.price' });
    await created({ salePrice: '0.07' });
    // a JSON number is not money: the contract takes decimal strings only
    expect((await save(plan({ salePrice: 39.9 }))).body.errorCode).toBe(ErrorCode.Validation);
  });

  it('keeps prices exact end to end: what is typed is what is stored, listed and exported, never a float', async () => {
    // 0.1 + 0.2 and 12-digit amounts are where floats go wrong
    const id = await created({ standardPrice: '123456789012.34', salePrice: '0.3', overagePrice: '0.10', testPrice: '19.99', downtimeFee: '1.1' });
    const d = (await t.call(DETAIL, { goodsReleaseId: id }, { token: admin })).body.data;
    expect(d).toMatchObject({ standardPrice: '123456789012.34', salePrice: '0.30', overagePrice: '0.10', testPrice: '19.99', downtimeFee: '1.10' });
    const history = (await t.call('goods/basicGoods/changeRecord/history', { goodsReleaseId: id }, { token: admin })).body.data;
    expect(history.list.at(-1)).toMatchObject({ kind: PlanChangeKind.Created, newPrice: '0.30' });
  });

  it('offers and accepts as plans to change to only plans with the same APN info', async () => {
    const same = await created({ apnIds: [apnB] });
    const other = await created({ apnIds: [apnA, apnB] });
    const bad = await save(plan({ apnIds: [apnB], alternativeIds: [other] }));
    expect(bad.body).toMatchObject({ errorCode: ErrorCode.PlanAlternativeApnMismatch, data: { field: 'alternativeIds' } });
    const id = await created({ apnIds: [apnB], alternativeIds: [same] });
    expect((await t.call(DETAIL, { goodsReleaseId: id }, { token: admin })).body.data.alternatives.map((a: any) => a.goodsReleaseId)).toEqual([same]);
    const opts = await t.call('goods/basicGoods/alternativeOptions', { apnIds: [apnB], exceptId: id }, { token: admin });
    const offered = opts.body.data.map((o: any) => o.goodsReleaseId);
    expect(offered).toContain(same);
    expect(offered).not.toContain(other);
    expect(offered).not.toContain(id);
    // when the target's APN set changes, it stops being a change target
    await t.call('goods/basicGoods/update', { goodsReleaseId: same, ...plan({ apnIds: [apnA] }) }, { token: admin });
    expect((await t.call(DETAIL, { goodsReleaseId: id }, { token: admin })).body.data.alternatives).toEqual([]);
  });

  it('gives supplementary packs goods type 3 and only the fields that apply to them', async () => {
    const pack = { tariffType: TariffType.EventPack, goodsType: PlanGoodsType.Supplementary, apnIds: [], zones: [], testPeriodMonths: 0, silentPeriodMonths: 0, downtimeFee: '0' };
    const wrongType = await save(plan({ ...pack, goodsType: PlanGoodsType.Monthly }));
    expect(wrongType.body).toMatchObject({ errorCode: ErrorCode.PlanGoodsTypeMismatch, data: { field: 'goodsType' } });
    const withZones = await save(plan({ ...pack, zones: [{ zoneName: 'A', commservIds: [svc.internet] }] }));
    expect(withZones.body).toMatchObject({ errorCode: ErrorCode.PlanSupplementaryFields, data: { field: 'zones' } });
    for (const tariffType of [TariffType.EventPack, TariffType.AddOn, TariffType.Overage, TariffType.ValueAdded]) await created({ ...pack, tariffType });
    const list = await t.call(LIST, { category: 'supplementary', pageSize: 100 }, { token: admin });
    expect(list.body.data.list.every((p: any) => p.goodsType === PlanGoodsType.Supplementary)).toBe(true);
    expect(new Set(list.body.data.list.map((p: any) => p.tariffType))).toEqual(new Set([8, 9, 11, 14]));
    const basic = await t.call(LIST, { category: 'basic', pageSize: 100 }, { token: admin });
    expect(basic.body.data.list.some((p: any) => p.goodsType === PlanGoodsType.Supplementary)).toBe(false);
  });

  it('refuses a taken name or code', async () => {
    const body = plan();
    await created({ code: body.code, name: body.name });
    expect((await save({ ...plan(), code: body.code })).body).toMatchObject({ errorCode: ErrorCode.PlanCodeTaken, data: { field: 'code' } });
    expect((await save({ ...plan(), name: body.name.toUpperCase() })).body).toMatchObject({ errorCode: ErrorCode.PlanNameTaken, data: { field: 'name' } });
  });

  it('scopes released plans to the customer tenant', async () => {
    const forChannel = await created();
    const forEast = await created();
    expect((await t.call(PUBLISH, { goodsReleaseId: forChannel, custIds: [cust.chan] }, { token: admin })).body.data).toEqual({ added: 1 });
    await t.call(PUBLISH, { goodsReleaseId: forEast, custIds: [cust.sub] }, { token: admin });
    // the enterprise sees the seeded plans released to it and the one of its second-level customer, not the channel's
    const entList = ids(await t.call(LIST, { pageSize: 100 }, { token: ent }));
    expect(entList).toContain(forEast);
    expect(entList).not.toContain(forChannel);
    expect(entList.length).toBeGreaterThanOrEqual(4);
    expect(ids(await t.call(LIST, { pageSize: 100 }, { token: chan }))).toEqual([forChannel]);
    // the second-level customer sees only plans released to itself
    expect(ids(await t.call(LIST, { pageSize: 100 }, { token: sub }))).toEqual([forEast]);
    // a guessed id of a plan not released to the caller answers like a missing one
    for (const [token, id] of [[ent, forChannel], [chan, forEast], [sub, entList.find((x) => x !== forEast)!], [chan, 999999]] as const) {
      expect((await t.call(DETAIL, { goodsReleaseId: id }, { token })).body.errorCode).toBe(ErrorCode.NotFound);
      expect((await t.call('goods/basicGoods/releaseList', { goodsReleaseId: id }, { token })).body.errorCode).toBe(ErrorCode.NotFound);
    }
    const seen = await t.call(DETAIL, { goodsReleaseId: forChannel }, { token: chan });
    expect(seen.body.data.zones).toHaveLength(2);
    // the release list shows a customer only its own tenant's releases
    await t.call(PUBLISH, { goodsReleaseId: forChannel, custIds: [cust.ent] }, { token: admin });
    const rel = await t.call('goods/basicGoods/releaseList', { goodsReleaseId: forChannel }, { token: chan });
    expect(rel.body.data.map((r: any) => r.custId)).toEqual([cust.chan]);
    // the service other modules use follows the same rule
    const db = t.database.db;
    const actorOf = async (login: string) => t.deps.sessions.actorOf((await db.select().from(accounts).where(eq(accounts.loginName, login)))[0].accountId);
    expect(await visibleBasicPlan(db, forEast, (await actorOf('channel'))!)).toBeNull();
    expect(await visibleBasicPlan(db, forEast, (await actorOf('subcustomer'))!)).toMatchObject({ goodsReleaseId: forEast, custIds: [cust.sub] });
    expect((await visibleBasicPlan(db, forChannel, (await actorOf('admin'))!))!.custIds.sort()).toEqual([cust.ent, cust.chan].sort());
  });

  it('gives customers the package page, retail and export buttons but not the staff buttons', () => {
    const perms = builtInRolePermissions();
    for (const role of [3000, 4000]) {
      expect(perms[role]).toEqual(expect.arrayContaining([4010000, 4010005, 4010006]));
      for (const staffButton of [4010001, 4010002, 4010003, 4010004]) expect(perms[role]).not.toContain(staffButton);
    }
    expect(perms[5000]).toContain(4010000);
    for (const code of [4010001, 4010002, 4010003, 4010004, 4010006]) expect(perms[5000]).not.toContain(code);
    expect(perms[1000]).toEqual(expect.arrayContaining([4010001, 4010002, 4010003, 4010004, 4010005, 4010006]));
  });

  it('refuses staff actions to customers on the server', async () => {
    const id = await created();
    for (const token of [ent, chan, sub]) {
      expect((await t.call(SAVE, plan(), { token })).body.errorCode).toBe(ErrorCode.PermissionDenied);
      expect((await t.call(PUBLISH, { goodsReleaseId: id, custIds: [cust.ent] }, { token })).body.errorCode).toBe(ErrorCode.PermissionDenied);
      expect((await t.call(UNPUBLISH, { goodsReleaseId: id }, { token })).body.errorCode).toBe(ErrorCode.PermissionDenied);
      expect((await t.call('goods/basicGoods/delete', { goodsReleaseId: id }, { token })).body.errorCode).toBe(ErrorCode.PermissionDenied);
      expect((await t.call(PRICE, { goodsReleaseId: id, salePrice: '1.00', effectiveDate: businessTodayOf() }, { token })).body.errorCode).toBe(ErrorCode.PermissionDenied);
      expect((await t.call('goods/basicGoods/copy', { goodsReleaseId: id, code: 'X1', name: 'x' }, { token })).body.errorCode).toBe(ErrorCode.PermissionDenied);
      expect((await t.call(LIST, {}, { token })).body.success).toBe(true);
    }
    expect((await t.call(PUBLISH, { goodsReleaseId: id, custIds: [424242] }, { token: admin })).body).toMatchObject({ errorCode: ErrorCode.PlanReleaseCustomerInvalid });
  });

  it('adjusts the price per released customer: a customer whose retail plan would not stay above fails with a reason', async () => {
    const id = await created({ salePrice: '30' });
    await t.call(PUBLISH, { goodsReleaseId: id, custIds: [cust.ent, cust.chan] }, { token: admin });
    const [ent_] = await t.database.db.select().from(customers).where(eq(customers.custId, cust.ent));
    await t.database.db.insert(retailPlans).values({
      retailName: '车主畅享包', custId: cust.ent, rootCustId: ent_.rootCustId, goodsReleaseId: id, price: '45', dividendMethod: 1, dividendProportion: 10,
      createdBy: 'enterprise', updatedBy: 'enterprise',
    });
    const r = await t.call(PRICE, { goodsReleaseId: id, salePrice: '45', effectiveDate: businessTodayOf(), remark: '成本上调' }, { token: admin });
    expect(r.body.data).toMatchObject({ successCount: 1, failureCount: 1, status: PriceChangeStatus.Effective });
    const releases = await t.database.db.select().from(planReleases).where(eq(planReleases.goodsReleaseId, id));
    expect(Object.fromEntries(releases.map((x) => [x.custId, x.salePrice]))).toEqual({ [cust.ent]: '30.00', [cust.chan]: '45.00' });
    expect((await t.call(DETAIL, { goodsReleaseId: id }, { token: admin })).body.data.salePrice).toBe('45.00');
    expect((await t.call(DETAIL, { goodsReleaseId: id }, { token: ent })).body.data.salePrice).toBe('30.00');
    const changes = await t.call('goods/basicGoods/changeRecord/getListPage', { goodsReleaseId: id }, { token: admin });
    expect(changes.body.data.list[0]).toMatchObject({ oldPrice: '30.00', newPrice: '45.00', successCount: 1, failureCount: 1, remark: '成本上调' });
    const fails = await t.call('goods/basicGoods/changeRecord/failureList', { changeId: r.body.data.changeId }, { token: admin });
    expect(fails.body.data.list).toEqual([expect.objectContaining({
      custId: cust.ent, result: PriceChangeResult.Failed, reasonCode: PriceChangeFailure.RetailNotAbove, retailName: '车主畅享包', retailPrice: '45.00', newPrice: '45.00',
    })]);
    // the failure detail exports
    const task = await t.call('core/downloadTask/createExport', {
      source: 'goods/basicGoods/changeRecord/failureList', format: ExportFormat.Csv, filters: { changeId: r.body.data.changeId },
    }, { token: admin });
    const done = await waitFor(async () => {
      const l = await t.call('core/downloadTask/getListPage', {}, { token: admin });
      const x = l.body.data.list.find((d: any) => d.taskId === task.body.data.taskId);
      return x && x.state !== ExportState.InProcess ? x : null;
    });
    expect(done.state).toBe(ExportState.Succeeded);
    const file = await t.app.inject({ method: 'GET', url: `/api/cmp/core/downloadTask/download?taskId=${done.taskId}`, headers: { authorization: admin } });
    expect(file.body).toContain('车主畅享包');
    expect(file.body).toContain('A retail plan price is not above the new basic plan price');
    // unpublishing from the customer whose retail plan rests on the plan is refused; from the other one it works
    const un = await t.call(UNPUBLISH, { goodsReleaseId: id, custIds: [cust.ent] }, { token: admin });
    expect(un.body).toMatchObject({ errorCode: ErrorCode.PlanRetailDepends });
    expect(un.body.msg).toContain('车主畅享包');
    expect((await t.call(UNPUBLISH, { goodsReleaseId: id, custIds: [cust.chan] }, { token: admin })).body.data).toEqual({ removed: 1 });
    const history = await t.call('goods/basicGoods/changeRecord/history', { goodsReleaseId: id }, { token: admin });
    expect(history.body.data.list.find((h: any) => h.kind === PlanChangeKind.PriceAdjusted)).toMatchObject({ oldPrice: '30.00', newPrice: '45.00', effectiveDate: businessTodayOf() });
    const audits = await t.call('system/audit/getListPage', { entity: 'basic_plan_price' }, { token: admin });
    expect(audits.body.data.list.some((a: any) => a.entityId === String(id))).toBe(true);
  });

  it('keeps a future price change pending until its date; refuses a past date and a second pending change', async () => {
    const id = await created({ salePrice: '20' });
    await t.call(PUBLISH, { goodsReleaseId: id, custIds: [cust.chan] }, { token: admin });
    expect((await t.call(PRICE, { goodsReleaseId: id, salePrice: '25.00', effectiveDate: '2020-01-01' }, { token: admin })).body)
      .toMatchObject({ errorCode: ErrorCode.PlanEffectiveDatePast, data: { field: 'effectiveDate' } });
    const r = await t.call(PRICE, { goodsReleaseId: id, salePrice: '25', effectiveDate: '2999-01-01' }, { token: admin });
    expect(r.body.data).toMatchObject({ status: PriceChangeStatus.Pending, successCount: 1, failureCount: 0 });
    const row = (await t.call(LIST, { name: '', code: `T-${seq}` }, { token: admin })).body.data.list.find((p: any) => p.goodsReleaseId === id);
    expect(row).toMatchObject({ salePrice: '20.00', pendingPrice: '25.00', pendingDate: '2999-01-01' });
    expect((await t.call(PRICE, { goodsReleaseId: id, salePrice: '26.00', effectiveDate: '2999-02-01' }, { token: admin })).body.errorCode).toBe(ErrorCode.PlanPriceChangePending);
    expect(await t.database.db.transaction((tx) => applyDuePriceChanges(tx))).toBe(0);
    // once the date has come, the daily job applies it
    await t.database.db.update(planPriceChanges).set({ effectiveDate: businessTodayOf() }).where(eq(planPriceChanges.changeId, r.body.data.changeId));
    expect(await t.database.db.transaction((tx) => applyDuePriceChanges(tx))).toBe(1);
    expect((await t.call(DETAIL, { goodsReleaseId: id }, { token: chan })).body.data.salePrice).toBe('25.00');
  });

  it('copies a plan as a new draft with all fields, zones, services and APNs', async () => {
    const id = await created({ apnIds: [apnA, apnB], testValidityDays: 90, remark: '原套餐' });
    await t.call(PUBLISH, { goodsReleaseId: id, custIds: [cust.chan] }, { token: admin });
    const r = await t.call('goods/basicGoods/copy', { goodsReleaseId: id, code: 'COPY-1', name: '复制的套餐' }, { token: admin });
    const copyId = r.body.data.goodsReleaseId;
    const [a, b] = await Promise.all([id, copyId].map(async (x) => (await t.call(DETAIL, { goodsReleaseId: x }, { token: admin })).body.data));
    const strip = (d: any) => {
      const { goodsReleaseId: _g, code: _c, name: _n, status: _s, releaseCount: _r, createdAt: _ca, updatedAt: _u, copiedFrom: _cf, ...rest } = d;
      return { ...rest, zones: rest.zones.map(({ zoneId: _z, ...z }: any) => z) };
    };
    expect(strip(b)).toEqual(strip(a));
    expect(b).toMatchObject({ status: PlanStatus.Draft, releaseCount: 0, copiedFrom: id, code: 'COPY-1' });
    // a copy through the form (save with copiedFrom) keeps the source
    const viaForm = await t.call(SAVE, { ...plan(), copiedFrom: id }, { token: admin });
    expect((await t.call(DETAIL, { goodsReleaseId: viaForm.body.data.goodsReleaseId }, { token: admin })).body.data.copiedFrom).toBe(id);
  });

  it('deletes only a plan that is not released, and edits only such a plan', async () => {
    const id = await created();
    await t.call(PUBLISH, { goodsReleaseId: id, custIds: [cust.chan] }, { token: admin });
    const refused = await t.call('goods/basicGoods/delete', { goodsReleaseId: id }, { token: admin });
    expect(refused.body).toMatchObject({ errorCode: ErrorCode.PlanReleasedNoDelete });
    expect(refused.body.msg).toContain('1 customers');
    expect((await t.call('goods/basicGoods/update', { goodsReleaseId: id, ...plan() }, { token: admin })).body.errorCode).toBe(ErrorCode.Conflict);
    expect((await t.call(UNPUBLISH, { goodsReleaseId: id }, { token: admin })).body.data).toEqual({ removed: 1 });
    expect((await t.call(DETAIL, { goodsReleaseId: id }, { token: admin })).body.data.status).toBe(PlanStatus.Unpublished);
    const edited = await t.call('goods/basicGoods/update', { goodsReleaseId: id, ...plan({ zones: [] }) }, { token: admin });
    expect(edited.body.success).toBe(true);
    expect((await t.call(DETAIL, { goodsReleaseId: id }, { token: admin })).body.data.zones).toEqual([]);
    expect((await t.call('goods/basicGoods/delete', { goodsReleaseId: id }, { token: admin })).body.success).toBe(true);
    expect((await t.call(DETAIL, { goodsReleaseId: id }, { token: admin })).body.errorCode).toBe(ErrorCode.NotFound);
    const history = await t.call('goods/basicGoods/changeRecord/history', { goodsReleaseId: id }, { token: admin });
    expect(history.body.data.list.map((h: any) => h.kind).reverse()).toEqual([
      PlanChangeKind.Created, PlanChangeKind.Published, PlanChangeKind.Unpublished, PlanChangeKind.Edited, PlanChangeKind.Deleted,
    ]);
    expect(history.body.data.list[3]).toMatchObject({ kind: PlanChangeKind.Published, customerCount: 1, loginName: 'admin' });
    expect((await t.call('goods/basicGoods/changeRecord/history', { goodsReleaseId: id }, { token: ent })).body.errorCode).toBe(ErrorCode.PermissionDenied);
    const trail = await t.call('system/audit/getListPage', { pageSize: 100 }, { token: admin });
    const mine = trail.body.data.list.filter((a: any) => a.entityId === String(id)).map((a: any) => a.entity);
    expect(mine).toEqual(expect.arrayContaining(['basic_plan', 'basic_plan_release']));
    expect(mine.length).toBeGreaterThanOrEqual(5);
  });

  it('exports the package list only with the export button 4010006', async () => {
    const task = await t.call('core/downloadTask/createExport', { source: LIST, format: ExportFormat.Csv, filters: { category: 'supplementary' } }, { token: ent });
    expect(task.body.success).toBe(true);
    const done = await waitFor(async () => {
      const l = await t.call('core/downloadTask/getListPage', {}, { token: ent });
      const x = l.body.data.list.find((d: any) => d.taskId === task.body.data.taskId);
      return x && x.state !== ExportState.InProcess ? x : null;
    });
    const file = await t.app.inject({ method: 'GET', url: `/api/cmp/core/downloadTask/download?taskId=${done.taskId}`, headers: { authorization: ent } });
    // the enterprise sees its seeded event pack, not packs released to no one
    expect(file.body).toContain('CTCC-EV5G');
    expect(file.body).not.toContain('T-');
    expect((await t.call('core/downloadTask/createExport', { source: LIST }, { token: sub })).body.errorCode).toBe(ErrorCode.PermissionDenied);
  });
});
