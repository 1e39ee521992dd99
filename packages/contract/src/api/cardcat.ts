import { Type } from '@sinclair/typebox';
import { endpoint, Obj, Page, PageParams, SortParams, Nullable, ExportTaskCreated } from './endpoint.ts';
import { Perm } from '../permissions.ts';

/*
 * The card catalogue (issue 5): labels (/card/label/*), card types (/card/cardtype/list, the spec's "card
 * product") and test cards (/card/testcard/*).
 *
 * Labels belong to the customer who made them (cust_id / root_cust_id); labels made by operator staff are
 * platform-wide and visible to everyone. A customer sees the platform labels and those of its own tenant
 * (a channel customer its tree, a second-level customer itself) and can put a label only on cards of the
 * label owner's tenant. Card types are a platform catalogue kept by operator staff; customers holding the
 * page code see it read-only. Test cards are the caller's cards in the test state (61); ending or extending
 * a test goes through the card lifecycle engine.
 */

const tag = 'card';

export const CardCatalogPerm = {
  CardList: Perm.CardList,
  BatchOperations: 2030000,
  CardTypes: 2050000,
  CardTypeAdd: 2050001,
  CardTypeDelete: 2050002,
  ImportInfo: 2070000,
  TestCards: 2100000,
  /** test card button: end or extend a card's test period */
  TestCardUpdate: 2100001,
  Labels: 2110000,
  LabelEdit: 2110001,
  LabelDelete: 2110002,
} as const;
const P = CardCatalogPerm;

// ---------------------------------------------------------------------------------------------------
// Labels
// ---------------------------------------------------------------------------------------------------

export const LABEL_NAME_MAX = 32;
export const LABEL_DESCRIPTION_MAX = 200;
/** Labels one card may carry. */
export const CARD_LABELS_MAX = 20;
/** Cards one label change may touch (the batch limit of spec §9). */
export const LABEL_CARDS_PER_CALL_MAX = 10_000;
/** Labels offered in pickers (every label visible to the caller, by name). */
export const LABEL_OPTIONS_MAX = 2000;
/** Colour of a label: #RRGGBB. */
export const LABEL_COLOUR_RE = /^#[0-9a-fA-F]{6}$/;
/** Colours offered on the label form (antd's preset palette). */
export const LABEL_COLOURS = ['#1677ff', '#13c2c2', '#52c41a', '#a0d911', '#fadb14', '#faad14', '#fa8c16', '#fa541c', '#f5222d', '#eb2f96', '#722ed1', '#2f54eb', '#8c8c8c'] as const;

export const Label = Type.Object({
  labelId: Type.Integer(),
  name: Type.String(),
  colour: Type.String(),
  description: Nullable(Type.String()),
  /** the owning customer; null for a platform-wide label made by operator staff */
  custId: Nullable(Type.Integer()),
  custName: Nullable(Type.String()),
  platform: Type.Boolean(),
  /** the caller may edit and delete it (a customer never edits platform labels) */
  editable: Type.Boolean(),
  createdBy: Type.String(),
  createdAt: Type.String(),
  updatedAt: Type.String(),
});

export const LabelOption = Type.Object({ labelId: Type.Integer(), name: Type.String(), colour: Type.String(), platform: Type.Boolean() });

const LabelInput = {
  name: Type.String({ minLength: 1, maxLength: LABEL_NAME_MAX }),
  colour: Type.String({ pattern: '^#[0-9a-fA-F]{6}$' }),
  description: Type.Optional(Nullable(Type.String({ maxLength: LABEL_DESCRIPTION_MAX }))),
};

const LabelFilters = {
  name: Type.Optional(Type.String({ maxLength: LABEL_NAME_MAX })),
  /** platform: labels made by operator staff; own: labels of the caller's tenant */
  scope: Type.Optional(Type.Union([Type.Literal('platform'), Type.Literal('own')])),
  /** staff only: labels of one customer (with its second-level customers) */
  custId: Type.Optional(Type.Integer()),
};

export const getLabelListPage = endpoint({
  name: 'core/sim/cardLabel/getLabelListPage', method: 'POST', auth: 'session', perm: [P.Labels], kind: 'query', tag,
  summary: { zh: '标签列表（平台标签和本客户的标签）', en: 'Labels (platform labels and those of your own customers)' },
  body: Obj({ ...PageParams, ...SortParams, ...LabelFilters }),
  response: Page(Label),
});

