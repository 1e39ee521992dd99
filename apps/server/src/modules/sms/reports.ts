// Delivery reports (docs/sms.md): the job asks the carriers for the reports of the submitted messages, oldest first,
// through the access configuration each went through, and moves them to "sending succeeded" or "sending failed".
// Everything it knows is in card_sms (state 2, the partial index card_sms_awaiting_report_ix), so a restart loses
// nothing: the next run asks again. A message without a report 72 hours after its submission is failed as EXPIRED.
// The same job resubmits messages that were stored but never answered (a crash between storing and submitting),
// under their own id as the reference, so the carrier does not send them twice.
import { sql } from 'drizzle-orm';
import { WebhookEventType, sms as api } from '@lynx/contract';
import type { SmsReport } from '../../operators/gateway.ts';
import { rowsOf, SmsRoutes, submitOne, type SmsDeps } from './send.ts';
import { recordSubmission } from './service.ts';
import { enqueueEvents } from '../delivery/webhook/outbox.ts';

const { SmsStatus, SmsSource } = api;

export const SMS_REPORTS_QUEUE = 'sms-reports';
/** messages asked per carrier call */
const REPORT_PAGE = 500;
/** no report this long after the submission: the message failed */
export const SMS_REPORT_EXPIRY_MS = 72 * 3_600_000;
/** a message stored this long ago and still "sending" was never submitted (its process died): submit it again */
const RESUBMIT_AFTER_MS = 60_000;

interface Awaiting {
  iccid: string;
  sms_id: string;
  message_id: string;
  submitted_at: Date | string;
  oper_account_id: number | null;
}

interface ReportUpdate {
  iccid: string;
  smsId: string;
  status: number;
  code: string | null;
  at: Date;
  reason: string | null;
}

export interface ReportRun {
  asked: number;
  delivered: number;
  failed: number;
  pending: number;
  resubmitted: number;
}

/** One pass over the messages waiting for a report (within a time budget); safe to run in two processes at once. */
export async function pollSmsReports(deps: SmsDeps, now = new Date(), budgetMs = 40_000): Promise<ReportRun> {
  const started = Date.now();
  const run: ReportRun = { asked: 0, delivered: 0, failed: 0, pending: 0, resubmitted: 0 };
  const routes = new SmsRoutes(deps.db, deps.config);
  type Cursor = { at: string; iccid: string; smsId: string };
  let after: Cursor | null = null;
  while (Date.now() - started < budgetMs) {
    const cursor: Cursor | null = after;
    const page: Awaiting[] = rowsOf<Awaiting>(await deps.db.execute(sql`
      select iccid, sms_id, message_id, submitted_at, oper_account_id from card_sms
      where status = ${SmsStatus.Submitted} and direction = 1 and submitted_at is not null
        ${cursor ? sql`and (submitted_at, iccid, sms_id) > (${cursor.at}::timestamptz, ${cursor.iccid}, ${cursor.smsId}::uuid)` : sql``}
      order by submitted_at, iccid, sms_id limit ${REPORT_PAGE}`));
    if (!page.length) break;
    const last: Awaiting = page[page.length - 1];
    after = { at: new Date(last.submitted_at).toISOString(), iccid: last.iccid, smsId: last.sms_id };
    const updates: ReportUpdate[] = [];
    const byAccount = new Map<number, Awaiting[]>();
    for (const m of page) {
      const list = byAccount.get(m.oper_account_id ?? 0) ?? [];
      list.push(m);
      byAccount.set(m.oper_account_id ?? 0, list);
    }
    for (const [accountId, messages] of byAccount) {
      const route = accountId ? await routes.ofAccount(accountId) : null;
      let reports: SmsReport[] = [];
      if (route?.ok) {
        const r = await route.gateway.querySmsReports({
          messages: messages.map((m) => ({ messageId: m.message_id, iccid: m.iccid, submittedAt: new Date(m.submitted_at) })),
        }).catch(() => null);
        if (r?.ok) reports = r.data;
      }
      const byId = new Map(reports.map((r) => [r.messageId, r]));
      run.asked += messages.length;
      for (const m of messages) {
        const r = byId.get(m.message_id);
        if (r?.state === 'delivered') {
          updates.push({ iccid: m.iccid, smsId: m.sms_id, status: SmsStatus.Sent, code: r.code ?? 'DELIVRD', at: r.reportedAt ? new Date(r.reportedAt) : now, reason: null });
          run.delivered++;
        } else if (r?.state === 'failed' || r?.state === 'unknown') {
          updates.push({
            iccid: m.iccid, smsId: m.sms_id, status: SmsStatus.SendFailed, code: r.code ?? 'UNDELIV', at: r.reportedAt ? new Date(r.reportedAt) : now,
            reason: `${r.code ?? 'UNDELIV'}: ${r.message ?? 'not delivered'}`.slice(0, 500),
          });
          run.failed++;
        } else if (now.getTime() - new Date(m.submitted_at).getTime() > SMS_REPORT_EXPIRY_MS) {
          // no report within the validity period (or the access configuration is gone): the carrier gave up on it
          updates.push({ iccid: m.iccid, smsId: m.sms_id, status: SmsStatus.SendFailed, code: 'EXPIRED', at: now, reason: 'EXPIRED: no delivery report within 72 hours' });
          run.failed++;
        } else {
          run.pending++;
        }
      }
    }
    await applyReports(deps, updates);
    if (page.length < REPORT_PAGE) break;
  }
  run.resubmitted = await resubmitStale(deps, routes, now);
  return run;
}

