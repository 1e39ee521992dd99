import type zh from '../zh/carddetail.ts';
import type { Messages } from '../types.ts';

const en: Messages<typeof zh> = {
  title: 'Card detail',
  back: 'Back to the card list',
  tabs: { basic: 'Basic info', history: 'Lifecycle and history', plan: 'Plan and cycles', usage: 'Usage and sessions', policy: 'Communication policy', sms: 'SMS', billing: 'Billing' },
  f: {
    iccid: 'ICCID', msisdn: 'MSISDN', imsi: 'IMSI', imei: 'IMEI', state: 'State', operator: 'Operator', customer: 'Customer', rootCustomer: 'First-level customer',
    cardType: 'Card type', labels: 'Labels', custom1: 'Custom field 1', custom2: 'Custom field 2', online: 'Online status', lastSessionAt: 'Last session',
    batch: 'Batch', activatedAt: 'Activated', firstUsedAt: 'First used', testEndAt: 'Test period ends', silentEndAt: 'Inventory period ends', renewalMode: 'Renewal mode',
    operationMode: 'Operation mode', euicc: 'eUICC', eid: 'EID', createdAt: 'Added', updatedAt: 'Updated',
  },
  stock: 'Platform stock',
  yes: 'Yes',
  no: 'No',
  online: 'Online',
  offline: 'Offline',
  none: 'None',
  history: {
    at: 'Time', action: 'Action', from: 'From', to: 'To', source: 'Source', actor: 'User / rule', reason: 'Note', plan: 'Plan',
    stateChange: 'State change', empty: 'This card has no lifecycle records yet. Allocation, state changes and plan changes are recorded here.',
  },
  plan: {
    current: 'Current plan', noPlan: 'This card has no plan yet. A plan is given on allocation ("Transfer and distribute") or by the operator.', tariff: 'Tariff type', cycle: 'Cycle',
    duration: 'Contract length', months: '{{n}} months', quota: 'Plan data', apns: 'APN', contract: 'Contract', currentCycle: 'Current cycle',
    bCycles: 'B-end contract cycles', cCycles: 'C-end contract cycles', total: 'Total', used: 'Used', remaining: 'Remaining',
    cNone: 'No C-end subscription: no end user has bought a retail plan for this card.',
    pending: 'Pending plan change', pendingAt: 'Takes effect', onActivation: 'On the next activation', requestedAt: 'Requested', pendingPrice: 'A price change is pending',
    lastChange: 'Last plan change', packs: 'Event packs', packName: 'Event pack', packPeriod: 'Valid', packActive: 'Running', packEnded: 'Ended',
    orderedBy: 'Ordered by', noPacks: 'No event pack has been ordered.',
  },
  usage: {
    cycle: 'This cycle', contractCycle: 'Contract cycle', billingCycle: "Operator's billing period", quota: 'Quota', used: 'Used', remaining: 'Remaining', unlimited: 'Unlimited',
    exhausted: 'Quota used up at {{at}}', perDay: 'Usage per day', day: 'Day', bytes: 'Data', sms: 'SMS', voice: 'Voice (s)', sessionsCount: 'Sessions',
    sessions: 'Recent sessions (at most 100 within 3 days)', startedAt: 'Started', endedAt: 'Ended', open: 'Open', duration: 'Duration (s)', apn: 'APN', rat: 'Network',
    cell: 'Cell', up: 'Up', down: 'Down', noSessions: 'No data session in the last 3 days.', noUsage: 'No usage in this cycle yet.',
    unavailable: 'Usage data is not available.',
  },
  apn: { title: 'APN online status', lastApn: 'APN of the last session', sessionStart: 'Session started', sessionEnd: 'Session ended', planApns: 'Plan APNs', noSession: 'This card has had no data session yet.' },
  policy: {
    zones: "The plan's zones and communication services", zone: 'Zone', regions: 'Regions', quota: 'Zone data', services: 'Communication services', blocked: 'Blocked', allowed: 'Normal',
    blocks: 'Blocked zones / networks', kind: 'Kind', target: 'Target', byDeactivation: 'Blocked by deactivation', blockedAt: 'Blocked at', blockedBy: 'By',
    kinds: { zone: 'Zone', region: 'Region', network: 'Network' }, noZones: "This card's plan has no zones.", noBlocks: 'No zone or network is blocked.',
    block: 'Block', permit: 'Permit', network: 'Network type',
  },
  billing: {
    price: 'Plan price', currency: 'Currency', tax: 'Tax rate', overage: 'Out-of-plan price', renewal: 'Renewal mode', contractMonths: 'Contract months', contractEnd: 'Contract ends',
    packs: 'Event packs ordered', noBills: 'Bills are not shown until billing exists in the product; the figures above are what this card is billed on.', noPlan: 'This card has no plan, so there is nothing to bill yet.',
  },
  sms: {
    send: 'Send SMS', content: 'Message', counter: '{{n}} / {{max}} characters', hint: 'At most 70 characters with Chinese or other non-GSM characters, otherwise 160.',
    status: 'Status', direction: 'Direction', createdAt: 'Time', createdBy: 'Sent by', messageId: "Operator's message id", failReason: 'Failure reason',
    empty: 'No SMS yet.', confirm: 'Send this message to {{msisdn}}?', required: 'Please enter the message',
  },
  actions: {
    edit: 'Edit', changeStatus: 'Change status', renew: 'Renew cycles', changePlan: 'Change plan', orderPack: 'Order event pack', sms: 'Send SMS', qr: 'Download QR code',
    blockZone: 'Block / permit', confirmTitle: 'Please confirm', reason: 'Reason (optional)',
  },
  edit: { title: 'Edit card', labels: 'Labels', labelsHint: "Platform labels and the customer's own labels" },
  status: {
    title: 'Change status', action: 'Action', confirm: 'Run "{{action}}" on card {{iccid}}?',
    a: {
      activate: 'Activate', deactivate: 'Deactivate', startTest: 'Start test period', endTest: 'End test period', toActivationReady: 'To activation ready', toInventory: 'To inventory',
      invalidate: 'Invalidate', retire: 'Retire', freeze: 'Forced shutdown', unfreeze: 'Lift forced shutdown',
    },
  },
  renew: { title: 'Renew cycles', periods: 'Periods', hint: "Each period extends the contract by the plan's duration ({{months}} months); not possible while a plan or price change is pending.", confirm: 'Renew the card for {{n}} period(s)?' },
  changePlan: {
    title: 'Change plan', target: 'New plan', hint: "Only basic plans released to the card's customer with the same APN info are listed. An active card changes at the next cycle; one change per month.",
    noOptions: 'No plan to change to (it needs a basic plan with the same APN info released to this customer).', confirm: 'Change the plan to "{{name}}"?',
  },
  orderPack: { title: 'Order event pack', pack: 'Event pack', hint: 'Only active cards can order; the pack ends with the current base cycle.', noOptions: 'No event pack is released to this customer.', confirm: 'Order "{{name}}"?' },
  zone: { title: 'Block or permit', op: 'Operation', kind: 'Kind', target: 'Target', confirm: '{{op}} "{{name}}"?' },
  qr: {
    title: 'Download QR codes', encodes: "Each QR code encodes the card's ICCID.", included: 'QR codes for {{n}} card(s)', skipped: '{{n}} skipped',
    created: 'Download task created ({{n}} QR codes).', skippedNote: '{{n}} card(s) skipped: {{msg}}', goDownloads: 'Go to download tasks', reason: 'Reason',
    ok: 'QR code',
    selectFirst: 'Select cards in the list first', confirm: 'Create download task',
  },
  list: { allocate: 'Transfer and distribute', selected: '{{n}} selected', detail: 'Detail' },
  numcard: {
    title: 'Transfer and distribute', mode: 'Mode', modes: { transfer: 'Transfer (platform stock → customer)', distribute: 'Distribute (customer ↔ second-level customer)' },
    modeHint: {
      transfer: 'Moves cards of the platform stock (owned by no customer) to a customer.',
      distribute: 'Moves cards inside one customer: from the first-level customer to a second-level customer, or back.',
    },
    customer: 'Target customer', level1: 'Level 1', level2: 'Level 2', by: 'Select cards by',
    byList: { label: 'List selection', hint: '{{n}} card(s) brought from the card list.', empty: 'No cards were selected in the card list: select cards there and click "Transfer and distribute", or use another way.' },
    byFilter: { label: 'Search filters', hint: 'The card list filters; only cards that can go to the target customer are counted.' },
    byRange: { label: 'ICCID ranges', hint: 'Start and end of the same length, e.g. 89860312345678900000-89860312345678900999', add: 'Add range', start: 'Start ICCID', end: 'End ICCID' },
    count: 'Count', selectNum: 'Cards to {{mode}}: {{n}}', ineligible: '{{n}} more selected card(s) cannot go to this customer (missing, not in the source, or already its own).',
    max: 'At most {{max}} per allocation', options: 'Options', plan: 'Give a plan', planHint: 'Start-state cards only; basic plans released to the target customer.',
    initialState: 'Initial state', initialHint: 'Set through the card lifecycle rules; an illegal change is refused.', noChange: 'Unchanged',
    remark: 'Remark', submit: 'Confirm {{mode}}', confirm: 'About to {{mode}} {{n}} card(s) to "{{cust}}": all of them change or none. Continue?',
    running: 'Processing {{n}} cards…', done: 'Done: {{n}} card(s) went to "{{cust}}" ({{mode}}).', failed: 'Failed; no card was changed', records: 'Recent allocations',
    status: 'Status', cards: 'Cards', createdAt: 'Time', createdBy: 'By', error: 'Reason', verbTransfer: 'transfer', verbDistribute: 'distribute',
    noCustomers: 'No customer to choose.', countFirst: 'Count the cards first', needCustomer: 'Choose the target customer', notAllowed: 'Second-level customers cannot transfer or distribute cards.',
  },
};
export default en;
