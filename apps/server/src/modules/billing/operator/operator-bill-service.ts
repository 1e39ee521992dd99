import { sql, type SQL } from 'drizzle-orm';
import { BillSummaryDim, ChannelBillLineState, ErrorCode, fenToMoney, moneyToFen, operatebill, type BodyOf } from '@lynx/contract';
import type { Db, Executor } from '../../../db/client.ts';
import { audit } from '../../../platform/audit.ts';
import { AppError, denied } from '../../../platform/errors.ts';
import { isStaff, type Actor, type SessionContext } from '../../../platform/context.ts';
import { pageOf } from '../../../platform/paging.ts';
import { periodByKey } from '../rating/periods.ts';
import { BUILT_IN_ACCOUNT_NAME, billAccounts, operatorPeriodNotReady } from './operator-bill-fetch.ts';

/**
 * Operating bills (Financial › Operating bills, 9030000; docs/decisions.md "Issue 14: operator bills"): the carriers'
 * bills of each operator account and period against the revenue of the same cards, re-fetching and confirming them,
 * and a customer bill's cards on the carriers' bills. Platform staff only: every call refuses a customer (20002), so
 * a role edited to hold the code still sees nothing of the platform's costs.
 *
 * Revenue of an account and period: what the bills of that period charged for its operator's cards (the bills'
 * operator breakdown, bill_summaries dim 2), tax excluded, counted for the account that serves the operator's cards
 * (its first access configuration, 0 = the built-in network; other accounts of the operator have no cards). Read at
 * the time of reading, so a re-run of an unpublished bill shows at once. Customer-level one-off fees belong to no
 * operator and are not attributed.
 */
const { OperatorBillState } = operatebill;
type ListQuery = BodyOf<typeof operatebill.getOperatorBillListPage>;
type Row = Record<string, unknown>;
const rowsOf = <T>(r: unknown): T[] => ((r as { rows?: T[] }).rows ?? (r as T[]));
const iso = (v: unknown) => (v == null ? null : new Date(v as string).toISOString());

/** The operator's account that serves its cards: its first access configuration, 0 without one (as the usage feed). */
const CARD_ACCOUNT = sql`coalesce((select min(a.oper_account_id) from operator_accounts a where a.operator_id = ob.operator_id), 0)`;

/** The revenue of the account's cards in the bill's period, per operator bill `ob` (a lateral subquery). */
const REVENUE = sql`left join lateral (
    select coalesce(sum(s.amount - s.tax), 0) as revenue, coalesce(sum(s.tax), 0) as revenue_tax,
      count(distinct b.bill_id) as revenue_bills, count(distinct b.bill_id) filter (where b.published) as revenue_published
    from bills b join bill_summaries s on s.bill_id = b.bill_id and s.dim = ${BillSummaryDim.Operator} and s.dim_key = ob.operator_id
    where b.period_key = ob.period_key and ob.oper_account_id = ${CARD_ACCOUNT}
  ) r on true
  left join lateral (select exists (select 1 from bills pb where pb.period_key = ob.period_key) as period_billed) pb on true`;

/**
 * The channel bill the operator bill was reconciled as (Billing › Channel bills, at most one: a unique index), with its
 * line counts per result; per operator bill `ob` (a lateral subquery).
 */
const CHANNEL_BILL = sql`left join lateral (
    select cb.bill_id, cb.state, cb.reconciled_at, cb.created_at,
      coalesce((select jsonb_object_agg(s.state, s.lines) from channel_bill_summaries s where s.bill_id = cb.bill_id), '{}'::jsonb) as counts
    from channel_bills cb where cb.operator_bill_id = ob.operator_bill_id
  ) cb on true`;

