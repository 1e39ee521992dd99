import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import { fenToMoney, moneyToFen } from '@lynx/contract';
import type { Db } from '../db/client.ts';
import type { CreatePayment, PaymentGateway, PaymentQuery, PaymentResult, RefundQuery, RefundRequest, VerifiedNotification } from './gateway.ts';

const KEY_FILE = 'payment-sim.key';

/** The simulator's signing key: configured (CMP_PAY_SIM_KEY), or generated once per installation into DATA_DIR. */
export function simulatorKey(configured: string | null, dataDir: string): Buffer {
  if (configured) return Buffer.from(configured, 'utf8');
  const file = path.join(dataDir, KEY_FILE);
  fs.mkdirSync(dataDir, { recursive: true });
  try {
    fs.writeFileSync(file, crypto.randomBytes(32).toString('hex') + '\n', { mode: 0o600, flag: 'wx' });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  }
  return Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'utf8');
}

/** The notification's fields as the simulator sends them. */
export interface SimNotification {
  notifyId: string;
  payOrderNo: string;
  tradeNo: string;
  state: 'paid' | 'failed' | 'closed';
  amount: string;
  timestamp: string;
  sign: string;
}

/** The string a notification's signature covers: its fields but `sign`, sorted by name, as k=v joined by '&'. */
export function signingString(body: object): string {
  const b = body as Record<string, unknown>;
  return Object.keys(b).filter((k) => k !== 'sign').sort().map((k) => `${k}=${String(b[k])}`).join('&');
}

export function signWith(key: Buffer, body: object): string {
  return crypto.createHmac('sha256', key).update(signingString(body)).digest('hex');
}

export interface SimOrder {
  payOrderNo: string;
  amountFen: bigint;
  subject: string;
  state: 'unpaid' | 'paid' | 'failed' | 'closed';
  tradeNo: string | null;
  refundedFen: bigint;
  expiresAt: Date;
}

export type Deliver = (body: SimNotification) => Promise<{ status: number; body: unknown }>;

const rowsOf = <T>(r: unknown): T[] => ((r as { rows?: T[] }).rows ?? (r as T[]));
type OrderRow = { pay_order_no: string; amount: string; subject: string; state: SimOrder['state']; trade_no: string | null; refunded: string; expires_at: string | Date };
const COLS = sql.raw('pay_order_no, amount::text as amount, subject, state, trade_no, refunded::text as refunded, expires_at');
const newTradeNo = () => `SIM${Date.now()}${crypto.randomBytes(4).toString('hex').toUpperCase()}`;

/**
 * The built-in payment simulator: a channel that keeps its orders and refunds in its own tables
 * (payment_sim_orders, payment_sim_refunds; 0033_payment_simulator.sql), so that, like a real channel, it still
 * knows an order being paid, a paid order or a refund after the platform restarts. It serves a cashier page (pay /
 * fail, see recharge-cashier.ts) and sends signed notifications to the platform's notify endpoint through `deliver`.
 * Every change of an order is one conditional update or one transaction under the order's row lock, so two payments,
 * two closes or two refunds at once (from two processes too) act once.
 *
 * Test hooks (never public endpoints): notifications built and sent at will, twice, late or out of order, a
 * payment without its notification, refusals of refunds, and an order the channel no longer knows (`forget`).
 */
export class PaymentSimulator implements PaymentGateway {
  readonly code = 'simulator';
  /**
   * What this instance last read or wrote of each order. Only the synchronous test hooks read it (`order`,
   * `notification`); every decision of the channel reads the tables.
   */
  private seen = new Map<string, SimOrder>();
  /** a forget() under way: every later call waits for it */
  private forgetting: Promise<unknown> = Promise.resolve();
  /** test hook: the refunds this instance accepted, in order (the channel's record is payment_sim_refunds) */
  readonly refunds: RefundRequest[] = [];
  /** test hook: the next refunds are refused by the channel */
  refuseRefunds = false;
  deliver: Deliver = async () => ({ status: 503, body: null });

  constructor(
    private db: Db,
    private key: Buffer,
    /** the cashier page's path for an order */
    private cashierPath: (payOrderNo: string, lang: 'zh' | 'en') => string,
  ) {}

  private remember(r: OrderRow | undefined): SimOrder | null {
    if (!r) return null;
    const o: SimOrder = {
      payOrderNo: r.pay_order_no, amountFen: moneyToFen(r.amount)!, subject: r.subject, state: r.state, tradeNo: r.trade_no,
      refundedFen: moneyToFen(r.refunded)!, expiresAt: new Date(r.expires_at),
    };
    this.seen.set(o.payOrderNo, o);
    return o;
  }

  private async rows<T>(q: SQL): Promise<T[]> {
    await this.forgetting;
    return rowsOf<T>(await this.db.execute(q));
  }

