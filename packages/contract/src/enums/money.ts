import { defineEnum } from './define.ts';

/**
 * The accounts of the double-entry ledger (issue 13, docs/money.md). A customer's accounts (below 100) hold what the
 * platform owes it; the platform's accounts (100 and up) are the other side of every movement. Every journal's
 * postings sum to zero, so the customers' balances always equal minus the platform accounts' sum.
 */
export const LedgerAccount = defineEnum({
  PreDeposit: { value: 1, zh: '预存款', en: 'Pre-deposit' },
  Grants: { value: 2, zh: '赠送金', en: 'Grants' },
  ContractPayment: { value: 3, zh: '合同款', en: 'Contract payments' },
  WithdrawHold: { value: 4, zh: '提现冻结', en: 'Held for withdrawal' },
  PaymentClearing: { value: 101, zh: '支付渠道待清算', en: 'Payment channel clearing' },
  Bank: { value: 102, zh: '银行存款', en: 'Bank' },
  GrantExpense: { value: 103, zh: '赠送支出', en: 'Grants given' },
  Revenue: { value: 104, zh: '营业收入', en: 'Revenue' },
  Opening: { value: 105, zh: '期初余额', en: 'Opening balances' },
});
export type LedgerAccount = (typeof LedgerAccount.values)[number];
/** The customer-side accounts (the balances a customer sees). */
export const CUSTOMER_ACCOUNTS = [LedgerAccount.PreDeposit, LedgerAccount.Grants, LedgerAccount.ContractPayment, LedgerAccount.WithdrawHold] as const;

/** What a journal records (one business event: a top-up, a refund, a withdrawal step, a charge). */
export const JournalKind = defineEnum({
  Opening: { value: 1, zh: '期初余额', en: 'Opening balance' },
  Recharge: { value: 2, zh: '充值', en: 'Top-up' },
  Refund: { value: 3, zh: '退款', en: 'Refund' },
  Grant: { value: 4, zh: '赠送', en: 'Grant' },
  WithdrawHold: { value: 5, zh: '提现申请（冻结）', en: 'Withdrawal applied (held)' },
  WithdrawRelease: { value: 6, zh: '提现驳回（解冻）', en: 'Withdrawal rejected (released)' },
  WithdrawPaid: { value: 7, zh: '提现打款', en: 'Withdrawal paid out' },
  Spend: { value: 8, zh: '消费', en: 'Charge' },
  Adjust: { value: 9, zh: '调账', en: 'Adjustment' },
  WriteOff: { value: 10, zh: '核销', en: 'Write-off' },
  RefundReversal: { value: 11, zh: '退款撤销（渠道未退款）', en: 'Refund reversed (the channel did not refund)' },
});
export type JournalKind = (typeof JournalKind.values)[number];

/**
 * A top-up refund (docs/payments.md "Refunds"): its Refund journal is posted when it is recorded; an online one is
 * pending until the channel's answer is recorded, or the reconciliation job asks the channel. Failed: the channel
 * refused it or never took it; its journal was reversed (JournalKind.RefundReversal).
 */
export const RefundState = defineEnum({
  Pending: { value: 1, zh: '退款处理中', en: 'Refund pending' },
  Done: { value: 2, zh: '已退款', en: 'Refunded' },
  Failed: { value: 3, zh: '退款失败', en: 'Refund failed' },
});
export type RefundState = (typeof RefundState.values)[number];

/** The period of an accounting report (Financial › Accounting reports): a business day or a business month. */
export const ReportPeriod = defineEnum({
  Daily: { value: 1, zh: '日报', en: 'Daily' },
  Monthly: { value: 2, zh: '月报', en: 'Monthly' },
});
export type ReportPeriod = (typeof ReportPeriod.values)[number];
