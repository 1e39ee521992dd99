import { Type } from '@sinclair/typebox';
import { endpoint, MoneyText, Obj, Page, PageParams, Nullable } from './endpoint.ts';
import { CardListFilters } from './carddata.ts';
import { Perm } from '../permissions.ts';
import { defineEnum } from '../enums/define.ts';

/*
 * Card detail (issue 5): one card's basic info, lifecycle history, plan and cycles, communication policy,
 * APN online status and billing facts (simDetails); the detail page's actions (singleCard: edit, renewal,
 * plan change, event pack order, zone block/permit), the card's SMS (sms), allocation of cards to customers
 * (simAssign, /card/card-list/numcard) and QR code downloads. Every call is tenant-scoped on the server: a
 * card outside the caller's tenant answers like a missing one (20005).
 */

const tag = 'card';

export const CardDetailPerm = {
  CardList: Perm.CardList,
  /** card list buttons (spec §6) */
  Edit: 2010001,
  Renew: 2010002,
  ChangePlan: 2010003,
  OrderPack: 2010004,
  ChangeStatus: 2010005,
  SendSms: 2010006,
  Allocate: 2010007,
} as const;
const P = CardDetailPerm;

const Iccid = Type.String({ pattern: '^[0-9]{19,20}$' });
const IccidBody = Obj({ iccid: Iccid });