/**
 * Writes reports on messages still waiting for one (a report never moves a message twice) and, in the same
 * transaction, an `sms.delivery_report` webhook event for each message it moved (docs/webhooks.md): one outbox call
 * for the page, to the customer the message belongs to.
 */
export async function applyReports(deps: Pick<SmsDeps, 'db'>, updates: ReportUpdate[]): Promise<void> {
  if (!updates.length) return;
  const col = (f: (u: ReportUpdate) => unknown) => sql.param(updates.map(f));
  await deps.db.transaction(async (tx) => {
    const moved = rowsOf<{ sms_id: string; iccid: string; msisdn: string | null; cust_id: number | null; status: number; report_code: string | null; report_at: Date | string }>(
      await tx.execute(sql`
        update card_sms s set status = t.status, report_code = t.code, report_at = t.at, fail_reason = t.reason, updated_at = now()
        from unnest(${col((u) => u.iccid)}::text[], ${col((u) => u.smsId)}::uuid[], ${col((u) => u.status)}::smallint[], ${col((u) => u.code)}::text[],
          ${col((u) => u.at.toISOString())}::timestamptz[], ${col((u) => u.reason)}::text[]) as t (iccid, sms_id, status, code, at, reason)
        where s.iccid = t.iccid and s.sms_id = t.sms_id and s.status = ${SmsStatus.Submitted}
        returning s.sms_id, s.iccid, s.msisdn, s.cust_id, s.status, s.report_code, s.report_at`));
    await enqueueEvents(tx, moved.filter((m) => m.cust_id != null).map((m) => {
      const at = new Date(m.report_at);
      return {
        custId: Number(m.cust_id), type: WebhookEventType.SmsDeliveryReport, at,
        payload: {
          smsId: String(m.sms_id), iccid: m.iccid, msisdn: m.msisdn ?? null, custId: Number(m.cust_id), state: Number(m.status),
          reportCode: m.report_code ?? null, reportedAt: at.toISOString(),
        },
      };
    }));
  });
}

/** Messages stored as "sending" and never answered: submitted again under their own id (the carrier dedupes by it). */
async function resubmitStale(deps: SmsDeps, routes: SmsRoutes, now: Date): Promise<number> {
  const stale = rowsOf<{ iccid: string; sms_id: string; msisdn: string | null; content: string; oper_account_id: number | null; encoding: number | null }>(
    await deps.db.execute(sql`
      select iccid, sms_id, msisdn, content, oper_account_id, encoding from card_sms
      where status = ${SmsStatus.Sending} and direction = 1 and created_at < ${new Date(now.getTime() - RESUBMIT_AFTER_MS).toISOString()}::timestamptz
      order by created_at limit 200`),
  );
  let n = 0;
  for (const m of stale) {
    const route = m.oper_account_id ? await routes.ofAccount(m.oper_account_id) : null;
    if (!route?.ok || !m.msisdn) {
      await recordSubmission(deps, {
        smsId: m.sms_id, card: { iccid: m.iccid }, status: SmsStatus.SubmitFailed, messageId: null, submittedAt: null,
        failReason: 'NO_ROUTE: the access configuration the message was to go through is no longer usable',
      });
      continue;
    }
    const sent = await submitOne({
      smsId: m.sms_id, route, content: m.content, encoding: m.encoding ?? 1, source: SmsSource.Console, createdBy: null,
      card: { iccid: m.iccid, msisdn: m.msisdn, state: 0, operatorId: 0, custId: null, rootCustId: null },
    });
    await recordSubmission(deps, sent);
    n++;
  }
  return n;
}
