import { Type } from '@sinclair/typebox';
import { endpoint, MoneyText, Nullable, Obj, Page, PageParams } from './endpoint.ts';
import { Perm } from '../permissions.ts';
import {
  BILL_AUTO_DAY_MAX, BILL_AUTO_DAY_MIN, BILL_AUTO_REMARK_MAX, BillAutoActionResult, BillAutoExecState, BillAutoReason, BillAutoSwitch,
  BillAutoWriteOffMode,
} from '../enums/billautomate.ts';
import { PeriodKey } from './bill.ts';

/**
 * Billing › Automated ledger (issue 14; spec §2 /billing/billAutomateLedger/list, /billing/billAutomateLedger/detail/
 * :automateLeId?; code 4060000 with 4060001 add, 4060002 edit, 4060003 delete, 4060004 switch).
 *
 * One rule per customer: on its day of the month (1–28, business time) it publishes the customer's bill of the last
 * closed period (the period named by the previous month) once the bill run is done, and writes it off from grants
 * then pre-deposit (never credit): the whole amount due, or as much as the balance allows. Each rule × period is
 * executed once and recorded with the outcome of each action (docs/decisions.md "Issue 14: automated ledger").
 * Platform finance adds, edits and deletes rules; a customer's finance sees its tree's rules and executions and may
 * switch them on and off (the write-off spends its money).
 */
const tag = 'billautomate';
export const BillAutoPerm = {
  Page: Perm.BillingAutoLedger,
  Add: Perm.BillingAutoLedgerAdd,
  Edit: Perm.BillingAutoLedgerEdit,
  Delete: Perm.BillingAutoLedgerDelete,
  Switch: Perm.BillingAutoLedgerSwitch,
} as const;
const P = BillAutoPerm;

const Day = Type.Integer({ minimum: BILL_AUTO_DAY_MIN, maximum: BILL_AUTO_DAY_MAX });
const Remark = Type.String({ maxLength: BILL_AUTO_REMARK_MAX });
const Flag = Type.Integer({ minimum: 0, maximum: 1 });

/** The last execution of a rule, for the list. */
export const BillAutoLastExec = Type.Object({
  execId: Type.Integer(),
  periodKey: Type.String(),
  /** BillAutoExecState */
  state: Type.Integer(),
  at: Type.String(),
});

export const BillAutoRuleRow = Type.Object({
  ruleId: Type.Integer(),
  custId: Type.Integer(),
  custName: Type.String(),
  dayOfMonth: Type.Integer(),
  /** 1: publish the bill */
  publish: Type.Integer(),
  /** 1: write the bill off */
  writeOff: Type.Integer(),
  /** BillAutoWriteOffMode */
  writeOffMode: Type.Integer(),
  /** BillAutoSwitch */
  enabled: Type.Integer(),
  remark: Nullable(Type.String()),
  /** the first period the rule acts on: the one due on or after the day it was created, changed or switched on */
  firstPeriod: Type.String(),
  /** the business day it next acts (today when due now or retrying a bill not ready), null when off */
  nextDay: Nullable(Type.String()),
  /** the period it acts on that day */
  nextPeriod: Nullable(Type.String()),
  lastExec: Nullable(BillAutoLastExec),
  createdBy: Type.String(),
  createdAt: Type.String(),
  updatedBy: Nullable(Type.String()),
  updatedAt: Type.String(),
});

export const getBillAutomateListPage = endpoint({
  name: 'core/finance/billAutomate/getBillAutomateListPage', method: 'POST', auth: 'session', perm: [P.Page], kind: 'query', tag,
  summary: { zh: '自动出账规则列表', en: 'Automated ledger rules' },
  body: Obj({
    ...PageParams,
    custId: Type.Optional(Type.Integer({ minimum: 1 })),
    custName: Type.Optional(Type.String({ maxLength: 100 })),
    /** BillAutoSwitch */
    enabled: Type.Optional(Flag),
    dayOfMonth: Type.Optional(Day),
  }),
  response: Page(BillAutoRuleRow),
});

export const getBillAutomateDetail = endpoint({
  name: 'core/finance/billAutomate/getBillAutomateDetail', method: 'POST', auth: 'session', perm: [P.Page], kind: 'query', tag,
  summary: { zh: '自动出账规则详情', en: 'An automated ledger rule' },
  body: Obj({ ruleId: Type.Integer({ minimum: 1 }) }),
  response: BillAutoRuleRow,
});