  /** One order as the channel has it (null: the channel does not know it). */
  async find(payOrderNo: string): Promise<Readonly<SimOrder> | null> {
    const [r] = await this.rows<OrderRow>(sql`select ${COLS} from payment_sim_orders where pay_order_no = ${payOrderNo}`);
    if (!r) this.seen.delete(payOrderNo);
    return this.remember(r);
  }

  /** Test hook: the order as this instance last saw it (synchronous; `find` reads the channel's table). */
  order(payOrderNo: string): Readonly<SimOrder> | null {
    return this.seen.get(payOrderNo) ?? null;
  }

  async createPayment(req: CreatePayment): Promise<PaymentResult<{ cashierUrl: string }>> {
    const amountFen = moneyToFen(req.amount);
    if (amountFen === null || amountFen <= 0n) return { ok: false, code: 'AMOUNT', message: 'invalid amount' };
    const [created] = await this.rows<OrderRow>(sql`insert into payment_sim_orders (pay_order_no, amount, subject, state, expires_at)
      values (${req.payOrderNo}, ${fenToMoney(amountFen)}::numeric, ${req.subject}, 'unpaid', ${req.expiresAt.toISOString()}::timestamptz)
      on conflict (pay_order_no) do nothing returning ${COLS}`);
    // an order number the channel already has: the same order is answered again (idempotent); another amount is refused
    const o = created ? this.remember(created) : await this.find(req.payOrderNo);
    if (!o || o.amountFen !== amountFen) return { ok: false, code: 'DUPLICATE', message: 'the payment order number is taken by another order' };
    return { ok: true, data: { cashierUrl: this.cashierPath(req.payOrderNo, req.lang) } };
  }

  private queryOf(o: SimOrder | null): PaymentQuery {
    if (!o) return { state: 'unknown', tradeNo: null, amount: null };
    return { state: o.state, tradeNo: o.tradeNo, amount: o.state === 'paid' ? fenToMoney(o.amountFen) : null };
  }

  async query(payOrderNo: string): Promise<PaymentResult<PaymentQuery>> {
    return { ok: true, data: this.queryOf(await this.find(payOrderNo)) };
  }

  async close(payOrderNo: string): Promise<PaymentResult<PaymentQuery>> {
    const [closed] = await this.rows<OrderRow>(sql`update payment_sim_orders set state = 'closed', updated_at = now()
      where pay_order_no = ${payOrderNo} and state = 'unpaid' returning ${COLS}`);
    return { ok: true, data: this.queryOf(closed ? this.remember(closed) : await this.find(payOrderNo)) };
  }

  async refund(req: RefundRequest): Promise<PaymentResult<{ channelRefundNo: string }>> {
    if (this.refuseRefunds) return { ok: false, code: 'REFUSED', message: 'the simulator refused the refund' };
    const fen = moneyToFen(req.amount);
    if (fen === null || fen <= 0n) return { ok: false, code: 'AMOUNT', message: 'invalid refund amount' };
    await this.forgetting;
    const answer = await this.db.transaction(async (tx) => {
      const [o] = rowsOf<OrderRow>(await tx.execute(sql`select ${COLS} from payment_sim_orders where pay_order_no = ${req.payOrderNo} for update`));
      if (!o || o.state !== 'paid') return { ok: false as const, code: 'NOT_PAID', message: 'the order is not paid at the channel' };
      // a refund number the channel has already taken: the same refund is answered again (channels are idempotent)
      const [had] = rowsOf<{ pay_order_no: string; amount: string; channel_refund_no: string }>(await tx.execute(sql`select pay_order_no,
        amount::text as amount, channel_refund_no from payment_sim_refunds where refund_no = ${req.refundNo}`));
      if (had) {
        if (had.pay_order_no !== req.payOrderNo || moneyToFen(had.amount) !== fen) return { ok: false as const, code: 'DUPLICATE', message: 'the refund number is taken by another refund' };
        return { ok: true as const, data: { channelRefundNo: had.channel_refund_no }, fresh: false };
      }
      if (moneyToFen(o.refunded)! + fen > moneyToFen(o.amount)!) return { ok: false as const, code: 'AMOUNT', message: 'the refund is more than was paid' };
      const channelRefundNo = `SIMR${req.refundNo}`;
      await tx.execute(sql`insert into payment_sim_refunds (refund_no, pay_order_no, amount, channel_refund_no)
        values (${req.refundNo}, ${req.payOrderNo}, ${fenToMoney(fen)}::numeric, ${channelRefundNo})`);
      this.remember(rowsOf<OrderRow>(await tx.execute(sql`update payment_sim_orders set refunded = refunded + ${fenToMoney(fen)}::numeric, updated_at = now()
        where pay_order_no = ${req.payOrderNo} returning ${COLS}`))[0]);
      return { ok: true as const, data: { channelRefundNo }, fresh: true };
    });
    if (!answer.ok) return answer;
    if (answer.fresh) this.refunds.push(req);
    return { ok: true, data: answer.data };
  }

