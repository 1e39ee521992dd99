// The delivery worker (docs/webhooks.md "Delivery"). Each process with background jobs runs one: it claims due
// deliveries with FOR UPDATE SKIP LOCKED and leases them for one attempt (timeout + margin), writes the attempt as
// "in flight", POSTs outside any transaction, then records the answer under its lease. Two workers never hold the same
// delivery at once; a worker killed in the middle loses nothing: its lease runs out, the next claim closes its open
// attempt as interrupted and sends again (same event id, so the receiver dedupes).
import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import { WEBHOOK_EVENT_NAME, WebhookAttemptOutcome, WebhookDeliveryState, webhook, type WebhookEventType } from '@lynx/contract';
import type { Db } from '../../../db/client.ts';
import type { SecretBox } from '../../network/opconfig/secrets.ts';
import { rowsOf } from './rows.ts';
import { postWebhook, type AttemptResult } from './sender.ts';
import { retryDelayMs, type WebhookSettings } from './settings.ts';
import { signWebhook, signingKeyFor, type SigningKey } from './signing.ts';
import { callbackFor } from './outbox.ts';
import { INTERRUPTED, NO_ADDRESS, NO_SECRET } from './attempt-text.ts';

const { WEBHOOK_HEADERS } = webhook;
/** added to the timeout for a lease: the time to record an answer after it came */
const LEASE_MARGIN_MS = 15_000;
/** signing keys and addresses are read again after this long (a rotated secret or a changed address takes effect) */
const CACHE_MS = 5_000;

export interface WorkerOptions {
  /** the clock (tests move it) */
  now?: () => Date;
  /** [0, 1), the jitter's draw */
  random?: () => number;
  log?: { error: (obj: unknown, msg: string) => void; warn?: (obj: unknown, msg: string) => void };
  /** names the worker in logs */
  name?: string;
}

interface Claimed {
  delivery_id: string;
  event_id: string;
  cust_id: number;
  root_cust_id: number;
  event_type: number;
  version: number;
  payload: unknown;
  event_created_at: string | Date;
  url: string;
  attempts: number;
  series: number;
  /** this claim's lease token */
  lease_token: string;
}

export interface AttemptDone {
  deliveryId: number;
  eventId: string;
  attemptNo: number;
  result: AttemptResult;
  /** the delivery's state after recording; null when the lease had been lost (another worker took it over) */
  state: WebhookDeliveryState | null;
}

/** The exact JSON a receiver gets for an event. */
export function eventBody(e: { eventId: string; type: number; version: number; createdAt: string | Date; data: unknown }): string {
  return JSON.stringify({
    id: e.eventId,
    type: WEBHOOK_EVENT_NAME[e.type as WebhookEventType],
    version: Number(e.version),
    createdAt: new Date(e.createdAt).toISOString(),
    data: typeof e.data === 'string' ? JSON.parse(e.data) : e.data,
  });
}

export class WebhookWorker {
  private readonly now: () => Date;
  private readonly random: () => number;
  private running = false;
  private loopDone: Promise<void> | null = null;
  private inflight = new Set<Promise<unknown>>();
  private wake: (() => void) | null = null;
  private keys = new Map<number, { key: SigningKey; at: number }>();
  private urls = new Map<string, { url: string | null; at: number }>();
  readonly name: string;

  constructor(
    private db: Db,
    private box: SecretBox,
    readonly settings: WebhookSettings,
    private opts: WorkerOptions = {},
  ) {
    this.now = opts.now ?? (() => new Date());
    this.random = opts.random ?? Math.random;
    this.name = opts.name ?? `webhook-${process.pid}-${crypto.randomBytes(3).toString('hex')}`;
  }

  get leaseMs(): number {
    return this.settings.timeoutMs + LEASE_MARGIN_MS;
  }

