// Sending SMS to cards (docs/sms.md): the one path every message to a device takes — the card detail, a batch, an
// automation rule. A card receives SMS in test or activated state, with an MSISDN, through the access configuration
// of its operator (the oldest one, as for card changes and usage). Each message carries the platform's id to the
// carrier as its reference, so a resubmission (after a crash) is answered with the first message id and never reaches
// the device twice. The carrier's answer makes it "submission succeeded" or "submission failed"; the delivery report
// comes later (reports.ts).
import crypto from 'node:crypto';
import { asc, eq, sql } from 'drizzle-orm';
import { CardState, ErrorCode, errorMessage, sms as api, type Lang } from '@lynx/contract';
import type { Executor } from '../../db/client.ts';
import type { Config } from '../../config.ts';
import type { OperatorGateway } from '../../operators/gateway.ts';
import { AppError } from '../../platform/errors.ts';
import { gatewayOfAccount } from '../network/opconfig/service.ts';
import { secretBoxFor, type SecretBox } from '../network/opconfig/secrets.ts';
import { operatorAccounts } from '../network/opconfig/tables.ts';

const { SmsStatus, SmsDirection, SmsEncoding } = api;

export interface SmsDeps {
  db: import('../../db/client.ts').Db;
  config: Pick<Config, 'secretKey' | 'dataDir'>;
}

export const rowsOf = <T>(r: unknown): T[] => ((r as { rows?: T[] }).rows ?? (r as T[]));

/** Card states that receive SMS: on the network (spec §4). */
export const SMS_STATES: readonly number[] = [CardState.Test, CardState.Activated];

/** A card as sending needs it. */
export interface SmsCard {
  iccid: string;
  msisdn: string | null;
  state: number;
  operatorId: number;
  custId: number | null;
  rootCustId: number | null;
}

export const SMS_CARD_COLUMNS = sql`iccid, msisdn, state, operator_id as "operatorId", cust_id as "custId", root_cust_id as "rootCustId"`;

/** A refusal with its message in both languages. */
export interface Refusal {
  code: ErrorCode;
  params?: Record<string, string | number>;
}
export const refusalText = (r: Refusal, lang: Lang) => errorMessage(r.code, lang, r.params);

/** The text checked: not empty, one part in its encoding; answers the encoding. */
export function checkContent(content: string): number {
  if (!content || !content.trim()) throw new AppError(ErrorCode.SmsContentEmpty, undefined, 200, { field: 'content' });
  const len = api.smsLength(content);
  if (!len.fits) {
    throw new AppError(ErrorCode.SmsContentTooLong, {
      units: len.units, max: len.max,
      encodingZh: SmsEncoding.label(len.encoding, 'zh'), encodingEn: SmsEncoding.label(len.encoding, 'en'),
    }, 200, { field: 'content' });
  }
  return len.encoding;
}

export type Route = { ok: true; operAccountId: number; gateway: OperatorGateway } | { ok: false; refusal: Refusal };

/** The access configuration each operator's SMS go through, looked up once per operator for a run. */
export class SmsRoutes {
  private cache = new Map<number, Promise<Route>>();
  private box: SecretBox;

  constructor(private ex: Executor, config: SmsDeps['config'], box?: SecretBox) {
    this.box = box ?? secretBoxFor(config);
  }

  of(operatorId: number): Promise<Route> {
    let r = this.cache.get(operatorId);
    if (!r) this.cache.set(operatorId, (r = this.load(operatorId)));
    return r;
  }

  /** The route of one access configuration (a message already sent through it). */
  async ofAccount(operAccountId: number): Promise<Route> {
    const [account] = await this.ex.select().from(operatorAccounts).where(eq(operatorAccounts.operAccountId, operAccountId));
    return this.open(account);
  }

  private async load(operatorId: number): Promise<Route> {
    const [account] = await this.ex.select().from(operatorAccounts).where(eq(operatorAccounts.operatorId, operatorId))
      .orderBy(asc(operatorAccounts.operAccountId)).limit(1);
    return this.open(account);
  }

  private open(account: typeof operatorAccounts.$inferSelect | undefined): Route {
    if (!account) return { ok: false, refusal: { code: ErrorCode.SmsNoGateway } };
    try {
      const gateway = gatewayOfAccount(this.box, account);
      return gateway ? { ok: true, operAccountId: account.operAccountId, gateway } : { ok: false, refusal: { code: ErrorCode.SmsNoGateway } };
    } catch {
      // the stored credentials cannot be opened (the secret key changed): nothing can be sent through it
      return { ok: false, refusal: { code: ErrorCode.SmsGatewayUnusable } };
    }
  }
}

/** Why this card cannot get an SMS now (null: it can). The same rule as the card detail's "send SMS" offer. */
export function cardRefusal(card: SmsCard, route: Route | null): Refusal | null {
  if (!SMS_STATES.includes(card.state)) {
    return { code: ErrorCode.SmsCardNotReachable, params: { stateZh: CardState.label(card.state, 'zh'), stateEn: CardState.label(card.state, 'en') } };
  }
  if (!card.msisdn) return { code: ErrorCode.SmsNoMsisdn };
  if (route && !route.ok) return route.refusal;
  return null;
}

