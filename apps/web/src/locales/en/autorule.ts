import type zh from '../zh/autorule.ts';
import type { Messages } from '../types.ts';

const en: Messages<typeof zh> = {
  title: 'Automation rules',
  intro: 'A rule watches the cards in its scope: a card that meets its condition is recorded once per rule (threshold rules once per cycle), the rule\'s action is applied and its notifications are sent. Every rule is scanned on the 5th, 15th and 25th of each month; data, pool, SMS, session and change rules are also checked right after each usage sync. Cards on plans whose prepaid cycle is under 10 days take no part.',
  emptyHint: 'No automation rules yet. Click "Add rule" to create one, then publish it to put it to work.',
  f: {
    name: 'Rule name', type: 'Rule type', level: 'Level', condition: 'Condition', action: 'Action', channels: 'Notify by', contacts: 'Contacts', phones: 'Phones', emails: 'E-mails',
    scope: 'Scope', status: 'Status', enabled: 'On/off', remark: 'Remark', triggered: 'Cards triggered', lastTriggered: 'Last triggered', owner: 'Customer',
    createdAt: 'Created', updatedAt: 'Last changed', threshold: 'Threshold', states: 'Target states', targetState: 'Change to', targetPlan: 'Target plan',
    scopeCust: 'Customer', scopeOperator: 'Operator', scopePlan: 'Plan', publishedAt: 'Published',
  },
  conditionText: {
    1: 'Contract ends within {{n}} days', 2: 'Cycle data ≥ {{n}}% of the quota', 3: 'Pool usage ≥ {{n}}%', 4: 'No session for {{n}} hours', 5: 'IMEI changed',
    6: 'State changed to {{states}}', 7: 'Plan changed', 8: 'More than {{n}} SMS in the cycle',
  },
  anyState: 'any state',
  allCards: 'All cards in view',
  platformRule: 'Platform rule',
  noChannel: 'No notification',
  action: {
    add: 'Add rule', edit: 'Edit', delete: 'Delete', detail: 'Detail', publish: 'Publish', on: 'Switch on', off: 'Switch off', dryRun: 'Dry run', records: 'Trigger records',
  },
  confirm: {
    deleteTitle: 'Delete the rule?', deleteContent: 'A deleted rule no longer runs; its trigger records are kept.',
    publishTitle: 'Publish the rule?', publishContent: 'Publishing switches the rule on; it acts on the cards in its scope from the next check.',
    onTitle: 'Switch the rule on?', offTitle: 'Switch the rule off?', onContent: 'It acts from the next check.', offContent: 'It is not checked until switched on again.',
  },
  done: { saved: 'Rule saved', deleted: 'Rule deleted', published: 'Rule published and switched on', on: 'Rule switched on', off: 'Rule switched off' },
  form: {
    addTitle: 'Add an automation rule', editTitle: 'Edit the automation rule', nameRequired: 'Enter a rule name', thresholdRequired: 'Enter a whole number from {{min}} to {{max}}',
    required: 'Please select or enter', contactsHelp: 'Separate several with ";", at most 5, no spaces',
    thresholdUnit: { 1: 'days', 2: '%', 3: '%', 4: 'hours', 8: 'SMS' },
  },
  detail: {
    title: 'Rule detail', runs: 'Runs', dryRunTitle: 'Dry run (last 30 days)',
    dryRunHelp: 'Had this rule been on during the last 30 days, which cards would have triggered, on which days — from the stored daily usage and card history. Nothing is recorded or sent.',
    dryRunResult: '{{from}} to {{to}}: {{cards}} cards would have triggered', dryRunTruncated: 'Only the first 500 are listed',
    day: 'Day', cards: 'Cards', value: 'Measured',
  },
  run: { kind: 'Kind', state: 'State', asOf: 'Checked at', cards: 'Triggered', startedAt: 'Started', finishedAt: 'Finished', error: 'Error' },
  alarm: {
    title: 'Trigger records', intro: 'Each record is the cards one rule triggered in one check.', emptyHint: 'No trigger records yet: once a rule is published and on, the cards that meet it appear here.',
    rule: 'Rule', runKind: 'Source', cards: 'Cards', actionsDone: 'Actions done', actionsRefused: 'Actions refused', triggeredAt: 'Triggered', range: 'Triggered on',
    detailTitle: 'Trigger record', cardsTitle: 'Cards triggered', deliveries: 'Notifications', executeTitle: 'Execution detail',
    iccid: 'ICCID', msisdn: 'MSISDN', customer: 'Customer', value: 'Measured', actionResult: 'Action result', actionError: 'Reason', period: 'Recorded for',
    cardNotices: 'Notifications', channel: 'Channel', state: 'State', attempts: 'Attempts', lastError: 'Last error', createdAt: 'Created', sentAt: 'Handed over',
  },
  webhook: {
    intro: 'One notification per triggered card and channel. Once a webhook notification is handed to the delivery service, the Webhook delivery column shows whether it arrived; a failed one shows every attempt and can be replayed.',
    empty: 'This trigger record has no notifications: the rule has no channel.',
    delivery: 'Webhook delivery', viewAttempts: 'Attempts', replay: 'Replay', tries: 'attempts {{n}}',
    title: 'Webhook delivery #{{id}}', loadFailed: 'The delivery could not be loaded; try again', state: 'Delivery state', event: 'Event', eventId: 'Event ID', customer: 'Customer',
    url: 'Callback address', attempts: 'Attempts', attemptsOf: 'Series {{series}}: {{n}} of {{max}}, {{total}} in all', createdAt: 'Event time', nextAt: 'Next attempt',
    deliveredAt: 'Delivered', deadAt: 'Gave up', lastError: 'Last error',
    deadHint: 'Every retry was used. Make sure the receiver works again, then press Replay.',
    deadHintNoPerm: 'Every retry was used. Replaying needs the Trigger records permission; ask your administrator.',
    attemptsTitle: 'Attempts (newest first)', attemptNo: 'Attempt', attemptRef: 'Series {{series}} · #{{no}}', startedAt: 'Sent', outcome: 'Outcome',
    httpStatus: 'HTTP status', latency: 'Latency', ms: '{{n}} ms', error: 'Error / receiver answer',
    noAttempts: 'No attempt yet.', noAttemptsDue: 'No attempt yet; the first is due at {{at}}.',
    replayTitle: 'Replay webhook delivery #{{id}}?',
    replayContent: "A new series of attempts starts now, to the customer's current callback address, with the same event ID (the receiver dedupes by it). Past attempts are kept.",
    replayed: 'Replayed: attempt series {{series}} has started',
  },
};
export default en;
