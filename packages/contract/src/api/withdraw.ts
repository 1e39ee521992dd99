import { Type } from '@sinclair/typebox';
import { endpoint, ExportTaskCreated, MoneyInput, MoneyText, Nothing, Nullable, Obj, Page, PageParams } from './endpoint.ts';
import { Perm } from '../permissions.ts';

/**
 * Business › Withdrawals (issue 13; spec §2 /business/withdraw/list, code 8050000 with 8050001 review, 8050002 pay
 * out, 8050003 export; §7 withdraw calls apply, list, export, info, check; §8/§9 rules) and the working-day calendar
 * (holidays and make-up working days; read by every money screen that shows a working-day date, edited by staff).
 *
 * A customer applies for at most its withdrawable balance (pre-deposit only; grants never), one withdrawal at a time;
 * the amount is held at once. Finance approves or rejects it (a rejection releases the hold); the payout run on the
 * 10th of each month (or one finance starts by hand) pays every approved withdrawal to the customer's bank account,
 * and the money arrives about 10 days later. Staff see every withdrawal, a first-level customer its tree's, a
 * second-level customer its own. A customer never reviews or pays out a withdrawal.
 */
const tag = 'withdraw';
const P = {
  Page: Perm.BusinessWithdraw,
  Home: Perm.HomeTileWithdraw,
  Review: Perm.BusinessWithdrawAudit,
  Pay: Perm.BusinessWithdrawPay,
  Export: Perm.BusinessWithdrawExport,
} as const;
export const WithdrawPerm = P;
const Day = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' });

export const WITHDRAW_REMARK_MAX = 200;
export const WITHDRAW_REASON_MAX = 200;
export const CALENDAR_NAME_MAX = 50;

export const Withdrawal = Type.Object({
  withdrawId: Type.Integer(),
  withdrawNo: Type.String(),
  custId: Type.Integer(),
  custName: Type.String(),
  amount: MoneyText,
  accountName: Type.String(),
  bankName: Type.String(),
  bankAccount: Type.String(),
  /** WithdrawState */
  state: Type.Integer(),
  remark: Nullable(Type.String()),
  appliedBy: Type.String(),
  appliedAt: Type.String(),
  /** the payout run that should pay it (a 10th) */
  expectedRunDay: Type.String(),
  /** when the money should arrive (about 10 days after the run, on a working day) */
  expectedArrivalDay: Type.String(),
  reviewedBy: Nullable(Type.String()),
  reviewedAt: Nullable(Type.String()),
  reviewReason: Nullable(Type.String()),
  runId: Nullable(Type.Integer()),
  paidAt: Nullable(Type.String()),
  paidBy: Nullable(Type.String()),
  /** payout attempts made by runs (reset when finance retries the payout) */
  payoutAttempts: Type.Integer(),
  /** why the last payout attempt failed */
  payoutError: Nullable(Type.String()),
  /** when it became WithdrawState.PayoutFailed (after WITHDRAW_PAYOUT_MAX_ATTEMPTS failed attempts) */
  payoutFailedAt: Nullable(Type.String()),
});

export const WithdrawFilters = {
  state: Type.Optional(Type.Integer({ minimum: 1, maximum: 5 })),
  /** staff and first-level customers: one customer (of those they see) */
  custId: Type.Optional(Type.Integer({ minimum: 1 })),
  custName: Type.Optional(Type.String({ maxLength: 100 })),
  withdrawNo: Type.Optional(Type.String({ maxLength: 40 })),
  /** applied on or after this business day */
  startDate: Type.Optional(Day),
  /** applied on or before this business day */
  endDate: Type.Optional(Day),
};

export const getWithdrawListPage = endpoint({
  name: 'core/finance/withdraw/getWithdrawListPage', method: 'POST', auth: 'session', perm: [P.Page, P.Home], kind: 'query', tag,
  summary: { zh: '提现列表', en: 'Withdrawals' },
  body: Obj({ ...PageParams, ...WithdrawFilters }),
  response: Page(Withdrawal),
});

export const exportWithdraws = endpoint({
  name: 'core/finance/withdraw/exportWithdraws', method: 'POST', auth: 'session', perm: [P.Export], kind: 'mutation', tag,
  summary: { zh: '导出提现列表', en: 'Export withdrawals' },
  body: Obj({ ...WithdrawFilters, format: Type.Optional(Type.Integer()) }),
  response: ExportTaskCreated,
});

export const getWithdrawInfo = endpoint({
  name: 'core/finance/withdraw/getWithdrawInfo', method: 'POST', auth: 'session', perm: [P.Page, P.Home], kind: 'query', tag,
  summary: { zh: '提现详情', en: 'A withdrawal' },
  body: Obj({ withdrawId: Type.Integer({ minimum: 1 }) }),
  response: Withdrawal,
});

/** What the apply dialog shows: the caller's withdrawable balance, payee and the dates a new application would get. */
export const getWithdrawApplyInfo = endpoint({
  name: 'core/finance/withdraw/getApplyInfo', method: 'POST', auth: 'session', perm: [P.Page, P.Home], kind: 'query', tag,
  summary: { zh: '提现申请信息（可提现余额、收款账户、预计到账日）', en: 'Before applying: withdrawable balance, payee, expected dates' },
  body: Obj({}),
  response: Type.Object({
    custId: Type.Integer(),
    custName: Type.String(),
    withdrawable: MoneyText,
    preDeposit: MoneyText,
    grants: MoneyText,
    withdrawHold: MoneyText,
    accountName: Type.String(),
    bankName: Nullable(Type.String()),
    bankAccount: Nullable(Type.String()),
    expectedRunDay: Type.String(),
    expectedArrivalDay: Type.String(),
    /** the withdrawal in progress, if any (no new one can be started) */
    inProgress: Nullable(Withdrawal),
  }),
});

