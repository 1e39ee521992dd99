// Notifications of the automation rules (docs/automation.md "Notifications"): every triggered card × channel is a row
// of autorule_deliveries, written with the trigger record; the dispatcher job sends due rows through the channel's
// Notifier. A channel this installation cannot send on stays "channel not available" (never marked sent) and is sent
// once it can. Webhooks go through the webhook outbox (signed, retried, dead-lettered there); e-mail through the SMTP
// mailer (CMP_SMTP_*); SMS to the rule's phones through the SMS centre's system channel (modules/sms/notify.ts).
import { sql } from 'drizzle-orm';
import { AutoRuleChannel, AutoRuleDeliveryState, AutoRuleType, WebhookEventType, type Lang } from '@lynx/contract';
import type { Db, Executor } from '../../../db/client.ts';
import { rows } from '../sql.ts';
import { AppError } from '../../../platform/errors.ts';
import { enqueueEvents } from '../../delivery/webhook/outbox.ts';
import { mailerFor } from '../../delivery/mail/mailer.ts';
import { fitSmsPart, sendSmsToPhones } from '../../sms/notify.ts';

/** One notification as a channel sends it. */
export interface AlarmNotice {
  deliveryId: number;
  alarmId: number;
  ruleId: number;
  ruleName: string;
  ruleType: number;
  level: number;
  threshold: number | null;
  iccid: string;
  msisdn: string | null;
  /** the card's customer */
  custId: number | null;
  /** the rule's owner (null: a platform rule made by staff) */
  ruleOwnerCustId: number | null;
  value: string | null;
  triggeredAt: Date;
  phones: string[];
  emails: string[];
}

/** A failed send says why in both languages (the execution detail shows it in the reader's). */
export type NoticeResult = { ok: true; ref: string | null } | { ok: false; error: { zh: string; en: string }; retry: boolean };

/**
 * A delivery channel. With `inTransaction`, `send` runs inside the dispatcher's transaction `tx` (an outbox channel
 * writes there, so the notification and its state commit together); otherwise after the delivery was claimed, with the
 * database itself (a channel that talks to a server and records on its own, like the mailer).
 */
export interface Notifier {
  channel: number;
  inTransaction: boolean;
  send(ex: Executor, n: AlarmNotice): Promise<NoticeResult>;
}

/** The alarm sentence in one language. */
export function noticeText(n: AlarmNotice, lang: Lang): string {
  const type = AutoRuleType.label(n.ruleType, lang);
  const value = n.value == null ? '' : lang === 'zh' ? `（${n.value}）` : ` (${n.value})`;
  return lang === 'zh'
    ? `自动化规则「${n.ruleName}」触发：卡 ${n.iccid}，${type}${value}`
    : `Automation rule "${n.ruleName}" triggered for card ${n.iccid}: ${type}${value}`;
}

const metricOf = (n: AlarmNotice) => {
  const v = n.value == null ? NaN : Number(n.value);
  if (n.threshold == null || !Number.isFinite(v)) return null;
  return { name: AutoRuleType.label(n.ruleType, 'en'), value: v, threshold: n.threshold };
};

/**
 * Who receives an alarm's webhook: the customer that owns the rule (it set the rule up; a first-level customer's rule
 * covers its whole tree, and the second-level customer whose card it is did not ask for it); a platform rule made by
 * staff has no customer of its own, so its alarm goes to the customer that owns the card (docs/decisions.md "Issue 15").
 */
export const webhookReceiverOf = (n: Pick<AlarmNotice, 'custId' | 'ruleOwnerCustId'>): { custId: number | null; ruleOwner: boolean } =>
  n.ruleOwnerCustId != null ? { custId: n.ruleOwnerCustId, ruleOwner: true } : { custId: n.custId, ruleOwner: false };

