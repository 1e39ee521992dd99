import { Type } from '@sinclair/typebox';
import { endpoint, ExportTaskCreated, MoneyInput, MoneyText, Nullable, Obj, Page, PageParams, SortParams } from './endpoint.ts';
import { Perm } from '../permissions.ts';
import { FILE_RULES } from '../validate/upload.ts';
import { PayChannel, PayState, RechargeAuditState, RECHARGE_RULES, PAYMENT_ADAPTERS } from '../enums/payment.ts';

/**
 * Business › Recharge (issue 13, spec §2 /business/recharge/list/:id?, code 8040000; the shortcut alias
 * /shortcuts/recharge/list and the home tile use the same calls; §7 "refund" group; docs/payments.md).
 * Online top-ups open a payment order on a PaymentGateway (the built-in simulator's cashier by default) and are
 * credited when the channel's signed notification arrives; a public (bank) transfer is entered with its serial
 * number and certificate and credited when finance approves it. Staff see every top-up, a first-level customer
 * its tree's, a second-level customer its own.
 */
const tag = 'recharge';
const P = [Perm.BusinessRecharge, Perm.HomeTileRecharge] as const;
const Day = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' });
const Id = Type.Integer({ minimum: 1 });
/** a bank serial number: letters, digits and '-' */
const Serial = Type.String({ minLength: 1, maxLength: RECHARGE_RULES.serialMax, pattern: '^[A-Za-z0-9-]+$' });

export const Recharge = Type.Object({
  rechargeId: Type.Integer(),
  rechargeNo: Type.String(),
  custId: Type.Integer(),
  custName: Nullable(Type.String()),
  /** PayChannel */
  channel: Type.Integer(),
  amount: MoneyText,
  /** what has been refunded of it so far */
  refunded: MoneyText,
  /** PayState */
  payState: Type.Integer(),
  /** RechargeAuditState; null for online top-ups (no review) */
  auditState: Nullable(Type.Integer()),
  /** a public transfer: review due (two working days after it was entered) */
  dueAt: Nullable(Type.String()),
  /** waiting for review past its due time */
  overdue: Type.Boolean(),
  serialNo: Nullable(Type.String()),
  transferDate: Nullable(Type.String()),
  hasProof: Type.Boolean(),
  note: Nullable(Type.String()),
  /** online: the payment order at the channel, the channel's trade number, the adapter */
  payOrderNo: Nullable(Type.String()),
  tradeNo: Nullable(Type.String()),
  gateway: Nullable(Type.String()),
  /** online: when the unpaid order closes */
  expiresAt: Nullable(Type.String()),
  reviewReason: Nullable(Type.String()),
  reviewedBy: Nullable(Type.String()),
  reviewedAt: Nullable(Type.String()),
  createdBy: Nullable(Type.String()),
  createdAt: Type.String(),
  paidAt: Nullable(Type.String()),
});

export const RechargeFilters = {
  channel: Type.Optional(Type.Integer({ minimum: 1, maximum: 99 })),
  payState: Type.Optional(Type.Integer({ minimum: 1, maximum: 99 })),
  auditState: Type.Optional(Type.Integer({ minimum: 0, maximum: 99 })),
  custId: Type.Optional(Id),
  custName: Type.Optional(Type.String({ maxLength: 100 })),
  serialNo: Type.Optional(Type.String({ maxLength: 64 })),
  rechargeNo: Type.Optional(Type.String({ maxLength: 64 })),
  /** only public transfers waiting for review past their due time */
  overdue: Type.Optional(Type.Boolean()),
  /** created between these business days, inclusive */
  startDate: Type.Optional(Day),
  endDate: Type.Optional(Day),
};

export const getRechargePage = endpoint({
  name: 'core/finance/refund/getRechargePage', method: 'POST', auth: 'session', perm: P, kind: 'query', tag,
  summary: { zh: '充值记录列表', en: 'Top-ups' },
  body: Obj({ ...PageParams, ...SortParams, ...RechargeFilters }),
  response: Page(Recharge),
});

export const exportRecharges = endpoint({
  name: 'core/finance/refund/exportRecharge', method: 'POST', auth: 'session', perm: [Perm.BusinessRechargeExport], kind: 'mutation', tag,
  summary: { zh: '导出充值记录', en: 'Export top-ups' },
  body: Obj({ ...RechargeFilters, format: Type.Optional(Type.Integer()) }),
  response: ExportTaskCreated,
});

