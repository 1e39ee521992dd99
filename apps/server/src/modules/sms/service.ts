// The SMS centre's reads (list, detail, export rows) and the one-card send (docs/sms.md). Every read is scoped by the
// tenant stamped on the message when it was sent or received (the card's tenant at that time): a customer sees the
// messages of its own cards, and a card handed to another customer does not carry its earlier owner's messages along.
import crypto from 'node:crypto';
import { and, count, desc, eq, gte, lt, sql, type SQL } from 'drizzle-orm';
import { ErrorCode, businessDayEnd, businessDayStart, sms as api, type BodyOf } from '@lynx/contract';
import { audit } from '../../platform/audit.ts';
import { AppError, notFound } from '../../platform/errors.ts';
import { tenantFilter, type Actor, type SessionContext } from '../../platform/context.ts';
import { iso, pageOf } from '../../platform/paging.ts';
import { cardSms } from '../card/detail/tables.ts';
import { visibleCard } from '../card/detail/detail.ts';
import { digitPrefix } from '../card/list/iccid-prefix.ts';
import { operatorAccounts } from '../network/opconfig/tables.ts';
import { cardRefusal, checkContent, submitOne, SmsRoutes, type SmsDeps } from './send.ts';

const { SmsStatus, SmsSource } = api;
type SmsRow = typeof cardSms.$inferSelect;
type Filters = Omit<BodyOf<typeof api.getSmsListPage>, 'current' | 'pageSize'>;

/** A message as the card detail's SMS list and the send call answer it (carddetail.CardSms). */
export const cardSmsOut = (r: SmsRow) => ({
  smsId: r.smsId, iccid: r.iccid, msisdn: r.msisdn, direction: r.direction, content: r.content, status: r.status, messageId: r.messageId,
  failReason: r.failReason, createdBy: r.createdBy, createdAt: r.createdAt.toISOString(), updatedAt: iso(r.updatedAt) ?? r.createdAt.toISOString(),
});

/** A message as the SMS centre shows it. */
export const smsRecordOut = (r: SmsRow) => ({
  ...cardSmsOut(r), source: r.source, encoding: r.encoding, batchId: r.batchId, reportCode: r.reportCode, reportAt: iso(r.reportAt),
  submittedAt: iso(r.submittedAt),
});

export class SmsService {
  /** an export's position per task page (exportPage) */
  private exportCursor = new Map<string, string>();

  constructor(
    private deps: SmsDeps,
    /** asks for the delivery reports soon after a submission (the minute schedule would find them too) */
    private kick: () => void = () => {},
  ) {}

  private where(f: Filters, actor: Actor): SQL {
    const w: SQL[] = [tenantFilter(actor, { custId: cardSms.custId, rootCustId: cardSms.rootCustId })];
    if (f.iccid) w.push(f.iccid.length >= 19 ? eq(cardSms.iccid, f.iccid) : digitPrefix(cardSms.iccid, f.iccid));
    if (f.msisdn) w.push(f.msisdn.length >= 11 ? eq(cardSms.msisdn, f.msisdn) : digitPrefix(cardSms.msisdn, f.msisdn));
    if (f.direction !== undefined) w.push(eq(cardSms.direction, f.direction));
    if (f.status !== undefined) w.push(eq(cardSms.status, f.status));
    if (f.source !== undefined) w.push(eq(cardSms.source, f.source));
    if (f.batchId) w.push(eq(cardSms.batchId, f.batchId));
    if (f.createdFrom) w.push(gte(cardSms.createdAt, businessDayStart(f.createdFrom)));
    if (f.createdTo) w.push(lt(cardSms.createdAt, businessDayEnd(f.createdTo)));
    return and(...w)!;
  }

  /** The SMS list, newest first; the count stops after SMS_LIST_COUNT_CAP + 1 matches (totalCapped beyond). */
  async page(b: BodyOf<typeof api.getSmsListPage>, actor: Actor, opts: { total?: boolean; offset?: number } = {}) {
    const p = pageOf(b);
    const cond = this.where(b, actor);
    const db = this.deps.db;
    const cap = api.SMS_LIST_COUNT_CAP;
    const seek = seekAfter(b.after);
    const [rows, total] = await Promise.all([
      db.select().from(cardSms).where(seek ? and(cond, seek) : cond).orderBy(desc(cardSms.createdAt), desc(cardSms.smsId))
        .limit(p.limit).offset(opts.offset ?? (seek ? 0 : p.offset)),
      opts.total === false
        ? Promise.resolve(0)
        : db.select({ n: count() }).from(db.select({ one: sql`1` }).from(cardSms).where(cond).limit(cap + 1).as('matched')).then(([r]) => Number(r.n)),
    ]);
    const last = rows.length === p.pageSize ? rows[rows.length - 1] : null;
    return {
      list: rows.map(smsRecordOut), total: Math.min(total, cap), totalCapped: total > cap, current: p.current, pageSize: p.pageSize,
      next: last ? `${last.createdAt.toISOString()}|${last.smsId}` : null,
    };
  }

