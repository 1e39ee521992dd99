import type zh from '../zh/sms.ts';
import type { Messages } from '../types.ts';

const en: Messages<typeof zh> = {
  received: 'Received',
  counter: '{{n}} / {{max}} characters ({{encoding}}; 70 with Chinese or other non-GSM characters, otherwise 160)',
  f: {
    direction: 'Direction',
    status: 'State',
    content: 'Content',
    encoding: 'Encoding',
    source: 'Source',
    createdAt: 'Time',
    submittedAt: 'Submitted at',
    messageId: 'Operator message ID',
    reportCode: 'Delivery report',
    reportAt: 'Reported at',
    failReason: 'Failure',
    account: 'Access configuration',
    batch: 'Batch',
    createdBy: 'Sent by',
  },
  list: {
    title: 'SMS',
    send: 'Send SMS',
    batch: 'Batch SMS',
    view: 'Details',
    empty: 'No SMS yet. Click "Send SMS" to send one to a card, or "Batch SMS" to send to many cards',
    iccidPlaceholder: 'Full ICCID or its first 6+ digits',
    iccidRule: 'An ICCID has 6-20 digits (fewer than 19: a prefix)',
    msisdnRule: 'An MSISDN has 5-20 digits (fewer than 11: a prefix)',
    page: 'Page {{page}} · {{total}} in all',
    pageMany: 'Page {{page}} · more than {{total}}',
    prev: 'Previous',
    next: 'Next',
  },
  send: {
    title: 'Send SMS',
    ok: 'Send',
    content: 'Message',
    contentRequired: 'Enter the message text',
    iccidPlaceholder: 'ICCID, 19-20 digits',
    iccidFormat: 'An ICCID has 19-20 digits',
    hint: "Only to cards in test or activated state with an MSISDN; the message goes through the access configuration of the card's operator, and the operator's delivery report makes it \"Sending succeeded\" or \"Sending failed\".",
    done: 'The SMS was submitted to the operator',
  },
  detail: {
    title: 'SMS details',
  },
  batchContent: 'Message',
  batchHint: 'One message per card: only cards in test or activated state with an MSISDN and an access configuration of their operator get it; the others are listed as invalid by the check.',
  batchOp: 'Send the SMS "{{content}}"',
};

export default en;