export const exportLabelList = endpoint({
  name: 'core/sim/cardLabel/exportLabelList', method: 'POST', auth: 'session', perm: [P.Labels], kind: 'mutation', tag,
  summary: { zh: '导出标签列表（下载任务）', en: 'Export the labels (download task)' },
  body: Obj({ ...SortParams, ...LabelFilters, format: Type.Optional(Type.Integer()) }),
  response: ExportTaskCreated,
});

export const getLabelOptions = endpoint({
  name: 'core/sim/cardLabel/getLabelOptions', method: 'POST', auth: 'session', perm: [P.Labels, P.CardList, P.BatchOperations], kind: 'query', tag,
  summary: { zh: '可用的标签（用于选择）', en: 'Labels the caller may use (for pickers)' },
  body: Obj({}),
  response: Type.Array(LabelOption),
});

export const getLabelDetail = endpoint({
  name: 'core/sim/cardLabel/getLabelDetail', method: 'POST', auth: 'session', perm: [P.Labels], kind: 'query', tag,
  summary: { zh: '标签详情', en: 'Label detail' },
  body: Obj({ labelId: Type.Integer({ minimum: 1 }) }),
  response: Label,
});

export const LabelCard = Type.Object({
  iccid: Type.String(),
  msisdn: Nullable(Type.String()),
  state: Type.Integer(),
  operatorId: Type.Integer(),
  custId: Nullable(Type.Integer()),
  custName: Nullable(Type.String()),
  activatedAt: Nullable(Type.String()),
});

export const getLabelCardPage = endpoint({
  name: 'core/sim/cardLabel/getLabelCardPage', method: 'POST', auth: 'session', perm: [P.Labels], kind: 'query', tag,
  summary: { zh: '带有该标签的卡（仅本客户可见的卡）', en: 'Cards carrying the label (only the cards you may see)' },
  body: Obj({ ...PageParams, labelId: Type.Integer({ minimum: 1 }), iccid: Type.Optional(Type.String({ maxLength: 20, pattern: '^[0-9]*$' })) }),
  response: Page(LabelCard),
});

export const addLabel = endpoint({
  name: 'core/sim/cardLabel/addLabel', method: 'POST', auth: 'session', perm: [P.LabelEdit], kind: 'mutation', tag,
  summary: { zh: '新增标签（运营方人员新增的是平台标签）', en: 'Add a label (labels added by operator staff are platform-wide)' },
  body: Obj(LabelInput),
  response: Label,
});

export const updateLabel = endpoint({
  name: 'core/sim/cardLabel/updateLabel', method: 'POST', auth: 'session', perm: [P.LabelEdit], kind: 'mutation', tag,
  summary: { zh: '编辑标签', en: 'Edit a label' },
  body: Obj({ labelId: Type.Integer({ minimum: 1 }), ...LabelInput }),
  response: Label,
});

export const deleteLabel = endpoint({
  name: 'core/sim/cardLabel/deleteLabel', method: 'POST', auth: 'session', perm: [P.LabelDelete], kind: 'mutation', tag,
  summary: {
    zh: '删除标签。标签已用于卡时需确认（confirmInUse），确认后在同一事务中从这些卡上移除',
    en: 'Delete a label. A label in use needs confirmation (confirmInUse); it is then removed from those cards in the same transaction',
  },
  body: Obj({ labelId: Type.Integer({ minimum: 1 }), confirmInUse: Type.Optional(Type.Boolean()) }),
  response: Type.Object({ labelId: Type.Integer(), removedFromCards: Type.Integer() }),
});

// ---------------------------------------------------------------------------------------------------
// Card types (card product)
// ---------------------------------------------------------------------------------------------------

export const CARD_TYPE_NAME_MAX = 50;
export const CARD_TYPE_DESCRIPTION_MAX = 200;
export const CARD_TYPE_TEMP_MIN = -60;
export const CARD_TYPE_TEMP_MAX = 150;

