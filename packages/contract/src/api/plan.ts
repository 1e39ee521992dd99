// Basic (enterprise) plans and supplementary packs (spec §2 Billing → Packages, §3, §4, §5, §9). Operator staff
// build, publish and price plans; customers read the plans released to them.
import { Type } from '@sinclair/typebox';
import { endpoint, MoneyText, Obj, Page, PageParams, PriceInput, SortParams, Nothing, Nullable } from './endpoint.ts';
import { PLAN_APN_MAX, PLAN_ZONE_MAX, PLAN_ZONE_SERVICE_MAX } from '../enums/plan.ts';

const tag = 'plan';
const PAGE = 4010000;
const DELETE = 4010001;
const PUBLISH = 4010002;
const ADD = 4010003;
const PRICE = 4010004;

const Id = Type.Integer({ minimum: 1 });
/** a price in CNY: a decimal string (the two-decimal rule is checked by the server with the spec's message) */
const Money = PriceInput;
/** a quota in MB: a number, not money (at most two decimals, checked by the server) */
const Quota = Type.Number({ minimum: 0, maximum: 999_999_999_999 });
const Percent = Type.Number({ minimum: 0, maximum: 100 });
const Months = Type.Integer({ minimum: 0, maximum: 120 });
const Day = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' });

export const PlanZoneInput = Type.Object(
  {
    zoneName: Type.String({ minLength: 1, maxLength: 64 }),
    /** the zone's English name, shown to English readers (optional) */
    zoneNameEn: Type.Optional(Nullable(Type.String({ maxLength: 64 }))),
    regions: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { maxItems: 300 })),
    quotaMb: Type.Optional(Nullable(Quota)),
    price: Type.Optional(Nullable(Money)),
    // the limit of 40 is checked by the server with the spec's message; this only bounds the request
    commservIds: Type.Array(Id, { maxItems: 400 }),
  },
  { additionalProperties: false },
);

export const PlanFields = {
  code: Type.String({ minLength: 1, maxLength: 32, pattern: '^[A-Za-z0-9_-]+$' }),
  name: Type.String({ minLength: 1, maxLength: 64 }),
  goodsType: Type.Integer(),
  tariffType: Type.Integer(),
  standardPrice: Money,
  salePrice: Money,
  cycleUnit: Type.Integer({ minimum: 1, maximum: 2 }),
  cycleValue: Type.Integer({ minimum: 1, maximum: 366 }),
  durationMonths: Type.Integer({ minimum: 0, maximum: 120 }),
  quotaMb: Quota,
  useUpAction: Type.Integer(),
  terminateByUsage: Type.Boolean(),
  operatorId: Type.Integer(),
  operationMode: Type.Integer(),
  overageGrade: Type.Optional(Nullable(Type.Integer())),
  overagePrice: Type.Optional(Nullable(Money)),
  testPeriodMonths: Type.Optional(Months),
  testQuotaKb: Type.Optional(Type.Integer({ minimum: 0, maximum: 10_485_760 })),
  testPrice: Type.Optional(Money),
  testValidityDays: Type.Optional(Nullable(Type.Integer())),
  silentPeriodMonths: Type.Optional(Months),
  renewalMode: Type.Integer(),
  downtimeFee: Type.Optional(Money),
  downtimeFreeMonths: Type.Optional(Months),
  taxRate: Percent,
  currency: Type.Optional(Type.Literal('CNY')),
  // the 0-100 range is checked by the server with its own message
  profitShareRatio: Type.Number(),
  profitShareMethod: Type.Integer(),
  networkTypes: Type.Array(Type.Integer(), { maxItems: 5 }),
  remark: Type.Optional(Type.String({ maxLength: 500 })),
  apnIds: Type.Array(Id, { maxItems: 64 }),
  zones: Type.Array(PlanZoneInput, { maxItems: 64 }),
  /** plans a card on this plan may change to: only plans with the same APN set */
  alternativeIds: Type.Optional(Type.Array(Id, { maxItems: 100 })),
};