const COLUMNS = sql`ob.operator_bill_id, ob.oper_account_id, ob.operator_id, ob.account_name, ob.period_key, ob.period_from::text as period_from,
  ob.period_to::text as period_to, ob.state, ob.bill_ref, ob.tariff, ob.cards, ob.data_bytes, ob.billed_mb, ob.sms, ob.card_fee::text as card_fee,
  ob.data_fee::text as data_fee, ob.sms_fee::text as sms_fee, ob.amount::text as cost, ob.tax::text as cost_tax,
  r.revenue::numeric(16, 2)::text as revenue, r.revenue_tax::numeric(16, 2)::text as revenue_tax, r.revenue_bills, r.revenue_published,
  pb.period_billed,
  case when ob.state in (${OperatorBillState.Fetched}, ${OperatorBillState.Confirmed}) and pb.period_billed then (r.revenue - ob.amount)::numeric(16, 2)::text end as margin,
  case when ob.state in (${OperatorBillState.Fetched}, ${OperatorBillState.Confirmed}) and pb.period_billed and r.revenue <> 0
    then round((r.revenue - ob.amount) * 100 / r.revenue, 2)::text end as margin_pct,
  ob.attempts, ob.last_error, ob.next_attempt_at, ob.fetched_at, ob.confirmed_at, ob.confirmed_by,
  cb.bill_id as cb_bill_id, cb.state as cb_state, cb.counts as cb_counts, cb.reconciled_at as cb_reconciled_at, ob.fetched_at > cb.created_at as cb_stale`;

const fen2 = (fen: number) => fenToMoney(BigInt(fen));

function tariffOut(t: unknown) {
  if (!t || typeof t !== 'object') return null;
  const x = t as { cardFeeFen?: number; dataFenPerGb?: number; smsFen?: number; taxRateBp?: number };
  if (![x.cardFeeFen, x.dataFenPerGb, x.smsFen, x.taxRateBp].every((v) => Number.isInteger(v))) return null;
  return { cardFee: fen2(x.cardFeeFen!), dataPerGb: fen2(x.dataFenPerGb!), sms: fen2(x.smsFen!), taxRate: fen2(x.taxRateBp!) };
}

export function operatorBillOut(r: Row) {
  return {
    operatorBillId: Number(r.operator_bill_id), operAccountId: Number(r.oper_account_id), operatorId: Number(r.operator_id),
    accountName: String(r.account_name), periodKey: String(r.period_key), periodFrom: String(r.period_from), periodTo: String(r.period_to),
    state: Number(r.state), billRef: (r.bill_ref as string | null) ?? null, tariff: tariffOut(r.tariff), cards: Number(r.cards),
    dataBytes: Number(r.data_bytes), billedMb: Number(r.billed_mb), sms: Number(r.sms), cardFee: String(r.card_fee), dataFee: String(r.data_fee),
    smsFee: String(r.sms_fee), cost: String(r.cost), costTax: String(r.cost_tax), revenue: String(r.revenue), revenueTax: String(r.revenue_tax),
    revenueBills: Number(r.revenue_bills), revenuePublished: Number(r.revenue_published), periodBilled: Boolean(r.period_billed), margin: (r.margin as string | null) ?? null,
    marginPct: (r.margin_pct as string | null) ?? null, attempts: Number(r.attempts), lastError: (r.last_error as string | null) ?? null,
    nextAttemptAt: Number(r.state) === OperatorBillState.Failed || Number(r.state) === OperatorBillState.Pending ? iso(r.next_attempt_at) : null,
    fetchedAt: iso(r.fetched_at), confirmedAt: iso(r.confirmed_at), confirmedBy: (r.confirmed_by as string | null) ?? null,
    channelBill: channelBillOut(r),
  };
}

function channelBillOut(r: Row) {
  if (r.cb_bill_id == null) return null;
  const counts = (typeof r.cb_counts === 'string' ? JSON.parse(r.cb_counts) : (r.cb_counts ?? {})) as Record<string, number>;
  const n = (state: number) => Number(counts[state] ?? 0);
  return {
    billId: Number(r.cb_bill_id), state: Number(r.cb_state), matched: n(ChannelBillLineState.Matched), differs: n(ChannelBillLineState.Differs),
    missingOnPlatform: n(ChannelBillLineState.MissingOnPlatform), missingInChannel: n(ChannelBillLineState.MissingInChannel),
    reconciledAt: iso(r.cb_reconciled_at), stale: Boolean(r.cb_stale),
  };
}

