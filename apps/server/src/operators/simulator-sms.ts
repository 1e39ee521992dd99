import crypto from 'node:crypto';
import type { MoSms, MoSmsPull, SmsReport, SmsReportQuery } from './gateway.ts';
import { deviceOf, planDay } from './simulator-usage.ts';
import { businessDay, businessDayStartMs } from '@lynx/contract';

/**
 * SMS in the network simulator (docs/sms.md), derived like its usage so that every answer is stable and several
 * server processes agree without shared state:
 * - a submitted message's id is derived from the platform's reference of it (a resubmission gets the same id);
 * - its delivery report comes 1 to 5 seconds after the submission: delivered, or not delivered for the stable share
 *   of cards the account's failure rate names (the device did not acknowledge it);
 * - mobile-originated messages are the device's own messages of the usage model (`planDay(...).sms`, the SMS the
 *   simulator's bill charges), each with a text the device kind would send.
 */

const DAY = 86_400_000;
const sha = (...parts: (string | number)[]) => crypto.createHash('sha256').update(parts.join('|')).digest();
const bucket = (...parts: (string | number)[]) => sha(...parts).readUInt32BE(0) % 100;

/** The simulator's message id of a submission: stable for the account and the platform's reference. */
export const simulatorSmsId = (operAccountId: number, clientRef: string): string =>
  `SIM-${sha(operAccountId, 'sms', clientRef).toString('hex').slice(0, 20).toUpperCase()}`;

/** Milliseconds after its submission at which a message's delivery report is ready (1-5 s). */
export const smsReportDelayMs = (messageId: string): number => 1000 + (sha(messageId, 'dr').readUInt32BE(0) % 4000);

/** Whether the simulated device of this card acknowledges the account's messages (the failure rate's stable share does not). */
export const simulatorSmsDelivered = (account: { operAccountId: number; simFailureRate: number }, iccid: string): boolean =>
  !(account.simFailureRate > 0 && bucket(account.operAccountId, iccid, 'sms-delivery') < account.simFailureRate);

export function simulateSmsReports(
  account: { operAccountId: number; simFailureRate: number }, req: SmsReportQuery, now = Date.now(),
): SmsReport[] {
  return req.messages.map(({ messageId, iccid, submittedAt }) => {
    if (!/^SIM-[0-9A-F]{16,20}$/.test(messageId)) {
      return { messageId, state: 'unknown', reportedAt: null, code: 'UNKNOWN', message: `message ${messageId} was not submitted to this platform` };
    }
    const at = submittedAt.getTime() + smsReportDelayMs(messageId);
    if (at > now) return { messageId, state: 'pending', reportedAt: null, code: null, message: null };
    return simulatorSmsDelivered(account, iccid)
      ? { messageId, state: 'delivered', reportedAt: new Date(at).toISOString(), code: 'DELIVRD', message: null }
      : { messageId, state: 'failed', reportedAt: new Date(at).toISOString(), code: 'UNDELIV', message: 'the device did not acknowledge the message' };
  });
}

/** What a device of this kind says in its n-th message of a day (readings, positions, alarms). */
function moText(iccid: string, at: number, n: number): string {
  const h = sha(iccid, at, n);
  const x = (i: number, span: number) => h.readUInt16BE(i) % span;
  switch (deviceOf(iccid).kind) {
    case 'sensor':
      return `TEMP=${(15 + x(0, 200) / 10).toFixed(1)};HUM=${30 + x(2, 50)};BAT=${40 + x(4, 60)}%`;
    case 'tracker':
      return `POS ${(22 + x(0, 1800) / 100).toFixed(5)},${(103 + x(2, 1900) / 100).toFixed(5)} SPD ${x(4, 120)}km/h`;
    default:
      return x(0, 4) === 0 ? `ALARM motion CH${1 + x(2, 4)}` : `HEARTBEAT storage=${20 + x(4, 80)}%`;
  }
}

/** The mobile-originated messages of the cards in [from, to), oldest first per card. */
export function simulateMo(operatorId: number, req: MoSmsPull): MoSms[] {
  const from = req.from.getTime();
  const to = req.to.getTime();
  const out: MoSms[] = [];
  if (!(to > from)) return out;
  const days: { day: string; start: number }[] = [];
  for (let d = businessDay(from); businessDayStartMs(d) < to; d = businessDay(businessDayStartMs(d) + DAY + 3_600_000)) days.push({ day: d, start: businessDayStartMs(d) });
  for (const card of req.cards) {
    const device = deviceOf(card.iccid);
    for (const { day, start } of days) {
      const plan = planDay({ iccid: card.iccid, operatorId, networkTypes: [] }, day, card.test, device, start);
      plan.sms.forEach((at, n) => {
        if (at < from || at >= to) return;
        out.push({
          iccid: card.iccid, msisdn: card.msisdn, messageId: `MO-${sha(card.iccid, at, n).toString('hex').slice(0, 20).toUpperCase()}`,
          sentAt: new Date(at).toISOString(), content: moText(card.iccid, at, n),
        });
      });
    }
  }
  return out;
}

/**
 * The system SMS channel: messages to people's phones (contacts of automation rules), which are no cards of the
 * platform. The simulator stands in for an SMS aggregator: a mainland mobile number (11 digits starting with 1) is
 * accepted and delivered at once, except numbers ending in 0000, which it reports as unreachable (for tests and demos);
 * anything else is refused. A real aggregator would implement the same function.
 */
export interface SystemSmsResult {
  ok: boolean;
  messageId: string | null;
  delivered: boolean;
  code: string;
  message: string | null;
}

export function simulateSystemSms(phone: string, content: string, clientRef: string): SystemSmsResult {
  if (!/^1[0-9]{10}$/.test(phone)) return { ok: false, messageId: null, delivered: false, code: 'INVALID_NUMBER', message: `${phone} is not a mobile number` };
  if (!content) return { ok: false, messageId: null, delivered: false, code: 'INVALID_SMS', message: 'the content is empty' };
  const messageId = `SYS-${sha('system', clientRef).toString('hex').slice(0, 20).toUpperCase()}`;
  if (phone.endsWith('0000')) return { ok: true, messageId, delivered: false, code: 'UNDELIV', message: 'the phone is not reachable' };
  return { ok: true, messageId, delivered: true, code: 'DELIVRD', message: null };
}
