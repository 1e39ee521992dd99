import crypto from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import {
  businessDay, businessDayEnd, businessDayStartMs, ErrorCode, fenToMoney, formatMoney, JournalKind, LedgerAccount, moneyToFen,
  PayChannel, PayState, RechargeAuditState, RECHARGE_RULES, RefundState, type BodyOf, type Lang, type recharge as api,
} from '@lynx/contract';
import type { Db, Executor, Tx } from '../../../db/client.ts';
import { AppError, denied, invalid, notFound } from '../../../platform/errors.ts';
import { audit } from '../../../platform/audit.ts';
import { isStaff, type Actor, type RequestContext, type SessionContext } from '../../../platform/context.ts';
import { contains, pageOf } from '../../../platform/paging.ts';
import { customerScope, moneyCustomer } from '../capital-service.ts';
import { lockBalances, postJournal, withdrawableFen } from '../ledger.ts';
import { addWorkingDays } from '../workdays.ts';
import type { PaymentGateway, PaymentQuery, VerifiedNotification } from '../../../payments/gateway.ts';
import { adapterName, type PaymentRegistry } from '../../../payments/registry.ts';

const rowsOf = <T>(r: unknown): T[] => ((r as { rows?: T[] }).rows ?? (r as T[]));
const MAX_FEN = moneyToFen(RECHARGE_RULES.maxAmount)!;
/** A refund still pending this long after it was recorded is asked of its channel (a channel call times out well before). */
export const REFUND_RECONCILE_AFTER_MINUTES = 5;
/** How long a refund waits for the channel's answer before it is left pending for the reconciliation. */
export const REFUND_CALL_TIMEOUT_MS = 60_000;