function staffOnly(actor: Actor) {
  if (!isStaff(actor)) throw denied();
}

export class OperatorBillService {
  constructor(private db: Db) {}

  async list(q: ListQuery, actor: Actor) {
    staffOnly(actor);
    const p = pageOf(q);
    const where: SQL[] = [sql`true`];
    if (q.operatorId !== undefined) where.push(sql`ob.operator_id = ${q.operatorId}`);
    if (q.operAccountId !== undefined) where.push(sql`ob.oper_account_id = ${q.operAccountId}`);
    if (q.periodFrom !== undefined) where.push(sql`ob.period_key >= ${q.periodFrom}`);
    if (q.periodTo !== undefined) where.push(sql`ob.period_key <= ${q.periodTo}`);
    if (q.state !== undefined) where.push(sql`ob.state = ${q.state}`);
    const cond = sql.join(where, sql` and `);
    const [{ n }] = rowsOf<{ n: string }>(await this.db.execute(sql`select count(*) as n from operator_bills ob where ${cond}`));
    const list = rowsOf<Row>(await this.db.execute(sql`select ${COLUMNS} from operator_bills ob ${REVENUE} ${CHANNEL_BILL} where ${cond}
      order by ob.period_key desc, ob.operator_id, ob.oper_account_id limit ${p.limit} offset ${p.offset}`));
    return { list: list.map(operatorBillOut), total: Number(n), current: p.current, pageSize: p.pageSize };
  }

  async row(ex: Executor, operatorBillId: number) {
    const [r] = rowsOf<Row>(await ex.execute(sql`select ${COLUMNS} from operator_bills ob ${REVENUE} ${CHANNEL_BILL} where ob.operator_bill_id = ${operatorBillId}`));
    if (!r) throw new AppError(ErrorCode.NotFound);
    return operatorBillOut(r);
  }

  async detail(operatorBillId: number, actor: Actor) {
    staffOnly(actor);
    const bill = await this.row(this.db, operatorBillId);
    const [plans, revenue] = await Promise.all([
      this.db.execute(sql`select op.plan_code, p.name as plan_name, op.cards, op.data_bytes, op.billed_mb, op.sms, op.card_fee::text as card_fee,
          op.data_fee::text as data_fee, op.sms_fee::text as sms_fee, op.amount::text as cost, op.tax::text as cost_tax
        from operator_bill_plans op left join basic_plans p on p.code = op.plan_code
        where op.operator_bill_id = ${operatorBillId} order by op.amount desc, op.plan_code`).then((r) => rowsOf<Row>(r)),
      this.db.execute(sql`select s.category, sum(s.cards)::int as cards, sum(s.amount - s.tax)::numeric(16, 2)::text as revenue,
          sum(s.tax)::numeric(16, 2)::text as revenue_tax
        from operator_bills ob join bills b on b.period_key = ob.period_key
          join bill_summaries s on s.bill_id = b.bill_id and s.dim = ${BillSummaryDim.Operator} and s.dim_key = ob.operator_id
        where ob.operator_bill_id = ${operatorBillId} and ob.oper_account_id = ${CARD_ACCOUNT}
        group by s.category order by s.category`).then((r) => rowsOf<Row>(r)),
    ]);
    return {
      bill,
      plans: plans.map((r) => ({
        planCode: String(r.plan_code), planName: (r.plan_name as string | null) ?? null, cards: Number(r.cards), dataBytes: Number(r.data_bytes),
        billedMb: Number(r.billed_mb), sms: Number(r.sms), cardFee: String(r.card_fee), dataFee: String(r.data_fee), smsFee: String(r.sms_fee),
        cost: String(r.cost), costTax: String(r.cost_tax),
      })),
      revenue: revenue.map((r) => ({ category: Number(r.category), cards: Number(r.cards), revenue: String(r.revenue), revenueTax: String(r.revenue_tax) })),
    };
  }

