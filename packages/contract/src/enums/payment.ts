import { defineEnum } from './define.ts';

/**
 * Top-ups and payments (issue 13, spec §9 payment channels, §4 payment states; docs/payments.md).
 */

/** How a top-up was paid (spec §9). Online top-ups go through a PaymentGateway (the simulator by default). */
export const PayChannel = defineEnum({
  Alipay: { value: 1, zh: '支付宝', en: 'Alipay' },
  WeChat: { value: 2, zh: '微信支付', en: 'WeChat Pay' },
  Offline: { value: 3, zh: '线下', en: 'Offline' },
  Public: { value: 4, zh: '对公充值', en: 'Public transfer' },
  Online: { value: 5, zh: '在线支付', en: 'Online' },
});
export type PayChannel = (typeof PayChannel.values)[number];

/**
 * A top-up's payment state (spec §4). "Confirmed" always means the amount is credited to the pre-deposit: an
 * online top-up moves there when its channel reports it paid; a public transfer is "paid" (entered, waiting for
 * finance) until finance approves it, and "closed" when finance rejects it. An unpaid online order is "closed" at
 * its expiry (or by its customer) and "failed" when its channel reports the payment failed.
 */
export const PayState = defineEnum({
  Unpaid: { value: 1, zh: '待支付', en: 'Unpaid' },
  Paid: { value: 2, zh: '已支付（待确认）', en: 'Paid (to be confirmed)' },
  Confirmed: { value: 3, zh: '已到账', en: 'Confirmed' },
  Closed: { value: 4, zh: '已关闭', en: 'Closed' },
  Failed: { value: 5, zh: '支付失败', en: 'Failed' },
});
export type PayState = (typeof PayState.values)[number];

/** Finance review of a public transfer (spec: 0 submitted, 1 passed, 2 rejected). */
export const RechargeAuditState = defineEnum({
  Submitted: { value: 0, zh: '待审核', en: 'Submitted' },
  Passed: { value: 1, zh: '审核通过', en: 'Approved' },
  Rejected: { value: 2, zh: '审核驳回', en: 'Rejected' },
});
export type RechargeAuditState = (typeof RechargeAuditState.values)[number];

/**
 * Payment gateway adapters (like the carrier adapters, GATEWAY_ADAPTERS): the built-in simulator is installed;
 * Alipay and WeChat Pay are listed as not installed until an adapter is added in apps/server/src/payments/registry.ts.
 */
export const PAYMENT_ADAPTERS = [
  { code: 'simulator', channel: PayChannel.Online, available: true, zh: '支付模拟器', en: 'Payment simulator' },
  { code: 'alipay', channel: PayChannel.Alipay, available: false, zh: '支付宝', en: 'Alipay' },
  { code: 'wechat', channel: PayChannel.WeChat, available: false, zh: '微信支付', en: 'WeChat Pay' },
] as const;
export type PaymentAdapterCode = (typeof PAYMENT_ADAPTERS)[number]['code'];

/** Rules of top-ups (spec §5 notes 20/40/500 characters, §9 two working days). */
export const RECHARGE_RULES = {
  /** the largest single top-up, yuan */
  maxAmount: '10000000.00',
  /** a top-up's note */
  noteMax: 500,
  /** a review's or a refund's reason */
  reasonMax: 40,
  /** a bank serial number: letters, digits and '-' */
  serialMax: 40,
  /** working days finance has to review a public transfer */
  reviewWorkingDays: 2,
  /** minutes an online payment order stays open */
  payExpireMinutes: 30,
} as const;
