// The mobile-originated feed (docs/sms.md): per operator, the messages its cards sent are pulled from the operator's
// gateway window by window ([watermark, window_to), at most 6 hours, ending a minute before now) and stored with
// the card (direction 2, source "from the device"). Like the usage feed: a lease on the operator's feed row (two
// processes never work the same feed), the cards in ICCID chunks with the cursor saved in the same transaction as
// the chunk's messages (a crash resumes after the last stored chunk), the carrier's message id unique per card (a
// chunk done twice stores nothing twice). The first run starts at its own time: no history is backfilled.
import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import { CardState, WebhookEventType, sms as api } from '@lynx/contract';
import type { Executor } from '../../db/client.ts';
import { enqueueEvents } from '../delivery/webhook/outbox.ts';
import type { MoSms } from '../../operators/gateway.ts';
import { rowsOf, SmsRoutes, type SmsDeps } from './send.ts';

const { SmsStatus, SmsDirection, SmsSource } = api;

export const SMS_MO_QUEUE = 'sms-mo-feed';
const CHUNK = 2_000;
const STEP_MS = 6 * 3_600_000;
const LEASE_MS = 5 * 60_000;
/** the carrier's records of the last minute may still be incomplete */
const SETTLE_MS = 60_000;

export interface MoRun {
  operatorId: number;
  ran: boolean;
  windows: number;
  stored: number;
  error: string | null;
}

/** Operators with an access configuration: the only ones the platform hears from. */
async function moOperators(deps: SmsDeps): Promise<number[]> {
  const rows = rowsOf<{ operator_id: number }>(await deps.db.execute(sql`select distinct operator_id from operator_accounts order by operator_id`));
  return rows.map((r) => Number(r.operator_id));
}

export async function runMoFeeds(deps: SmsDeps, now = new Date()): Promise<MoRun[]> {
  const out: MoRun[] = [];
  for (const operatorId of await moOperators(deps)) out.push(await runMoFeed(deps, operatorId, now));
  return out;
}

/** Works the operator's feed up to a minute before `now` (window by window); answers what it did. */
export async function runMoFeed(deps: SmsDeps, operatorId: number, now = new Date(), chunk = CHUNK): Promise<MoRun> {
  const db = deps.db;
  const run: MoRun = { operatorId, ran: false, windows: 0, stored: 0, error: null };
  const owner = crypto.randomUUID();
  const end = Math.floor((now.getTime() - SETTLE_MS) / 60_000) * 60_000;
  await db.execute(sql`insert into sms_mo_feeds (operator_id, watermark) values (${operatorId}, ${new Date(end).toISOString()}::timestamptz)
    on conflict (operator_id) do nothing`);
  const [feed] = rowsOf<{ watermark: Date; window_to: Date | null; cursor_iccid: string | null }>(await db.execute(sql`
    update sms_mo_feeds set lease_owner = ${owner}, lease_until = now() + make_interval(secs => ${LEASE_MS / 1000}), updated_at = now()
    where operator_id = ${operatorId} and (lease_until is null or lease_until < now())
    returning watermark, window_to, cursor_iccid`));
  if (!feed) return run;
  run.ran = true;
  const routes = new SmsRoutes(db, deps.config);
  const route = await routes.of(operatorId);
  try {
    if (!route.ok) throw new Error(`no usable access configuration for operator ${operatorId}`);
    let watermark = new Date(feed.watermark).getTime();
    let windowTo = feed.window_to ? new Date(feed.window_to).getTime() : null;
    let cursor = feed.cursor_iccid;
    while (windowTo !== null || watermark < end) {
      if (windowTo === null) {
        windowTo = Math.min(end, watermark + STEP_MS);
        cursor = null;
      }
      for (;;) {
        const cards = rowsOf<{ iccid: string; msisdn: string; state: number; cust_id: number | null; root_cust_id: number | null }>(await db.execute(sql`
          select iccid, msisdn, state, cust_id, root_cust_id from cards
          where operator_id = ${operatorId} and state in (${CardState.Test}, ${CardState.Activated}) and msisdn is not null
            ${cursor ? sql`and iccid > ${cursor}` : sql``}
          order by iccid limit ${chunk}`));
        if (!cards.length) break;
        const r = await route.gateway.pullMoSms({
          cards: cards.map((c) => ({ iccid: c.iccid, msisdn: c.msisdn, test: Number(c.state) === CardState.Test })),
          from: new Date(watermark), to: new Date(windowTo),
        });
        if (!r.ok) throw new Error(`${r.code}: ${r.message}`);
        const tenant = new Map(cards.map((c) => [c.iccid, c]));
        const last = cards[cards.length - 1].iccid;
        run.stored += await db.transaction(async (tx) => {
          const n = await storeMo(tx, r.data, tenant, route.operAccountId);
          await tx.execute(sql`update sms_mo_feeds set window_to = ${new Date(windowTo!).toISOString()}::timestamptz, cursor_iccid = ${last},
            lease_until = now() + make_interval(secs => ${LEASE_MS / 1000}), updated_at = now() where operator_id = ${operatorId} and lease_owner = ${owner}`);
          return n;
        });
        cursor = last;
        await new Promise((resolve) => setImmediate(resolve));
        if (cards.length < chunk) break;
      }
      watermark = windowTo;
      windowTo = null;
      await db.execute(sql`update sms_mo_feeds set watermark = ${new Date(watermark).toISOString()}::timestamptz, window_to = null, cursor_iccid = null,
        last_error = null, updated_at = now() where operator_id = ${operatorId} and lease_owner = ${owner}`);
      run.windows++;
    }
  } catch (err) {
    run.error = (err as Error).message.slice(0, 500);
    await db.execute(sql`update sms_mo_feeds set last_error = ${run.error}, updated_at = now() where operator_id = ${operatorId}`);
  } finally {
    await db.execute(sql`update sms_mo_feeds set lease_owner = null, lease_until = null where operator_id = ${operatorId} and lease_owner = ${owner}`);
  }
  return run;
}