  async accounts(actor: Actor) {
    staffOnly(actor);
    const list = await billAccounts(this.db);
    const extra = rowsOf<Row>(await this.db.execute(sql`select distinct oper_account_id, operator_id, account_name from operator_bills
      where oper_account_id not in (select oper_account_id from operator_accounts) order by operator_id, oper_account_id`));
    const out = list.map((a) => ({ operAccountId: a.operAccountId, operatorId: a.operatorId, accountName: a.accountName || BUILT_IN_ACCOUNT_NAME }));
    for (const r of extra) {
      const key = `${r.operator_id}/${r.oper_account_id}`;
      if (!out.some((a) => `${a.operatorId}/${a.operAccountId}` === key)) {
        out.push({ operAccountId: Number(r.oper_account_id), operatorId: Number(r.operator_id), accountName: String(r.account_name) });
      }
    }
    return out;
  }

  /**
   * Makes the bill fetch again from scratch (the job replaces its lines), or makes it for a closed period the job has
   * not reached. Refused when confirmed (20970), while being fetched under a live lease (20971), and for a period that
   * is not ready (20972). An account must exist (a deleted one keeps its bills, which can no longer be fetched).
   */
  async refetch(b: BodyOf<typeof operatebill.refetchOperatorBill>, ctx: SessionContext, now = Date.now()) {
    staffOnly(ctx.actor);
    const account = (await billAccounts(this.db)).find((a) => a.operatorId === b.operatorId && a.operAccountId === b.operAccountId);
    if (!account) throw new AppError(ErrorCode.NotFound);
    const period = periodByKey(b.periodKey, account.billingDay);
    const reason = await operatorPeriodNotReady(this.db, account.operatorId, period, now);
    if (reason) throw new AppError(ErrorCode.OperatorBillPeriodOpen, { period: b.periodKey, reason });
    const name = account.accountName || BUILT_IN_ACCOUNT_NAME;
    return this.db.transaction(async (tx) => {
      const [before] = rowsOf<Row>(await tx.execute(sql`select operator_bill_id, state, lease_until > now() as leased, amount::text as amount
        from operator_bills where period_key = ${b.periodKey} and operator_id = ${b.operatorId} and oper_account_id = ${b.operAccountId} for update`));
      if (before && Number(before.state) === OperatorBillState.Confirmed) throw new AppError(ErrorCode.OperatorBillConfirmed, { account: name, period: b.periodKey });
      if (before && Number(before.state) === OperatorBillState.Fetching && before.leased) {
        throw new AppError(ErrorCode.OperatorBillFetching, { account: name, period: b.periodKey });
      }
      const [r] = rowsOf<{ operator_bill_id: number }>(await tx.execute(sql`
        insert into operator_bills (oper_account_id, operator_id, account_name, period_key, period_from, period_to, requested_by)
        values (${b.operAccountId}, ${b.operatorId}, ${name}, ${b.periodKey}, ${period.firstDay}::date, ${period.lastDay}::date, ${ctx.actor.loginName})
        on conflict (period_key, operator_id, oper_account_id) do update set state = ${OperatorBillState.Pending}, cursor_iccid = null, attempts = 0,
          last_error = null, next_attempt_at = now(), lease_owner = null, lease_until = null, requested_by = excluded.requested_by,
          account_name = excluded.account_name, updated_at = now()
        returning operator_bill_id`));
      const id = Number(r.operator_bill_id);
      await audit(tx, ctx, {
        entity: 'operatorBill', entityId: id, custId: null, rootCustId: null,
        before: before ? { state: Number(before.state), cost: before.amount } : null, after: { state: OperatorBillState.Pending, periodKey: b.periodKey },
      });
      return this.row(tx, id);
    });
  }