export const BillAutoExecRow = Type.Object({
  execId: Type.Integer(),
  ruleId: Type.Integer(),
  custId: Type.Integer(),
  custName: Type.String(),
  periodKey: Type.String(),
  /** the business day the execution became due */
  dueDay: Type.String(),
  /** BillAutoExecState */
  state: Type.Integer(),
  billId: Nullable(Type.Integer()),
  billNo: Nullable(Type.String()),
  /** BillAutoActionResult of publishing and of writing off */
  publishResult: Type.Integer(),
  publishReason: Nullable(Type.Integer()),
  writeOffResult: Type.Integer(),
  /** BillAutoReason */
  writeOffReason: Nullable(Type.Integer()),
  /** the amount due when it wrote off (or found too little money) */
  arrears: Nullable(MoneyText),
  /** pre-deposit above zero + grants at that moment */
  payable: Nullable(MoneyText),
  writeOffAmount: Nullable(MoneyText),
  writeOffId: Nullable(Type.Integer()),
  journalId: Nullable(Type.Integer()),
  /** what went wrong, in the reader's language */
  error: Nullable(Type.String()),
  attempts: Type.Integer(),
  firstTriedAt: Type.String(),
  lastTriedAt: Type.String(),
  finishedAt: Nullable(Type.String()),
});

/** Executions, newest first: of one rule, or (no ruleId) of every rule the caller sees. */
export const getBillAutomateExecPage = endpoint({
  name: 'core/finance/billAutomate/getBillAutomateExecPage', method: 'POST', auth: 'session', perm: [P.Page], kind: 'query', tag,
  summary: { zh: '自动出账执行记录', en: 'Automated ledger executions' },
  body: Obj({
    ...PageParams,
    ruleId: Type.Optional(Type.Integer({ minimum: 1 })),
    custId: Type.Optional(Type.Integer({ minimum: 1 })),
    periodKey: Type.Optional(PeriodKey),
    /** BillAutoExecState */
    state: Type.Optional(Type.Integer({ minimum: 1, maximum: 4 })),
  }),
  response: Page(BillAutoExecRow),
});

const RuleFields = {
  dayOfMonth: Day,
  publish: Flag,
  writeOff: Flag,
  /** BillAutoWriteOffMode (read when writeOff is 1) */
  writeOffMode: Type.Integer({ minimum: 1, maximum: 2 }),
  remark: Type.Optional(Remark),
};

/** A rule for a customer (one per customer: 20951); at least one action (20950). Staff only. */
export const addBillAutomateRule = endpoint({
  name: 'core/finance/billAutomate/addBillAutomateRule', method: 'POST', auth: 'session', perm: [P.Add], kind: 'mutation', tag,
  summary: { zh: '新增自动出账规则', en: 'Add an automated ledger rule' },
  body: Obj({ custId: Type.Integer({ minimum: 1 }), ...RuleFields, enabled: Type.Optional(Flag) }),
  response: BillAutoRuleRow,
});

/** Changes a rule's day, actions and remark (the customer stays). Staff only. */
export const editBillAutomateRule = endpoint({
  name: 'core/finance/billAutomate/editBillAutomateRule', method: 'POST', auth: 'session', perm: [P.Edit], kind: 'mutation', tag,
  summary: { zh: '编辑自动出账规则', en: 'Edit an automated ledger rule' },
  body: Obj({ ruleId: Type.Integer({ minimum: 1 }), ...RuleFields }),
  response: BillAutoRuleRow,
});

/** Deletes a rule; its executions stay in the history. Staff only. */
export const deleteBillAutomateRule = endpoint({
  name: 'core/finance/billAutomate/deleteBillAutomateRule', method: 'POST', auth: 'session', perm: [P.Delete], kind: 'mutation', tag,
  summary: { zh: '删除自动出账规则', en: 'Delete an automated ledger rule' },
  body: Obj({ ruleId: Type.Integer({ minimum: 1 }) }),
  response: Type.Null(),
});

/** Switches a rule on or off (staff, or the customer's finance for its tree's rules). Switching to the same state changes nothing. */
export const switchBillAutomateRule = endpoint({
  name: 'core/finance/billAutomate/switchBillAutomateRule', method: 'POST', auth: 'session', perm: [P.Switch], kind: 'mutation', tag,
  summary: { zh: '开启/关闭自动出账规则', en: 'Switch an automated ledger rule on or off' },
  body: Obj({ ruleId: Type.Integer({ minimum: 1 }), enabled: Flag }),
  response: BillAutoRuleRow,
});

export { BillAutoActionResult, BillAutoExecState, BillAutoReason, BillAutoSwitch, BillAutoWriteOffMode, BILL_AUTO_DAY_MAX, BILL_AUTO_DAY_MIN, BILL_AUTO_REMARK_MAX };
