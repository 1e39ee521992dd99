import { Type } from '@sinclair/typebox';
import { endpoint, ExportTaskCreated, Nullable, Obj, Page, PageParams } from './endpoint.ts';
import { defineEnum } from '../enums/define.ts';
import { SmsDirection, SmsStatus } from './carddetail.ts';

/*
 * The SMS centre (issue 15, spec §2 /card/sms/list, page 2020000): every SMS to and from the caller's cards — sent
 * from the card detail (2010006), by a batch (2030003, a batch type of the card batch engine) or by an automation
 * rule, and the messages the devices sent (mobile-originated). Each message to a card goes through the card
 * operator's access configuration; the carrier's delivery report moves it to "sending succeeded" or "sending
 * failed" (the five states of spec §4). Design: docs/sms.md. Tenant-scoped on the server: a customer sees the
 * messages of its own cards only.
 */

const tag = 'sms';

export const SmsPerm = {
  /** Card › SMS page */
  Sms: 2020000,
  /** card list button: send SMS (one card) */
  SendSms: 2010006,
  /** batch operations button: batch SMS */
  BatchSms: 2030003,
} as const;
const P = SmsPerm;

export { SmsDirection, SmsStatus };

/** Where a message came from. */
export const SmsSource = defineEnum({
  Console: { value: 1, zh: '控制台', en: 'Console' },
  Batch: { value: 2, zh: '批量短信', en: 'Batch SMS' },
  Automation: { value: 3, zh: '自动化规则', en: 'Automation rule' },
  Device: { value: 4, zh: '终端上报', en: 'From the device' },
});

export const SmsEncoding = defineEnum({
  Gsm7: { value: 1, zh: 'GSM 7 位', en: 'GSM 7-bit' },
  Ucs2: { value: 2, zh: 'UCS-2（中文等）', en: 'UCS-2 (Chinese etc.)' },
});

/** One SMS part: 160 GSM 7-bit characters, or 70 UCS-2 characters when any character is outside the GSM alphabet. */
export const SMS_GSM7_MAX = 160;
export const SMS_UCS2_MAX = 70;
/** A message is one part (the platform does not concatenate; docs/sms.md). */
const GSM7_BASIC = '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
/** Characters of the GSM extension table: two septets each (an escape and the character). */
const GSM7_EXTENDED = '^{}\\[~]|€\f';

/**
 * How a text is sent and how long it is in the units of its encoding: GSM 7-bit when every character is in the GSM
 * alphabet (extension characters count 2), else UCS-2 (a character outside the basic plane, e.g. an emoji, counts 2).
 */
export function smsLength(content: string): { encoding: number; units: number; max: number; fits: boolean } {
  let septets = 0;
  let gsm = true;
  for (const ch of content) {
    if (GSM7_BASIC.includes(ch)) septets += 1;
    else if (GSM7_EXTENDED.includes(ch)) septets += 2;
    else {
      gsm = false;
      break;
    }
  }
  if (gsm) return { encoding: SmsEncoding.Gsm7, units: septets, max: SMS_GSM7_MAX, fits: septets <= SMS_GSM7_MAX };
  const units = content.length; // UTF-16 code units: what UCS-2 / UTF-16 on the air carries
  return { encoding: SmsEncoding.Ucs2, units, max: SMS_UCS2_MAX, fits: units <= SMS_UCS2_MAX };
}

/** At most this many cards in one call of the SMS service (a batch's limit, spec §9). */
export const SMS_CARDS_MAX = 10_000;
/** The list counts matches up to this many (as the card list: `totalCapped` beyond). */
export const SMS_LIST_COUNT_CAP = 10_000;