const webhookNotifier: Notifier = {
  channel: AutoRuleChannel.Webhook,
  inTransaction: true,
  async send(tx, n) {
    const to = webhookReceiverOf(n);
    const receiver = to.custId;
    if (receiver == null) return { ok: false, error: { zh: '该卡不属于任何客户，没有回调地址', en: 'the card belongs to no customer: no callback address' }, retry: false };
    const [ev] = await enqueueEvents(tx, [{
      custId: receiver, type: WebhookEventType.AutomationAlarm, at: n.triggeredAt,
      payload: {
        alarmId: n.alarmId, ruleId: n.ruleId, ruleName: n.ruleName, ruleType: n.ruleType, level: n.level, iccid: n.iccid, msisdn: n.msisdn,
        custId: n.custId ?? receiver, metric: metricOf(n), message: { zh: noticeText(n, 'zh'), en: noticeText(n, 'en') }, triggeredAt: n.triggeredAt.toISOString(),
      },
    }]);
    if (!ev) {
      return {
        ok: false, retry: false,
        error: to.ruleOwner
          ? { zh: '规则所属客户没有设置回调地址', en: "the rule's customer has no callback address" }
          : { zh: '客户没有设置回调地址', en: 'the customer has no callback address' },
      };
    }
    return { ok: true, ref: String(ev.deliveryId) };
  },
};

function emailNotifier(db: Db): Notifier | null {
  const mailer = mailerFor(db);
  if (!mailer.config) return null;
  return {
    channel: AutoRuleChannel.Email,
    inTransaction: false,
    async send(_db, n) {
      if (n.emails.length === 0) return { ok: false, error: { zh: '规则没有设置邮件地址', en: 'the rule has no e-mail address' }, retry: false };
      const d = await mailer.sendMail({
        to: n.emails, subject: `${noticeText(n, 'zh')} / ${noticeText(n, 'en')}`.slice(0, 300),
        text: `${noticeText(n, 'zh')}\n\n${noticeText(n, 'en')}\n`, source: `autorule:${n.ruleId}:${n.alarmId}`, custId: n.custId,
      });
      // the mail server's own words stay as it said them
      return d.error ? { ok: false, error: { zh: `邮件发送失败：${d.error}`, en: `sending failed: ${d.error}` }, retry: true } : { ok: true, ref: String(d.deliveryId) };
    },
  };
}

const smsNotifier: Notifier = {
  channel: AutoRuleChannel.Sms,
  inTransaction: true,
  async send(tx, n) {
    if (n.phones.length === 0) return { ok: false, error: { zh: '规则没有设置手机号码', en: 'the rule has no phone number' }, retry: false };
    // the delivery names the messages: a retry after a crash sends nothing twice
    let results: Awaited<ReturnType<typeof sendSmsToPhones>>;
    try {
      results = await sendSmsToPhones({ db: tx }, n.phones, {
        content: fitSmsPart(noticeText(n, 'zh')), ref: `autorule:${n.deliveryId}`, createdBy: `autorule:${n.ruleId}`,
      });
    } catch (e) {
      // a number the system channel does not take (it sends to mainland mobiles only): no retry makes it go
      if (e instanceof AppError) return { ok: false, error: { zh: e.message_('zh'), en: e.message_('en') }, retry: false };
      throw e;
    }
    const failed = results.filter((r) => r.error);
    const each = (lang: 'zh' | 'en') => failed.map((r) => `${r.to}: ${r.error![lang]}`).join('; ').slice(0, 500);
    if (failed.length) return { ok: false, error: { zh: each('zh'), en: each('en') }, retry: true };
    return { ok: true, ref: results.map((r) => r.smsId).join(',') };
  },
};

/** The channels this installation can send on now. */
export function notifiersFor(db: Db): Map<number, Notifier> {
  const out = new Map<number, Notifier>([[AutoRuleChannel.Webhook, webhookNotifier], [AutoRuleChannel.Sms, smsNotifier]]);
  const mail = emailNotifier(db);
  if (mail) out.set(AutoRuleChannel.Email, mail);
  return out;
}

/** Attempts before a delivery is given up; the wait before attempt k+1 is 2^k minutes. */
export const DELIVERY_MAX_ATTEMPTS = 5;
/** How long a claimed delivery of a channel that sends outside the transaction is left to its worker. */
const CLAIM_MINUTES = 10;