/** A uuid derived from its parts: the same batch item or automation reference always names the same message. */
export function derivedUuid(...parts: (string | number)[]): string {
  const h = crypto.createHash('sha256').update(parts.join('|')).digest('hex');
  const variant = ((parseInt(h[16], 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** One message to submit. */
export interface Submission {
  smsId: string;
  card: SmsCard & { msisdn: string };
  route: Extract<Route, { ok: true }>;
  content: string;
  encoding: number;
  source: number;
  batchId?: string | null;
  ref?: string | null;
  createdBy: string | null;
}

/** A submitted message as stored. */
export interface Submitted extends Submission {
  status: number;
  messageId: string | null;
  failReason: string | null;
  submittedAt: Date | null;
}

const SUBMIT_CONCURRENCY = 16;

/** Submits the messages (up to 16 calls at once); a carrier's refusal is an outcome, not an exception. */
export async function submitAll(subs: Submission[]): Promise<Submitted[]> {
  const out: Submitted[] = new Array(subs.length);
  let next = 0;
  const worker = async () => {
    while (next < subs.length) {
      const i = next++;
      out[i] = await submitOne(subs[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(SUBMIT_CONCURRENCY, subs.length) }, worker));
  return out;
}

export async function submitOne(s: Submission): Promise<Submitted> {
  let r: Awaited<ReturnType<OperatorGateway['sendSms']>>;
  try {
    r = await s.route.gateway.sendSms({ iccid: s.card.iccid, msisdn: s.card.msisdn, content: s.content, clientRef: s.smsId });
  } catch (err) {
    // an adapter that throws (a network error of a real carrier) is a failed submission the user can see
    return { ...s, status: SmsStatus.SubmitFailed, messageId: null, failReason: `ERROR: ${(err as Error).message}`.slice(0, 500), submittedAt: null };
  }
  if (!r.ok) return { ...s, status: SmsStatus.SubmitFailed, messageId: null, failReason: `${r.code}: ${r.message}`.slice(0, 500), submittedAt: null };
  const d = r.data;
  // a carrier that reports delivery at once moves the message straight on
  const status = d.delivered === true ? SmsStatus.Sent : d.delivered === false ? SmsStatus.SendFailed : SmsStatus.Submitted;
  return {
    ...s, status, messageId: d.messageId, failReason: d.delivered === false ? (d.deliveryError ?? 'UNDELIV').slice(0, 500) : null,
    submittedAt: new Date(d.acceptedAt),
  };
}

/** Stores submitted messages, one statement; a message already stored (the same id) is left as it is. */
export async function insertSubmitted(ex: Executor, rows: Submitted[]): Promise<void> {
  if (!rows.length) return;
  const col = (f: (r: Submitted) => unknown) => sql.param(rows.map(f));
  await ex.execute(sql`
    insert into card_sms (iccid, sms_id, msisdn, direction, content, status, oper_account_id, message_id, fail_reason, cust_id, root_cust_id,
      created_by, source, batch_id, encoding, submitted_at, report_code, report_at, ref)
    select t.iccid, t.sms_id, t.msisdn, ${SmsDirection.ToDevice}::smallint, t.content, t.status, t.account, t.message_id, t.fail_reason, t.cust_id, t.root_cust_id,
      t.created_by, t.source, t.batch_id, t.encoding, t.submitted_at,
      case when t.status in (${SmsStatus.Sent}, ${SmsStatus.SendFailed}) then case when t.status = ${SmsStatus.Sent} then 'DELIVRD' else 'UNDELIV' end end,
      case when t.status in (${SmsStatus.Sent}, ${SmsStatus.SendFailed}) then t.submitted_at end, t.ref
    from unnest(${col((r) => r.card.iccid)}::text[], ${col((r) => r.smsId)}::uuid[], ${col((r) => r.card.msisdn)}::text[], ${col((r) => r.content)}::text[],
      ${col((r) => r.status)}::smallint[], ${col((r) => r.route.operAccountId)}::int[], ${col((r) => r.messageId)}::text[], ${col((r) => r.failReason)}::text[],
      ${col((r) => r.card.custId)}::int[], ${col((r) => r.card.rootCustId)}::int[], ${col((r) => r.createdBy)}::text[], ${col((r) => r.source)}::smallint[],
      ${col((r) => r.batchId ?? null)}::uuid[], ${col((r) => r.encoding)}::smallint[], ${col((r) => r.submittedAt?.toISOString() ?? null)}::timestamptz[],
      ${col((r) => r.ref ?? null)}::text[])
      as t (iccid, sms_id, msisdn, content, status, account, message_id, fail_reason, cust_id, root_cust_id, created_by, source, batch_id, encoding, submitted_at, ref)
    on conflict (iccid, sms_id) do nothing`);
}

/** Cards by ICCID, as sending needs them. */
export async function smsCards(ex: Executor, iccids: string[]): Promise<Map<string, SmsCard>> {
  if (!iccids.length) return new Map();
  const rows = rowsOf<SmsCard>(await ex.execute(sql`select ${SMS_CARD_COLUMNS} from cards where iccid = any(${sql.param(iccids)}::text[])`));
  return new Map(rows.map((r) => [r.iccid, { ...r, operatorId: Number(r.operatorId) }]));
}
