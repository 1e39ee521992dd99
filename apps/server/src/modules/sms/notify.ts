// SMS for other modules (the automation rules' "notify by SMS", docs/sms.md): to cards (their MSISDN, through the
// card operator's access configuration, like every message to a device) and to people's phones (through the system
// SMS channel). Every message is recorded: card messages in card_sms (the SMS centre lists them, source "automation
// rule"), phone messages in sms_phone_messages. A caller's `ref` names the notification (e.g. the rule's trigger and
// action): the same ref and card or phone always name the same message, so calling again after a crash or a retry
// sends nothing twice and answers the stored outcome.
import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import { ErrorCode, errorMessage, sms as api, type Lang } from '@lynx/contract';
import { AppError } from '../../platform/errors.ts';
import type { Executor } from '../../db/client.ts';
import { simulateSystemSms } from '../../operators/simulator-sms.ts';
import {
  cardRefusal, checkContent, derivedUuid, insertSubmitted, refusalText, rowsOf, smsCards, SmsRoutes, submitAll, type SmsDeps, type Submission,
} from './send.ts';

const { SmsStatus, SmsSource } = api;

export interface SmsSendOptions {
  content: string;
  /** the notification this message belongs to (at most 160 characters); the same ref never sends twice */
  ref?: string | null;
  /** who or what sends it (e.g. 'autorule:12'), shown as "created by" */
  createdBy?: string | null;
  /**
   * Only cards of this tenant (a customer's rule): `custId` set, that customer's cards (a second-level customer);
   * else the cards of the tree of `rootCustId` (a channel customer). Null or absent: any card (staff rules).
   */
  tenant?: { custId?: number | null; rootCustId: number | null } | null;
  /** SmsSource; automation rule by default */
  source?: number;
}

export interface SmsSendResult {
  /** the card's ICCID, or the phone number */
  to: string;
  /** null when nothing was stored (card not found or not allowed) */
  smsId: string | null;
  /** SmsStatus of the stored message; null when refused before sending */
  status: number | null;
  /** why it was not sent, both languages (null when submitted) */
  error: { zh: string; en: string } | null;
}

const inTenant = (card: { custId: number | null; rootCustId: number | null }, t: SmsSendOptions['tenant']) =>
  !t || (t.custId != null ? card.custId === t.custId : t.rootCustId != null && card.rootCustId === t.rootCustId);

/**
 * The database (or the caller's open transaction: on PGlite, with its one connection, a caller inside a transaction must
 * pass it, and the messages are then stored with the caller's commit) and the configuration (the secret key that opens
 * the operators' credentials).
 */
export interface NotifyDeps {
  db: Executor;
  config: SmsDeps['config'];
}

/** The longest start of a text that fits one SMS part, marked when cut (for sentences a caller builds, e.g. an alarm). */
export function fitSmsPart(text: string): string {
  const len = api.smsLength(text);
  if (len.fits) return text;
  // a GSM text keeps its 160 with '...'; '…' is not in the GSM alphabet
  const mark = len.encoding === api.SmsEncoding.Gsm7 ? '...' : '…';
  let cut = [...text];
  while (cut.length && !api.smsLength(`${cut.join('')}${mark}`).fits) cut = cut.slice(0, -1);
  return `${cut.join('')}${mark}`;
}

const both = (code: ErrorCode, params?: Record<string, string | number>) => ({ zh: errorMessage(code, 'zh', params), en: errorMessage(code, 'en', params) });
const CHUNK = 200;

/**
 * Sends one text to each card (at most 10,000 at once) and records each message. A card outside `tenant`, one that
 * does not exist, or one that cannot receive SMS (not test or activated, no MSISDN, no access configuration) gets
 * no message and an error; a submission the carrier refuses is stored as "submission failed". The delivery report
 * job moves accepted messages on. Throws only for bad input (empty or too long text, too many cards).
 */
