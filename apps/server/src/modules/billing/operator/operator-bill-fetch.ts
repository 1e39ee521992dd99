// Fetching the carriers' bills (issue 14; docs/operator-gateway.md "Operator bills"). For every operator account and
// closed period whose usage the feed has delivered, a row of operator_bills is made (pending) and fetched through the
// account's gateway, a page of the account's cards at a time in ICCID order: each page's per-card charges and the
// cursor commit together under a lease, so a killed fetch resumes at its cursor and every card is stored once. Then one
// transaction writes the totals and the breakdown by plan. A refused or failed fetch is kept as failed with the
// carrier's reason and retried later (backoff); a re-fetch starts from scratch and replaces the lines.
import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import { businessDay, operatebill } from '@lynx/contract';
import type { Db, Executor } from '../../../db/client.ts';
import type { BillCard, OperatorGateway } from '../../../operators/gateway.ts';
import { createSimulatorGateway } from '../../../operators/simulator.ts';
import { gatewayOfAccount } from '../../network/opconfig/service.ts';
import { secretBoxFor } from '../../network/opconfig/secrets.ts';
import { operatorAccounts } from '../../network/opconfig/tables.ts';
import { barringOf, builtInSimulatorAccount, servicePeriods, type FeedCard, type UsageDeps } from '../../usage/usage-feed.ts';
import { apnOf, usageOperators, usagePlans } from '../../usage/usage-plans.ts';
import { defaultBillingDay, isPeriodReadyToBill, lastDeliveredUsageDay, periodByKey, periodOfDay, shiftPeriodKey, type BillingPeriod } from '../rating/periods.ts';

const { OperatorBillState } = operatebill;
const rowsOf = <T>(r: unknown): T[] => ((r as { rows?: T[] }).rows ?? (r as T[]));
const rows = async <T>(ex: Executor, q: ReturnType<typeof sql>) => rowsOf<T>(await ex.execute(q));

/** Cards per gateway call (one page of the carrier's bill, one transaction). */
export const OPERATOR_BILL_CHUNK = 2_000;
/** The job makes bills for this many closed periods back; older ones are fetched on request. */
export const OPERATOR_BILL_LOOKBACK = 3;
export const OPERATOR_BILL_LEASE_MS = 120_000;
/** First retry after 5 minutes, doubling, at most 6 hours apart. */
export const retryDelayMs = (attempts: number): number => Math.min(5 * 60_000 * 2 ** Math.max(0, attempts - 1), 6 * 3_600_000);

export interface OperatorBillDeps extends UsageDeps {
  /** tests: the gateway of an account instead of its configured one (a failing carrier) */
  gatewayOf?: (account: BillAccount) => OperatorGateway | null;
}

/** An account the carriers bill: an access configuration, or an operator's built-in network simulator (id 0). */
export interface BillAccount {
  operAccountId: number;
  operatorId: number;
  accountName: string;
  billingDay: number;
  /** the account the operator's cards go through (its first access configuration; 0 without one) */
  servesCards: boolean;
}

/**
 * The accounts: every access configuration and, for an operator without one, its built-in network (the usage feed and
 * card changes use the operator's first access configuration, else the built-in simulator: so do the bills).
 */
export async function billAccounts(ex: Executor): Promise<BillAccount[]> {
  const list = await rows<{ oper_account_id: number; operator_id: number; account_name: string; billing_day: number | null; first: number | null }>(ex, sql`
    select coalesce(a.oper_account_id, 0) as oper_account_id, o.operator_id, coalesce(a.account_name, '') as account_name, o.billing_day,
      min(a.oper_account_id) over (partition by o.operator_id) as first
    from operators o left join operator_accounts a on a.operator_id = o.operator_id
    order by o.operator_id, a.oper_account_id`);
  return list.map((r) => ({
    operAccountId: Number(r.oper_account_id), operatorId: Number(r.operator_id), accountName: r.account_name,
    billingDay: r.billing_day ?? defaultBillingDay(Number(r.operator_id)),
    servesCards: Number(r.oper_account_id) === Number(r.first ?? 0),
  }));
}