export const BasicPlanRow = Type.Object({
  goodsReleaseId: Type.Integer(),
  code: Type.String(),
  name: Type.String(),
  goodsType: Type.Integer(),
  tariffType: Type.Integer(),
  standardPrice: MoneyText,
  salePrice: MoneyText,
  status: Type.Integer(),
  operatorId: Nullable(Type.Integer()),
  operationMode: Type.Integer(),
  cycleUnit: Type.Integer(),
  cycleValue: Type.Integer(),
  durationMonths: Type.Integer(),
  quotaMb: Type.Number(),
  zoneCount: Type.Integer(),
  releaseCount: Type.Integer(),
  /** a price change waiting for its effective date */
  pendingPrice: Nullable(MoneyText),
  pendingDate: Nullable(Type.String()),
  createdBy: Type.String(),
  createdAt: Type.String(),
  updatedAt: Type.String(),
});

export const PlanZoneService = Type.Object({
  commservId: Type.Integer(),
  name: Type.String(),
  type: Type.Integer(),
  directional: Type.Boolean(),
  priority: Type.Integer(),
  qosCount: Type.Integer(),
  whitelistCount: Type.Integer(),
  /** the service's English name, when it has one */
  nameEn: Nullable(Type.String()),
});

export const PlanZone = Type.Object({
  zoneId: Type.Integer(),
  zoneName: Type.String(),
  /** the zone's English name, when it has one */
  zoneNameEn: Nullable(Type.String()),
  regions: Type.Array(Type.String()),
  quotaMb: Nullable(Type.Number()),
  price: Nullable(MoneyText),
  services: Type.Array(PlanZoneService),
});

export const BasicPlanDetail = Type.Object({
  ...BasicPlanRow.properties,
  overageGrade: Nullable(Type.Integer()),
  overagePrice: Nullable(MoneyText),
  useUpAction: Type.Integer(),
  terminateByUsage: Type.Boolean(),
  testPeriodMonths: Type.Integer(),
  testQuotaKb: Type.Integer(),
  testPrice: MoneyText,
  testValidityDays: Nullable(Type.Integer()),
  silentPeriodMonths: Type.Integer(),
  renewalMode: Type.Integer(),
  downtimeFee: MoneyText,
  downtimeFreeMonths: Type.Integer(),
  taxRate: Type.Number(),
  currency: Type.String(),
  profitShareRatio: Type.Number(),
  profitShareMethod: Type.Integer(),
  networkTypes: Type.Array(Type.Integer()),
  remark: Nullable(Type.String()),
  copiedFrom: Nullable(Type.Integer()),
  apns: Type.Array(Type.Object({ apnId: Type.Integer(), apnName: Type.String(), operatorId: Type.Integer() })),
  zones: Type.Array(PlanZone),
  alternatives: Type.Array(Type.Object({ goodsReleaseId: Type.Integer(), name: Type.String(), code: Type.String() })),
});

export const PlanRelease = Type.Object({
  custId: Type.Integer(),
  custName: Type.String(),
  level: Type.Integer(),
  salePrice: MoneyText,
  releasedBy: Type.String(),
  releasedAt: Type.String(),
});

export const PriceChange = Type.Object({
  changeId: Type.Integer(),
  goodsReleaseId: Type.Integer(),
  oldPrice: MoneyText,
  newPrice: MoneyText,
  effectiveDate: Type.String(),
  status: Type.Integer(),
  successCount: Type.Integer(),
  failureCount: Type.Integer(),
  remark: Nullable(Type.String()),
  createdBy: Type.String(),
  createdAt: Type.String(),
});

export const PriceChangeItem = Type.Object({
  itemId: Type.Integer(),
  changeId: Type.Integer(),
  custId: Type.Integer(),
  custName: Type.String(),
  result: Type.Integer(),
  reasonCode: Nullable(Type.Integer()),
  retailId: Nullable(Type.Integer()),
  retailName: Nullable(Type.String()),
  retailPrice: Nullable(MoneyText),
  newPrice: MoneyText,
  createdAt: Type.String(),
});

const PlanRef = Obj({ goodsReleaseId: Id });