  /** Finance checked the bill: it stays as it is. Only a fetched bill; confirming a confirmed one changes nothing. */
  async confirm(operatorBillId: number, ctx: SessionContext) {
    staffOnly(ctx.actor);
    return this.db.transaction(async (tx) => {
      const [before] = rowsOf<Row>(await tx.execute(sql`select state from operator_bills where operator_bill_id = ${operatorBillId} for update`));
      if (!before) throw new AppError(ErrorCode.NotFound);
      const state = Number(before.state);
      if (state === OperatorBillState.Confirmed) return this.row(tx, operatorBillId);
      if (state !== OperatorBillState.Fetched) throw new AppError(ErrorCode.OperatorBillNotFetched);
      await tx.execute(sql`update operator_bills set state = ${OperatorBillState.Confirmed}, confirmed_at = now(), confirmed_by = ${ctx.actor.loginName},
        updated_at = now() where operator_bill_id = ${operatorBillId}`);
      const after = await this.row(tx, operatorBillId);
      await audit(tx, ctx, {
        entity: 'operatorBill', entityId: operatorBillId, custId: null, rootCustId: null,
        before: { state }, after: { state: OperatorBillState.Confirmed, cost: after.cost, revenue: after.revenue },
      });
      return after;
    });
  }

  /**
   * A customer bill's cards on the carriers' bills, per operator: the carriers' per-card charges of the period summed
   * over the cards that have lines on this bill (only fetched or confirmed operator bills count), against what this
   * bill charged for the operator's cards.
   */
  async billCost(billId: number, actor: Actor) {
    staffOnly(actor);
    const [bill] = rowsOf<{ period_key: string }>(await this.db.execute(sql`select period_key from bills where bill_id = ${billId}`));
    if (!bill) throw new AppError(ErrorCode.NotFound);
    const k = bill.period_key;
    const fetched = sql`select operator_bill_id from operator_bills where period_key = ${k} and state in (${OperatorBillState.Fetched}, ${OperatorBillState.Confirmed})`;
    const [costs, revenue, bills] = await Promise.all([
      this.db.execute(sql`
        with bl as (select iccid, min(operator_id) as operator_id from bill_lines where period_key = ${k} and bill_id = ${billId} and iccid <> '' group by iccid)
        select bl.operator_id, count(*)::int as bill_cards, count(oc.iccid)::int as cost_cards,
          coalesce(sum(oc.amount), 0)::numeric(16, 2)::text as cost, coalesce(sum(oc.tax), 0)::numeric(16, 2)::text as cost_tax
        from bl left join operator_bill_cards oc on oc.period_key = ${k} and oc.iccid = bl.iccid and oc.operator_bill_id in (${fetched})
        where bl.operator_id is not null group by bl.operator_id order by bl.operator_id`).then((r) => rowsOf<Row>(r)),
      this.db.execute(sql`select dim_key as operator_id, sum(amount - tax)::numeric(16, 2)::text as revenue from bill_summaries
        where bill_id = ${billId} and dim = ${BillSummaryDim.Operator} group by dim_key`).then((r) => rowsOf<Row>(r)),
      this.db.execute(sql`select operator_bill_id, operator_id, oper_account_id, account_name, state from operator_bills where period_key = ${k}
        order by operator_id, oper_account_id`).then((r) => rowsOf<Row>(r)),
    ]);
    const revenueOf = new Map(revenue.map((r) => [Number(r.operator_id), String(r.revenue)]));
    return costs.map((r) => {
      const operatorId = Number(r.operator_id);
      const rev = revenueOf.get(operatorId) ?? '0.00';
      return {
        operatorId, billCards: Number(r.bill_cards), costCards: Number(r.cost_cards), cost: String(r.cost), costTax: String(r.cost_tax), revenue: rev,
        margin: fenToMoney((moneyToFen(rev) ?? 0n) - (moneyToFen(String(r.cost)) ?? 0n)),
        operatorBills: bills.filter((b) => Number(b.operator_id) === operatorId)
          .map((b) => ({
            operatorBillId: Number(b.operator_bill_id), operAccountId: Number(b.oper_account_id), accountName: String(b.account_name), state: Number(b.state),
          })),
      };
    });
  }
}