export const RechargeRefund = Type.Object({
  refundId: Type.Integer(),
  refundNo: Type.String(),
  amount: MoneyText,
  reason: Type.String(),
  /** RefundState: pending until the channel's answer is recorded (or the reconciliation job asks it), then done */
  state: Type.Integer(),
  createdBy: Nullable(Type.String()),
  createdAt: Type.String(),
});

export const PaymentNotification = Type.Object({
  notificationId: Type.Integer(),
  gateway: Type.String(),
  /** what the notification said: paid / failed / … */
  state: Nullable(Type.String()),
  /** what the server did with it: credited, duplicate, late-credited, ignored, forged, amount-mismatch, unknown-order */
  outcome: Type.String(),
  receivedAt: Type.String(),
});

/** "Order select for recharge records": one top-up, its refunds and (staff) the channel's notifications. */
export const getRechargeDetail = endpoint({
  name: 'core/order/select/getRechargeDetail', method: 'POST', auth: 'session', perm: P, kind: 'query', tag,
  summary: { zh: '充值详情（含退款与支付通知）', en: 'A top-up, its refunds and payment notifications' },
  body: Obj({ rechargeId: Id }),
  response: Type.Intersect([Recharge, Type.Object({
    refundable: MoneyText,
    refunds: Type.Array(RechargeRefund),
    notifications: Type.Array(PaymentNotification),
  })]),
});

/** Payment channels an online top-up may use, and whether each is installed. */
export const getPayChannels = endpoint({
  name: 'core/finance/refund/getPayChannels', method: 'POST', auth: 'session', perm: P, kind: 'query', tag,
  summary: { zh: '在线支付渠道', en: 'Online payment channels' },
  body: Obj({}),
  response: Type.Array(Type.Object({ code: Type.String(), channel: Type.Integer(), installed: Type.Boolean(), name: Type.String() })),
});

/** "Save recharge": an online top-up; answers the payment order and its cashier page. */
export const saveRecharge = endpoint({
  name: 'core/finance/refund/saveRecharge', method: 'POST', auth: 'session', perm: [Perm.BusinessRecharge], kind: 'mutation', tag,
  summary: { zh: '在线充值：创建支付订单', en: 'Top up online: open a payment order' },
  body: Obj({
    /** staff and first-level customers may top up a customer they see; without it: the caller's own customer */
    custId: Type.Optional(Id),
    amount: MoneyInput,
    /** a payment adapter code (PAYMENT_ADAPTERS); the simulator by default */
    gateway: Type.Optional(Type.String({ maxLength: 32 })),
    note: Type.Optional(Type.String({ maxLength: RECHARGE_RULES.noteMax })),
  }),
  response: Type.Object({ rechargeId: Type.Integer(), rechargeNo: Type.String(), payOrderNo: Type.String(), cashierUrl: Type.String(), expiresAt: Type.String() }),
});

/** Closes an unpaid online order (after asking the channel: a paid one is credited instead). */
export const closeRecharge = endpoint({
  name: 'core/finance/refund/closeRecharge', method: 'POST', auth: 'session', perm: [Perm.BusinessRecharge], kind: 'mutation', tag,
  summary: { zh: '关闭未支付的在线充值订单', en: 'Close an unpaid online top-up' },
  body: Obj({ rechargeId: Id }),
  response: Type.Object({ payState: Type.Integer() }),
});

/** "Upload": the certificate of a public transfer (jpg/png/gif, strictly under 2 MB); answers its file id. */
export const uploadProof = endpoint({
  name: 'core/finance/refund/upload', method: 'POST', auth: 'session', perm: [Perm.BusinessRechargePublic], kind: 'mutation', tag,
  multipart: { file: 'proofFile', maxBytes: FILE_RULES.paymentProof.maxBytes },
  summary: { zh: '上传转账凭证（字段 proofFile，jpg/png/gif，小于 2MB）', en: 'Upload a transfer certificate (field proofFile, jpg/png/gif under 2 MB)' },
  body: Obj({}),
  response: Type.Object({ fileId: Type.String() }),
});

/** "Check serial number": whether a bank serial number was already entered (one transfer is credited once). */
export const checkSerialNumber = endpoint({
  name: 'core/finance/refund/checkSerialNumber', method: 'POST', auth: 'session', perm: [Perm.BusinessRechargePublic], kind: 'query', tag,
  summary: { zh: '校验转账流水号是否已登记', en: 'Whether a transfer serial number was already entered' },
  body: Obj({ serialNo: Serial }),
  response: Type.Object({ used: Type.Boolean() }),
});