export const getBasicPlanListPage = endpoint({
  name: 'goods/basicGoods/getListPage', method: 'POST', auth: 'session', perm: [PAGE], kind: 'query', tag,
  summary: {
    zh: '基础套餐与补充包列表（客户只看到发布给本租户的套餐）',
    en: 'Basic plans and supplementary packs (a customer sees only plans released to its tenant)',
  },
  body: Obj({
    ...PageParams, ...SortParams,
    /** basic: main plans (tariff 0, 1, 2, 6, 10); supplementary: packs (8, 9, 11, 14) */
    category: Type.Optional(Type.Union([Type.Literal('basic'), Type.Literal('supplementary')])),
    name: Type.Optional(Type.String({ maxLength: 64 })),
    code: Type.Optional(Type.String({ maxLength: 32 })),
    tariffType: Type.Optional(Type.Integer()),
    goodsType: Type.Optional(Type.Integer()),
    status: Type.Optional(Type.Integer()),
    operatorId: Type.Optional(Type.Integer()),
    /** staff: plans released to this customer */
    custId: Type.Optional(Id),
  }),
  response: Page(BasicPlanRow),
});

export const getBasicPlanDetail = endpoint({
  name: 'goods/basicGoods/detail', method: 'POST', auth: 'session', perm: [PAGE], kind: 'query', tag,
  summary: { zh: '基础套餐详情（区域、通信服务、APN、可变更套餐）', en: 'Basic plan detail (zones, communication services, APNs, change targets)' },
  body: PlanRef, response: BasicPlanDetail,
});

export const saveBasicPlan = endpoint({
  name: 'goods/basicGoods/save', method: 'POST', auth: 'session', perm: [ADD], kind: 'mutation', tag,
  summary: {
    zh: `新增或复制基础套餐/补充包（最多 ${PLAN_APN_MAX} 个 APN、${PLAN_ZONE_MAX} 个区域、每区域 ${PLAN_ZONE_SERVICE_MAX} 个通信服务）`,
    en: `Add or copy a basic plan or pack (at most ${PLAN_APN_MAX} APNs, ${PLAN_ZONE_MAX} zones, ${PLAN_ZONE_SERVICE_MAX} services per zone)`,
  },
  body: Obj({ ...PlanFields, copiedFrom: Type.Optional(Id) }),
  response: Type.Object({ goodsReleaseId: Type.Integer() }),
});

export const updateBasicPlan = endpoint({
  name: 'goods/basicGoods/update', method: 'POST', auth: 'session', perm: [ADD], kind: 'mutation', tag,
  summary: { zh: '修改未发布的基础套餐', en: 'Edit a basic plan that is not released' },
  body: Obj({ goodsReleaseId: Id, ...PlanFields }), response: Nothing,
});

export const copyBasicPlan = endpoint({
  name: 'goods/basicGoods/copy', method: 'POST', auth: 'session', perm: [ADD], kind: 'mutation', tag,
  summary: { zh: '复制基础套餐为新的未发布套餐（全部字段、区域、通信服务与 APN）', en: 'Copy a plan as a new draft (all fields, zones, services and APNs)' },
  body: Obj({ goodsReleaseId: Id, code: PlanFields.code, name: PlanFields.name }),
  response: Type.Object({ goodsReleaseId: Type.Integer() }),
});

export const deleteBasicPlan = endpoint({
  name: 'goods/basicGoods/delete', method: 'POST', auth: 'session', perm: [DELETE], kind: 'mutation', tag,
  summary: { zh: '删除未发布的基础套餐', en: 'Delete a basic plan that is not released' },
  body: PlanRef, response: Nothing,
});

export const publishBasicPlan = endpoint({
  name: 'goods/basicGoods/publish', method: 'POST', auth: 'session', perm: [PUBLISH], kind: 'mutation', tag,
  summary: { zh: '发布套餐给一级或二级客户', en: 'Publish a plan to first- or second-level customers' },
  body: Obj({ goodsReleaseId: Id, custIds: Type.Array(Id, { minItems: 1, maxItems: 500 }) }),
  response: Type.Object({ added: Type.Integer() }),
});

