/**
 * The payment gateway (docs/payments.md): everything the platform asks of an online payment channel goes through
 * this interface, like OperatorGateway for carriers. The built-in payment simulator is the default; Alipay and
 * WeChat Pay adapters register in registry.ts once written (PAYMENT_ADAPTERS lists them as not installed).
 *
 * Calls do not throw for a refusal by the channel: they answer `{ ok: false, code, message }`.
 */

export type PaymentResult<T> = { ok: true; data: T } | { ok: false; code: string; message: string };

/** What the channel says of one payment order. */
export type ChannelPayState = 'unpaid' | 'paid' | 'failed' | 'closed' | 'unknown';

export interface CreatePayment {
  /** our payment order number: the channel's idempotency key for the order */
  payOrderNo: string;
  /** decimal string, two decimals */
  amount: string;
  subject: string;
  expiresAt: Date;
  lang: 'zh' | 'en';
}

export interface PaymentQuery {
  state: ChannelPayState;
  tradeNo: string | null;
  /** what was paid (decimal string), when paid */
  amount: string | null;
}

export interface RefundRequest {
  payOrderNo: string;
  /** our refund number: the channel's idempotency key for the refund */
  refundNo: string;
  amount: string;
}

/** What the channel says of one refund: done (with its reference), or unknown (it never took that refund number). */
export interface RefundQuery {
  state: 'refunded' | 'unknown';
  channelRefundNo: string | null;
  /** what was refunded (decimal string), when refunded */
  amount: string | null;
}

/** A notification the channel sent, once its signature is verified. */
export interface VerifiedNotification {
  notifyId: string;
  payOrderNo: string;
  tradeNo: string | null;
  state: 'paid' | 'failed' | 'closed';
  amount: string;
}

export interface PaymentGateway {
  readonly code: string;
  /** opens a payment order; answers the page where the payer pays */
  createPayment(req: CreatePayment): Promise<PaymentResult<{ cashierUrl: string }>>;
  /** the order's state at the channel (reconciliation before an order is closed) */
  query(payOrderNo: string): Promise<PaymentResult<PaymentQuery>>;
  /** closes an unpaid order at the channel (a paid one cannot be closed: it answers the state) */
  close(payOrderNo: string): Promise<PaymentResult<PaymentQuery>>;
  /** refunds part of a paid order; idempotent by `refundNo` (asked again, it answers the same refund) */
  refund(req: RefundRequest): Promise<PaymentResult<{ channelRefundNo: string }>>;
  /** a refund's state at the channel (reconciliation of a refund whose answer we did not record) */
  queryRefund(payOrderNo: string, refundNo: string): Promise<PaymentResult<RefundQuery>>;
  /** checks a notification's signature; null when it is forged or malformed */
  verify(body: Record<string, unknown>): VerifiedNotification | null;
}