/** Largest selection of one allocation or QR download (spec §5, §9). */
export const CARD_SELECTION_MAX = 10_000;
/** Most ICCID ranges in one allocation. */
export const CARD_RANGES_MAX = 50;
export const CARD_CUSTOM_FIELD_MAX = 64;
/** Renewal periods at once. */
export const CARD_RENEW_PERIODS_MAX = 36;
/** SMS length: 160 characters of the GSM 7-bit alphabet, 70 when any other character (e.g. Chinese) is in it. */
export const SMS_GSM_MAX = 160;
export const SMS_UCS2_MAX = 70;
const GSM7 = /^[@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&'()*+,\-./0-9:;<=>?¡A-ZÄÖÑÜ§¿a-zäöñüà^{}\\[~\]|€]*$/;
/** The longest SMS the content allows: 160 for GSM 7-bit text, 70 otherwise. */
export const smsMaxLength = (content: string): number => (GSM7.test(content) ? SMS_GSM_MAX : SMS_UCS2_MAX);

/** SMS states (spec §4). */
export const SmsStatus = defineEnum({
  Sending: { value: 1, zh: '发送中', en: 'Sending' },
  Submitted: { value: 2, zh: '提交成功', en: 'Submission succeeded' },
  Sent: { value: 3, zh: '发送成功', en: 'Sending succeeded' },
  SendFailed: { value: 4, zh: '发送失败', en: 'Sending failed' },
  SubmitFailed: { value: 5, zh: '提交失败', en: 'Submission failed' },
});

export const SmsDirection = defineEnum({
  ToDevice: { value: 1, zh: '下行（发往终端）', en: 'To the device' },
  FromDevice: { value: 2, zh: '上行（终端发出）', en: 'From the device' },
});

/** Initial state given to cards on allocation (spec §4 professional states a card starts its life in). */
export const AllocationInitialState = defineEnum({
  Test: { value: 61, zh: '测试期', en: 'Test' },
  ActivationReady: { value: 62, zh: '待激活', en: 'Activation ready' },
  Inventory: { value: 63, zh: '库存期', en: 'Inventory' },
  Activated: { value: 64, zh: '已激活', en: 'Activated' },
});

export const AllocationStatus = defineEnum({
  Queued: { value: 1, zh: '排队中', en: 'Queued' },
  Running: { value: 2, zh: '进行中', en: 'Running' },
  Succeeded: { value: 3, zh: '已完成', en: 'Done' },
  Failed: { value: 4, zh: '失败（卡未改变）', en: 'Failed (no card changed)' },
});

// ---------------------------------------------------------------------------------------------------
// Detail sections (simDetails)
// ---------------------------------------------------------------------------------------------------

export const CardBasicInfo = Type.Object({
  iccid: Type.String(),
  msisdn: Nullable(Type.String()),
  imsi: Nullable(Type.String()),
  imei: Nullable(Type.String()),
  state: Type.Integer(),
  operatorId: Type.Integer(),
  custId: Nullable(Type.Integer()),
  custName: Nullable(Type.String()),
  /** the first-level customer when the card belongs to a second-level customer */
  rootCustName: Nullable(Type.String()),
  cardTypeId: Nullable(Type.Integer()),
  /** in the request's language */
  cardTypeName: Nullable(Type.String()),
  labels: Type.Array(Type.Object({ labelId: Type.Integer(), name: Type.String() })),
  custom1: Nullable(Type.String()),
  custom2: Nullable(Type.String()),
  online: Type.Boolean(),
  lastSessionAt: Nullable(Type.String()),
  batchId: Nullable(Type.String()),
  batchNo: Nullable(Type.String()),
  /** the data pool the card is in (pool.ts), and its state */
  poolId: Nullable(Type.Integer()),
  poolName: Nullable(Type.String()),
  poolState: Nullable(Type.Integer()),
  activatedAt: Nullable(Type.String()),
  firstUsedAt: Nullable(Type.String()),
  testEndAt: Nullable(Type.String()),
  silentEndAt: Nullable(Type.String()),
  renewalMode: Nullable(Type.Integer()),
  operationMode: Nullable(Type.Integer()),
  euicc: Type.Boolean(),
  eid: Nullable(Type.String()),
  createdAt: Type.String(),
  updatedAt: Type.String(),
});

export const getCardDetail = endpoint({
  name: 'core/sim/simDetails/getParamsByIccid', method: 'POST', auth: 'session', perm: [P.CardList], kind: 'query', tag,
  summary: { zh: '卡详情：基本信息（spec §3 卡字段）', en: 'Card detail: basic info (spec §3 SIM card fields)' },
  body: IccidBody,
  response: CardBasicInfo,
});

export const CardHistoryEntry = Type.Object({
  historyId: Type.String(),
  at: Type.String(),
  fromState: Nullable(Type.Integer()),
  toState: Nullable(Type.Integer()),
  /** CardActionKind, null for a plain state change */
  action: Nullable(Type.Integer()),
  /** CardChangeSource: user, automation rule, scheduled job, operator */
  source: Type.Integer(),
  actor: Nullable(Type.String()),
  /** what the person typed, as typed */
  reason: Nullable(Type.String()),
  /** what the server wrote about the change (batch, allocation, quota used up…), in the request's language */
  note: Nullable(Type.String()),
  planId: Nullable(Type.Integer()),
  planName: Nullable(Type.String()),
});

export const getCardHistoryPage = endpoint({
  name: 'core/sim/simDetails/getActiveStatus', method: 'POST', auth: 'session', perm: [P.CardList], kind: 'query', tag,
  summary: { zh: '卡的生命周期与历史（最新在前）', en: "The card's lifecycle and history (newest first)" },
  body: Obj({ ...PageParams, iccid: Iccid }),
  response: Page(CardHistoryEntry),
});

const PlanRef = Type.Object({
  goodsReleaseId: Type.Integer(),
  name: Type.String(),
  tariffType: Type.Integer(),
  goodsType: Type.Integer(),
});

const Cycles = Type.Object({ total: Type.Integer(), used: Type.Integer(), remaining: Type.Integer() });

export const CardCycleInfo = Type.Object({
  plan: Nullable(Type.Composite([PlanRef, Type.Object({
    cycleUnit: Type.Integer(),
    cycleValue: Type.Integer(),
    durationMonths: Type.Integer(),
    quotaMb: Type.Number(),
    operationMode: Type.Integer(),
    renewalMode: Type.Integer(),
    apns: Type.Array(Type.String()),
  })])),
  contractStartAt: Nullable(Type.String()),
  contractEndAt: Nullable(Type.String()),
  cycleStartAt: Nullable(Type.String()),
  cycleEndAt: Nullable(Type.String()),
  /** B-end (enterprise) contract cycles of the current contract */
  bCycles: Cycles,
  /** C-end (retail) cycles; null when the card has no retail subscription */
  cCycles: Nullable(Cycles),
  pendingPlan: Nullable(Type.Object({
    plan: PlanRef,
    requestedAt: Nullable(Type.String()),
    /** null: applied on the card's next activation */
    effectiveAt: Nullable(Type.String()),
    onActivation: Type.Boolean(),
  })),
  pendingPriceChange: Type.Boolean(),
  lastPlanChangeAt: Nullable(Type.String()),
  eventPacks: Type.Array(Type.Object({
    orderId: Type.String(),
    packId: Type.Integer(),
    packName: Nullable(Type.String()),
    quotaMb: Nullable(Type.Number()),
    startsAt: Type.String(),
    endsAt: Type.String(),
    orderedBy: Nullable(Type.String()),
    orderedAt: Type.String(),
    active: Type.Boolean(),
  })),
});

export const getCardCycle = endpoint({
  name: 'core/sim/simDetails/getCycle', method: 'POST', auth: 'session', perm: [P.CardList], kind: 'query', tag,
  summary: {
    zh: '卡的套餐与周期：当前套餐、合约起止、当前周期、B 端/C 端合约周期（总数/已用/剩余）、待生效的套餐变更、加油包',
    en: "The card's plan and cycles: current plan, contract start/end, current cycle, B-end/C-end contract cycles (total/used/remaining), pending plan change, event packs",
  },
  body: IccidBody,
  response: CardCycleInfo,
});

export const CardPolicy = Type.Object({
  zones: Type.Array(Type.Object({
    zoneId: Type.Integer(),
    zoneName: Type.String(),
    regions: Type.Array(Type.String()),
    quotaMb: Nullable(Type.Number()),
    blocked: Type.Boolean(),
    services: Type.Array(Type.Object({
      commservId: Type.Integer(),
      name: Type.String(),
      type: Type.Integer(),
      directional: Type.Boolean(),
      priority: Type.Integer(),
    })),
  })),
  blocks: Type.Array(Type.Object({
    kind: Type.Union([Type.Literal('zone'), Type.Literal('region'), Type.Literal('network')]),
    targetId: Type.Integer(),
    /** the zone name for a zone block */
    name: Nullable(Type.String()),
    byDeactivation: Type.Boolean(),
    blockedAt: Type.String(),
    blockedBy: Nullable(Type.String()),
  })),
});

export const getCardPolicy = endpoint({
  name: 'core/sim/simDetails/getCommservPolicy', method: 'POST', auth: 'session', perm: [P.CardList], kind: 'query', tag,
  summary: {
    zh: '卡的通信策略：套餐的区域与通信服务，以及该卡被限制的区域/地区/网络',
    en: "The card's communication policy: the plan's zones and communication services, and the zones/regions/networks blocked on the card",
  },
  body: IccidBody,
  response: CardPolicy,
});

export const CardApnOnline = Type.Object({
  online: Type.Boolean(),
  lastSessionAt: Nullable(Type.String()),
  /** the APN of the card's last data session, null when it has had none */
  apn: Nullable(Type.String()),
  sessionStartAt: Nullable(Type.String()),
  sessionEndAt: Nullable(Type.String()),
  /** the APNs the card's plan allows */
  planApns: Type.Array(Type.String()),
});

export const getCardApnOnline = endpoint({
  name: 'core/sim/simDetails/getApnOnline', method: 'POST', auth: 'session', perm: [P.CardList], kind: 'query', tag,
  summary: { zh: 'APN 在线状态：最近一次会话的 APN 与在线标志', en: 'APN online status: the APN of the last session and the online flag' },
  body: IccidBody,
  response: CardApnOnline,
});

export const CardBilling = Type.Object({
  plan: Nullable(PlanRef),
  /** what the card's customer buys the plan at (its release price), or the plan's sale price for stock cards */
  price: Nullable(MoneyText),
  currency: Nullable(Type.String()),
  taxRate: Nullable(Type.Number()),
  overageGrade: Nullable(Type.Integer()),
  overagePrice: Nullable(MoneyText),
  renewalMode: Nullable(Type.Integer()),
  contractMonths: Type.Integer(),
  bCycles: Cycles,
  contractEndAt: Nullable(Type.String()),
  eventPackCount: Type.Integer(),
});

export const getCardBilling = endpoint({
  name: 'core/sim/simDetails/getBilling', method: 'POST', auth: 'session', perm: [P.CardList], kind: 'query', tag,
  summary: {
    zh: '卡的计费信息：套餐价格、续订方式、合约周期（账单功能上线前不显示账单）',
    en: "The card's billing facts: plan price, renewal mode, contract cycles (no bills until billing exists)",
  },
  body: IccidBody,
  response: CardBilling,
});

// ---------------------------------------------------------------------------------------------------
// Actions (singleCard)
// ---------------------------------------------------------------------------------------------------

export const CardActionDone = Type.Object({
  iccid: Type.String(),
  fromState: Type.Integer(),
  toState: Type.Integer(),
  sentToOperator: Type.Boolean(),
  requestId: Nullable(Type.String()),
});

export const editCard = endpoint({
  name: 'core/sim/singleCard/editCard', method: 'POST', auth: 'session', perm: [P.Edit], kind: 'mutation', tag,
  summary: { zh: '编辑卡的自定义字段 1/2 与标签', en: "Edit the card's custom fields 1/2 and labels" },
  body: Obj({
    iccid: Iccid,
    custom1: Type.Optional(Nullable(Type.String({ maxLength: CARD_CUSTOM_FIELD_MAX }))),
    custom2: Type.Optional(Nullable(Type.String({ maxLength: CARD_CUSTOM_FIELD_MAX }))),
    labelIds: Type.Optional(Type.Array(Type.Integer({ minimum: 1 }), { maxItems: 20 })),
  }),
  response: CardBasicInfo,
});

export const renewCard = endpoint({
  name: 'core/sim/singleCard/cycleOrder', method: 'POST', auth: 'session', perm: [P.Renew], kind: 'mutation', tag,
  summary: { zh: '续订周期（periods ≥ 1，按套餐时长延长合约）', en: "Renew cycles (periods ≥ 1, the contract grows by the plan's duration each)" },
  body: Obj({ iccid: Iccid, periods: Type.Integer({ minimum: 1, maximum: CARD_RENEW_PERIODS_MAX }) }),
  response: CardActionDone,
});

export const PlanOption = Type.Object({
  goodsReleaseId: Type.Integer(),
  name: Type.String(),
  tariffType: Type.Integer(),
  goodsType: Type.Integer(),
  price: MoneyText,
  apns: Type.Array(Type.String()),
  quotaMb: Type.Number(),
  durationMonths: Type.Integer(),
});

export const getChangePlanOptions = endpoint({
  name: 'core/sim/singleCard/getChangePlanOptions', method: 'POST', auth: 'session', perm: [P.ChangePlan], kind: 'query', tag,
  summary: {
    zh: '可变更的套餐：发布给卡所属客户、APN 信息与当前套餐相同的基础套餐',
    en: "Plans the card may change to: basic plans released to the card's customer with the same APN info as its plan",
  },
  body: IccidBody,
  response: Type.Array(PlanOption),
});

export const changeCardPlan = endpoint({
  name: 'core/sim/singleCard/changeCard', method: 'POST', auth: 'session', perm: [P.ChangePlan], kind: 'mutation', tag,
  summary: {
    zh: '变更套餐（按 spec §4 的生效时间；每月一次；只能变更为 APN 信息相同的套餐）',
    en: 'Change the plan (takes effect per spec §4; once a month; only to a plan with the same APN info)',
  },
  body: Obj({ iccid: Iccid, goodsReleaseId: Type.Integer({ minimum: 1 }) }),
  response: CardActionDone,
});

export const getEventPackOptions = endpoint({
  name: 'core/sim/singleCard/getEventPackOptions', method: 'POST', auth: 'session', perm: [P.OrderPack], kind: 'query', tag,
  summary: { zh: '可订购的加油包：发布给卡所属客户的加油包（资费类型 8）', en: "Event packs the card may order: event packs (tariff type 8) released to the card's customer" },
  body: IccidBody,
  response: Type.Array(PlanOption),
});

export const orderEventPack = endpoint({
  name: 'core/sim/singleCard/cardOrder', method: 'POST', auth: 'session', perm: [P.OrderPack], kind: 'mutation', tag,
  summary: { zh: '订购加油包（仅已激活的卡，随基础周期结束）', en: 'Order an event pack (active cards only; it ends with the base cycle)' },
  body: Obj({ iccid: Iccid, packId: Type.Integer({ minimum: 1 }) }),
  response: CardActionDone,
});

export const changeCardZone = endpoint({
  name: 'core/sim/singleCard/changeZone', method: 'POST', auth: 'session', perm: [P.Edit], kind: 'mutation', tag,
  summary: {
    zh: '限制或放开卡的区域或网络（停机状态不支持放开）',
    en: 'Block or permit a zone or a network of the card (the deactivated state does not support permit)',
  },
  body: Obj({
    iccid: Iccid,
    op: Type.Union([Type.Literal('block'), Type.Literal('permit')]),
    /** a zone of the card's plan, or a network type (NetworkType: 2/3G, 4G, 5G NSA, 5G SA, NB-IoT) */
    kind: Type.Union([Type.Literal('zone'), Type.Literal('network')]),
    targetId: Type.Integer({ minimum: 1 }),
  }),
  response: CardActionDone,
});

// ---------------------------------------------------------------------------------------------------
// SMS of one card
// ---------------------------------------------------------------------------------------------------

export const CardSms = Type.Object({
  smsId: Type.String(),
  iccid: Type.String(),
  msisdn: Nullable(Type.String()),
  direction: Type.Integer(),
  content: Type.String(),
  status: Type.Integer(),
  /** the operator's message reference once submitted */
  messageId: Nullable(Type.String()),
  /** why a submission or delivery failed */
  failReason: Nullable(Type.String()),
  createdBy: Nullable(Type.String()),
  createdAt: Type.String(),
  updatedAt: Type.String(),
});

export const sendCardSms = endpoint({
  name: 'core/sms/cmpp/single', method: 'POST', auth: 'session', perm: [P.SendSms], kind: 'mutation', tag,
  summary: {
    zh: '给一张卡发送短信（最多 160 个字符，含中文等字符时最多 70 个），经卡所属运营商的接入配置下发',
    en: "Send an SMS to one card (at most 160 characters, 70 with Chinese or other non-GSM characters) through the card operator's access configuration",
  },
  body: Obj({ iccid: Iccid, content: Type.String({ minLength: 1, maxLength: SMS_GSM_MAX }) }),
  response: CardSms,
});

export const getCardSmsPage = endpoint({
  name: 'core/sms/cmpp/getCardSmsPage', method: 'POST', auth: 'session', perm: [P.CardList], kind: 'query', tag,
  summary: { zh: '一张卡的短信（最新在前）', en: "One card's SMS (newest first)" },
  body: Obj({ ...PageParams, iccid: Iccid }),
  response: Page(CardSms),
});

// ---------------------------------------------------------------------------------------------------
// Allocation (simAssign): /card/card-list/numcard
// ---------------------------------------------------------------------------------------------------

const IccidRange = Obj({ start: Type.String({ pattern: '^[0-9]{19,20}$' }), end: Type.String({ pattern: '^[0-9]{19,20}$' }) });

/** Which cards: a list chosen on the card list, the card list's filters, or ICCID ranges. */
export const CardSelection = Obj({
  by: Type.Union([Type.Literal('list'), Type.Literal('filter'), Type.Literal('range')]),
  iccids: Type.Optional(Type.Array(Iccid, { maxItems: CARD_SELECTION_MAX })),
  filters: Type.Optional(Obj(CardListFilters)),
  ranges: Type.Optional(Type.Array(IccidRange, { maxItems: CARD_RANGES_MAX })),
});

const AllocationTarget = {
  /** transfer: staff move cards from the platform stock; distribute: cards move inside one customer tree */
  mode: Type.Union([Type.Literal('transfer'), Type.Literal('distribute')]),
  custId: Type.Integer({ minimum: 1 }),
};

export const getAssignParams = endpoint({
  name: 'core/sim/simAssign/params', method: 'POST', auth: 'session', perm: [P.Allocate], kind: 'query', tag,
  summary: {
    zh: '划拨与分配的参数：可用的方式与可分配的客户',
    en: 'Allocation parameters: the modes the caller may use and the customers it may allocate to',
  },
  body: Obj({}),
  response: Type.Object({
    modes: Type.Array(Type.Union([Type.Literal('transfer'), Type.Literal('distribute')])),
    customers: Type.Array(Type.Object({
      custId: Type.Integer(), custName: Type.String(), level: Type.Integer(), parentCustId: Nullable(Type.Integer()), rootCustId: Type.Integer(),
    })),
    max: Type.Integer(),
  }),
});

export const getAssignPlans = endpoint({
  name: 'core/sim/simAssign/plans', method: 'POST', auth: 'session', perm: [P.Allocate], kind: 'query', tag,
  summary: { zh: '可随划拨指定的套餐：发布给目标客户的基础套餐', en: 'Plans that can be given on allocation: basic plans released to the target customer' },
  body: Obj({ custId: Type.Integer({ minimum: 1 }) }),
  response: Type.Array(Type.Composite([PlanOption, Type.Object({ operatorId: Nullable(Type.Integer()) })])),
});

export const getAssignSelectNum = endpoint({
  name: 'core/sim/simAssign/selectNum', method: 'POST', auth: 'session', perm: [P.Allocate], kind: 'query', tag,
  summary: {
    zh: '所选卡中可划拨/分配给目标客户的数量（超过 10000 张拒绝）',
    en: 'How many of the selected cards can go to the target customer (more than 10000 is refused)',
  },
  body: Obj({ ...AllocationTarget, selection: CardSelection }),
  response: Type.Object({
    selectNum: Type.Integer(),
    /** list selections: chosen cards that cannot go to this customer (missing, not in the source, already its own) */
    ineligible: Type.Integer(),
    max: Type.Integer(),
  }),
});

export const assignCards = endpoint({
  name: 'core/sim/simAssign/assignCard', method: 'POST', auth: 'session', perm: [P.Allocate], kind: 'mutation', tag,
  summary: {
    zh: '划拨或分配卡（全部成功或全部不变；可同时指定套餐与初始状态；后台任务）',
    en: 'Transfer or distribute cards (all or nothing; optionally with a plan and an initial state; a background job)',
  },
  body: Obj({
    ...AllocationTarget,
    selection: CardSelection,
    /** the count the user confirmed (selectNum); a different count now is refused */
    expectedNum: Type.Integer({ minimum: 1, maximum: CARD_SELECTION_MAX }),
    goodsReleaseId: Type.Optional(Type.Integer({ minimum: 1 })),
    initialState: Type.Optional(Type.Integer()),
    remark: Type.Optional(Type.String({ maxLength: 200 })),
  }),
  response: Type.Object({ allocationId: Type.String(), cardCount: Type.Integer() }),
});

export const CardAllocation = Type.Object({
  allocationId: Type.String(),
  mode: Type.String(),
  custId: Type.Integer(),
  custName: Nullable(Type.String()),
  goodsReleaseId: Nullable(Type.Integer()),
  planName: Nullable(Type.String()),
  initialState: Nullable(Type.Integer()),
  cardCount: Type.Integer(),
  status: Type.Integer(),
  /** why it failed (no card was changed), in the caller's language */
  error: Nullable(Type.String()),
  failedIccid: Nullable(Type.String()),
  remark: Nullable(Type.String()),
  createdBy: Type.String(),
  createdAt: Type.String(),
  finishedAt: Nullable(Type.String()),
});

export const getAssignResult = endpoint({
  name: 'core/sim/simAssign/result', method: 'POST', auth: 'session', perm: [P.Allocate], kind: 'query', tag,
  summary: { zh: '一次划拨的结果', en: 'The result of one allocation' },
  body: Obj({ allocationId: Type.String({ pattern: '^[0-9a-f-]{36}$' }) }),
  response: CardAllocation,
});

export const getAssignPage = endpoint({
  name: 'core/sim/simAssign/records', method: 'POST', auth: 'session', perm: [P.Allocate], kind: 'query', tag,
  summary: { zh: '划拨记录（最新在前）', en: 'Allocation records (newest first)' },
  body: Obj({ ...PageParams }),
  response: Page(CardAllocation),
});

// ---------------------------------------------------------------------------------------------------
// QR codes
// ---------------------------------------------------------------------------------------------------

export const QrCardRow = Type.Object({
  iccid: Type.String(),
  state: Nullable(Type.Integer()),
  /** true: the card's QR code is in the download */
  included: Type.Boolean(),
  /** why a card is skipped, in the caller's language */
  reason: Nullable(Type.String()),
  /** what the QR code encodes */
  payload: Nullable(Type.String()),
});

export const getQrCodeCards = endpoint({
  name: 'core/sim/simDetails/getQrCodeCards', method: 'POST', auth: 'session', perm: [P.CardList], kind: 'query', tag,
  summary: {
    zh: '所选卡能否下载二维码：已失效、已销户、强制停机的卡跳过，初始状态的卡不支持',
    en: 'Whether the chosen cards get a QR code: invalidated, retired and frozen cards are skipped, start-state cards unsupported',
  },
  body: Obj({ ...PageParams, iccids: Type.Array(Iccid, { minItems: 1, maxItems: CARD_SELECTION_MAX }) }),
  response: Type.Composite([Page(QrCardRow), Type.Object({ included: Type.Integer(), skipped: Type.Integer() })]),
});

export const exportQrCodes = endpoint({
  name: 'core/sim/simDetails/downloadQrCodes', method: 'POST', auth: 'session', perm: [P.CardList], kind: 'mutation', tag,
  summary: {
    zh: '下载所选卡的二维码（下载任务：PNG 图片的 zip 包，跳过的卡列在 skipped.csv 中）',
    en: 'Download QR codes of the chosen cards (a download task: a zip of PNG images; skipped cards are listed in skipped.csv)',
  },
  body: Obj({ iccids: Type.Array(Iccid, { minItems: 1, maxItems: CARD_SELECTION_MAX }) }),
  response: Type.Object({
    taskId: Type.String(),
    included: Type.Integer(),
    skipped: Type.Integer(),
    /** the spec's message when cards were skipped */
    skippedMessage: Nullable(Type.String()),
  }),
});
