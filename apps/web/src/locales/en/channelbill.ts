import type zh from '../zh/channelbill.ts';
import type { Messages } from '../types.ts';

const en: Messages<typeof zh> = {
  fromOperatorBill: 'Operating bill {{ref}}',
  f: {
    billId: 'No.', period: 'Period', periodDays: 'Days compared', operator: 'Operator', sourceType: 'Source', sourceName: 'Issued by', state: 'State', fileName: 'File',
    lines: 'Lines', progress: 'Progress', matched: 'Matched', differs: 'Differs', missingOnPlatform: 'Missing on platform', missingInChannel: 'Missing in channel bill',
    channelAmount: 'Bill amount', disputedAmount: 'Amount to dispute', createdBy: 'Imported by', createdAt: 'Imported', reconciledAt: 'Reconciled', remark: 'Remark',
    findMissing: 'List cards missing in the channel bill',
    origin: 'Source document',
  },
  help: {
    intro: 'Import the bill file an operator or upstream channel sent; the platform compares it card by card with its own usage ({{from}}). Data within the larger of 1 MB and 1% of the platform\'s usage, with equal SMS counts, is "Matched", otherwise "Differs"; a card of the bill the platform does not have is "Missing on platform"; a card with platform usage that the bill lacks is "Missing in channel bill".',
    introFrom: 'China Unicom periods run from the 26th of the month before to the 25th, other operators the calendar month',
    disputed: 'The bill amounts of the lines that differ or are missing on the platform: what to check with the issuer.',
    periodDays: 'Platform usage is summed over the operator\'s billing period: China Unicom the 26th of the month before to the 25th, other operators the calendar month.',
    progress: 'Import and reconciliation run in the background and go on after a server restart; you can leave this page.',
    fromOperatorBill: 'Made from an operator bill fetched under Financial › Operating bills (no file): each line is one card\'s data, SMS and charge (tax excluded) on that bill.',
  },
  list: {
    title: 'Channel bills',
    empty: 'No channel bills yet: click "Import" and upload a bill file from an operator or upstream channel.',
    pickMonth: 'Pick a month',
  },
  action: {
    import: 'Import', delete: 'Delete', reconcile: 'Reconcile again', open: 'View', errors: 'Errors',
    deleteTitle: 'Delete channel bill {{id}}?',
    deleteConfirm: 'The bill from {{source}} for {{period}} and its {{lines}} lines are deleted for good.',
    deleted: 'Channel bill {{id}} deleted',
    reconcileStarted: 'Reconciliation started; the bill refreshes when it is done',
  },
  import: {
    title: 'Import a channel bill',
    operatorPlaceholder: 'Pick the operator', operator: 'Operator', period: 'Period', sourceType: 'Source', sourceName: 'Issued by', sourceNamePlaceholder: 'e.g. China Mobile XX branch, or the upstream channel\'s name',
    findMissingHelp: 'Tick for an operator\'s bill covering all the platform\'s cards of that operator; leave it for an upstream channel\'s bill covering only the cards bought through it.',
    remark: 'Remark', template: 'Templates', templateZh: 'Chinese template (xlsx)', templateEn: 'English template (xlsx)', templateCsvZh: 'Chinese CSV', templateCsvEn: 'English CSV',
    dragHint: 'Click or drop the bill file here', fileHint: 'csv or xlsx, up to {{size}} and {{lines}} lines (csv for large bills)',
    fileType: 'Only csv or xlsx files',
    submit: 'Upload and reconcile', uploading: 'Uploading…',
    importing: 'Importing: {{done}} / {{total}} lines', reading: 'Reading and checking the file…', reconciling: 'Reconciling…',
    reconciled: 'Reconciled: matched {{matched}}, differs {{differs}}, missing on platform {{missingOnPlatform}}, missing in channel bill {{missingInChannel}}',
    failed: 'Import failed: {{count}} lines are wrong and nothing was imported. Correct the file and import it again.',
    background: 'You can close this window; the import goes on in the background.',
    required: 'Required',
    periodHelp: 'Pick a period that has ended',
  },
  detail: {
    title: 'Channel bill {{id}}', back: 'Back to the list', summary: 'Reconciliation summary', lines: 'Lines', errors: 'Import errors',
    channel: 'Bill', platform: 'Platform', diff: 'Difference', dataCol: 'Data', smsCol: 'SMS', lineNo: 'File line',
    iccidPlaceholder: 'ICCID or prefix', prev: 'Previous', next: 'Next', page: 'Page {{page}}, {{total}} lines', pageMany: 'Page {{page}}, more than {{total}} lines',
    emptyLines: 'No lines match', notReconciled: 'The bill has not been reconciled yet', column: 'Column', reason: 'Reason', line: 'Line', fileLine: 'File',
    failure: 'Why it failed',
  },
};
export default en;