  async queryRefund(payOrderNo: string, refundNo: string): Promise<PaymentResult<RefundQuery>> {
    const [r] = await this.rows<{ amount: string; channel_refund_no: string }>(sql`select amount::text as amount, channel_refund_no
      from payment_sim_refunds where refund_no = ${refundNo} and pay_order_no = ${payOrderNo}`);
    return { ok: true, data: r ? { state: 'refunded', channelRefundNo: r.channel_refund_no, amount: r.amount } : { state: 'unknown', channelRefundNo: null, amount: null } };
  }

  verify(body: Record<string, unknown>): VerifiedNotification | null {
    const sign = body.sign;
    if (typeof sign !== 'string' || !/^[0-9a-f]{64}$/.test(sign)) return null;
    const expected = Buffer.from(signWith(this.key, body), 'hex');
    if (!crypto.timingSafeEqual(expected, Buffer.from(sign, 'hex'))) return null;
    const state = body.state;
    if (state !== 'paid' && state !== 'failed' && state !== 'closed') return null;
    return {
      notifyId: String(body.notifyId), payOrderNo: String(body.payOrderNo), tradeNo: body.tradeNo ? String(body.tradeNo) : null,
      state, amount: String(body.amount),
    };
  }

  // ---- the channel's side and test hooks ----

  private signed(payOrderNo: string, o: SimOrder | null, state: SimNotification['state'], over: Partial<Omit<SimNotification, 'sign'>>): SimNotification {
    const unsigned = {
      notifyId: crypto.randomUUID(), payOrderNo, tradeNo: o?.tradeNo ?? '', state,
      amount: o ? fenToMoney(o.amountFen) : '0.00', timestamp: new Date().toISOString(), ...over,
    };
    return { ...unsigned, sign: signWith(this.key, unsigned) };
  }

  /**
   * Test hook: a signed notification of an order (by default of its state as this instance last saw it and its full
   * amount), with a fresh id. `notificationOf` reads the channel's table instead.
   */
  notification(payOrderNo: string, state: SimNotification['state'], over: Partial<Omit<SimNotification, 'sign'>> = {}): SimNotification {
    return this.signed(payOrderNo, this.seen.get(payOrderNo) ?? null, state, over);
  }

  async notificationOf(payOrderNo: string, state: SimNotification['state'], over: Partial<Omit<SimNotification, 'sign'>> = {}): Promise<SimNotification> {
    return this.signed(payOrderNo, (await this.find(payOrderNo)) as SimOrder | null, state, over);
  }

  /** Sends a notification as the channel would (the same one may be sent again: channels retry). */
  send(n: SimNotification) {
    return this.deliver(n);
  }

  /**
   * The payer paid at the cashier: the channel marks the order paid (an unpaid or closed one: a late payment) and,
   * unless told not to, notifies. Two payments at once: one update wins, both notify the one payment.
   */
  async pay(payOrderNo: string, opts: { notify?: boolean } = {}) {
    const [paid] = await this.rows<OrderRow>(sql`update payment_sim_orders set state = 'paid', trade_no = coalesce(trade_no, ${newTradeNo()}),
      updated_at = now() where pay_order_no = ${payOrderNo} and state in ('unpaid', 'closed') returning ${COLS}`);
    const o = paid ? this.remember(paid) : await this.find(payOrderNo);
    // lost to a failure at the cashier (another tab, a double click on both buttons): the channel has no payment,
    // so it tells of none (a "paid" notification here would credit money the channel never took)
    if (!o || o.state !== 'paid') return null;
    return opts.notify === false ? null : this.send(this.signed(payOrderNo, o, 'paid', {}));
  }

  /** The payment failed at the cashier: the channel marks an unpaid order failed and notifies the failure (null: it was not unpaid). */
  async fail(payOrderNo: string) {
    const [failed] = await this.rows<OrderRow>(sql`update payment_sim_orders set state = 'failed', updated_at = now()
      where pay_order_no = ${payOrderNo} and state = 'unpaid' returning ${COLS}`);
    const o = failed ? this.remember(failed) : await this.find(payOrderNo);
    // already paid or closed: the failure did not happen, nothing to tell
    if (!o || o.state !== 'failed') return null;
    return this.send(this.signed(payOrderNo, o, 'failed', {}));
  }

  /** Test hook: the channel loses every order and refund (a channel that does not know our orders). */
  forget(): Promise<unknown> {
    this.seen.clear();
    this.forgetting = this.forgetting.then(() => this.db.execute(sql`delete from payment_sim_orders`));
    return this.forgetting;
  }
}
