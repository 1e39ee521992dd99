// Endpoints of retail plans (issue 4): plans a customer sells to its end users (the C-end), each built on a
// basic plan released to that customer (spec §2 Billing → Packages, §3 "Retail rate plan", §5).
import { Type } from '@sinclair/typebox';
import { defineEnum } from '../enums/define.ts';
import { endpoint, MoneyText, Obj, Page, PageParams, PriceInput, SortParams, Nullable } from './endpoint.ts';

const tag = 'retail';
const PACKAGE_PAGE = 4010000;
const RETAIL_EDIT = 4010005;
/** export button of the package screens; checked by the export task on top of the list's own code */
export const RETAIL_EXPORT = 4010006;

/** On sale: end users can buy it; off sale: hidden from the shop, existing subscriptions unaffected. */
export const RetailStatus = defineEnum({
  OnSale: { value: 1, zh: '上架', en: 'On sale' },
  OffSale: { value: 2, zh: '下架', en: 'Off sale' },
});

export const RetailRecordAction = defineEnum({
  Create: { value: 1, zh: '新增', en: 'Created' },
  Update: { value: 2, zh: '修改', en: 'Edited' },
  Copy: { value: 3, zh: '复制新增', en: 'Created as a copy' },
});

/** Prices are decimal strings, percentages numbers; both at most two decimals (checked exactly on the server). */
const Money = PriceInput;
const Percent = Type.Number({ minimum: 0, maximum: 100 });

export const RetailPlan = Type.Object({
  retailId: Type.Integer(),
  retailName: Type.String(),
  custId: Type.Integer(),
  custName: Type.String(),
  goodsReleaseId: Type.Integer(),
  basicName: Type.String(),
  tariffType: Type.Integer(),
  basicSalePrice: MoneyText,
  price: MoneyText,
  crossedPrice: Nullable(MoneyText),
  taxRate: Type.Number(),
  dividendMethod: Type.Integer(),
  dividendProportion: Type.Number(),
  description: Nullable(Type.String()),
  eventGoodsReleaseId: Nullable(Type.Integer()),
  eventName: Nullable(Type.String()),
  status: Type.Integer(),
  createdBy: Type.String(),
  updatedBy: Type.String(),
  createdAt: Type.String(),
  updatedAt: Type.String(),
});

const RetailFields = {
  retailName: Type.String({ minLength: 1, maxLength: 64 }),
  /** the customer whose end users buy the plan; must be in the caller's tenant */
  custId: Type.Integer({ minimum: 1 }),
  /** a main basic plan released to that customer */
  goodsReleaseId: Type.Integer({ minimum: 1 }),
  price: Money,
  /** the struck-through "was" price shown to end users; at least the price */
  crossedPrice: Type.Optional(Nullable(Money)),
  taxRate: Percent,
  /** ProfitShareMethod: by profit or by turnover */
  dividendMethod: Type.Integer(),
  dividendProportion: Percent,
  description: Type.Optional(Nullable(Type.String({ maxLength: 500 }))),
  /** an event pack (tariff type 8) released to the same customer */
  eventGoodsReleaseId: Type.Optional(Nullable(Type.Integer({ minimum: 1 }))),
  status: Type.Optional(Type.Integer()),
};

/** Without it a name already used for the customer is answered with RetailNameExists, so the user can confirm. */
const Confirm = { confirmDuplicateName: Type.Optional(Type.Boolean()) };

const ListFilters = {
  retailName: Type.Optional(Type.String({ maxLength: 64 })),
  custId: Type.Optional(Type.Integer()),
  goodsReleaseId: Type.Optional(Type.Integer()),
  status: Type.Optional(Type.Integer()),
};

export const getRetailListPage = endpoint({
  name: 'billing/retailGoods/getListPage', method: 'POST', auth: 'session', perm: [PACKAGE_PAGE], kind: 'query', tag,
  summary: { zh: '零售套餐列表（按名称、客户、基础套餐、状态筛选）', en: 'Retail plans (filter by name, customer, basic plan, status)' },
  body: Obj({ ...PageParams, ...SortParams, ...ListFilters }),
  response: Page(RetailPlan),
});