/** The name shown for the built-in network of an operator (neutral: the screen puts the operator's name beside it). */
export const BUILT_IN_ACCOUNT_NAME = 'built-in network simulator';
/** the operator's built-in network (account 0) in the reader's language */
export const BUILT_IN_ACCOUNT_LABEL = { zh: '内置网络模拟器', en: 'Built-in network simulator' };

/**
 * Why an operator's period cannot be billed by the carrier at `now`, or null: as for our bill runs, the period must
 * have closed and the T+1 usage feed (when the operator has one) delivered its last day. Neutral text for {reason}.
 */
export async function operatorPeriodNotReady(ex: Executor, operatorId: number, period: BillingPeriod, now: number): Promise<string | null> {
  if (now < period.end.getTime()) return `≥ ${businessDay(period.end.getTime())}`;
  const [feed] = await rows<{ watermark: Date | string }>(ex, sql`select watermark from usage_feeds where operator_id = ${operatorId}`);
  if (!feed) return null;
  const last = lastDeliveredUsageDay(new Date(feed.watermark));
  return isPeriodReadyToBill(period, now, last) ? null : `${last ?? '—'} < ${period.lastDay}`;
}

/** Makes the pending bills of the last OPERATOR_BILL_LOOKBACK ready periods of every account (existing ones are left). */
export async function discoverOperatorBills(db: Db, now = Date.now()): Promise<number> {
  let made = 0;
  for (const account of await billAccounts(db)) {
    const current = periodOfDay(businessDay(now), account.billingDay);
    for (let n = 1; n <= OPERATOR_BILL_LOOKBACK; n++) {
      const period = periodByKey(shiftPeriodKey(current.key, -n), account.billingDay);
      if (await operatorPeriodNotReady(db, account.operatorId, period, now)) continue;
      const r = await rows(db, sql`
        insert into operator_bills (oper_account_id, operator_id, account_name, period_key, period_from, period_to)
        values (${account.operAccountId}, ${account.operatorId}, ${account.accountName || BUILT_IN_ACCOUNT_NAME}, ${period.key}, ${period.firstDay}::date, ${period.lastDay}::date)
        on conflict (period_key, operator_id, oper_account_id) do nothing returning 1`);
      made += r.length;
    }
  }
  return made;
}

/** Bills whose turn it is: pending or failed and due, or fetching under a lease that ran out. */
export async function dueOperatorBills(db: Db): Promise<number[]> {
  const r = await rows<{ id: number }>(db, sql`
    select operator_bill_id as id from operator_bills
    where (state in (${OperatorBillState.Pending}, ${OperatorBillState.Failed}) and next_attempt_at <= now())
       or (state = ${OperatorBillState.Fetching} and (lease_until is null or lease_until < now()))
    order by period_key, operator_id, oper_account_id`);
  return r.map((x) => Number(x.id));
}

class FetchFailure extends Error {}
class LeaseLost extends Error {}

const boxes = new WeakMap<object, ReturnType<typeof secretBoxFor>>();

function gatewayOf(deps: OperatorBillDeps, account: BillAccount, row: typeof operatorAccounts.$inferSelect | undefined): OperatorGateway {
  if (deps.gatewayOf) {
    const g = deps.gatewayOf(account);
    if (!g) throw new FetchFailure(`NO_GATEWAY: no gateway for ${account.accountName}`);
    return g;
  }
  if (account.operAccountId === 0) return createSimulatorGateway(builtInSimulatorAccount(account.operatorId));
  if (!row) throw new FetchFailure('NO_ACCOUNT: the access configuration no longer exists');
  let box = boxes.get(deps.config);
  if (!box) boxes.set(deps.config, (box = secretBoxFor(deps.config)));
  let gateway: OperatorGateway | null;
  try {
    gateway = gatewayOfAccount(box, row);
  } catch {
    throw new FetchFailure(`CREDENTIALS: the credentials of ${row.accountName} cannot be opened (secret key changed?)`);
  }
  if (!gateway) throw new FetchFailure(`NOT_INSTALLED: the gateway adapter ${row.adapter} is not installed`);
  return gateway;
}

interface ChunkCard extends FeedCard { planCode: string | null }