export const applyWithdraw = endpoint({
  name: 'core/finance/withdraw/apply', method: 'POST', auth: 'session', perm: [P.Page, P.Home], kind: 'mutation', tag,
  summary: { zh: '申请提现（金额立即冻结）', en: 'Apply for a withdrawal (the amount is held at once)' },
  body: Obj({
    amount: MoneyInput,
    remark: Type.Optional(Type.String({ maxLength: WITHDRAW_REMARK_MAX })),
  }),
  response: Withdrawal,
});

export const checkWithdraw = endpoint({
  name: 'core/finance/withdraw/check', method: 'POST', auth: 'session', perm: [P.Review], kind: 'mutation', tag,
  summary: { zh: '审核提现（通过或驳回，驳回时解冻；打款失败的也可驳回）', en: 'Review a withdrawal (approve, or reject and release the hold; a failed payout can be rejected too)' },
  body: Obj({
    withdrawId: Type.Integer({ minimum: 1 }),
    approve: Type.Boolean(),
    /** required when rejecting */
    reason: Type.Optional(Type.String({ maxLength: WITHDRAW_REASON_MAX })),
  }),
  response: Withdrawal,
});

export const WithdrawRun = Type.Object({
  runId: Type.Integer(),
  /** WithdrawRunTrigger */
  trigger: Type.Integer(),
  /** WithdrawRunState */
  state: Type.Integer(),
  itemCount: Type.Integer(),
  paidCount: Type.Integer(),
  /** withdrawals the run left payout failed (when it finished) */
  failedCount: Type.Integer(),
  startedBy: Type.String(),
  startedAt: Type.String(),
  finishedAt: Nullable(Type.String()),
});

export const runWithdrawPayouts = endpoint({
  name: 'core/finance/withdraw/runPayouts', method: 'POST', auth: 'session', perm: [P.Pay], kind: 'mutation', tag,
  summary: { zh: '发起打款：支付所有已审核的提现', en: 'Start a payout run: pay every approved withdrawal' },
  body: Obj({}),
  response: WithdrawRun,
});

/**
 * Finance retries the payout of a withdrawal whose payout failed: it is approved again (its attempts reset) and paid
 * by the next payout run (the 10th's, or one started by hand). Staff only; the money stayed held meanwhile. To give
 * the money back instead, reject it (checkWithdraw with approve false releases the hold).
 */
export const retryWithdrawPayout = endpoint({
  name: 'core/finance/withdraw/retryPayout', method: 'POST', auth: 'session', perm: [P.Pay], kind: 'mutation', tag,
  summary: { zh: '重新打款：打款失败的提现回到待打款，由下一次打款批次支付', en: 'Retry a failed payout: approved again, paid by the next payout run' },
  body: Obj({ withdrawId: Type.Integer({ minimum: 1 }) }),
  response: Withdrawal,
});

export const getWithdrawRuns = endpoint({
  name: 'core/finance/withdraw/getRunPage', method: 'POST', auth: 'session', perm: [P.Pay], kind: 'query', tag,
  summary: { zh: '打款批次', en: 'Payout runs' },
  body: Obj({ ...PageParams }),
  response: Page(WithdrawRun),
});

/* ---- the working-day calendar ---- */

export const CalendarDay = Type.Object({
  day: Type.String(),
  /** CalendarDayType */
  kind: Type.Integer(),
  name: Type.String(),
  nameEn: Nullable(Type.String()),
  /** statutory dates shipped before the year's arrangement was published */
  provisional: Type.Boolean(),
  updatedBy: Nullable(Type.String()),
  updatedAt: Type.String(),
});

export const getCalendarDays = endpoint({
  name: 'core/finance/workday/getCalendarDays', method: 'POST', auth: 'session',
  perm: [P.Page, Perm.BusinessRecharge], kind: 'query', tag,
  summary: { zh: '工作日历：节假日与调休上班日', en: 'Working-day calendar: holidays and make-up working days' },
  body: Obj({ year: Type.Integer({ minimum: 2000, maximum: 2100 }) }),
  response: Type.Array(CalendarDay),
});

const CalendarBody = {
  day: Day,
  kind: Type.Integer({ minimum: 1, maximum: 2 }),
  name: Type.String({ minLength: 1, maxLength: CALENDAR_NAME_MAX }),
  nameEn: Type.Optional(Type.String({ maxLength: CALENDAR_NAME_MAX })),
};

export const addCalendarDay = endpoint({
  name: 'core/finance/workday/add', method: 'POST', auth: 'session', perm: [P.Review, Perm.BusinessRechargeAudit], kind: 'mutation', tag,
  summary: { zh: '添加节假日或调休上班日（仅平台人员）', en: 'Add a holiday or make-up working day (staff only)' },
  body: Obj(CalendarBody),
  response: CalendarDay,
});

export const updateCalendarDay = endpoint({
  name: 'core/finance/workday/update', method: 'POST', auth: 'session', perm: [P.Review, Perm.BusinessRechargeAudit], kind: 'mutation', tag,
  summary: { zh: '修改节假日或调休上班日（仅平台人员）', en: 'Edit a holiday or make-up working day (staff only)' },
  body: Obj(CalendarBody),
  response: CalendarDay,
});

export const deleteCalendarDay = endpoint({
  name: 'core/finance/workday/delete', method: 'POST', auth: 'session', perm: [P.Review, Perm.BusinessRechargeAudit], kind: 'mutation', tag,
  summary: { zh: '删除节假日或调休上班日（仅平台人员）', en: 'Delete a holiday or make-up working day (staff only)' },
  body: Obj({ day: Day }),
  response: Nothing,
});