export const getRetailDetail = endpoint({
  name: 'billing/retailGoods/getDetail', method: 'POST', auth: 'session', perm: [PACKAGE_PAGE], kind: 'query', tag,
  summary: { zh: '零售套餐详情', en: 'Retail plan detail' },
  body: Obj({ retailId: Type.Integer({ minimum: 1 }) }),
  response: RetailPlan,
});

export const saveRetail = endpoint({
  name: 'billing/retailGoods/save', method: 'POST', auth: 'session', perm: [RETAIL_EDIT], kind: 'mutation', tag,
  summary: {
    zh: '新增或复制零售套餐（售价须高于基础套餐售价；同名需确认）',
    en: 'Add or copy a retail plan (price above the basic plan price; a repeated name needs confirmation)',
  },
  body: Obj({ ...RetailFields, ...Confirm, copyFromRetailId: Type.Optional(Type.Integer({ minimum: 1 })) }),
  response: Type.Object({ retailId: Type.Integer() }),
});

export const updateRetail = endpoint({
  name: 'billing/retailGoods/update', method: 'POST', auth: 'session', perm: [RETAIL_EDIT], kind: 'mutation', tag,
  summary: { zh: '修改零售套餐（含上架/下架）', en: 'Edit a retail plan (including on/off sale)' },
  body: Obj({ retailId: Type.Integer({ minimum: 1 }), ...Type.Partial(Type.Object(RetailFields)).properties, ...Confirm }),
  response: Type.Null(),
});

export const RetailChange = Type.Object({ field: Type.String(), before: Type.Unknown(), after: Type.Unknown() });
export const RetailRecord = Type.Object({
  recordId: Type.Integer(),
  retailId: Type.Integer(),
  action: Type.Integer(),
  changes: Type.Array(RetailChange),
  loginName: Type.String(),
  userName: Type.String(),
  createdAt: Type.String(),
});

export const getRetailChangeRecord = endpoint({
  name: 'billing/retailGoods/getChangeRecord', method: 'POST', auth: 'session', perm: [PACKAGE_PAGE], kind: 'query', tag,
  summary: { zh: '零售套餐变更记录（修改前后、操作人、时间）', en: 'Retail plan change records (before/after, who, when)' },
  body: Obj({ retailId: Type.Integer({ minimum: 1 }), ...PageParams }),
  response: Page(RetailRecord),
});

export const RetailCustomerOption = Type.Object({
  custId: Type.Integer(),
  custName: Type.String(),
  level: Type.Integer(),
  parentCustId: Nullable(Type.Integer()),
});

export const getRetailCustomerOptions = endpoint({
  name: 'billing/retailGoods/customerOptions', method: 'POST', auth: 'session', perm: [PACKAGE_PAGE], kind: 'query', tag,
  summary: {
    zh: '可选客户（调用者可见范围内，按名称搜索，最多 200 个；给出基础套餐时只列已发布到的客户）',
    en: 'Customers to choose (in the caller\'s tenant, searched by name, at most 200; with a basic plan, only those it is released to)',
  },
  body: Obj({ goodsReleaseId: Type.Optional(Type.Integer({ minimum: 1 })), custName: Type.Optional(Type.String({ maxLength: 64 })) }),
  response: Type.Array(RetailCustomerOption),
});

export const RetailBasicOption = Type.Object({
  goodsReleaseId: Type.Integer(),
  name: Type.String(),
  tariffType: Type.Integer(),
  salePrice: MoneyText,
});

export const getRetailBasicOptions = endpoint({
  name: 'billing/retailGoods/basicOptions', method: 'POST', auth: 'session', perm: [PACKAGE_PAGE], kind: 'query', tag,
  summary: {
    zh: '可选基础套餐：主套餐或事件包，已发布到所选客户的',
    en: 'Basic plans to choose: main plans or event packs released to the chosen customer',
  },
  body: Obj({
    custId: Type.Optional(Type.Integer({ minimum: 1 })),
    kind: Type.Union([Type.Literal('main'), Type.Literal('event')]),
  }),
  response: Type.Array(RetailBasicOption),
});