export async function sendSmsToCards(deps: NotifyDeps, iccids: string[], opts: SmsSendOptions): Promise<SmsSendResult[]> {
  const encoding = checkContent(opts.content);
  const unique = [...new Set(iccids)];
  if (unique.length > api.SMS_CARDS_MAX) throw new AppError(ErrorCode.SmsTooManyTargets, { max: api.SMS_CARDS_MAX, count: unique.length });
  const ref = opts.ref?.slice(0, 160) ?? null;
  const source = opts.source ?? SmsSource.Automation;
  const routes = new SmsRoutes(deps.db, deps.config);
  const results: SmsSendResult[] = [];
  for (let i = 0; i < unique.length; i += CHUNK) {
    const part = unique.slice(i, i + CHUNK);
    const cards = await smsCards(deps.db, part);
    const ids = new Map(part.map((iccid) => [iccid, ref ? derivedUuid('notify', ref, iccid) : crypto.randomUUID()]));
    // a message of the same ref already stored: its outcome, not a second message
    const stored = new Map(rowsOf<{ iccid: string; sms_id: string; status: number; fail_reason: string | null }>(await deps.db.execute(sql`
      select iccid, sms_id, status, fail_reason from card_sms
      where iccid = any(${sql.param(part)}::text[]) and sms_id = any(${sql.param([...ids.values()])}::uuid[])`)).map((r) => [r.iccid, r]));
    const subs: Submission[] = [];
    for (const iccid of part) {
      const card = cards.get(iccid);
      const prior = stored.get(iccid);
      if (prior) {
        results.push({ to: iccid, smsId: prior.sms_id, status: Number(prior.status), error: prior.status === SmsStatus.SubmitFailed ? both(ErrorCode.SmsSubmitRefused, { reason: prior.fail_reason ?? '' }) : null });
        continue;
      }
      if (!card || !inTenant(card, opts.tenant)) {
        results.push({ to: iccid, smsId: null, status: null, error: both(ErrorCode.BatchCardNotFound) });
        continue;
      }
      const route = await routes.of(card.operatorId);
      const refusal = cardRefusal(card, route);
      if (refusal || !route.ok || !card.msisdn) {
        const r = refusal ?? { code: ErrorCode.SmsNoGateway };
        results.push({ to: iccid, smsId: null, status: null, error: { zh: refusalText(r, 'zh'), en: refusalText(r, 'en') } });
        continue;
      }
      subs.push({ smsId: ids.get(iccid)!, card: { ...card, msisdn: card.msisdn }, route, content: opts.content, encoding, source, ref, createdBy: opts.createdBy ?? null });
    }
    const sent = await submitAll(subs);
    await insertSubmitted(deps.db, sent);
    for (const s of sent) {
      results.push({
        to: s.card.iccid, smsId: s.smsId, status: s.status,
        error: s.status === SmsStatus.SubmitFailed ? both(ErrorCode.SmsSubmitRefused, { reason: s.failReason ?? '' }) : null,
      });
    }
  }
  return results;
}

/** A mainland mobile number (what the spec's phone check accepts for contacts). */
export const PHONE_RE = /^1[0-9]{10}$/;

/**
 * Sends one text to each phone (at most 10,000) through the system SMS channel and records each message. The
 * built-in channel is the network simulator's (delivered at once; numbers ending in 0000 are unreachable). A
 * malformed number throws 21072 before anything is sent.
 */
export async function sendSmsToPhones(deps: Pick<NotifyDeps, 'db'>, phones: string[], opts: SmsSendOptions): Promise<SmsSendResult[]> {
  const encoding = checkContent(opts.content);
  const unique = [...new Set(phones.map((p) => p.trim()))];
  if (unique.length > api.SMS_CARDS_MAX) throw new AppError(ErrorCode.SmsTooManyTargets, { max: api.SMS_CARDS_MAX, count: unique.length });
  const bad = unique.find((p) => !PHONE_RE.test(p));
  if (bad !== undefined) throw new AppError(ErrorCode.SmsPhoneInvalid, { phone: bad });
  const ref = opts.ref?.slice(0, 160) ?? null;
  const out: SmsSendResult[] = [];
  for (const phone of unique) {
    const id = ref ? derivedUuid('phone', ref, phone) : crypto.randomUUID();
    const inserted = rowsOf<{ message_id: string }>(await deps.db.execute(sql`
      insert into sms_phone_messages (message_id, phone, content, encoding, status, source, ref, cust_id, root_cust_id, created_by)
      values (${id}::uuid, ${phone}, ${opts.content}, ${encoding}, ${SmsStatus.Sending}, ${opts.source ?? SmsSource.Automation}, ${ref},
        ${opts.tenant?.custId ?? null}, ${opts.tenant?.rootCustId ?? null}, ${opts.createdBy ?? null})
      on conflict (message_id) do nothing returning message_id`));
    if (!inserted.length) {
      const [prior] = rowsOf<{ status: number; fail_reason: string | null }>(await deps.db.execute(sql`select status, fail_reason from sms_phone_messages where message_id = ${id}::uuid`));
      // a message left "sending" by a crash is sent again below under the same reference
      if (prior && Number(prior.status) !== SmsStatus.Sending) {
        out.push({ to: phone, smsId: id, status: Number(prior.status), error: prior.fail_reason ? { zh: prior.fail_reason, en: prior.fail_reason } : null });
        continue;
      }
    }
    const r = simulateSystemSms(phone, opts.content, id);
    const status = !r.ok ? SmsStatus.SubmitFailed : r.delivered ? SmsStatus.Sent : SmsStatus.SendFailed;
    const reason = status === SmsStatus.Sent ? null : `${r.code}: ${r.message ?? ''}`.slice(0, 500);
    await deps.db.execute(sql`
      update sms_phone_messages set status = ${status}, channel_message_id = ${r.messageId}, report_code = ${r.ok ? r.code : null}, fail_reason = ${reason}, updated_at = now()
      where message_id = ${id}::uuid`);
    out.push({ to: phone, smsId: id, status, error: reason ? { zh: reason, en: reason } : null });
  }
  return out;
}

/** An outcome's error in one language. */
export const resultError = (r: SmsSendResult, lang: Lang) => r.error?.[lang] ?? null;
