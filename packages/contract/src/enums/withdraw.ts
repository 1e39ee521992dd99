import { defineEnum } from './define.ts';

/**
 * A withdrawal's life (issue 13, spec §4 "in progress/applying, withdrawn, rejected", docs/decisions.md): the customer
 * applies (its amount is held), finance approves or rejects it (rejecting releases the hold), and the payout run on
 * the 10th (or one started by finance) pays every approved one. Applied and approved are both "in progress".
 */
export const WithdrawState = defineEnum({
  Applied: { value: 1, zh: '申请中', en: 'Applying' },
  Approved: { value: 2, zh: '已审核待打款', en: 'Approved, awaiting payout' },
  Paid: { value: 3, zh: '已提现', en: 'Withdrawn' },
  Rejected: { value: 4, zh: '已驳回', en: 'Rejected' },
  /** the payout kept failing (WITHDRAW_PAYOUT_MAX_ATTEMPTS): the money stays held; finance retries or rejects it */
  PayoutFailed: { value: 5, zh: '打款失败', en: 'Payout failed' },
});
export type WithdrawState = (typeof WithdrawState.values)[number];
/** The states of a withdrawal still in progress (one per customer at a time). */
export const WITHDRAW_IN_PROGRESS = [WithdrawState.Applied, WithdrawState.Approved, WithdrawState.PayoutFailed] as const;
/** A withdrawal's payout is attempted at most this many times by payout runs before it is marked payout failed. */
export const WITHDRAW_PAYOUT_MAX_ATTEMPTS = 3;

/** A day of the working-day calendar that differs from "Monday–Friday work". */
export const CalendarDayType = defineEnum({
  Holiday: { value: 1, zh: '节假日', en: 'Public holiday' },
  MakeUpWorkday: { value: 2, zh: '调休上班', en: 'Make-up working day' },
});
export type CalendarDayType = (typeof CalendarDayType.values)[number];

export const WithdrawRunTrigger = defineEnum({
  Scheduled: { value: 1, zh: '每月 10 日自动打款', en: 'Monthly run on the 10th' },
  Manual: { value: 2, zh: '手动发起打款', en: 'Started by hand' },
});

export const WithdrawRunState = defineEnum({
  Running: { value: 1, zh: '打款中', en: 'Paying out' },
  Finished: { value: 2, zh: '已完成', en: 'Finished' },
});

/** The day of the month of the payout run, and the calendar days the money takes to arrive after it. */
export const WITHDRAW_RUN_DAY = 10;
export const WITHDRAW_ARRIVAL_DAYS = 10;
