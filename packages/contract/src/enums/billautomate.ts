// Enums of the automated ledger (Billing › Automated ledger, 4060000; docs/decisions.md "Issue 14: automated ledger").
import { defineEnum } from './define.ts';

/** How a rule writes off: only the whole amount due, or as much as pre-deposit + grants allow (credit never). */
export const BillAutoWriteOffMode = defineEnum({
  Full: { value: 1, zh: '仅全额核销', en: 'Whole amount only' },
  Available: { value: 2, zh: '按余额尽量核销', en: 'As much as the balance allows' },
});
export type BillAutoWriteOffMode = (typeof BillAutoWriteOffMode.values)[number];

/** A rule's switch. */
export const BillAutoSwitch = defineEnum({
  Off: { value: 0, zh: '已关闭', en: 'Off' },
  On: { value: 1, zh: '已开启', en: 'On' },
});
export type BillAutoSwitch = (typeof BillAutoSwitch.values)[number];

/** One execution of a rule for one period. */
export const BillAutoExecState = defineEnum({
  /** the bill is not run (or not published) yet: tried again every hour until the next period's day */
  Waiting: { value: 1, zh: '等待中', en: 'Waiting' },
  Done: { value: 2, zh: '已完成', en: 'Done' },
  /** something is left to a person: insufficient balance, an action that failed */
  Attention: { value: 3, zh: '需人工处理', en: 'Needs attention' },
  /** nothing to do (no bill for the period) or given up (the bill never became ready) */
  Skipped: { value: 4, zh: '已跳过', en: 'Skipped' },
});
export type BillAutoExecState = (typeof BillAutoExecState.values)[number];

/** What one action (publish, write off) of an execution came to. */
export const BillAutoActionResult = defineEnum({
  NotAsked: { value: 0, zh: '未设置', en: 'Not set' },
  Done: { value: 1, zh: '已执行', en: 'Done' },
  AlreadyDone: { value: 2, zh: '无需执行', en: 'Already done' },
  Waiting: { value: 3, zh: '等待中', en: 'Waiting' },
  Skipped: { value: 4, zh: '已跳过', en: 'Skipped' },
  Failed: { value: 5, zh: '失败', en: 'Failed' },
});
export type BillAutoActionResult = (typeof BillAutoActionResult.values)[number];

/** Why an action waited, was skipped or did less than the whole. */
export const BillAutoReason = defineEnum({
  BillNotRun: { value: 1, zh: '账单尚未出账完成', en: 'The bill has not been run yet' },
  NoBill: { value: 2, zh: '该账期没有账单', en: 'No bill for this period' },
  NotPublished: { value: 3, zh: '账单尚未发布', en: 'The bill is not published' },
  InsufficientBalance: { value: 4, zh: '预存款与赠送金不足', en: 'Pre-deposit plus grants fall short' },
  NothingDue: { value: 5, zh: '账单已无待核销金额', en: 'Nothing left to write off' },
  PeriodPassed: { value: 6, zh: '账单一直未就绪，已放弃', en: 'Given up: the bill never became ready' },
  Error: { value: 7, zh: '执行出错', en: 'An error occurred' },
});
export type BillAutoReason = (typeof BillAutoReason.values)[number];

/** A rule's day of the month: 1–28, a day every month has. */
export const BILL_AUTO_DAY_MIN = 1;
export const BILL_AUTO_DAY_MAX = 28;
export const BILL_AUTO_REMARK_MAX = 200;