  /**
   * One page of a download task, read by key (the list's order: time, then id, newest first) from the previous page's
   * last message, so an export of a million messages never pages with OFFSET. The export reads its pages in order
   * (platform/exports.ts); a page whose predecessor is not known here (another process ran it) falls back to its offset.
   * Not counted: `total` says "more" while pages come full.
   */
  async exportPage(b: BodyOf<typeof api.getSmsListPage>, actor: Actor) {
    const { current = 1, pageSize: _s, ...filters } = b;
    const key = (n: number) => `${actor.accountId}|${JSON.stringify(filters)}|${n}`;
    const known = current > 1 ? this.exportCursor.get(key(current - 1)) : undefined;
    if (known) this.exportCursor.delete(key(current - 1));
    const r = known
      ? await this.page({ ...b, after: known }, actor, { total: false })
      : await this.page(b, actor, { total: false, offset: pageOf(b).offset });
    if (r.next) {
      if (this.exportCursor.size > 1000) this.exportCursor.clear();
      this.exportCursor.set(key(current), r.next);
    }
    return { list: r.list, total: r.next ? Number.MAX_SAFE_INTEGER : (current - 1) * r.pageSize + r.list.length };
  }

  async detail(b: BodyOf<typeof api.getSmsDetail>, actor: Actor) {
    const [row] = await this.deps.db
      .select({ s: cardSms, accountName: operatorAccounts.accountName })
      .from(cardSms)
      .leftJoin(operatorAccounts, eq(operatorAccounts.operAccountId, cardSms.operAccountId))
      .where(and(eq(cardSms.iccid, b.iccid), eq(cardSms.smsId, b.smsId), tenantFilter(actor, { custId: cardSms.custId, rootCustId: cardSms.rootCustId })));
    if (!row) throw notFound();
    return { ...smsRecordOut(row.s), operAccountId: row.s.operAccountId, operAccountName: row.accountName ?? null, ref: row.s.ref };
  }

  /**
   * One message to one card (the card detail's and the SMS centre's "send SMS", 2010006): stored as "sending" first
   * with its audit row (so a crash leaves a true record, which the sweep resubmits under the same reference), then
   * submitted through the card operator's access configuration, then updated with the carrier's answer.
   */
  async sendToCard(b: { iccid: string; content: string }, ctx: SessionContext) {
    const db = this.deps.db;
    const encoding = checkContent(b.content);
    const row = await visibleCard(db, ctx.actor, b.iccid);
    const route = await new SmsRoutes(db, this.deps.config).of(row.operatorId);
    const refusal = cardRefusal(row, route);
    if (refusal || !route.ok || !row.msisdn) throw new AppError(refusal?.code ?? ErrorCode.SmsNoGateway, refusal?.params);
    const smsId = crypto.randomUUID();
    const created = await db.transaction(async (tx) => {
      const [r] = await tx
        .insert(cardSms)
        .values({
          iccid: row.iccid, smsId, msisdn: row.msisdn, content: b.content, status: SmsStatus.Sending, operAccountId: route.operAccountId,
          custId: row.custId, rootCustId: row.rootCustId, createdBy: ctx.actor.loginName, source: SmsSource.Console, encoding,
        })
        .returning();
      await audit(tx, ctx, { entity: 'cardSms', entityId: `${row.iccid}/${smsId}`, custId: row.custId, rootCustId: row.rootCustId, after: r });
      return r;
    });
    const sent = await submitOne({
      smsId, card: { ...row, msisdn: row.msisdn }, route, content: b.content, encoding, source: SmsSource.Console, createdBy: ctx.actor.loginName,
    });
    const after = await recordSubmission(this.deps, sent);
    if (sent.status === SmsStatus.Submitted) this.kick();
    return after ?? created;
  }
}

/** The keyset condition of a list's `after` (`<createdAt ISO>|<smsId>`: messages older than that one). */
function seekAfter(after: string | undefined): SQL | undefined {
  const [at, id] = after ? after.split('|') : [];
  return at && !Number.isNaN(Date.parse(at)) ? sql`(${cardSms.createdAt}, ${cardSms.smsId}) < (${at}::timestamptz, ${id}::uuid)` : undefined;
}

/** Writes the carrier's answer on a stored "sending" message (a message a report already moved on is left alone). */
export async function recordSubmission(
  deps: Pick<SmsDeps, 'db'>, s: { smsId: string; card: { iccid: string }; status: number; messageId: string | null; failReason: string | null; submittedAt: Date | null },
): Promise<SmsRow | undefined> {
  const final = s.status === SmsStatus.Sent || s.status === SmsStatus.SendFailed;
  const [after] = await deps.db
    .update(cardSms)
    .set({
      status: s.status, messageId: s.messageId, failReason: s.failReason, submittedAt: s.submittedAt, updatedAt: new Date(),
      reportCode: final ? (s.status === SmsStatus.Sent ? 'DELIVRD' : 'UNDELIV') : null, reportAt: final ? s.submittedAt : null,
    })
    .where(and(eq(cardSms.iccid, s.card.iccid), eq(cardSms.smsId, s.smsId), eq(cardSms.status, SmsStatus.Sending)))
    .returning();
  return after;
}