/** The account's next cards after `after` (only the account serving the operator's cards has any). */
async function cardChunk(db: Db, account: BillAccount, after: string, limit: number): Promise<ChunkCard[]> {
  if (!account.servesCards) return [];
  const list = await rows<Record<string, unknown>>(db, sql`
    select c.iccid, c.msisdn, c.state, c.operator_id, c.cust_id, c.root_cust_id, c.goods_release_id, c.online, c.cycle_start_at, c.cycle_end_at,
      c.updated_at, c.pool_id, c.pool_joined_at, p.code as plan_code
    from cards c left join basic_plans p on p.goods_release_id = c.goods_release_id
    where c.operator_id = ${account.operatorId} and c.iccid > ${after} order by c.iccid limit ${limit}`);
  const date = (v: unknown) => (v == null ? null : new Date(v as string));
  return list.map((r) => ({
    iccid: String(r.iccid), msisdn: (r.msisdn as string | null) ?? null, state: Number(r.state), operatorId: Number(r.operator_id),
    custId: r.cust_id == null ? null : Number(r.cust_id), rootCustId: r.root_cust_id == null ? null : Number(r.root_cust_id),
    goodsReleaseId: r.goods_release_id == null ? null : Number(r.goods_release_id), online: Boolean(r.online),
    cycleStartAt: date(r.cycle_start_at), cycleEndAt: date(r.cycle_end_at), updatedAt: date(r.updated_at) ?? new Date(0),
    poolId: r.pool_id == null ? null : Number(r.pool_id), poolJoinedAt: date(r.pool_joined_at), planCode: (r.plan_code as string | null) ?? null,
  }));
}

/**
 * The cards as the carrier bills them: their service periods in the period, worked out exactly as the usage feed does
 * for its windows (state history, barring blocks, pools), so the carrier's usage on the bill is the usage it reported.
 */
async function billCards(db: Db, chunk: ChunkCard[], period: BillingPeriod): Promise<BillCard[]> {
  const plans = await usagePlans(db, chunk.map((c) => c.goodsReleaseId).filter((id): id is number => id != null));
  const operators = await usageOperators(db);
  const bars = await barringOf(db, chunk, plans, operators, period.start, period.end);
  const periods = await servicePeriods(db, chunk, bars, period.start, period.end);
  const out: BillCard[] = [];
  for (const c of chunk) {
    const service = periods.get(c.iccid);
    if (!service) continue;
    const plan = c.goodsReleaseId != null ? plans.get(c.goodsReleaseId) : undefined;
    out.push({
      iccid: c.iccid, msisdn: c.msisdn, operatorId: c.operatorId, service, apn: apnOf(c.iccid, plan, operators.get(c.operatorId)),
      networkTypes: plan?.networkTypes ?? [], planCode: c.planCode,
    });
  }
  return out;
}

export interface FetchResult {
  claimed: boolean;
  state: number;
  chunks: number;
}

/**
 * Fetches one operator bill under a lease: claims it (pending or failed and due, or fetching with an expired lease),
 * starts from scratch when it has no cursor (a first fetch or a re-fetch: the old lines go), pages through the cards,
 * then writes the totals. A failure is stored (state failed, the carrier's code and message, the next attempt).
 */