export const CardType = Type.Object({
  cardTypeId: Type.Integer(),
  nameZh: Type.String(),
  nameEn: Type.String(),
  formFactor: Type.Integer(),
  grade: Type.Integer(),
  tempMin: Type.Integer(),
  tempMax: Type.Integer(),
  description: Nullable(Type.String()),
  createdBy: Type.String(),
  createdAt: Type.String(),
  updatedAt: Type.String(),
});

export const CardTypeOption = Type.Object({ cardTypeId: Type.Integer(), nameZh: Type.String(), nameEn: Type.String() });

const Temp = Type.Integer({ minimum: CARD_TYPE_TEMP_MIN, maximum: CARD_TYPE_TEMP_MAX });
const CardTypeInput = {
  nameZh: Type.String({ minLength: 1, maxLength: CARD_TYPE_NAME_MAX }),
  nameEn: Type.String({ minLength: 1, maxLength: CARD_TYPE_NAME_MAX }),
  formFactor: Type.Integer(),
  grade: Type.Integer(),
  tempMin: Temp,
  tempMax: Temp,
  description: Type.Optional(Nullable(Type.String({ maxLength: CARD_TYPE_DESCRIPTION_MAX }))),
};

export const getCardTypeListPage = endpoint({
  name: 'core/sim/cardProduct/getCardTypeListPage', method: 'POST', auth: 'session', perm: [P.CardTypes], kind: 'query', tag,
  summary: { zh: '卡类型列表', en: 'Card types' },
  body: Obj({
    ...PageParams, ...SortParams,
    name: Type.Optional(Type.String({ maxLength: CARD_TYPE_NAME_MAX })),
    formFactor: Type.Optional(Type.Integer()),
    grade: Type.Optional(Type.Integer()),
  }),
  response: Page(CardType),
});

export const getCardTypeOptions = endpoint({
  name: 'core/sim/cardProduct/getCardTypeOptions', method: 'POST', auth: 'session', perm: [P.CardTypes, P.CardList, P.ImportInfo], kind: 'query', tag,
  summary: { zh: '全部卡类型（用于选择）', en: 'Every card type (for pickers)' },
  body: Obj({}),
  response: Type.Array(CardTypeOption),
});

export const addCardType = endpoint({
  name: 'core/sim/cardProduct/addCardType', method: 'POST', auth: 'session', perm: [P.CardTypeAdd], kind: 'mutation', tag,
  summary: { zh: '新增卡类型（仅运营方人员）', en: 'Add a card type (operator staff only)' },
  body: Obj(CardTypeInput),
  response: CardType,
});

export const updateCardType = endpoint({
  name: 'core/sim/cardProduct/updateCardType', method: 'POST', auth: 'session', perm: [P.CardTypeAdd], kind: 'mutation', tag,
  summary: { zh: '编辑卡类型（仅运营方人员）', en: 'Edit a card type (operator staff only)' },
  body: Obj({ cardTypeId: Type.Integer({ minimum: 1 }), ...CardTypeInput }),
  response: CardType,
});

export const deleteCardType = endpoint({
  name: 'core/sim/cardProduct/deleteCardType', method: 'POST', auth: 'session', perm: [P.CardTypeDelete], kind: 'mutation', tag,
  summary: { zh: '删除卡类型（已被卡使用的不能删除；仅运营方人员）', en: 'Delete a card type (not while cards use it; operator staff only)' },
  body: Obj({ cardTypeId: Type.Integer({ minimum: 1 }) }),
  response: Type.Object({ cardTypeId: Type.Integer() }),
});

// ---------------------------------------------------------------------------------------------------
// Test cards
// ---------------------------------------------------------------------------------------------------

/** Test validity choices (spec §9): an extension adds one of them to the test end. */
export const TEST_EXTEND_DAYS = [30, 60, 90, 180, 360] as const;
/** Test period plus inventory (silent) period, at most (spec §4, §9). */
export const TEST_PLUS_SILENT_MAX_MONTHS = 12;
export const TEST_REASON_MAX = 200;

