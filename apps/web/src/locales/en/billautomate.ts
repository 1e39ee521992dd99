import type zh from '../zh/billautomate.ts';
import type { Messages } from '../types.ts';

const en: Messages<typeof zh> = {
  title: 'Automated ledger rules',
  execTitle: 'Executions',
  allExecTitle: 'All executions',
  intro: 'One rule per customer: on its day of the month ({{tz}}) it publishes the customer\'s bill of the last closed period (last month) and writes it off from grants, then pre-deposit (never credit). A bill not run yet is retried every hour until next month\'s day; too little money is recorded and left for a manual write-off under Financial › Write-off. Each rule acts once per period.',
  introCustomer: 'Rules platform finance set for your company: on the day each month your last month\'s bill is published and written off (grants first, then pre-deposit; credit is never used). You can switch a rule on or off; while it is off, write bills off under Financial › Write-off.',
  emptyHint: 'No automated ledger rules yet. Click "Add rule" to publish and write off a customer\'s bills every month.',
  emptyHintCustomer: 'Platform finance has not set an automated ledger rule for your company.',
  execEmpty: 'No executions yet: a rule acts when its day comes.',
  f: {
    customer: 'Customer', day: 'Day', actions: 'Actions', publish: 'Publish bill', writeOff: 'Write off bill', mode: 'Write-off', enabled: 'State', remark: 'Remark',
    next: 'Next run', last: 'Last run', createdBy: 'Created by', createdAt: 'Created', updatedBy: 'Last changed by', updatedAt: 'Last changed', firstPeriod: 'First period',
    period: 'Period', dueDay: 'Day due', state: 'Outcome', bill: 'Bill', publishResult: 'Publish', writeOffResult: 'Write-off', amount: 'Written off',
    arrears: 'Due then', payable: 'Available then', journal: 'Journal', attempts: 'Attempts', lastTried: 'Last tried', finished: 'Finished', reason: 'Note',
  },
  dayOfMonth: 'Day {{day}} of each month',
  nextAt: '{{day}} (period {{period}})',
  retrying: 'Retried every hour from {{day}} (period {{period}})',
  forPeriod: 'Period {{period}}',
  help: {
    day: 'The day of the month it runs (1–28, a day every month has), in the platform\'s time zone. From that day on it checks every hour.',
    actions: 'Publish: the last period\'s bill, once its run is done and while it is unpublished. Write off: a published bill with money due, from grants, then pre-deposit; credit is never used.',
    mode: 'Whole amount only: writes off only when the balance covers everything due, else leaves it for a person. As much as the balance allows: writes off what there is and leaves the rest for a person.',
    next: 'A rule added, given a new day or switched on again acts from the next time its day comes; it never catches up a day already past.',
    state: 'Waiting: the bill is not run (or not published) yet; tried every hour, given up on next month\'s day. Needs attention: too little money, or an action failed. Skipped: no bill for the period, or it never became ready.',
  },
  action: {
    add: 'Add rule', edit: 'Edit', delete: 'Delete', detail: 'Detail', on: 'Switch on', off: 'Switch off', allExecs: 'All executions',
  },
  form: {
    addTitle: 'Add an automated ledger rule',
    editTitle: 'Edit the automated ledger rule',
    customer: 'Customer',
    customerRequired: 'Choose a customer',
    day: 'Day of the month',
    dayInvalid: 'Enter a whole number from 1 to 28 (a day every month has)',
    actions: 'Actions',
    actionsRequired: 'Choose at least one action: publish the bill or write it off',
    mode: 'Write-off',
    enabled: 'Switch on when saved',
    remark: 'Remark',
  },
  confirm: {
    onTitle: 'Switch the rule on?',
    onContent: 'From {{day}} on, the bills of "{{cust}}" are handled automatically.',
    offTitle: 'Switch the rule off?',
    offContent: 'The bills of "{{cust}}" will no longer be published and written off automatically; a person has to do it.',
    deleteTitle: 'Delete the rule?',
    deleteContent: 'Deletes the automated ledger rule of "{{cust}}". Its executions stay in the history.',
  },
  done: { on: 'The rule is on', off: 'The rule is off', deleted: 'The rule is deleted' },
  deletedRule: 'Rule deleted',
  amountOf: '{{amount}} CNY',
  shortOf: '{{arrears}} CNY due, {{payable}} CNY available',
};
export default en;
