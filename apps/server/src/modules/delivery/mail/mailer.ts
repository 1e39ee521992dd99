import nodemailer, { type Transporter } from 'nodemailer';
import { sql } from 'drizzle-orm';
import { isEmail } from '@lynx/contract';
import type { Db } from '../../../db/client.ts';
import { rowsOf } from '../../billing/bills/bill-sql.ts';
import { loadMailConfig, type MailConfig } from './mail-config.ts';

/** What happened to one e-mail (mail_deliveries.state). */
export const MailState = { Sent: 1, Failed: 2 } as const;
export type MailState = (typeof MailState)[keyof typeof MailState];

export interface MailMessage {
  to: string[];
  subject: string;
  text: string;
  html?: string;
  /** who asked for it, kept on the delivery record (e.g. 'autorule:<ruleId>:<alarmId>') */
  source?: string;
  /** the tenant the message belongs to */
  custId?: number | null;
  rootCustId?: number | null;
}

export interface MailDelivery {
  deliveryId: number;
  state: MailState;
  messageId: string | null;
  /** why it failed (the SMTP server's answer or ours), null when sent */
  error: string | null;
  accepted: string[];
  rejected: string[];
}

/** Recipients one message may have (a rule has at most 5, spec §9; more is a caller's mistake). */
export const MAIL_MAX_RECIPIENTS = 50;
const SUBJECT_MAX = 998;

/**
 * Sends e-mail through the configured SMTP server and records every attempt in mail_deliveries (to, subject, state,
 * error, message id, time), so a caller such as the automation engine can show what each alarm sent. Sending never
 * throws for a delivery problem: the answer says sent or failed and why; a caller that wants retries asks again.
 */
export class Mailer {
  private transport: Transporter | null;

  constructor(private db: Db, readonly config: MailConfig | null) {
    this.transport = config
      ? nodemailer.createTransport({
        host: config.host, port: config.port, secure: config.secure,
        auth: config.user ? { user: config.user, pass: config.password ?? '' } : undefined,
        tls: { rejectUnauthorized: config.tlsVerify },
        connectionTimeout: 15_000, greetingTimeout: 15_000, socketTimeout: 60_000,
      })
      : null;
  }

  async sendMail(m: MailMessage): Promise<MailDelivery> {
    const to = [...new Set(m.to.map((a) => a.trim()).filter(Boolean))];
    const subject = m.subject.replace(/[\r\n]+/g, ' ').slice(0, SUBJECT_MAX);
    let problem: string | null = null;
    if (!this.transport) problem = 'no mail server is configured (CMP_SMTP_HOST)';
    else if (!to.length) problem = 'no recipient';
    else if (to.length > MAIL_MAX_RECIPIENTS) problem = `more than ${MAIL_MAX_RECIPIENTS} recipients`;
    else {
      const bad = to.filter((a) => !isEmail(a));
      if (bad.length) problem = `not an e-mail address: ${bad.join(', ')}`;
    }
    const [{ delivery_id: id }] = rowsOf<{ delivery_id: string | number }>(await this.db.execute(sql`insert into mail_deliveries
        (to_addrs, subject, state, error, source, cust_id, root_cust_id, finished_at)
      values (${sql.param(to)}::text[], ${subject}, ${MailState.Failed}, ${problem ?? 'sending'}, ${m.source ?? null}, ${m.custId ?? null}, ${m.rootCustId ?? null},
        ${problem ? sql`now()` : sql`null`})
      returning delivery_id`));
    const deliveryId = Number(id);
    if (problem) return { deliveryId, state: MailState.Failed, messageId: null, error: problem, accepted: [], rejected: to };
    try {
      const info = await this.transport!.sendMail({ from: this.config!.from, to, subject, text: m.text, html: m.html });
      const accepted = (info.accepted ?? []).map(String);
      const rejected = (info.rejected ?? []).map(String);
      const state = accepted.length ? MailState.Sent : MailState.Failed;
      const error = rejected.length ? `rejected by the server: ${rejected.join(', ')}` : null;
      await this.db.execute(sql`update mail_deliveries set state = ${state}, error = ${error}, message_id = ${info.messageId ?? null}, finished_at = now()
        where delivery_id = ${deliveryId}`);
      return { deliveryId, state, messageId: info.messageId ?? null, error, accepted, rejected };
    } catch (e) {
      const error = describeSmtpError(e);
      await this.db.execute(sql`update mail_deliveries set state = ${MailState.Failed}, error = ${error}, finished_at = now() where delivery_id = ${deliveryId}`);
      return { deliveryId, state: MailState.Failed, messageId: null, error, accepted: [], rejected: to };
    }
  }

  /** Checks the server answers and accepts the sign-in (for an operator's health check). */
  async verify(): Promise<{ ok: boolean; error: string | null }> {
    if (!this.transport) return { ok: false, error: 'no mail server is configured (CMP_SMTP_HOST)' };
    try {
      await this.transport.verify();
      return { ok: true, error: null };
    } catch (e) {
      return { ok: false, error: describeSmtpError(e) };
    }
  }

  close(): void {
    this.transport?.close();
  }
}

/** The SMTP failure as a sentence: the server's reply when there is one, else the network error. */
export function describeSmtpError(e: unknown): string {
  const err = e as { code?: string; responseCode?: number; response?: string; message?: string };
  const text = `${err.code ?? ''} ${err.message ?? ''}`;
  if (err.code === 'EAUTH') return `sign-in to the mail server failed${err.response ? `: ${err.response}` : ''}`.slice(0, 500);
  if (err.responseCode && err.response) return `SMTP ${err.responseCode}: ${err.response}`.slice(0, 500);
  if (/ECONNREFUSED/.test(text)) return 'the mail server refused the connection';
  if (/EDNS|ENOTFOUND|EAI_AGAIN/.test(text)) return 'the mail server\'s host was not found';
  if (/ETIMEDOUT|timeout/i.test(text)) return 'the mail server did not answer in time';
  return (err.message ?? String(e)).slice(0, 500);
}

const mailers = new WeakMap<Db, Mailer>();

/** The mailer of this process for a database, configured from the environment (CMP_SMTP_*). */
export function mailerFor(db: Db, env: NodeJS.ProcessEnv = process.env): Mailer {
  let m = mailers.get(db);
  if (!m) {
    m = new Mailer(db, loadMailConfig(env));
    mailers.set(db, m);
  }
  return m;
}

/** A delivery record as stored (for a caller listing what a message did). */
export async function mailDelivery(db: Db, deliveryId: number) {
  const [r] = rowsOf<Record<string, unknown>>(await db.execute(sql`select delivery_id, to_addrs, subject, state, error, message_id, source,
    created_at, finished_at from mail_deliveries where delivery_id = ${deliveryId}`));
  if (!r) return null;
  return {
    deliveryId: Number(r.delivery_id), to: r.to_addrs as string[], subject: String(r.subject), state: Number(r.state) as MailState,
    error: (r.error as string | null) ?? null, messageId: (r.message_id as string | null) ?? null, source: (r.source as string | null) ?? null,
    createdAt: new Date(r.created_at as string).toISOString(), finishedAt: r.finished_at ? new Date(r.finished_at as string).toISOString() : null,
  };
}