const DateOnly = Type.String({ pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' });

export const TestCard = Type.Object({
  iccid: Type.String(),
  msisdn: Nullable(Type.String()),
  imsi: Nullable(Type.String()),
  operatorId: Type.Integer(),
  /** 61 while in test; the detail also answers for a card whose test has ended */
  state: Type.Integer(),
  custId: Nullable(Type.Integer()),
  custName: Nullable(Type.String()),
  goodsReleaseId: Nullable(Type.Integer()),
  planName: Nullable(Type.String()),
  /** when the card entered the test state (its history), if recorded */
  testStartAt: Nullable(Type.String()),
  testEndAt: Nullable(Type.String()),
  /** free test data of the card's plan (spec §9: 100 KB by default) */
  testQuotaKb: Nullable(Type.Integer()),
  /** data used since the test started, when the usage feed has it; null = not known */
  testUsedKb: Nullable(Type.Number()),
  online: Type.Boolean(),
});

export const TestCardHistory = Type.Object({
  at: Type.String(),
  fromState: Nullable(Type.Integer()),
  toState: Nullable(Type.Integer()),
  action: Nullable(Type.Integer()),
  source: Type.Integer(),
  actor: Nullable(Type.String()),
  /** what the person typed, as typed */
  reason: Nullable(Type.String()),
  /** what the server wrote (test period extended…), in the request's language */
  note: Nullable(Type.String()),
});

export const TestCardDetail = Type.Object({
  card: TestCard,
  /** the latest test end an extension may reach (test + inventory period at most 12 months) */
  latestTestEnd: Nullable(Type.String()),
  silentPeriodMonths: Type.Integer(),
  history: Type.Array(TestCardHistory),
});

const TestCardFilters = {
  /** ICCID: under 19 digits a prefix, else exact */
  iccid: Type.Optional(Type.String({ maxLength: 20, pattern: '^[0-9]*$' })),
  msisdn: Type.Optional(Type.String({ maxLength: 15, pattern: '^[0-9]*$' })),
  /** staff: a customer with its second-level customers */
  custId: Type.Optional(Type.Integer()),
  operatorId: Type.Optional(Type.Integer()),
  testEndFrom: Type.Optional(DateOnly),
  testEndTo: Type.Optional(DateOnly),
};

export const getTestCardListPage = endpoint({
  name: 'core/sim/testCard/getTestCardListPage', method: 'POST', auth: 'session', perm: [P.TestCards], kind: 'query', tag,
  summary: { zh: '测试卡：测试期内的卡，按测试到期时间排序', en: 'Test cards: cards in their test period, by test end' },
  body: Obj({ ...PageParams, ...SortParams, ...TestCardFilters }),
  response: Page(TestCard),
});

export const exportTestCardList = endpoint({
  name: 'core/sim/testCard/exportTestCardList', method: 'POST', auth: 'session', perm: [P.TestCards], kind: 'mutation', tag,
  summary: { zh: '导出测试卡（下载任务）', en: 'Export the test cards (download task)' },
  body: Obj({ ...SortParams, ...TestCardFilters, format: Type.Optional(Type.Integer()) }),
  response: ExportTaskCreated,
});

export const getTestCardDetail = endpoint({
  name: 'core/sim/testCard/getTestCardDetail', method: 'POST', auth: 'session', perm: [P.TestCards], kind: 'query', tag,
  summary: { zh: '测试卡详情：测试期、测试流量和卡的状态历史', en: "Test card detail: test period, test data and the card's state history" },
  body: Obj({ iccid: Type.String({ pattern: '^[0-9]{19,20}$' }) }),
  response: TestCardDetail,
});

export const updateTestCard = endpoint({
  name: 'core/sim/singleCard/updateTestCard', method: 'POST', auth: 'session', perm: [P.TestCardUpdate], kind: 'mutation', tag,
  summary: {
    zh: '更新测试卡：结束测试（转入库存期）或延长测试期（30/60/90/180/360 天，测试期与库存期合计不超过 12 个月）',
    en: 'Update a test card: end the test (into the inventory period) or extend it (30/60/90/180/360 days; test plus inventory period at most 12 months)',
  },
  body: Obj({
    iccid: Type.String({ pattern: '^[0-9]{19,20}$' }),
    action: Type.Union([Type.Literal('end'), Type.Literal('extend')]),
    days: Type.Optional(Type.Union(TEST_EXTEND_DAYS.map((d) => Type.Literal(d)))),
    reason: Type.Optional(Type.String({ maxLength: TEST_REASON_MAX })),
  }),
  response: Type.Object({ iccid: Type.String(), state: Type.Integer(), testEndAt: Nullable(Type.String()) }),
});