async function recordResult(ex: Executor, deliveryId: number, attempts: number, res: NoticeResult): Promise<'sent' | 'failed'> {
  if (res.ok) {
    await ex.execute(sql`update autorule_deliveries set state = ${AutoRuleDeliveryState.Sent}, attempts = ${attempts}, sent_at = now(),
      channel_ref = ${res.ref}, last_error = null, last_error_zh = null where delivery_id = ${deliveryId}`);
    return 'sent';
  }
  const giveUp = !res.retry || attempts >= DELIVERY_MAX_ATTEMPTS;
  await ex.execute(sql`update autorule_deliveries set state = ${giveUp ? AutoRuleDeliveryState.Failed : AutoRuleDeliveryState.Pending},
    attempts = ${attempts}, last_error = ${res.error.en.slice(0, 500)}, last_error_zh = ${res.error.zh.slice(0, 500)},
    next_at = now() + make_interval(mins => ${2 ** (attempts - 1)}::int) where delivery_id = ${deliveryId}`);
  return 'failed';
}

/**
 * Sends up to `limit` due deliveries (claimed with SKIP LOCKED, so several workers share them), each with its new state
 * in one transaction (or, for a channel that sends outside it, claimed for CLAIM_MINUTES first). Deliveries of channels
 * without a notifier are marked "channel not available".
 */
export async function dispatchDeliveries(db: Db, notifiers: Map<number, Notifier>, limit = 200): Promise<{ sent: number; failed: number }> {
  const available = [...notifiers.keys()];
  await db.execute(sql`update autorule_deliveries set state = ${AutoRuleDeliveryState.NoChannel}
    where state = ${AutoRuleDeliveryState.Pending} and not (channel = any(${`{${available.join(',')}}`}::smallint[]))`);
  let sent = 0;
  let failed = 0;
  for (let i = 0; i < limit; i++) {
    const picked = await db.transaction(async (tx) => {
      const [d] = await rows(tx, sql`select d.delivery_id, d.alarm_id, d.rule_id, d.iccid, d.channel, d.attempts, d.created_at,
          r.name, r.rule_type, r.level, r.threshold, r.phones, r.emails, r.owner_cust_id, c.msisdn, ac.cust_id, ac.value, ac.triggered_at
        from autorule_deliveries d
        join autorules r on r.rule_id = d.rule_id
        left join lateral (select x.cust_id, x.value, x.triggered_at from autorule_alarm_cards x
          where x.alarm_id = d.alarm_id and x.iccid = d.iccid limit 1) ac on true
        left join cards c on c.iccid = d.iccid
        where d.state in (${AutoRuleDeliveryState.Pending}, ${AutoRuleDeliveryState.NoChannel})
          and d.channel = any(${`{${available.join(',')}}`}::smallint[]) and d.next_at <= now()
        order by d.next_at, d.delivery_id limit 1 for update of d skip locked`);
      if (!d) return null;
      const split = (s: unknown) => (s ? String(s).split(/[;；]/).filter(Boolean) : []);
      const notice: AlarmNotice = {
        deliveryId: Number(d.delivery_id), alarmId: Number(d.alarm_id), ruleId: Number(d.rule_id), ruleName: String(d.name),
        ruleType: Number(d.rule_type), level: Number(d.level), threshold: d.threshold == null ? null : Number(d.threshold), iccid: String(d.iccid),
        msisdn: (d.msisdn as string | null) ?? null, custId: d.cust_id == null ? null : Number(d.cust_id),
        ruleOwnerCustId: d.owner_cust_id == null ? null : Number(d.owner_cust_id), value: (d.value as string | null) ?? null,
        triggeredAt: new Date((d.triggered_at ?? d.created_at) as string), phones: split(d.phones), emails: split(d.emails),
      };
      const notifier = notifiers.get(Number(d.channel))!;
      const attempts = Number(d.attempts) + 1;
      if (notifier.inTransaction) return { done: await recordResult(tx, notice.deliveryId, attempts, await notifier.send(tx, notice)) };
      await tx.execute(sql`update autorule_deliveries set next_at = now() + make_interval(mins => ${CLAIM_MINUTES}::int) where delivery_id = ${notice.deliveryId}`);
      return { later: { notifier, notice, attempts } };
    });
    if (picked === null) break;
    const done = 'done' in picked ? picked.done
      : await recordResult(db, picked.later.notice.deliveryId, picked.later.attempts, await picked.later.notifier.send(db, picked.later.notice));
    if (done === 'sent') sent++;
    else failed++;
  }
  return { sent, failed };
}