const DateOnly = Type.String({ pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' });
const Iccid = Type.String({ pattern: '^[0-9]{19,20}$' });
const SmsId = Type.String({ pattern: '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' });

export const SmsRecord = Type.Object({
  smsId: Type.String(),
  iccid: Type.String(),
  msisdn: Nullable(Type.String()),
  /** SmsDirection: 1 to the device, 2 from the device */
  direction: Type.Integer(),
  content: Type.String(),
  /** SmsStatus (spec §4); a message from the device is stored as received (3) */
  status: Type.Integer(),
  /** SmsSource */
  source: Type.Integer(),
  /** SmsEncoding */
  encoding: Nullable(Type.Integer()),
  /** the batch that sent it */
  batchId: Nullable(Type.String()),
  /** the operator's message id */
  messageId: Nullable(Type.String()),
  /** the delivery report's status word (DELIVRD, UNDELIV, EXPIRED …) and when it came */
  reportCode: Nullable(Type.String()),
  reportAt: Nullable(Type.String()),
  /** why the submission or the delivery failed */
  failReason: Nullable(Type.String()),
  submittedAt: Nullable(Type.String()),
  createdBy: Nullable(Type.String()),
  /** sent (to the device) or received (from the device) */
  createdAt: Type.String(),
  updatedAt: Type.String(),
});

export const SmsDetail = Type.Object({
  ...SmsRecord.properties,
  /** the access configuration it went through */
  operAccountId: Nullable(Type.Integer()),
  operAccountName: Nullable(Type.String()),
  /** what set it off (an automation rule's trigger, …) */
  ref: Nullable(Type.String()),
});

export const SmsListFilters = {
  /** ICCID: 19-20 digits exact, fewer a prefix (at least 6) */
  iccid: Type.Optional(Type.String({ pattern: '^[0-9]{6,20}$' })),
  /** MSISDN: exact, or a prefix of at least 5 digits */
  msisdn: Type.Optional(Type.String({ pattern: '^[0-9]{5,20}$' })),
  direction: Type.Optional(Type.Integer({ minimum: 1, maximum: 2 })),
  status: Type.Optional(Type.Integer({ minimum: 1, maximum: 5 })),
  source: Type.Optional(Type.Integer({ minimum: 1, maximum: 4 })),
  batchId: Type.Optional(SmsId),
  /** business days, inclusive */
  createdFrom: Type.Optional(DateOnly),
  createdTo: Type.Optional(DateOnly),
};

/** The next page's key (keyset paging, newest first): pass it back as `after`; null on the last page. */
export const SmsListPage = Type.Object({ ...Page(SmsRecord).properties, totalCapped: Type.Boolean(), next: Nullable(Type.String()) });

export const getSmsListPage = endpoint({
  name: 'core/sms/cmpp/getSmsListPage', method: 'POST', auth: 'session', perm: [P.Sms], kind: 'query', tag,
  summary: {
    zh: '短信列表：发往卡和卡发出的短信（最新在前），按 ICCID、MSISDN、方向、状态、来源、批次、日期筛选；客户只看到自己卡的短信',
    en: 'SMS list: messages to and from the cards (newest first), by ICCID, MSISDN, direction, state, source, batch and date; a customer sees its own cards\' messages only',
  },
  // `after`: the `next` of the page before (keyset paging over a card-scale table; `current` is then ignored)
  body: Obj({ ...PageParams, ...SmsListFilters, after: Type.Optional(Type.String({ pattern: '^[0-9TZ:.-]{20,30}\\|[0-9a-f-]{36}$' })) }),
  response: SmsListPage,
});

export const getSmsDetail = endpoint({
  name: 'core/sms/cmpp/getSmsDetail', method: 'POST', auth: 'session', perm: [P.Sms], kind: 'query', tag,
  summary: { zh: '一条短信及其状态报告', en: 'One SMS with its delivery report' },
  body: Obj({ iccid: Iccid, smsId: SmsId }),
  response: SmsDetail,
});

export const exportSmsList = endpoint({
  name: 'core/sms/cmpp/exportSmsList', method: 'POST', auth: 'session', perm: [P.Sms], kind: 'mutation', tag,
  summary: { zh: '导出短信列表（下载任务）', en: 'Export the SMS list (download task)' },
  body: Obj({ ...SmsListFilters, format: Type.Optional(Type.Integer({ minimum: 1, maximum: 2 })) }),
  response: ExportTaskCreated,
});