/** Stores received messages with their card's tenant; a message already stored (same carrier id) is skipped. */
async function storeMo(
  ex: Executor, messages: MoSms[], cards: Map<string, { cust_id: number | null; root_cust_id: number | null }>, operAccountId: number,
): Promise<number> {
  const rows = messages.filter((m) => cards.has(m.iccid) && m.content);
  if (!rows.length) return 0;
  const col = (f: (m: MoSms) => unknown) => sql.param(rows.map(f));
  const res = rowsOf<{ sms_id: string; iccid: string; msisdn: string | null; cust_id: number | null; content: string; created_at: Date | string }>(await ex.execute(sql`
    with ins as (
      insert into card_sms (iccid, msisdn, direction, content, status, oper_account_id, message_id, cust_id, root_cust_id, source, encoding, created_at, updated_at)
      select t.iccid, t.msisdn, ${SmsDirection.FromDevice}::smallint, left(t.content, 160), ${SmsStatus.Sent}::smallint, ${operAccountId}::int, t.message_id, t.cust_id, t.root_cust_id,
        ${SmsSource.Device}::smallint, t.encoding, t.sent_at, t.sent_at
      from unnest(${col((m) => m.iccid)}::text[], ${col((m) => m.msisdn)}::text[], ${col((m) => m.content)}::text[], ${col((m) => m.messageId)}::text[],
        ${col((m) => cards.get(m.iccid)!.cust_id)}::int[], ${col((m) => cards.get(m.iccid)!.root_cust_id)}::int[], ${col((m) => m.sentAt)}::timestamptz[],
        ${col((m) => api.smsLength(m.content.slice(0, 160)).encoding)}::smallint[])
        as t (iccid, msisdn, content, message_id, cust_id, root_cust_id, sent_at, encoding)
      on conflict (iccid, message_id) where message_id is not null do nothing
      returning sms_id, iccid, msisdn, cust_id, content, created_at)
    select sms_id, iccid, msisdn, cust_id, content, created_at from ins`));
  // an `sms.received` webhook event per message stored (not for one stored before), to the card's customer, in the
  // chunk's transaction: one outbox call for the chunk (docs/webhooks.md)
  await enqueueEvents(ex, res.filter((m) => m.cust_id != null).map((m) => {
    const at = new Date(m.created_at);
    return {
      custId: Number(m.cust_id), type: WebhookEventType.SmsReceived, at,
      payload: { smsId: String(m.sms_id), iccid: m.iccid, msisdn: m.msisdn ?? null, custId: Number(m.cust_id), content: m.content, receivedAt: at.toISOString() },
    };
  }));
  return res.length;
}
