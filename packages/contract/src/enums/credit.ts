import { defineEnum } from './define.ts';

/**
 * Credit orders (Financial › Credit, issue 13, docs/decisions.md "Credit orders"). A customer with valid credit may
 * spend below zero: its pre-deposit may fall to minus the sum of its valid credit orders.
 */
export const CreditType = defineEnum({
  /** runs until reset */
  Fixed: { value: 1, zh: '固定授信', en: 'Fixed' },
  /** valid through the last day of its validity, expired the day after */
  Provisional: { value: 2, zh: '临时授信', en: 'Provisional' },
});
export type CreditType = (typeof CreditType.values)[number];

/** A credit order's state, computed from its dates and its reset (never stored). */
export const CreditStatus = defineEnum({
  Valid: { value: 1, zh: '生效中', en: 'Valid' },
  Expired: { value: 2, zh: '已过期', en: 'Expired' },
  Reset: { value: 3, zh: '已重置', en: 'Reset' },
});
export type CreditStatus = (typeof CreditStatus.values)[number];

/** The unit of the repayment term ("payment time and unit"): what is spent on credit is due within the term. */
export const CreditPaymentUnit = defineEnum({
  Day: { value: 1, zh: '天', en: 'days' },
  Month: { value: 2, zh: '个月', en: 'months' },
});
export type CreditPaymentUnit = (typeof CreditPaymentUnit.values)[number];

/** The longest repayment term in each unit. */
export const CREDIT_TERM_MAX = { [CreditPaymentUnit.Day]: 365, [CreditPaymentUnit.Month]: 12 } as const;
/** A provisional credit is valid at most this many days from today (its last day included). */
export const CREDIT_PROVISIONAL_DAYS_MAX = 366;
/** The largest credit order, in CNY. */
export const CREDIT_AMOUNT_MAX = 100_000_000;
export const CREDIT_REASON_MAX = 200;

/** The credit ranges of spec §9 as filter buckets over an order's amount (CNY): lower bound inclusive, upper exclusive. */
export const CreditRange = defineEnum({
  Below1000: { value: 1, zh: '1000 以下', en: 'Under 1,000' },
  To3000: { value: 2, zh: '1000–3000', en: '1,000–3,000' },
  To5000: { value: 3, zh: '3000–5000', en: '3,000–5,000' },
  To10000: { value: 4, zh: '5000–10000', en: '5,000–10,000' },
  From10000: { value: 5, zh: '10000 及以上', en: '10,000 or more' },
});
export type CreditRange = (typeof CreditRange.values)[number];
/** [from, to) in CNY of each range; null: unbounded. */
export const CREDIT_RANGE_BOUNDS: Record<CreditRange, [number | null, number | null]> = {
  [CreditRange.Below1000]: [null, 1000],
  [CreditRange.To3000]: [1000, 3000],
  [CreditRange.To5000]: [3000, 5000],
  [CreditRange.To10000]: [5000, 10000],
  [CreditRange.From10000]: [10000, null],
};

/** What a change-log row records. */
export const CreditChangeAction = defineEnum({
  Create: { value: 1, zh: '新建', en: 'Created' },
  Edit: { value: 2, zh: '修改', en: 'Edited' },
  Reset: { value: 3, zh: '重置', en: 'Reset' },
  Expire: { value: 4, zh: '到期失效', en: 'Expired' },
});
export type CreditChangeAction = (typeof CreditChangeAction.values)[number];