/** "Offline pay": a public (bank) transfer, waiting for finance's review. */
export const savePublicRecharge = endpoint({
  name: 'core/finance/refund/offlinePay', method: 'POST', auth: 'session', perm: [Perm.BusinessRechargePublic], kind: 'mutation', tag,
  summary: { zh: '对公充值：登记转账，等待财务审核', en: 'Public top-up: enter a bank transfer for finance to review' },
  body: Obj({
    custId: Type.Optional(Id),
    amount: MoneyInput,
    serialNo: Serial,
    transferDate: Day,
    /** the certificate uploaded with core/finance/refund/upload */
    proofFileId: Type.String({ format: 'uuid', maxLength: 36 }),
    note: Type.Optional(Type.String({ maxLength: RECHARGE_RULES.noteMax })),
  }),
  response: Type.Object({ rechargeId: Type.Integer(), rechargeNo: Type.String(), dueAt: Type.String() }),
});

/** "Check": finance approves (credits the pre-deposit) or rejects (with a reason) a public transfer. */
export const reviewRecharge = endpoint({
  name: 'core/finance/refund/check', method: 'POST', auth: 'session', perm: [Perm.BusinessRechargeAudit], kind: 'mutation', tag,
  summary: { zh: '审核对公充值', en: 'Review a public top-up' },
  body: Obj({
    rechargeId: Id,
    approve: Type.Boolean(),
    /** required when rejecting */
    reason: Type.Optional(Type.String({ maxLength: RECHARGE_RULES.reasonMax })),
  }),
  response: Type.Object({ payState: Type.Integer(), auditState: Type.Integer() }),
});

/** "Rebate": refunds part or all of a confirmed top-up (not more than is left of it, nor than the pre-deposit). */
export const refundRecharge = endpoint({
  name: 'core/finance/refund/rebate', method: 'POST', auth: 'session', perm: [Perm.BusinessRechargeRefund], kind: 'mutation', tag,
  summary: { zh: '充值退款', en: 'Refund a top-up' },
  body: Obj({ rechargeId: Id, amount: MoneyInput, reason: Type.String({ minLength: 1, maxLength: RECHARGE_RULES.reasonMax }) }),
  response: Type.Object({ refundId: Type.Integer(), refundNo: Type.String(), refundable: MoneyText }),
});

/** The certificate of a public transfer (download). */
export const downloadProof = endpoint({
  name: 'core/finance/refund/downloadProof', method: 'GET', auth: 'session', perm: [Perm.BusinessRechargeDownload], kind: 'query', tag, raw: true,
  summary: { zh: '下载转账凭证', en: 'Download a transfer certificate' },
  // a query string is text: the top-up's id as digits
  body: Obj({ rechargeId: Type.String({ pattern: '^[1-9][0-9]{0,8}$' }) }),
  response: Type.Any(),
});

/**
 * Public transfers waiting for review and how many are past their due time: finance's reminder (the list's banner
 * and, for reviewers, the header's badge). Counted in the caller's scope like the list: staff all, a customer only
 * its own or its tree's.
 */
export const getReviewSummary = endpoint({
  name: 'core/finance/refund/getReviewSummary', method: 'POST', auth: 'session', perm: P, kind: 'query', tag,
  summary: { zh: '待审核对公充值与超期数量', en: 'Public top-ups waiting for review, and how many are overdue' },
  body: Obj({}),
  response: Type.Object({
    pending: Type.Integer(),
    /** of them, past their due time */
    overdue: Type.Integer(),
    /** the earliest due time not yet passed; null when none is left (nothing pending, or all overdue) */
    nextDueAt: Nullable(Type.String()),
  }),
});

/**
 * The payment simulator's notification (public: the channel calls it without a session). Signed with the
 * simulator's key (HMAC-SHA256 over the other fields, sorted, as k=v joined by '&'). Idempotent.
 */
export const simulatorNotify = endpoint({
  name: 'core/finance/refund/notify/simulator', method: 'POST', auth: 'public', perm: null, kind: 'mutation', tag,
  summary: { zh: '支付模拟器的支付结果通知', en: 'The payment simulator\'s payment notification' },
  body: Obj({
    notifyId: Type.String({ minLength: 1, maxLength: 64 }),
    payOrderNo: Type.String({ minLength: 1, maxLength: 64 }),
    tradeNo: Type.String({ maxLength: 64 }),
    state: Type.Union([Type.Literal('paid'), Type.Literal('failed'), Type.Literal('closed')]),
    amount: MoneyText,
    timestamp: Type.String({ maxLength: 40 }),
    sign: Type.String({ maxLength: 128 }),
  }),
  response: Type.Object({ outcome: Type.String() }),
});

export { PayChannel, PayState, RechargeAuditState, RECHARGE_RULES, PAYMENT_ADAPTERS };