  /** Starts the polling loop (a process with background jobs). */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.loopDone = this.loop();
  }

  /** Stops claiming and waits for the attempts in flight to be recorded (each at most the timeout). */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    this.wake?.();
    await this.loopDone;
    await Promise.allSettled([...this.inflight]);
  }

  private async loop(): Promise<void> {
    while (this.running) {
      const free = this.settings.concurrency - this.inflight.size;
      let claimed = 0;
      if (free > 0) {
        try {
          const rows = await this.claim(free);
          claimed = rows.length;
          for (const row of rows) this.track(this.attempt(row));
        } catch (err) {
          this.opts.log?.error({ err }, 'webhook worker: claiming due deliveries failed');
        }
      }
      // full, or nothing due: wait for a slot to free up or the next poll
      if (claimed === 0 || this.inflight.size >= this.settings.concurrency) await this.idle(claimed === 0 ? this.settings.pollMs : 1000);
      else await new Promise((r) => setImmediate(r));
    }
  }

  private idle(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const t = setTimeout(done, ms);
      function done() {
        clearTimeout(t);
        resolve();
      }
      this.wake = done;
    });
  }

  private track(p: Promise<unknown>): void {
    const tracked = p.catch((err) => this.opts.log?.error({ err }, 'webhook worker: an attempt failed to record')).finally(() => {
      this.inflight.delete(tracked);
      const w = this.wake;
      this.wake = null;
      w?.();
    });
    this.inflight.add(tracked);
  }

  /**
   * Claims up to `limit` due deliveries and makes one attempt of each, all at once; answers when every one is
   * recorded. The unit the tests drive (with their clock); the loop does the same continuously.
   */
  async runDue(limit = this.settings.concurrency): Promise<AttemptDone[]> {
    const rows = await this.claim(limit);
    return Promise.all(rows.map((r) => this.attempt(r)));
  }

  /** Runs due deliveries until none is due at the worker's clock. */
  async drain(): Promise<AttemptDone[]> {
    const all: AttemptDone[] = [];
    for (;;) {
      const done = await this.runDue();
      if (!done.length) return all;
      all.push(...done);
    }
  }

  /**
   * One transaction: take due deliveries no live lease holds (skipping rows another worker has locked), lease them,
   * close the attempts a dead worker left open, and write this attempt of each as in flight.
   */
  async claim(limit: number): Promise<Claimed[]> {
    if (limit <= 0) return [];
    const now = this.now();
    const nowIso = now.toISOString();
    const token = crypto.randomUUID();
    // an idle poll is one index probe, not a transaction
    const due = rowsOf(await this.db.execute(sql`select 1 from webhook_deliveries where state in (${WebhookDeliveryState.Pending}, ${WebhookDeliveryState.Retrying})
      and next_at <= ${nowIso}::timestamptz limit 1`));
    if (!due.length) return [];
    return this.db.transaction(async (tx) => {
      const rows = rowsOf<Omit<Claimed, 'lease_token'>>(await tx.execute(sql`
        with due as (
          select delivery_id from webhook_deliveries
          where state in (${WebhookDeliveryState.Pending}, ${WebhookDeliveryState.Retrying}) and next_at <= ${nowIso}::timestamptz
            and (lease_until is null or lease_until <= ${nowIso}::timestamptz)
          order by next_at limit ${limit}
          for update skip locked)
        update webhook_deliveries d set lease_until = ${new Date(now.getTime() + this.leaseMs).toISOString()}::timestamptz,
          lease_token = ${token}::uuid, attempts = d.attempts + 1, total_attempts = d.total_attempts + 1, updated_at = now()
        from due, webhook_events e
        where d.delivery_id = due.delivery_id and e.event_id = d.event_id
        returning d.delivery_id, d.event_id, d.cust_id, d.root_cust_id, d.event_type, e.version, e.payload,
          e.created_at as event_created_at, d.url, d.attempts, d.series`));
      if (!rows.length) return [];
      const ids = sql.param(rows.map((r) => Number(r.delivery_id)));
      await tx.execute(sql`update webhook_attempts set outcome = ${WebhookAttemptOutcome.Interrupted}, finished_at = ${nowIso}::timestamptz,
          error = ${INTERRUPTED}
        where delivery_id = any(${ids}::bigint[]) and outcome is null`);
      const col = <V>(f: (r: Omit<Claimed, 'lease_token'>) => V) => sql.param(rows.map(f));
      await tx.execute(sql`insert into webhook_attempts (delivery_id, cust_id, root_cust_id, series, attempt_no, url, lease_token, started_at)
        select delivery_id, cust_id, root_cust_id, series, attempt_no, url, ${token}::uuid, ${nowIso}::timestamptz
        from unnest(${ids}::bigint[], ${col((r) => r.cust_id)}::int[], ${col((r) => r.root_cust_id)}::int[], ${col((r) => r.series)}::int[],
          ${col((r) => r.attempts)}::int[], ${col((r) => r.url)}::text[]) as t (delivery_id, cust_id, root_cust_id, series, attempt_no, url)`);
      return rows.map((r): Claimed => ({ ...r, lease_token: token }));
    });
  }

  private async signingKey(custId: number, rootCustId: number): Promise<SigningKey> {
    const hit = this.keys.get(custId);
    if (hit && this.now().getTime() - hit.at < CACHE_MS) return hit.key;
    const key = await signingKeyFor(this.db, this.box, { custId, rootCustId });
    this.keys.set(custId, { key, at: this.now().getTime() });
    return key;
  }

  private async currentUrl(custId: number, type: WebhookEventType): Promise<string | null> {
    const k = `${custId}:${type}`;
    const hit = this.urls.get(k);
    if (hit && this.now().getTime() - hit.at < CACHE_MS) return hit.url;
    const url = await callbackFor(this.db, custId, type);
    this.urls.set(k, { url, at: this.now().getTime() });
    return url;
  }

  /** One attempt of a claimed delivery: sign, POST, record. */
  private async attempt(row: Claimed): Promise<AttemptDone> {
    const deliveryId = Number(row.delivery_id);
    const token = row.lease_token;
    const custId = Number(row.cust_id);
    const type = Number(row.event_type) as WebhookEventType;
    let result: AttemptResult;
    let keyId: string | null = null;
    // the address the customer has now: a changed address is used from the next attempt; a removed one ends the delivery
    const url = await this.currentUrl(custId, type);
    if (!url) {
      result = { outcome: WebhookAttemptOutcome.NoAddress, httpStatus: null, error: NO_ADDRESS, responseExcerpt: null, latencyMs: 0 };
    } else {
      let key: SigningKey | null = null;
      try {
        key = await this.signingKey(custId, Number(row.root_cust_id));
      } catch (err) {
        // a secret sealed with another installation key: counted as a failed attempt until the customer rotates it
        this.opts.log?.error({ err, custId }, 'webhook worker: the customer\'s signing secret cannot be opened');
      }
      if (!key) {
        result = { outcome: WebhookAttemptOutcome.NetworkError, httpStatus: null, error: NO_SECRET, responseExcerpt: null, latencyMs: 0 };
        const state = await this.record(row, token, url, null, result);
        return { deliveryId, eventId: String(row.event_id), attemptNo: Number(row.attempts), result, state };
      }
      keyId = key.keyId;
      const body = eventBody({ eventId: String(row.event_id), type, version: row.version, createdAt: row.event_created_at, data: row.payload });
      const timestamp = String(Math.floor(this.now().getTime() / 1000));
      result = await postWebhook(url, body, {
        [WEBHOOK_HEADERS.keyId]: key.keyId,
        [WEBHOOK_HEADERS.timestamp]: timestamp,
        [WEBHOOK_HEADERS.signature]: signWebhook(key.secret, timestamp, body),
        [WEBHOOK_HEADERS.eventId]: String(row.event_id),
        [WEBHOOK_HEADERS.eventType]: WEBHOOK_EVENT_NAME[type],
        [WEBHOOK_HEADERS.attempt]: String(row.attempts),
      }, this.settings.timeoutMs);
    }
    const state = await this.record(row, token, url ?? row.url, keyId, result);
    return { deliveryId, eventId: String(row.event_id), attemptNo: Number(row.attempts), result, state };
  }

  /** Writes the attempt's outcome and moves the delivery on, in one transaction, only while this worker holds the lease. */
  private async record(row: Claimed, token: string, url: string, keyId: string | null, r: AttemptResult): Promise<WebhookDeliveryState | null> {
    const now = this.now();
    const nowIso = now.toISOString();
    const ok = r.outcome === WebhookAttemptOutcome.Success;
    const delay = ok || r.outcome === WebhookAttemptOutcome.NoAddress ? null : retryDelayMs(this.settings, Number(row.attempts), this.random());
    const state = ok ? WebhookDeliveryState.Delivered : delay === null ? WebhookDeliveryState.Dead : WebhookDeliveryState.Retrying;
    const nextAt = delay === null ? nowIso : new Date(now.getTime() + delay).toISOString();
    return this.db.transaction(async (tx) => {
      await tx.execute(sql`update webhook_attempts set outcome = ${r.outcome}, http_status = ${r.httpStatus}, error = ${r.error},
          response_excerpt = ${r.responseExcerpt}, latency_ms = ${r.latencyMs}, finished_at = ${nowIso}::timestamptz, url = ${url}, key_id = ${keyId}
        where delivery_id = ${Number(row.delivery_id)} and series = ${row.series} and attempt_no = ${row.attempts} and lease_token = ${token}::uuid`);
      const moved = rowsOf(await tx.execute(sql`update webhook_deliveries set state = ${state}, next_at = ${nextAt}::timestamptz,
          lease_until = null, lease_token = null, url = ${url}, last_attempt_at = ${nowIso}::timestamptz, last_outcome = ${r.outcome},
          last_http_status = ${r.httpStatus}, last_error = ${r.error},
          delivered_at = ${ok ? nowIso : null}::timestamptz, dead_at = ${state === WebhookDeliveryState.Dead ? nowIso : null}::timestamptz,
          updated_at = now()
        where delivery_id = ${Number(row.delivery_id)} and lease_token = ${token}::uuid returning delivery_id`));
      return moved.length ? state : null;
    });
  }
}