/** The channel's answer, or a rejection once `ms` have passed (the call itself may still complete at the channel). */
function within<T>(call: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms / 1000} s`)), ms);
  });
  return Promise.race([call, late]).finally(() => clearTimeout(timer));
}
const iso = (v: unknown) => (v == null ? null : new Date(v as string).toISOString());

/** A positive amount of at most the top-up maximum, in fen; 20801 otherwise. */
export function amountFen(text: string): bigint {
  const fen = moneyToFen(text);
  if (fen === null || fen <= 0n || fen > MAX_FEN) throw new AppError(ErrorCode.MoneyAmountInvalid, { max: formatMoney(RECHARGE_RULES.maxAmount) });
  return fen;
}

/** Characters as people count them (an emoji is one). */
const chars = (s: string) => [...s].length;
function note(text: string | undefined, field: string, max: number): string | null {
  const t = text?.trim() ?? '';
  if (chars(t) > max) throw invalid(field, { zh: `不能超过 ${max} 个字符`, en: `at most ${max} characters` });
  return t || null;
}

const numberOf = (prefix: string) => `${prefix}${businessDay(Date.now()).replaceAll('-', '')}${crypto.randomBytes(5).toString('hex').toUpperCase()}`;

const COLS = sql.raw(`r.recharge_id, r.recharge_no, r.cust_id, r.root_cust_id, c.cust_name, r.channel, r.amount::text as amount,
  r.refunded::text as refunded, r.pay_state, r.audit_state, r.due_at, r.serial_no, to_char(r.transfer_date, 'YYYY-MM-DD') as transfer_date,
  r.proof_file_id, r.note, r.pay_order_no, r.trade_no, r.gateway, r.expires_at, r.review_reason, r.reviewed_by, r.reviewed_at,
  r.created_by, r.created_at, r.paid_at, (r.audit_state = 0 and r.due_at < now()) as overdue`);

function rowOut(r: Record<string, unknown>) {
  return {
    rechargeId: Number(r.recharge_id), rechargeNo: String(r.recharge_no), custId: Number(r.cust_id), custName: (r.cust_name as string | null) ?? null,
    channel: Number(r.channel), amount: String(r.amount), refunded: String(r.refunded), payState: Number(r.pay_state),
    auditState: r.audit_state == null ? null : Number(r.audit_state), dueAt: iso(r.due_at), overdue: r.overdue === true,
    serialNo: (r.serial_no as string | null) ?? null, transferDate: (r.transfer_date as string | null) ?? null, hasProof: r.proof_file_id != null,
    note: (r.note as string | null) ?? null, payOrderNo: (r.pay_order_no as string | null) ?? null, tradeNo: (r.trade_no as string | null) ?? null,
    gateway: (r.gateway as string | null) ?? null, expiresAt: iso(r.expires_at), reviewReason: (r.review_reason as string | null) ?? null,
    reviewedBy: (r.reviewed_by as string | null) ?? null, reviewedAt: iso(r.reviewed_at), createdBy: (r.created_by as string | null) ?? null,
    createdAt: iso(r.created_at)!, paidAt: iso(r.paid_at),
  };
}

const SORTS: Record<string, string> = {
  amount: 'r.amount', createdAt: 'r.created_at', paidAt: 'r.paid_at', dueAt: 'r.due_at', custName: 'c.cust_name',
};

type OrderRow = { recharge_id: number; recharge_no: string; cust_id: number; root_cust_id: number; channel: number; amount: string; refunded: string; pay_state: number; audit_state: number | null; pay_order_no: string | null; gateway: string | null; journal_id: string | null };

/** Locks one top-up (for update) by a condition; null when there is none. */
async function lockOrder(tx: Executor, where: SQL): Promise<OrderRow | null> {
  const [row] = rowsOf<OrderRow>(await tx.execute(sql`select recharge_id, recharge_no, cust_id, root_cust_id, channel, amount::text as amount,
    refunded::text as refunded, pay_state, audit_state, pay_order_no, gateway, journal_id from recharge_orders r where ${where} for update`));
  return row ?? null;
}

const SYSTEM_BY = (gateway: string) => ({ accountId: null, loginName: `payment:${gateway}` });

/**
 * Business › Recharge (docs/payments.md): online top-ups through a PaymentGateway, public transfers with finance
 * review, refunds. Every credit or refund is a ledger journal posted in the same transaction as the order's state
 * change and its audit record; a refusal changes nothing.
 */
export class RechargeService {
  constructor(
    private db: Db,
    private gateways: PaymentRegistry,
  ) {}

  async list(q: BodyOf<typeof api.getRechargePage>, actor: Actor) {
    const p = pageOf(q);
    const where: SQL[] = [customerScope(actor)];
    if (q.channel !== undefined) where.push(sql`r.channel = ${q.channel}`);
    if (q.payState !== undefined) where.push(sql`r.pay_state = ${q.payState}`);
    if (q.auditState !== undefined) where.push(sql`r.audit_state = ${q.auditState}`);
    if (q.custId !== undefined) where.push(sql`r.cust_id = ${q.custId}`);
    if (q.custName) where.push(sql`c.cust_name ilike ${contains(q.custName)}`);
    if (q.serialNo) where.push(sql`r.serial_no ilike ${contains(q.serialNo)}`);
    if (q.rechargeNo) where.push(sql`r.recharge_no ilike ${contains(q.rechargeNo)}`);
    if (q.overdue) where.push(sql`r.audit_state = 0 and r.due_at < now()`);
    if (q.startDate) where.push(sql`r.created_at >= ${new Date(businessDayStartMs(q.startDate)).toISOString()}::timestamptz`);
    if (q.endDate) where.push(sql`r.created_at < ${businessDayEnd(q.endDate).toISOString()}::timestamptz`);
    const cond = sql.join(where, sql` and `);
    const sort = q.sortField && SORTS[q.sortField] ? sql.raw(`${SORTS[q.sortField]} ${q.sortOrder === 'ascend' ? 'asc' : 'desc'} nulls last, `) : sql``;
    const rows = rowsOf<Record<string, unknown>>(await this.db.execute(sql`select ${COLS}
      from recharge_orders r join customers c on c.cust_id = r.cust_id
      where ${cond} order by ${sort}r.recharge_id desc limit ${p.limit} offset ${p.offset}`));
    const [{ n }] = rowsOf<{ n: string }>(await this.db.execute(sql`select count(*) as n from recharge_orders r join customers c on c.cust_id = r.cust_id where ${cond}`));
    return { list: rows.map(rowOut), total: Number(n), current: p.current, pageSize: p.pageSize };
  }

  /** One top-up the actor may see (NotFound otherwise, whether it exists or not). */
  private async visible(ex: Executor, actor: Actor, rechargeId: number) {
    const [row] = rowsOf<Record<string, unknown>>(await ex.execute(sql`select ${COLS}, r.journal_id
      from recharge_orders r join customers c on c.cust_id = r.cust_id where r.recharge_id = ${rechargeId} and ${customerScope(actor)}`));
    if (!row) throw notFound();
    return row;
  }

  async detail(rechargeId: number, actor: Actor) {
    const row = await this.visible(this.db, actor, rechargeId);
    // failed refunds (refused by the channel, journal reversed) are not refunds of it
    const refunds = rowsOf<Record<string, unknown>>(await this.db.execute(sql`select refund_id, refund_no, amount::text as amount, reason, state, created_by, created_at
      from recharge_refunds where recharge_id = ${rechargeId} and state <> ${RefundState.Failed} order by refund_id`));
    // the channel's raw notifications are the platform's records: staff only
    const notifications = isStaff(actor) && row.pay_order_no
      ? rowsOf<Record<string, unknown>>(await this.db.execute(sql`select notification_id, gateway, state, outcome, received_at
          from payment_notifications where pay_order_no = ${row.pay_order_no as string} order by notification_id`))
      : [];
    const out = rowOut(row);
    return {
      ...out,
      refundable: Number(out.payState) === PayState.Confirmed ? fenToMoney(moneyToFen(out.amount)! - moneyToFen(out.refunded)!) : '0.00',
      refunds: refunds.map((r) => ({ refundId: Number(r.refund_id), refundNo: String(r.refund_no), amount: String(r.amount), reason: String(r.reason), state: Number(r.state), createdBy: (r.created_by as string | null) ?? null, createdAt: iso(r.created_at)! })),
      notifications: notifications.map((n) => ({ notificationId: Number(n.notification_id), gateway: String(n.gateway), state: (n.state as string | null) ?? null, outcome: String(n.outcome), receivedAt: iso(n.received_at)! })),
    };
  }

  /** Counts only what the actor may see (staff: all; a customer: its own, or its tree's); the next due time is the earliest not yet passed. */
  async reviewSummary(actor: Actor) {
    const [row] = rowsOf<{ pending: string; overdue: string; next_due: string | null }>(await this.db.execute(sql`select count(*) as pending,
      count(*) filter (where r.due_at < now()) as overdue, min(r.due_at) filter (where r.due_at >= now()) as next_due
      from recharge_orders r join customers c on c.cust_id = r.cust_id where r.audit_state = 0 and ${customerScope(actor)}`));
    return { pending: Number(row.pending), overdue: Number(row.overdue), nextDueAt: iso(row.next_due) };
  }

  // ---- online top-ups ----

  async createOnline(b: BodyOf<typeof api.saveRecharge>, ctx: SessionContext) {
    const fen = amountFen(b.amount);
    const memo = note(b.note, 'note', RECHARGE_RULES.noteMax);
    const code = b.gateway ?? 'simulator';
    const gateway = this.gateways.get(code);
    if (!gateway) throw new AppError(ErrorCode.PaymentChannelNotInstalled, { channel: adapterName(code, ctx.lang).slice(0, 40) });
    const cust = await moneyCustomer(this.db, ctx.actor, b.custId);
    const rechargeNo = numberOf('R');
    const payOrderNo = `P${rechargeNo.slice(1)}`;
    const expiresAt = new Date(Date.now() + RECHARGE_RULES.payExpireMinutes * 60_000);
    // the channel's order first: an order of ours that the channel never opened would wait for nothing
    const opened = await gateway.createPayment({
      payOrderNo, amount: fenToMoney(fen), expiresAt, lang: ctx.lang,
      subject: ctx.lang === 'zh' ? `${cust.custName} 预存款充值` : `${cust.custName} pre-deposit top-up`,
    });
    if (!opened.ok) throw new AppError(ErrorCode.PaymentChannelFailed, { message: opened.message.slice(0, 200) });
    return this.db.transaction(async (tx) => {
      const [row] = rowsOf<{ recharge_id: number }>(await tx.execute(sql`insert into recharge_orders
        (recharge_no, cust_id, root_cust_id, channel, amount, pay_state, gateway, pay_order_no, expires_at, note, account_id, created_by)
        values (${rechargeNo}, ${cust.custId}, ${cust.rootCustId}, ${PayChannel.Online}, ${fenToMoney(fen)}::numeric, ${PayState.Unpaid}, ${code},
          ${payOrderNo}, ${expiresAt.toISOString()}::timestamptz, ${memo}, ${ctx.actor.accountId}, ${ctx.actor.loginName})
        returning recharge_id`));
      await audit(tx, ctx, {
        entity: 'recharge', entityId: row.recharge_id, custId: cust.custId, rootCustId: cust.rootCustId,
        after: { rechargeNo, channel: PayChannel.Online, amount: fenToMoney(fen), payState: PayState.Unpaid, gateway: code, payOrderNo },
      });
      return { rechargeId: row.recharge_id, rechargeNo, payOrderNo, cashierUrl: opened.data.cashierUrl, expiresAt: expiresAt.toISOString() };
    });
  }

  /**
   * Credits a paid order exactly once (idempotency key pay:<payOrderNo>, in the caller's transaction, under the
   * order's row lock): the Recharge journal PreDeposit +amount / PaymentClearing −amount, and the order confirmed.
   */
  private async credit(tx: Tx, o: OrderRow, tradeNo: string | null, gateway: string) {
    const fen = moneyToFen(o.amount)!;
    const posted = await postJournal(tx, {
      kind: JournalKind.Recharge, custId: o.cust_id, refType: 'recharge', refId: o.recharge_no, idempotencyKey: `pay:${o.pay_order_no}`,
      memo: tradeNo ?? undefined, by: SYSTEM_BY(gateway),
      lines: [{ account: LedgerAccount.PreDeposit, fen }, { account: LedgerAccount.PaymentClearing, fen: -fen }],
    });
    await tx.execute(sql`update recharge_orders set pay_state = ${PayState.Confirmed}, journal_id = ${posted.journalId}, trade_no = coalesce(${tradeNo}, trade_no),
      paid_at = now(), closed_at = null, updated_at = now() where recharge_id = ${o.recharge_id}`);
    return posted;
  }

  /**
   * A channel's notification (public endpoint, no session). Recorded whatever it is; a forged one changes nothing
   * else (20822). A "paid" one credits the order once: again, concurrently, or after the order was closed or
   * marked failed (late: the channel has the money, so it is credited and recorded as late-credited). A "failed"
   * or "closed" one only moves an unpaid order; arriving after the payment (out of order) it is ignored.
   */
  async notify(gatewayCode: string, body: Record<string, unknown>, ctx: RequestContext) {
    const gateway = this.gateways.get(gatewayCode);
    if (!gateway) throw notFound();
    const record = (ex: Executor, n: { payOrderNo: string | null; state: string | null; notifyId: string | null; verified: boolean; outcome: string }) =>
      ex.execute(sql`insert into payment_notifications (gateway, pay_order_no, state, notify_id, raw, verified, outcome)
        values (${gatewayCode}, ${n.payOrderNo}, ${n.state}, ${n.notifyId}, ${JSON.stringify(body)}::jsonb, ${n.verified}, ${n.outcome})`);
    const str = (v: unknown) => (typeof v === 'string' ? v.slice(0, 64) : null);
    const n = gateway.verify(body);
    if (!n) {
      await record(this.db, { payOrderNo: str(body.payOrderNo), state: str(body.state), notifyId: str(body.notifyId), verified: false, outcome: 'forged' });
      throw new AppError(ErrorCode.PaymentSignatureInvalid, undefined, 400);
    }
    const failed: { refusal: AppError | null } = { refusal: null };
    const outcome = await this.db.transaction(async (tx) => {
      const o = await lockOrder(tx, sql`r.pay_order_no = ${n.payOrderNo} and r.gateway = ${gatewayCode}`);
      const rec = (outcome: string) => record(tx, { payOrderNo: n.payOrderNo, state: n.state, notifyId: n.notifyId, verified: true, outcome });
      if (!o) {
        await rec('unknown-order');
        failed.refusal = notFound();
        return 'unknown-order';
      }
      const result = await this.apply(tx, o, n, gatewayCode);
      await rec(result);
      if (result === 'amount-mismatch') {
        failed.refusal = new AppError(ErrorCode.PaymentAmountMismatch, undefined, 400);
        return result;
      }
      await audit(tx, ctx, {
        entity: 'recharge', entityId: o.recharge_id, custId: o.cust_id, rootCustId: o.root_cust_id,
        before: { payState: o.pay_state }, after: { notification: n.notifyId, state: n.state, outcome: result },
      });
      return result;
    });
    if (failed.refusal) throw failed.refusal;
    return { outcome };
  }

  /** What a verified channel state does to a locked order (shared by notifications and reconciliation). */
  private async apply(tx: Tx, o: OrderRow, n: Pick<VerifiedNotification, 'state' | 'amount' | 'tradeNo'>, gatewayCode: string): Promise<string> {
    if (n.state === 'paid') {
      if (moneyToFen(n.amount) !== moneyToFen(o.amount)) return 'amount-mismatch';
      if (o.pay_state === PayState.Confirmed) return 'duplicate';
      const late = o.pay_state === PayState.Closed || o.pay_state === PayState.Failed;
      const posted = await this.credit(tx, o, n.tradeNo, gatewayCode);
      return posted.duplicate ? 'duplicate' : late ? 'late-credited' : 'credited';
    }
    if (o.pay_state !== PayState.Unpaid) return 'ignored';
    const state = n.state === 'failed' ? PayState.Failed : PayState.Closed;
    await tx.execute(sql`update recharge_orders set pay_state = ${state}, closed_at = now(), updated_at = now() where recharge_id = ${o.recharge_id}`);
    return n.state;
  }

  /**
   * Reconciles one unpaid online order with its channel: paid there → credited; failed → failed; otherwise, when
   * `close` (expired, or closed by its customer), closed at the channel and here. Answers the order's state.
   */
  private async reconcile(rechargeId: number, close: boolean, ctx: RequestContext | null): Promise<number> {
    const [o0] = rowsOf<OrderRow>(await this.db.execute(sql`select recharge_id, pay_order_no, gateway, pay_state from recharge_orders where recharge_id = ${rechargeId}`));
    if (!o0 || o0.pay_state !== PayState.Unpaid || !o0.gateway || !o0.pay_order_no) return o0?.pay_state ?? PayState.Closed;
    const gateway: PaymentGateway | null = this.gateways.get(o0.gateway);
    let q: PaymentQuery = { state: 'unknown', tradeNo: null, amount: null };
    if (gateway) {
      const asked = await gateway.query(o0.pay_order_no);
      // a channel that cannot answer now is asked again on the next run
      if (!asked.ok) return PayState.Unpaid;
      q = asked.data;
      if (q.state === 'unpaid' && close) {
        const closed = await gateway.close(o0.pay_order_no);
        if (!closed.ok) return PayState.Unpaid;
        q = closed.data;
      }
    }
    if (q.state === 'unpaid' || (q.state === 'unknown' && !close)) return PayState.Unpaid;
    const state = q.state === 'paid' ? 'paid' : q.state === 'failed' ? 'failed' : 'closed';
    return this.db.transaction(async (tx) => {
      const o = await lockOrder(tx, sql`r.recharge_id = ${rechargeId}`);
      if (!o || o.pay_state !== PayState.Unpaid) return o?.pay_state ?? PayState.Closed;
      const result = await this.apply(tx, o, { state, amount: q.amount ?? o.amount, tradeNo: q.tradeNo }, o.gateway!);
      const after = rowsOf<{ pay_state: number }>(await tx.execute(sql`select pay_state from recharge_orders where recharge_id = ${rechargeId}`))[0].pay_state;
      const entry = {
        entity: 'recharge', entityId: o.recharge_id, custId: o.cust_id, rootCustId: o.root_cust_id,
        before: { payState: o.pay_state }, after: { payState: after, reconciled: q.state, outcome: result },
      };
      if (ctx) await audit(tx, ctx, entry);
      else await audit(tx, { actor: null, lang: 'en', ip: '-', endpoint: 'job:recharge-expire', tokenHash: null, audited: false }, entry);
      return after;
    });
  }

  /** The expiry job: every unpaid online order past its expiry is reconciled with its channel and closed. */
  async closeExpired(now = new Date()): Promise<number> {
    const due = rowsOf<{ recharge_id: number }>(await this.db.execute(sql`select recharge_id from recharge_orders
      where pay_state = ${PayState.Unpaid} and expires_at <= ${now.toISOString()}::timestamptz order by expires_at limit 500`));
    let n = 0;
    let failure: unknown = null;
    // one order that cannot be settled now does not hold up the others; the job reports the first failure
    for (const r of due) {
      try {
        if ((await this.reconcile(r.recharge_id, true, null)) !== PayState.Unpaid) n++;
      } catch (e) {
        failure ??= e;
      }
    }
    if (failure) throw failure;
    return n;
  }

  /** Its customer closes an unpaid online order (a paid one is credited instead). */
  async close(rechargeId: number, ctx: SessionContext) {
    const row = await this.visible(this.db, ctx.actor, rechargeId);
    if (Number(row.pay_state) !== PayState.Unpaid) throw new AppError(ErrorCode.RechargeNotClosable);
    return { payState: await this.reconcile(rechargeId, true, ctx) };
  }

  // ---- public transfers ----

  async serialUsed(ex: Executor, serialNo: string): Promise<boolean> {
    const rows = rowsOf(await ex.execute(sql`select 1 from recharge_orders where upper(serial_no) = upper(${serialNo}) and audit_state <> ${RechargeAuditState.Rejected} limit 1`));
    return rows.length > 0;
  }

  async createPublic(b: BodyOf<typeof api.savePublicRecharge>, ctx: SessionContext) {
    const fen = amountFen(b.amount);
    const memo = note(b.note, 'note', RECHARGE_RULES.noteMax);
    const serialNo = b.serialNo.trim();
    if (b.transferDate > businessDay(Date.now())) throw new AppError(ErrorCode.RechargeTransferDateInvalid);
    return this.db.transaction(async (tx) => {
      const cust = await moneyCustomer(tx, ctx.actor, b.custId);
      // the certificate: a payment proof uploaded by this same account and not attached to another top-up
      const [file] = rowsOf(await tx.execute(sql`select 1 from files f where f.file_id = ${b.proofFileId}::uuid and f.use = 'paymentProof'
        and f.owner_account_id = ${ctx.actor.accountId} and not exists (select 1 from recharge_orders r where r.proof_file_id = f.file_id)`));
      if (!file) throw new AppError(ErrorCode.RechargeProofInvalid);
      if (await this.serialUsed(tx, serialNo)) throw new AppError(ErrorCode.RechargeSerialUsed);
      const rechargeNo = numberOf('R');
      const dueAt = await addWorkingDays(tx, new Date(), RECHARGE_RULES.reviewWorkingDays);
      let row: { recharge_id: number };
      try {
        [row] = rowsOf<{ recharge_id: number }>(await tx.execute(sql`insert into recharge_orders
          (recharge_no, cust_id, root_cust_id, channel, amount, pay_state, audit_state, serial_no, transfer_date, proof_file_id, due_at, note, account_id, created_by)
          values (${rechargeNo}, ${cust.custId}, ${cust.rootCustId}, ${PayChannel.Public}, ${fenToMoney(fen)}::numeric, ${PayState.Paid}, ${RechargeAuditState.Submitted},
            ${serialNo}, ${b.transferDate}::date, ${b.proofFileId}::uuid, ${dueAt.toISOString()}::timestamptz, ${memo}, ${ctx.actor.accountId}, ${ctx.actor.loginName})
          returning recharge_id`));
      } catch (e) {
        // two entries of one serial number at once: the unique index decides
        if ((e as { code?: string }).code === '23505' || /recharge_orders_serial_ux/.test(String((e as Error).message))) throw new AppError(ErrorCode.RechargeSerialUsed);
        throw e;
      }
      await audit(tx, ctx, {
        entity: 'recharge', entityId: row.recharge_id, custId: cust.custId, rootCustId: cust.rootCustId,
        after: { rechargeNo, channel: PayChannel.Public, amount: fenToMoney(fen), serialNo, transferDate: b.transferDate, proofFileId: b.proofFileId, dueAt },
      });
      return { rechargeId: row.recharge_id, rechargeNo, dueAt: dueAt.toISOString() };
    });
  }

  /** Refuses a money decision a customer would take about itself (20802) or that only finance takes (denied). */
  private staffOnly(actor: Actor, o: { cust_id: number }) {
    if (isStaff(actor)) return;
    if (actor.custId === o.cust_id) throw new AppError(ErrorCode.MoneySelfReview);
    throw denied();
  }

  async review(b: BodyOf<typeof api.reviewRecharge>, ctx: SessionContext) {
    const reason = note(b.reason, 'reason', RECHARGE_RULES.reasonMax);
    if (!b.approve && !reason) throw invalid('reason', { zh: '驳回时请填写原因', en: 'give a reason to reject' });
    return this.db.transaction(async (tx) => {
      await this.visible(tx, ctx.actor, b.rechargeId);
      const o = (await lockOrder(tx, sql`r.recharge_id = ${b.rechargeId}`))!;
      this.staffOnly(ctx.actor, o);
      if (o.channel !== PayChannel.Public || o.audit_state !== RechargeAuditState.Submitted) throw new AppError(ErrorCode.RechargeNotPending);
      let journalId: number | null = null;
      if (b.approve) {
        const fen = moneyToFen(o.amount)!;
        const posted = await postJournal(tx, {
          kind: JournalKind.Recharge, custId: o.cust_id, refType: 'recharge', refId: o.recharge_no, idempotencyKey: `public:${o.recharge_id}`,
          memo: reason ?? undefined, by: { accountId: ctx.actor.accountId, loginName: ctx.actor.loginName },
          lines: [{ account: LedgerAccount.PreDeposit, fen }, { account: LedgerAccount.Bank, fen: -fen }],
        });
        journalId = posted.journalId;
      }
      const payState = b.approve ? PayState.Confirmed : PayState.Closed;
      const auditState = b.approve ? RechargeAuditState.Passed : RechargeAuditState.Rejected;
      await tx.execute(sql`update recharge_orders set pay_state = ${payState}, audit_state = ${auditState}, journal_id = ${journalId},
        review_reason = ${reason}, reviewed_by = ${ctx.actor.loginName}, reviewed_at = now(), paid_at = ${b.approve ? sql`now()` : sql`null`},
        closed_at = ${b.approve ? sql`null` : sql`now()`}, updated_at = now() where recharge_id = ${o.recharge_id}`);
      await audit(tx, ctx, {
        entity: 'recharge', entityId: o.recharge_id, custId: o.cust_id, rootCustId: o.root_cust_id,
        before: { payState: o.pay_state, auditState: o.audit_state }, after: { payState, auditState, reason, journalId },
      });
      return { payState, auditState };
    });
  }

  // ---- refunds ----

  /**
   * Refunds part or all of a confirmed top-up: at most its amount less earlier refunds, and at most the customer's
   * withdrawable pre-deposit (a refund never spends credit). Posts Refund: PreDeposit −amount / PaymentClearing
   * (public transfers: Bank) +amount when it is recorded, so the money cannot be spent while the channel is asked.
   * An online refund is then asked of the channel outside any transaction (the channel is another party: its answer
   * must not depend on our commit, and on PGlite a transaction held across the call would block the channel's own
   * writes), and the answer is recorded: refunded → done; refused → failed, the journal reversed, 20829. A refund
   * whose answer was never recorded stays pending until `reconcileRefunds` asks the channel.
   */
  async refund(b: BodyOf<typeof api.refundRecharge>, ctx: SessionContext, lang: Lang) {
    const fen = amountFen(b.amount);
    const reason = note(b.reason, 'reason', RECHARGE_RULES.reasonMax);
    if (!reason) throw invalid('reason', { zh: '请填写退款原因', en: 'give a reason for the refund' });
    const rec = await this.db.transaction(async (tx) => {
      await this.visible(tx, ctx.actor, b.rechargeId);
      const o = (await lockOrder(tx, sql`r.recharge_id = ${b.rechargeId}`))!;
      this.staffOnly(ctx.actor, o);
      if (o.pay_state !== PayState.Confirmed) throw new AppError(ErrorCode.RechargeNotRefundable);
      const refundable = moneyToFen(o.amount)! - moneyToFen(o.refunded)!;
      if (fen > refundable) throw new AppError(ErrorCode.RechargeRefundTooMuch, { refundable: formatMoney(fenToMoney(refundable)) });
      const balances = await lockBalances(tx, o.cust_id);
      const withdrawable = withdrawableFen(balances);
      if (fen > withdrawable) throw new AppError(ErrorCode.BalanceInsufficient, { available: formatMoney(fenToMoney(withdrawable)) });
      const online = o.channel !== PayChannel.Public;
      const viaChannel = online && o.gateway && o.pay_order_no ? { gateway: o.gateway, payOrderNo: o.pay_order_no } : null;
      if (viaChannel && !this.gateways.get(viaChannel.gateway)) throw new AppError(ErrorCode.PaymentChannelNotInstalled, { channel: adapterName(viaChannel.gateway, lang) });
      const refundNo = numberOf('F');
      const posted = await postJournal(tx, {
        kind: JournalKind.Refund, custId: o.cust_id, refType: 'rechargeRefund', refId: refundNo, idempotencyKey: `refund:${refundNo}`,
        memo: reason, by: { accountId: ctx.actor.accountId, loginName: ctx.actor.loginName },
        lines: [{ account: LedgerAccount.PreDeposit, fen: -fen }, { account: online ? LedgerAccount.PaymentClearing : LedgerAccount.Bank, fen }],
      });
      const state = viaChannel ? RefundState.Pending : RefundState.Done;
      const [row] = rowsOf<{ refund_id: number }>(await tx.execute(sql`insert into recharge_refunds
        (refund_no, recharge_id, cust_id, root_cust_id, amount, reason, state, journal_id, account_id, created_by)
        values (${refundNo}, ${o.recharge_id}, ${o.cust_id}, ${o.root_cust_id}, ${fenToMoney(fen)}::numeric, ${reason}, ${state}, ${posted.journalId},
          ${ctx.actor.accountId}, ${ctx.actor.loginName}) returning refund_id`));
      await tx.execute(sql`update recharge_orders set refunded = refunded + ${fenToMoney(fen)}::numeric, updated_at = now() where recharge_id = ${o.recharge_id}`);
      await audit(tx, ctx, {
        entity: 'recharge', entityId: o.recharge_id, custId: o.cust_id, rootCustId: o.root_cust_id,
        before: { refunded: o.refunded }, after: { refundNo, amount: fenToMoney(fen), reason, journalId: posted.journalId, refundState: state },
      });
      return { refundId: Number(row.refund_id), refundNo, refundable: fenToMoney(refundable - fen), viaChannel };
    });
    const out = { refundId: rec.refundId, refundNo: rec.refundNo, refundable: rec.refundable };
    if (!rec.viaChannel) return out;
    const gateway = this.gateways.get(rec.viaChannel.gateway)!;
    let answer: Awaited<ReturnType<PaymentGateway['refund']>>;
    try {
      answer = await within(gateway.refund({ payOrderNo: rec.viaChannel.payOrderNo, refundNo: rec.refundNo, amount: fenToMoney(fen) }), REFUND_CALL_TIMEOUT_MS);
    } catch (e) {
      // no answer (a timeout): the refund stays pending and the reconciliation job asks the channel
      throw new AppError(ErrorCode.PaymentChannelFailed, { message: `no answer (${String((e as Error).message).slice(0, 120)}); the refund stays pending and is reconciled` });
    }
    try {
      if (answer.ok) {
        await this.settleRefund(rec.refundId, { refunded: true, channelRefundNo: answer.data.channelRefundNo }, ctx);
        return out;
      }
      await this.settleRefund(rec.refundId, { refunded: false, failure: `${answer.code}: ${answer.message}`.slice(0, 200) }, ctx);
    } catch (e) {
      // the channel answered but its answer could not be recorded: pending, and said so (not a bare 500 that invites
      // a second refund); the reconciliation records the answer
      throw new AppError(ErrorCode.PaymentChannelFailed, { message: `the answer could not be recorded (${String((e as Error).message).slice(0, 80)}); the refund stays pending and is reconciled` });
    }
    throw new AppError(ErrorCode.PaymentChannelFailed, { message: answer.message.slice(0, 200) });
  }

  /**
   * Records the channel's answer to a pending refund, once (under the order's and the refund's row locks; a refund
   * no longer pending is left as it is). Refunded → done. Not refunded → failed: the Refund journal is reversed
   * (JournalKind.RefundReversal, key refund:<refundNo>:reversal) and the top-up's refunded amount given back.
   */
  private async settleRefund(refundId: number, answer: { refunded: true; channelRefundNo: string | null } | { refunded: false; failure: string }, ctx: RequestContext) {
    return this.db.transaction(async (tx) => {
      const [f0] = rowsOf<{ recharge_id: number }>(await tx.execute(sql`select recharge_id from recharge_refunds where refund_id = ${refundId}`));
      if (!f0) return null;
      // the order's lock first, as every refund takes them
      const o = (await lockOrder(tx, sql`r.recharge_id = ${f0.recharge_id}`))!;
      const [f] = rowsOf<{ refund_no: string; amount: string; state: number; journal_id: string }>(await tx.execute(sql`select refund_no,
        amount::text as amount, state, journal_id from recharge_refunds where refund_id = ${refundId} for update`));
      // settled meanwhile (by the call's own answer or an earlier reconciliation): nothing to do, nothing counted
      if (Number(f.state) !== RefundState.Pending) return null;
      const fen = moneyToFen(f.amount)!;
      let after: Record<string, unknown>;
      if (answer.refunded) {
        await tx.execute(sql`update recharge_refunds set state = ${RefundState.Done}, channel_refund_no = ${answer.channelRefundNo}, updated_at = now()
          where refund_id = ${refundId}`);
        after = { refundNo: f.refund_no, refundState: RefundState.Done, channelRefundNo: answer.channelRefundNo };
      } else {
        const reversal = await postJournal(tx, {
          kind: JournalKind.RefundReversal, custId: o.cust_id, refType: 'rechargeRefund', refId: f.refund_no, idempotencyKey: `refund:${f.refund_no}:reversal`,
          memo: answer.failure, by: SYSTEM_BY(o.gateway ?? 'channel'),
          lines: [{ account: LedgerAccount.PreDeposit, fen }, { account: LedgerAccount.PaymentClearing, fen: -fen }],
        });
        await tx.execute(sql`update recharge_refunds set state = ${RefundState.Failed}, reversal_journal_id = ${reversal.journalId}, failure = ${answer.failure},
          updated_at = now() where refund_id = ${refundId}`);
        await tx.execute(sql`update recharge_orders set refunded = refunded - ${f.amount}::numeric, updated_at = now() where recharge_id = ${o.recharge_id}`);
        after = { refundNo: f.refund_no, refundState: RefundState.Failed, failure: answer.failure, reversalJournalId: reversal.journalId, refunded: fenToMoney(moneyToFen(o.refunded)! - fen) };
      }
      await audit(tx, ctx, {
        entity: 'recharge', entityId: o.recharge_id, custId: o.cust_id, rootCustId: o.root_cust_id,
        before: { refundNo: f.refund_no, refundState: RefundState.Pending, refunded: o.refunded }, after,
      });
      return answer.refunded ? RefundState.Done : RefundState.Failed;
    });
  }

  /**
   * Reconciles refunds left pending (no answer in time, or our record of the answer failed, e.g. a crash between the
   * answer and our commit) older than REFUND_RECONCILE_AFTER_MINUTES: the channel is asked; refunded there → done
   * (its journal was posted when the refund was recorded, exactly once by its key). Unknown there → the refund is
   * asked for again under the same refund number (channels take a refund once per number, so a first call still in
   * flight cannot make it twice): refunded → done; refused → failed and reversed. Only a refusal reverses a refund,
   * never a silence. A channel that cannot answer is asked again on the next run. Answers how many were settled.
   */
  async reconcileRefunds(now = new Date()): Promise<number> {
    const before = new Date(now.getTime() - REFUND_RECONCILE_AFTER_MINUTES * 60_000);
    const due = rowsOf<{ refund_id: number; refund_no: string; amount: string; gateway: string | null; pay_order_no: string | null }>(await this.db.execute(sql`select f.refund_id,
      f.refund_no, f.amount::text as amount, r.gateway, r.pay_order_no from recharge_refunds f join recharge_orders r on r.recharge_id = f.recharge_id
      where f.state = ${RefundState.Pending} and f.created_at <= ${before.toISOString()}::timestamptz order by f.created_at limit 500`));
    const ctx: RequestContext = { actor: null, lang: 'en', ip: '-', endpoint: 'job:recharge-expire', tokenHash: null, audited: false };
    let n = 0;
    let failure: unknown = null;
    for (const f of due) {
      const gateway = f.gateway ? this.gateways.get(f.gateway) : null;
      if (!gateway || !f.pay_order_no) continue;
      try {
        const asked = await gateway.queryRefund(f.pay_order_no, f.refund_no);
        if (!asked.ok) continue;
        let answer: { refunded: true; channelRefundNo: string | null } | { refunded: false; failure: string };
        if (asked.data.state === 'refunded') {
          answer = { refunded: true, channelRefundNo: asked.data.channelRefundNo };
        } else {
          const again = await within(gateway.refund({ payOrderNo: f.pay_order_no, refundNo: f.refund_no, amount: f.amount }), REFUND_CALL_TIMEOUT_MS);
          answer = again.ok
            ? { refunded: true, channelRefundNo: again.data.channelRefundNo }
            : { refunded: false, failure: `reconciled: ${again.code}: ${again.message}`.slice(0, 200) };
        }
        const settled = await this.settleRefund(Number(f.refund_id), answer, ctx);
        if (settled !== null) n++;
      } catch (e) {
        failure ??= e;
      }
    }
    if (failure) throw failure;
    return n;
  }

  /** The job (every minute): unpaid orders past their expiry, then refunds left pending; the first failure is reported after both. */
  async reconcilePending(now = new Date()): Promise<{ closed: number; refunds: number }> {
    let failure: unknown = null;
    const closed = await this.closeExpired(now).catch((e: unknown) => {
      failure = e;
      return 0;
    });
    const refunds = await this.reconcileRefunds(now).catch((e: unknown) => {
      failure ??= e;
      return 0;
    });
    if (failure) throw failure;
    return { closed, refunds };
  }

  /** The certificate of a top-up the actor may see. */
  async proofOf(rechargeId: number, actor: Actor): Promise<string> {
    const row = await this.visible(this.db, actor, rechargeId);
    if (!row.proof_file_id) throw notFound();
    return String(row.proof_file_id);
  }
}