export async function fetchOperatorBill(
  deps: OperatorBillDeps, operatorBillId: number, owner: string, opts: { chunk?: number; maxChunks?: number; leaseMs?: number } = {},
): Promise<FetchResult> {
  const { db } = deps;
  const lease = sql`now() + ${`${Math.ceil((opts.leaseMs ?? OPERATOR_BILL_LEASE_MS) / 1000)} seconds`}::interval`;
  const [bill] = await rows<{ period_key: string; operator_id: number; oper_account_id: number; cursor_iccid: string | null }>(db, sql`
    update operator_bills set state = ${OperatorBillState.Fetching}, lease_owner = ${owner}, lease_until = ${lease}, updated_at = now(),
      attempts = attempts + case when state = ${OperatorBillState.Fetching} then 0 else 1 end
    where operator_bill_id = ${operatorBillId} and (
      (state in (${OperatorBillState.Pending}, ${OperatorBillState.Failed}) and next_attempt_at <= now())
      or (state = ${OperatorBillState.Fetching} and (lease_until is null or lease_until < now() or lease_owner = ${owner})))
    returning period_key, operator_id, oper_account_id, cursor_iccid`);
  if (!bill) {
    const [r] = await rows<{ state: number }>(db, sql`select state from operator_bills where operator_bill_id = ${operatorBillId}`);
    return { claimed: false, state: r ? Number(r.state) : 0, chunks: 0 };
  }
  const mine = sql`operator_bill_id = ${operatorBillId} and lease_owner = ${owner}`;
  const periodKey = bill.period_key;
  let chunks = 0;
  try {
    const account = (await billAccounts(db)).find((a) => a.operatorId === Number(bill.operator_id) && a.operAccountId === Number(bill.oper_account_id));
    const [row] = await db.select().from(operatorAccounts).where(sql`${operatorAccounts.operAccountId} = ${Number(bill.oper_account_id)}`);
    const acc: BillAccount = account ?? {
      operAccountId: Number(bill.oper_account_id), operatorId: Number(bill.operator_id), accountName: row?.accountName ?? '', billingDay: 1, servesCards: false,
    };
    const gateway = gatewayOf(deps, acc, row);
    const period = periodByKey(periodKey, acc.billingDay);
    await db.execute(sql`select operator_bill_cards_ensure_partition(${periodKey})`);
    let cursor = bill.cursor_iccid;
    if (cursor === null) {
      await db.transaction(async (tx) => {
        await tx.execute(sql`delete from operator_bill_cards where period_key = ${periodKey} and operator_bill_id = ${operatorBillId}`);
        await tx.execute(sql`delete from operator_bill_plans where operator_bill_id = ${operatorBillId}`);
      });
    }
    let asked = cursor !== null;
    for (;;) {
      if (opts.maxChunks !== undefined && chunks >= opts.maxChunks) return { claimed: true, state: OperatorBillState.Fetching, chunks };
      const chunk = await cardChunk(db, acc, cursor ?? '', opts.chunk ?? OPERATOR_BILL_CHUNK);
      if (chunk.length === 0 && asked) break;
      const cards = chunk.length ? await billCards(db, chunk, period) : [];
      let page = null;
      if (cards.length || !asked) {
        const res = await gateway.queryBill({ periodKey, from: period.start, to: period.end, cards });
        if (!res.ok) throw new FetchFailure(`${res.code}: ${res.message}`);
        page = res.data;
        asked = true;
      }
      const last = chunk.length ? chunk[chunk.length - 1].iccid : cursor;
      await db.transaction(async (tx) => {
        if (page && page.lines.length) {
          const l = page.lines;
          const fen = (f: (x: (typeof l)[number]) => number) => sql.param(l.map((x) => String(f(x))));
          await tx.execute(sql`
            insert into operator_bill_cards (period_key, operator_bill_id, iccid, plan_code, data_bytes, billed_mb, sms, card_fee, data_fee, sms_fee, amount, tax)
            select ${periodKey}, ${operatorBillId}, u.iccid, u.plan_code, u.data_bytes, u.billed_mb, u.sms,
              u.card_fee / 100, u.data_fee / 100, u.sms_fee / 100, u.amount / 100, u.tax / 100
            from unnest(${sql.param(l.map((x) => x.iccid))}::text[], ${sql.param(l.map((x) => x.planCode ?? ''))}::text[],
              ${fen((x) => x.dataBytes)}::bigint[], ${fen((x) => x.billedMb)}::bigint[], ${fen((x) => x.sms)}::int[],
              ${fen((x) => x.cardFeeFen)}::numeric[], ${fen((x) => x.dataFeeFen)}::numeric[], ${fen((x) => x.smsFeeFen)}::numeric[],
              ${fen((x) => x.amountFen)}::numeric[], ${fen((x) => x.taxFen)}::numeric[])
              as u (iccid, plan_code, data_bytes, billed_mb, sms, card_fee, data_fee, sms_fee, amount, tax)
            on conflict (period_key, operator_bill_id, iccid) do update set plan_code = excluded.plan_code, data_bytes = excluded.data_bytes,
              billed_mb = excluded.billed_mb, sms = excluded.sms, card_fee = excluded.card_fee, data_fee = excluded.data_fee,
              sms_fee = excluded.sms_fee, amount = excluded.amount, tax = excluded.tax`);
        }
        const tariff = page ? JSON.stringify(page.tariff) : null;
        const moved = await rows(tx, sql`
          update operator_bills set cursor_iccid = ${last}, lease_until = ${lease}, updated_at = now(),
            bill_ref = coalesce(${page?.billRef ?? null}, bill_ref), tariff = coalesce(${tariff}::jsonb, tariff)
          where ${mine} and state = ${OperatorBillState.Fetching} and cursor_iccid is not distinct from ${cursor} returning 1`);
        if (!moved.length) throw new LeaseLost('the operator bill\'s lease was lost to another process');
      });
      cursor = last;
      chunks++;
      if (chunk.length === 0) break;
    }
    await db.transaction(async (tx) => {
      await tx.execute(sql`delete from operator_bill_plans where operator_bill_id = ${operatorBillId}`);
      await tx.execute(sql`
        insert into operator_bill_plans (operator_bill_id, plan_code, cards, data_bytes, billed_mb, sms, card_fee, data_fee, sms_fee, amount, tax)
        select ${operatorBillId}, plan_code, count(*), sum(data_bytes), sum(billed_mb), sum(sms), sum(card_fee), sum(data_fee), sum(sms_fee), sum(amount), sum(tax)
        from operator_bill_cards where period_key = ${periodKey} and operator_bill_id = ${operatorBillId} group by plan_code`);
      const done = await rows(tx, sql`
        update operator_bills b set state = ${OperatorBillState.Fetched}, fetched_at = now(), last_error = null, updated_at = now(),
          lease_owner = null, lease_until = null,
          cards = t.cards, data_bytes = t.data_bytes, billed_mb = t.billed_mb, sms = t.sms, card_fee = t.card_fee, data_fee = t.data_fee,
          sms_fee = t.sms_fee, amount = t.amount, tax = t.tax
        from (select coalesce(sum(cards), 0) cards, coalesce(sum(data_bytes), 0) data_bytes, coalesce(sum(billed_mb), 0) billed_mb,
            coalesce(sum(sms), 0) sms, coalesce(sum(card_fee), 0) card_fee, coalesce(sum(data_fee), 0) data_fee, coalesce(sum(sms_fee), 0) sms_fee,
            coalesce(sum(amount), 0) amount, coalesce(sum(tax), 0) tax
          from operator_bill_plans where operator_bill_id = ${operatorBillId}) t
        where ${mine} and b.state = ${OperatorBillState.Fetching} returning 1`);
      if (!done.length) throw new LeaseLost('the operator bill\'s lease was lost to another process');
    });
    return { claimed: true, state: OperatorBillState.Fetched, chunks };
  } catch (e) {
    if (e instanceof LeaseLost) throw e;
    const reason = String((e as Error)?.message ?? e).slice(0, 500);
    const [r] = await rows<{ attempts: number }>(db, sql`select attempts from operator_bills where ${mine}`);
    const delay = retryDelayMs(Number(r?.attempts ?? 1));
    await db.execute(sql`
      update operator_bills set state = ${OperatorBillState.Failed}, last_error = ${reason}, lease_owner = null, lease_until = null, updated_at = now(),
        next_attempt_at = now() + ${`${Math.round(delay / 1000)} seconds`}::interval
      where ${mine}`);
    return { claimed: true, state: OperatorBillState.Failed, chunks };
  }
}

/** A worker's name for the lease. */
export const operatorBillOwner = () => `${process.pid}-${crypto.randomBytes(4).toString('hex')}`;

/** One turn of the job: make the bills of newly closed periods, then fetch every bill whose turn it is (or the one given). */
export async function runOperatorBillFetch(
  deps: OperatorBillDeps, opts: { operatorBillId?: number; now?: number; budgetMs?: number; log?: (err: unknown, id: number) => void } = {},
): Promise<FetchResult[]> {
  const started = Date.now();
  if (opts.operatorBillId === undefined) await discoverOperatorBills(deps.db, opts.now);
  const ids = opts.operatorBillId !== undefined ? [opts.operatorBillId] : await dueOperatorBills(deps.db);
  const owner = operatorBillOwner();
  const out: FetchResult[] = [];
  for (const id of ids) {
    if (opts.budgetMs !== undefined && Date.now() - started > opts.budgetMs) break;
    try {
      out.push(await fetchOperatorBill(deps, id, owner));
    } catch (err) {
      opts.log?.(err, id);
    }
  }
  return out;
}
