import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { ErrorCode, ExportFormat, ExportState, PlanStatus, ProfitShareMethod, TariffType, moneyToFen, retail } from '@lynx/contract';
import { backends, startTestApp, waitFor, type TestApp } from './harness.ts';
import { retailPlansOn } from '../src/modules/plan/retail-service.ts';

const { RetailStatus, RetailRecordAction } = retail;

describe.each(backends)('retail plans on %s', (backend) => {
  let t: TestApp;
  let admin: string;
  let ent: string;
  let chan: string;
  const cust: Record<string, number> = {};
  const plan: Record<string, number> = {};

  /** A basic plan straight in the table (the basic plan screens have their own tests). */
  async function basic(name: string, tariffType: number, salePrice: number, status: number = PlanStatus.Published) {
    const goodsType = tariffType === TariffType.EventPack ? 3 : tariffType === TariffType.MonthlySingle ? 2 : 1;
    const [row] = await t.database.sql.query<{ goods_release_id: number }>(
      `insert into basic_plans (code, name, goods_type, tariff_type, sale_price, status, created_by)
       values ($1, $2, $3, $4, $5, $6, 'admin') returning goods_release_id`,
      [`T-${name}`, name, goodsType, tariffType, salePrice, status],
    );
    return row.goods_release_id;
  }
  async function release(goodsReleaseId: number, custId: number, salePrice: number) {
    const [c] = await t.database.sql.query<{ root_cust_id: number }>('select root_cust_id from customers where cust_id = $1', [custId]);
    await t.database.sql.query(
      `insert into plan_releases (goods_release_id, cust_id, root_cust_id, sale_price, released_by) values ($1, $2, $3, $4, 'admin')`,
      [goodsReleaseId, custId, c.root_cust_id, salePrice],
    );
  }

  const body = (over: Record<string, unknown> = {}) => ({
    retailName: '畅游 10G 月包', custId: cust.zhixing, goodsReleaseId: plan.main, price: '39.9', crossedPrice: '59', taxRate: 6,
    dividendMethod: ProfitShareMethod.ByTurnover, dividendProportion: 15.5, description: '面向车主的月度流量', ...over,
  });

  beforeAll(async () => {
    t = await startTestApp(backend);
    [admin, ent, chan] = await Promise.all([t.login('admin'), t.login('enterprise'), t.login('channel')]);
    const rows = await t.database.sql.query<{ cust_id: number; cust_name: string }>('select cust_id, cust_name from customers');
    const id = (name: string) => rows.find((r) => r.cust_name === name)!.cust_id;
    Object.assign(cust, { zhixing: id('智行物流科技有限公司'), east: id('智行物流华东分公司'), huadian: id('华电智能表计有限公司') });
    plan.main = await basic('车联网 10G', TariffType.MonthlySingle, 100);
    plan.other = await basic('表计 1G', TariffType.PrepaidSingle, 20);
    plan.pack = await basic('加油包 1G', TariffType.EventPack, 5);
    plan.foreignPack = await basic('加油包 2G', TariffType.EventPack, 8);
    plan.draft = await basic('草稿套餐', TariffType.MonthlySingle, 10, PlanStatus.Draft);
    // the enterprise buys the main plan at 30, below the list price of 100: its own price is the floor
    await release(plan.main, cust.zhixing, 30);
    await release(plan.main, cust.east, 32);
    await release(plan.pack, cust.zhixing, 5);
    await release(plan.other, cust.huadian, 20);
    await release(plan.foreignPack, cust.huadian, 8);
    await release(plan.draft, cust.zhixing, 10);
  });
  afterAll(() => t?.stop());

  it('refuses a price below or equal to the basic plan price the customer buys at, naming the field in both languages', async () => {
    const below = await t.call('billing/retailGoods/save', body({ price: '29.99', crossedPrice: null }), { token: ent, lang: 'zh' });
    expect(below.body).toMatchObject({ success: false, errorCode: ErrorCode.RetailPriceNotAboveBasic, data: { field: 'price' } });
    expect(below.body.msg).toBe('零售价格必须高于基础套餐售价（30.00 元）');
    const equal = await t.call('billing/retailGoods/save', body({ price: '30', crossedPrice: null }), { token: ent, lang: 'en' });
    expect(equal.body).toMatchObject({ errorCode: ErrorCode.RetailPriceNotAboveBasic, data: { field: 'price' } });
    expect(equal.body.msg).toBe('Retail price must be greater than the basic plan sale price (CNY 30.00)');
    const above = await t.call('billing/retailGoods/save', body({ retailName: '刚好高一分', price: '30.01', crossedPrice: null }), { token: ent });
    expect(above.body.success).toBe(true);
    const d = await t.call('billing/retailGoods/getDetail', { retailId: above.body.data.retailId }, { token: ent });
    expect(d.body.data).toMatchObject({ price: '30.01', basicSalePrice: '30.00', basicName: '车联网 10G', custName: '智行物流科技有限公司', status: RetailStatus.OnSale });
    // the second-level customer buys at 32: 31 is fine for the parent, not for it
    const sub = await t.call('billing/retailGoods/save', body({ retailName: '华东专享', custId: cust.east, price: '31', crossedPrice: null }), { token: ent });
    expect(sub.body.errorCode).toBe(ErrorCode.RetailPriceNotAboveBasic);
    // editing the price down to the floor is refused as well
    const upd = await t.call('billing/retailGoods/update', { retailId: above.body.data.retailId, price: '30' }, { token: ent });
    expect(upd.body).toMatchObject({ errorCode: ErrorCode.RetailPriceNotAboveBasic, data: { field: 'price' } });
  });

  it('asks for confirmation when the customer already has a retail plan of that name', async () => {
    const first = await t.call('billing/retailGoods/save', body({ retailName: '同名套餐' }), { token: ent });
    expect(first.body.success).toBe(true);
    const again = await t.call('billing/retailGoods/save', body({ retailName: ' 同名套餐 ' }), { token: ent, lang: 'zh' });
    expect(again.body).toMatchObject({
      success: false, errorCode: ErrorCode.RetailNameExists, msg: '该客户已有同名零售套餐“同名套餐”，是否继续？',
      data: { field: 'retailName', confirm: 'confirmDuplicateName' },
    });
    const confirmed = await t.call('billing/retailGoods/save', body({ retailName: '同名套餐', confirmDuplicateName: true }), { token: ent });
    expect(confirmed.body.success).toBe(true);
    // another customer may use the name freely
    const other = await t.call('billing/retailGoods/save', body({ retailName: '同名套餐', custId: cust.east, price: '40' }), { token: ent });
    expect(other.body.success).toBe(true);
    // renaming onto an existing name asks too; keeping one's own name does not
    const x = await t.call('billing/retailGoods/save', body({ retailName: '另一个名字' }), { token: ent });
    const rename = await t.call('billing/retailGoods/update', { retailId: x.body.data.retailId, retailName: '同名套餐' }, { token: ent });
    expect(rename.body.errorCode).toBe(ErrorCode.RetailNameExists);
    expect((await t.call('billing/retailGoods/update', { retailId: x.body.data.retailId, retailName: '同名套餐', confirmDuplicateName: true }, { token: ent })).body.success).toBe(true);
    expect((await t.call('billing/retailGoods/update', { retailId: first.body.data.retailId, retailName: '同名套餐', price: '45.00' }, { token: ent })).body.success).toBe(true);
  });

  it('needs a crossed-out price of at least the price, when one is given', async () => {
    const low = await t.call('billing/retailGoods/save', body({ retailName: '划线价', price: '50', crossedPrice: '49.99' }), { token: ent, lang: 'en' });
    expect(low.body).toMatchObject({ errorCode: ErrorCode.RetailCrossedPriceTooLow, data: { field: 'crossedPrice' }, msg: 'Crossed-out price must not be lower than the retail price' });
    expect((await t.call('billing/retailGoods/save', body({ retailName: '划线价', price: '50.00', crossedPrice: '50.00' }), { token: ent })).body.success).toBe(true);
    expect((await t.call('billing/retailGoods/save', body({ retailName: '无划线价', price: '50.00', crossedPrice: null }), { token: ent })).body.success).toBe(true);
  });

  it('takes a dividend proportion and tax rate from 0 to 100 with at most two decimals', async () => {
    const over = await t.call('billing/retailGoods/save', body({ retailName: '比例', dividendProportion: 100.01 }), { token: ent });
    expect(over.body).toMatchObject({ errorCode: ErrorCode.Validation });
    expect(over.body.msg).toContain('dividendProportion');
    expect((await t.call('billing/retailGoods/save', body({ retailName: '比例', dividendProportion: -1 }), { token: ent })).body.msg).toContain('dividendProportion');
    const decimals = await t.call('billing/retailGoods/save', body({ retailName: '比例', dividendProportion: 12.345 }), { token: ent, lang: 'en' });
    expect(decimals.body.msg).toBe('Field dividendProportion: Proportion must be a number from 0 to 100 with at most 2 decimals');
    const tax = await t.call('billing/retailGoods/save', body({ retailName: '比例', taxRate: 6.125 }), { token: ent });
    expect(tax.body.msg).toContain('taxRate');
    const price = await t.call('billing/retailGoods/save', body({ retailName: '比例', price: '39.999' }), { token: ent });
    expect(price.body.msg).toContain('price');
    expect((await t.call('billing/retailGoods/save', body({ retailName: '比例', dividendMethod: 3 }), { token: ent })).body.msg).toContain('dividendMethod');
    for (const p of [0, 100]) {
      expect((await t.call('billing/retailGoods/save', body({ retailName: `比例 ${p}`, dividendProportion: p }), { token: ent })).body.success).toBe(true);
    }
  });

  it('builds only on a published main plan released to that very customer, and links only its event packs', async () => {
    // not released to the enterprise's tenant at all: answered like a missing plan
    const foreign = await t.call('billing/retailGoods/save', body({ retailName: '越权', goodsReleaseId: plan.other }), { token: ent });
    expect(foreign.body.errorCode).toBe(ErrorCode.NotFound);
    const missing = await t.call('billing/retailGoods/save', body({ retailName: '越权', goodsReleaseId: 999999 }), { token: ent });
    expect(missing.body.errorCode).toBe(ErrorCode.NotFound);
    // a customer outside the tenant
    expect((await t.call('billing/retailGoods/save', body({ retailName: '越权', custId: cust.huadian }), { token: ent })).body.errorCode).toBe(ErrorCode.NotFound);
    // staff picking a customer the plan is not released to
    const staff = await t.call('billing/retailGoods/save', body({ retailName: '未发布', custId: cust.huadian }), { token: admin });
    expect(staff.body).toMatchObject({ errorCode: ErrorCode.RetailBasicNotReleased, data: { field: 'goodsReleaseId' } });
    expect((await t.call('billing/retailGoods/save', body({ retailName: '草稿', goodsReleaseId: plan.draft, price: '20.00' }), { token: ent })).body.errorCode).toBe(ErrorCode.RetailBasicNotReleased);
    // a supplementary pack is not a main plan
    const onPack = await t.call('billing/retailGoods/save', body({ retailName: '包', goodsReleaseId: plan.pack }), { token: ent });
    expect(onPack.body).toMatchObject({ errorCode: ErrorCode.RetailBasicIsPack, data: { field: 'goodsReleaseId' } });
    // event package: an event pack released to the same customer
    for (const bad of [plan.main, plan.foreignPack]) {
      const r = await t.call('billing/retailGoods/save', body({ retailName: '事件包', eventGoodsReleaseId: bad }), { token: admin });
      expect(r.body, String(bad)).toMatchObject({ errorCode: ErrorCode.RetailEventPackInvalid, data: { field: 'eventGoodsReleaseId' } });
    }
    const ok = await t.call('billing/retailGoods/save', body({ retailName: '事件包', eventGoodsReleaseId: plan.pack }), { token: admin });
    expect(ok.body.success).toBe(true);
    const d = await t.call('billing/retailGoods/getDetail', { retailId: ok.body.data.retailId }, { token: ent });
    expect(d.body.data).toMatchObject({ eventGoodsReleaseId: plan.pack, eventName: '加油包 1G', createdBy: 'admin' });
  });

  it('offers only the customers and basic plans the caller may build on', async () => {
    const custs = await t.call('billing/retailGoods/customerOptions', { goodsReleaseId: plan.main }, { token: ent });
    expect(custs.body.data.map((c: any) => c.custId).sort()).toEqual([cust.zhixing, cust.east].sort());
    expect((await t.call('billing/retailGoods/customerOptions', { goodsReleaseId: plan.main }, { token: chan })).body.data).toEqual([]);
    const byName = await t.call('billing/retailGoods/customerOptions', { custName: '华东' }, { token: ent });
    expect(byName.body.data.map((c: any) => c.custId)).toEqual([cust.east]);
    expect((await t.call('billing/retailGoods/customerOptions', { custName: '华电' }, { token: ent })).body.data).toEqual([]);
    // (the demo data may hold published plans of its own: only ours are asserted)
    const mains = await t.call('billing/retailGoods/basicOptions', { custId: cust.zhixing, kind: 'main' }, { token: ent });
    expect(mains.body.data).toContainEqual({ goodsReleaseId: plan.main, name: '车联网 10G', tariffType: TariffType.MonthlySingle, salePrice: '30.00' });
    const mainIds = mains.body.data.map((p: any) => p.goodsReleaseId);
    for (const no of [plan.other, plan.pack, plan.foreignPack, plan.draft]) expect(mainIds).not.toContain(no);
    expect(mains.body.data.every((p: any) => ![8, 9, 11, 14].includes(p.tariffType))).toBe(true);
    const events = await t.call('billing/retailGoods/basicOptions', { custId: cust.zhixing, kind: 'event' }, { token: ent });
    const eventIds = events.body.data.map((p: any) => p.goodsReleaseId);
    expect(eventIds).toContain(plan.pack);
    expect(eventIds).not.toContain(plan.foreignPack);
    expect(events.body.data.every((p: any) => p.tariffType === TariffType.EventPack)).toBe(true);
    expect((await t.call('billing/retailGoods/basicOptions', { custId: cust.huadian, kind: 'main' }, { token: ent })).body.errorCode).toBe(ErrorCode.NotFound);
    const chanMains = await t.call('billing/retailGoods/basicOptions', { kind: 'main' }, { token: chan });
    const chanIds = chanMains.body.data.map((p: any) => p.goodsReleaseId);
    expect(chanIds).toContain(plan.other);
    expect(chanIds).not.toContain(plan.main);
  });

  it('shows a customer only its own tenant\'s retail plans', async () => {
    const mine = await t.call('billing/retailGoods/save', body({ retailName: '智行专属' }), { token: ent });
    const theirs = await t.call('billing/retailGoods/save', body({ retailName: '华电专属', custId: cust.huadian, goodsReleaseId: plan.other, price: '25' }), { token: admin });
    expect(theirs.body.success).toBe(true);
    const entList = await t.call('billing/retailGoods/getListPage', { pageSize: 500 }, { token: ent });
    const names = entList.body.data.list.map((r: any) => r.retailName);
    expect(names).toContain('智行专属');
    expect(names).not.toContain('华电专属');
    const chanList = await t.call('billing/retailGoods/getListPage', {}, { token: chan });
    expect(chanList.body.data.list.map((r: any) => r.retailName)).toEqual(['华电专属']);
    const id = mine.body.data.retailId;
    expect((await t.call('billing/retailGoods/getDetail', { retailId: id }, { token: chan })).body.errorCode).toBe(ErrorCode.NotFound);
    expect((await t.call('billing/retailGoods/update', { retailId: id, price: '99.00' }, { token: chan })).body.errorCode).toBe(ErrorCode.NotFound);
    expect((await t.call('billing/retailGoods/getChangeRecord', { retailId: id }, { token: chan })).body.errorCode).toBe(ErrorCode.NotFound);
    expect((await t.call('billing/retailGoods/save', body({ retailName: '复制', copyFromRetailId: id, custId: cust.huadian, goodsReleaseId: plan.other, price: '25.00' }), { token: chan })).body.errorCode).toBe(ErrorCode.NotFound);
    // filters
    const byName = await t.call('billing/retailGoods/getListPage', { retailName: '专属' }, { token: admin });
    expect(byName.body.data.total).toBe(2);
    const byCust = await t.call('billing/retailGoods/getListPage', { retailName: '专属', custId: cust.huadian, goodsReleaseId: plan.other, status: RetailStatus.OnSale }, { token: admin });
    expect(byCust.body.data.list.map((r: any) => r.retailName)).toEqual(['华电专属']);
    // a second-level customer sees only its own plans, not its parent's, and cannot create for the parent
    const eastPlan = await t.call('billing/retailGoods/save', body({ retailName: '华东自营', custId: cust.east, price: '40' }), { token: ent });
    expect(eastPlan.body.success).toBe(true);
    const sub = await t.login('subcustomer');
    const subList = await t.call('billing/retailGoods/getListPage', { pageSize: 500 }, { token: sub });
    expect(subList.body.data.list.map((r: any) => r.retailName)).toContain('华东自营');
    expect(subList.body.data.list.every((r: any) => r.custId === cust.east)).toBe(true);
    expect((await t.call('billing/retailGoods/getDetail', { retailId: id }, { token: sub })).body.errorCode).toBe(ErrorCode.NotFound);
  });

  it('records every change with before and after values, who and when, and audits every mutation', async () => {
    const src = await t.call('billing/retailGoods/save', body({ retailName: '记录测试', price: '40' }), { token: ent });
    const id = src.body.data.retailId;
    expect((await t.call('billing/retailGoods/update', { retailId: id, price: '45.50', description: '', status: RetailStatus.OffSale }, { token: ent })).body.success).toBe(true);
    const copy = await t.call('billing/retailGoods/save', body({ retailName: '记录测试-副本', price: '40', copyFromRetailId: id }), { token: ent });
    expect(copy.body.success).toBe(true);
    const rec = await t.call('billing/retailGoods/getChangeRecord', { retailId: id }, { token: ent });
    expect(rec.body.data.total).toBe(2);
    const [edit, created] = rec.body.data.list;
    expect(created).toMatchObject({ action: RetailRecordAction.Create, loginName: 'enterprise', userName: '智行物流管理员' });
    expect(created.changes).toContainEqual({ field: 'custId', before: null, after: { id: cust.zhixing, name: '智行物流科技有限公司' } });
    expect(edit.action).toBe(RetailRecordAction.Update);
    expect(edit.changes).toEqual([
      { field: 'price', before: '40.00', after: '45.50' },
      { field: 'description', before: '面向车主的月度流量', after: null },
      { field: 'status', before: RetailStatus.OnSale, after: RetailStatus.OffSale },
    ]);
    expect(Date.parse(edit.createdAt)).toBeGreaterThan(Date.now() - 60_000);
    // the same amount typed differently ('45.5' for 45.50) is no change: no record
    expect((await t.call('billing/retailGoods/update', { retailId: id, price: '45.5' }, { token: ent })).body.success).toBe(true);
    expect((await t.call('billing/retailGoods/getChangeRecord', { retailId: id }, { token: ent })).body.data.total).toBe(2);
    const copyRec = await t.call('billing/retailGoods/getChangeRecord', { retailId: copy.body.data.retailId }, { token: ent });
    expect(copyRec.body.data.list[0].action).toBe(RetailRecordAction.Copy);
    // the no-change save is still audited (who tried what), but it is not a change record
    const trail = await t.call('system/audit/getListPage', { entity: 'retailPlan', entityId: String(id) }, { token: admin });
    expect(trail.body.data.total).toBe(3);
    const copyTrail = await t.call('system/audit/getListPage', { entity: 'retailPlan', entityId: String(copy.body.data.retailId) }, { token: admin });
    expect(copyTrail.body.data.list[0].after).toMatchObject({ copyFromRetailId: id });
  });

  it('checks the price again before an off-sale plan goes back on sale, and lists plans by basic plan', async () => {
    const r = await t.call('billing/retailGoods/save', body({ retailName: '调价后', price: '35', crossedPrice: null, status: RetailStatus.OffSale }), { token: ent });
    // the enterprise's buying price rises above the retail price meanwhile
    await t.database.sql.query('update plan_releases set sale_price = 36 where goods_release_id = $1 and cust_id = $2', [plan.main, cust.zhixing]);
    try {
      const on = await t.call('billing/retailGoods/update', { retailId: r.body.data.retailId, status: RetailStatus.OnSale }, { token: ent });
      expect(on.body.errorCode).toBe(ErrorCode.RetailPriceNotAboveBasic);
      // editing other fields of an off-sale plan stays possible
      expect((await t.call('billing/retailGoods/update', { retailId: r.body.data.retailId, description: '待调价' }, { token: ent })).body.success).toBe(true);
      expect((await t.call('billing/retailGoods/update', { retailId: r.body.data.retailId, price: '36.50', status: RetailStatus.OnSale }, { token: ent })).body.success).toBe(true);
    } finally {
      await t.database.sql.query('update plan_releases set sale_price = 30 where goods_release_id = $1 and cust_id = $2', [plan.main, cust.zhixing]);
    }
    const on = await retailPlansOn(t.deps.db, plan.main);
    expect(on.find((x) => x.retailId === r.body.data.retailId)).toEqual({ retailId: r.body.data.retailId, name: '调价后', custId: cust.zhixing, price: '36.50' });
    // prices are exact money text, never floats
    expect(on.every((x) => /^\d+\.\d{2}$/.test(x.price))).toBe(true);
  });

  it('ships demo retail plans of the demo enterprise, with their creation records', async () => {
    const list = await t.call('billing/retailGoods/getListPage', { retailName: '车主畅享' }, { token: ent });
    expect(list.body.data.list).toHaveLength(1);
    const demo = list.body.data.list[0];
    expect(demo).toMatchObject({ custId: cust.zhixing, basicName: '车载 4G 月付 10GB', status: RetailStatus.OnSale });
    expect(moneyToFen(demo.price)!).toBeGreaterThan(moneyToFen(demo.basicSalePrice)!);
    const rec = await t.call('billing/retailGoods/getChangeRecord', { retailId: demo.retailId }, { token: ent });
    expect(rec.body.data.list[0]).toMatchObject({ action: RetailRecordAction.Create, loginName: 'admin' });
  });

  it('exports retail plans with the export button code, scoped to the tenant', async () => {
    const created = await t.call('core/downloadTask/createExport', { source: 'billing/retailGoods/getListPage', format: ExportFormat.Csv, filters: {} }, { token: chan, lang: 'en' });
    expect(created.body.success).toBe(true);
    const task = await waitFor(async () => {
      const r = await t.call('core/downloadTask/getListPage', {}, { token: chan });
      const x = r.body.data.list.find((d: any) => d.taskId === created.body.data.taskId);
      return x && x.state !== ExportState.InProcess ? x : null;
    });
    expect(task.state).toBe(ExportState.Succeeded);
    const file = await t.app.inject({ method: 'GET', url: `/api/cmp/core/downloadTask/download?taskId=${task.taskId}`, headers: { authorization: chan } });
    expect(file.body).toContain('华电专属');
    expect(file.body).toContain('On sale');
    expect(file.body).not.toContain('智行专属');
    const role = await t.call('system/role/saveRole', { roleCode: 'PKG_VIEW', roleName: '套餐查看', roleType: 2000, permissions: [4000000, 4010000] }, { token: admin });
    await t.call('core/account/account/saveAccount', { loginName: 'pkg.viewer', userName: 'v', roleId: role.body.data.roleId, password: 'Viewer#2026' }, { token: admin });
    const viewer = await t.login('pkg.viewer', 'Viewer#2026');
    expect((await t.call('billing/retailGoods/getListPage', {}, { token: viewer })).body.success).toBe(true);
    expect((await t.call('core/downloadTask/createExport', { source: 'billing/retailGoods/getListPage' }, { token: viewer })).body.errorCode).toBe(ErrorCode.PermissionDenied);
    expect((await t.call('billing/retailGoods/save', body({ retailName: '无权' }), { token: viewer })).body.errorCode).toBe(ErrorCode.PermissionDenied);
  });
});
