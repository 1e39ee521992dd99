import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { fenToMoney, moneyToFen } from '@lynx/contract';
import type { CreatePayment, PaymentGateway, PaymentQuery, PaymentResult, RefundRequest, VerifiedNotification } from './gateway.ts';

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

interface SimOrder {
  payOrderNo: string;
  amountFen: bigint;
  subject: string;
  state: 'unpaid' | 'paid' | 'failed' | 'closed';
  tradeNo: string | null;
  refundedFen: bigint;
  expiresAt: Date;
}

export type Deliver = (body: SimNotification) => Promise<{ status: number; body: unknown }>;

/**
 * The built-in payment simulator: a channel that keeps its orders in memory (a restart forgets them: an unpaid
 * order the channel no longer knows is closed by the expiry job), serves a cashier page (pay / fail, see
 * recharge-cashier.ts) and sends signed notifications to the platform's notify endpoint through `deliver`.
 * Test hooks (never public endpoints): notifications built and sent at will, twice, late or out of order, a
 * payment without its notification, and refusals of refunds.
 */
export class PaymentSimulator implements PaymentGateway {
  readonly code = 'simulator';
  private orders = new Map<string, SimOrder>();
  /** refunds the simulator accepted, in order */
  readonly refunds: RefundRequest[] = [];
  /** test hook: the next refunds are refused by the channel */
  refuseRefunds = false;
  deliver: Deliver = async () => ({ status: 503, body: null });

  constructor(
    private key: Buffer,
    /** the cashier page's path for an order */
    private cashierPath: (payOrderNo: string, lang: 'zh' | 'en') => string,
  ) {}

  async createPayment(req: CreatePayment): Promise<PaymentResult<{ cashierUrl: string }>> {
    const amountFen = moneyToFen(req.amount);
    if (amountFen === null || amountFen <= 0n) return { ok: false, code: 'AMOUNT', message: 'invalid amount' };
    if (!this.orders.has(req.payOrderNo)) {
      this.orders.set(req.payOrderNo, { payOrderNo: req.payOrderNo, amountFen, subject: req.subject, state: 'unpaid', tradeNo: null, refundedFen: 0n, expiresAt: req.expiresAt });
    }
    return { ok: true, data: { cashierUrl: this.cashierPath(req.payOrderNo, req.lang) } };
  }

  /** The order as the cashier page shows it (null: the channel does not know it). */
  order(payOrderNo: string): Readonly<SimOrder> | null {
    return this.orders.get(payOrderNo) ?? null;
  }

  private queryOf(o: SimOrder | undefined): PaymentQuery {
    if (!o) return { state: 'unknown', tradeNo: null, amount: null };
    return { state: o.state, tradeNo: o.tradeNo, amount: o.state === 'paid' ? fenToMoney(o.amountFen) : null };
  }

  async query(payOrderNo: string): Promise<PaymentResult<PaymentQuery>> {
    return { ok: true, data: this.queryOf(this.orders.get(payOrderNo)) };
  }

  async close(payOrderNo: string): Promise<PaymentResult<PaymentQuery>> {
    const o = this.orders.get(payOrderNo);
    if (o && o.state === 'unpaid') o.state = 'closed';
    return { ok: true, data: this.queryOf(o) };
  }

  async refund(req: RefundRequest): Promise<PaymentResult<{ channelRefundNo: string }>> {
    if (this.refuseRefunds) return { ok: false, code: 'REFUSED', message: 'the simulator refused the refund' };
    const o = this.orders.get(req.payOrderNo);
    const fen = moneyToFen(req.amount);
    if (!o || o.state !== 'paid') return { ok: false, code: 'NOT_PAID', message: 'the order is not paid at the channel' };
    if (fen === null || fen <= 0n || o.refundedFen + fen > o.amountFen) return { ok: false, code: 'AMOUNT', message: 'the refund is more than was paid' };
    o.refundedFen += fen;
    this.refunds.push(req);
    return { ok: true, data: { channelRefundNo: `SIMR${req.refundNo}` } };
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

  /** A signed notification of an order (by default of its current state and full amount), with a fresh id. */
  notification(payOrderNo: string, state: SimNotification['state'], over: Partial<Omit<SimNotification, 'sign'>> = {}): SimNotification {
    const o = this.orders.get(payOrderNo);
    const unsigned = {
      notifyId: crypto.randomUUID(), payOrderNo, tradeNo: o?.tradeNo ?? '', state,
      amount: o ? fenToMoney(o.amountFen) : '0.00', timestamp: new Date().toISOString(), ...over,
    };
    return { ...unsigned, sign: signWith(this.key, unsigned) };
  }

  /** Sends a notification as the channel would (the same one may be sent again: channels retry). */
  send(n: SimNotification) {
    return this.deliver(n);
  }

  /** The payer paid at the cashier: the channel marks the order paid and (unless told not to) notifies. */
  async pay(payOrderNo: string, opts: { notify?: boolean } = {}) {
    const o = this.orders.get(payOrderNo);
    if (!o) return null;
    if (o.state === 'unpaid' || o.state === 'closed') {
      o.state = 'paid';
      o.tradeNo = `SIM${Date.now()}${crypto.randomInt(1000, 9999)}`;
    }
    return opts.notify === false ? null : this.send(this.notification(payOrderNo, 'paid'));
  }

  /** The payment failed at the cashier: the channel notifies the failure. */
  async fail(payOrderNo: string) {
    const o = this.orders.get(payOrderNo);
    if (!o) return null;
    if (o.state === 'unpaid') o.state = 'failed';
    return this.send(this.notification(payOrderNo, 'failed'));
  }

  /** Test hook: forget every order (as a restart would). */
  forget(): void {
    this.orders.clear();
  }
}