export const unpublishBasicPlan = endpoint({
  name: 'goods/basicGoods/unpublish', method: 'POST', auth: 'session', perm: [PUBLISH], kind: 'mutation', tag,
  summary: {
    zh: '下架套餐（指定客户或全部）；有零售套餐基于该套餐的客户不能下架',
    en: 'Unpublish a plan (chosen customers or all); refused while a retail plan of the customer is built on it',
  },
  body: Obj({ goodsReleaseId: Id, custIds: Type.Optional(Type.Array(Id, { minItems: 1, maxItems: 500 })) }),
  response: Type.Object({ removed: Type.Integer() }),
});

export const getBasicPlanReleases = endpoint({
  name: 'goods/basicGoods/releaseList', method: 'POST', auth: 'session', perm: [PAGE], kind: 'query', tag,
  summary: { zh: '套餐的发布客户', en: 'Customers a plan is released to' },
  body: PlanRef, response: Type.Array(PlanRelease),
});

export const getAlternativeOptions = endpoint({
  name: 'goods/basicGoods/alternativeOptions', method: 'POST', auth: 'session', perm: [ADD], kind: 'query', tag,
  summary: { zh: '可作为变更目标的套餐（APN 信息相同）', en: 'Plans that can be change targets (same APN info)' },
  body: Obj({ apnIds: Type.Array(Id, { maxItems: 64 }), exceptId: Type.Optional(Id) }),
  response: Type.Array(Type.Object({ goodsReleaseId: Type.Integer(), name: Type.String(), code: Type.String(), tariffType: Type.Integer() })),
});

export const adjustBasicPlanPrice = endpoint({
  name: 'goods/basicGoods/priceAdjustment', method: 'POST', auth: 'session', perm: [PRICE], kind: 'mutation', tag,
  summary: {
    zh: '调价：新售价与生效日期；每个发布客户一条结果，零售价不高于新价格的客户调价失败',
    en: 'Price adjustment: new sale price and effective date; one result per released customer, failing where a retail price is not above the new price',
  },
  body: Obj({ goodsReleaseId: Id, salePrice: Money, effectiveDate: Day, remark: Type.Optional(Type.String({ maxLength: 200 })) }),
  response: Type.Object({ changeId: Type.Integer(), successCount: Type.Integer(), failureCount: Type.Integer(), status: Type.Integer() }),
});

export const getPriceChangeListPage = endpoint({
  name: 'goods/basicGoods/changeRecord/getListPage', method: 'POST', auth: 'session', perm: [PRICE, ADD], kind: 'query', tag,
  summary: { zh: '套餐调价变更记录', en: 'Price change records of a plan' },
  body: Obj({ ...PageParams, goodsReleaseId: Id }),
  response: Page(PriceChange),
});

export const getPriceChangeItemPage = endpoint({
  name: 'goods/basicGoods/changeRecord/failureList', method: 'POST', auth: 'session', perm: [PRICE, ADD], kind: 'query', tag,
  summary: { zh: '调价结果明细（默认只看失败）', en: 'Per-customer results of a price change (failures by default)' },
  body: Obj({ ...PageParams, changeId: Id, result: Type.Optional(Type.Integer()) }),
  response: Page(PriceChangeItem),
});

export const PlanHistoryEntry = Type.Object({
  id: Type.String(),
  /** PlanChangeKind */
  kind: Type.Integer(),
  loginName: Nullable(Type.String()),
  createdAt: Type.String(),
  /** customers added or removed by a publish / unpublish */
  customerCount: Nullable(Type.Integer()),
  oldPrice: Nullable(MoneyText),
  newPrice: Nullable(MoneyText),
  effectiveDate: Nullable(Type.String()),
});

export const getPlanHistoryPage = endpoint({
  name: 'goods/basicGoods/changeRecord/history', method: 'POST', auth: 'session', perm: [PRICE, ADD], kind: 'query', tag,
  summary: { zh: '套餐的全部变更（新增、编辑、发布、下架、调价）', en: 'Every change of a plan (created, edited, published, unpublished, price)' },
  body: Obj({ ...PageParams, goodsReleaseId: Id }),
  response: Page(PlanHistoryEntry),
});
