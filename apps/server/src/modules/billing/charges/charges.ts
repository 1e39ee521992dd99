// Charges at the event (issue 14; docs/billing.md "Charges at the event"). The card service calls this module inside
// the transaction of a card change: `rateEventCharges` turns the lifecycle engine's effects into bill lines (a
// prepaid plan's term when its contract starts or is renewed, a pack when it is ordered), `refuseUnaffordable` refuses
// a person's change that a prepaid customer's balance cannot pay (before the operator is asked), and
// `recordEventCharges` writes the charge records, their cards and, for prepaid customers, the withholding journal.
// Everything happens in the card change's transaction: the change and its money stand or fall together.
import { sql } from 'drizzle-orm';
import {
  BillLineCategory, ChargeEvent, ChargeState, ErrorCode, JournalKind, LedgerAccount, PaymentModel, PlanGoodsType,
  fenToMoney, formatMoney,
} from '@lynx/contract';
import type { Executor, Tx } from '../../../db/client.ts';
import { AppError } from '../../../platform/errors.ts';
import { availableFen, lockBalances, postJournal, type BalanceFen, type PostingLine } from '../../money/ledger.ts';
import { rowsOf } from '../bills/bill-sql.ts';
import { packFeeLine, prepaidFeeLine, type BillLine, type RatingPlan } from '../rating/rating.ts';
import { defaultBillingDay, periodAt } from '../rating/periods.ts';
import { addBusinessMonths, contractEndOf } from '../../card/lifecycle/time.ts';
import type { CardSnapshot, Effect } from '../../card/lifecycle/engine.ts';

/** What the card service hands over per changed card: its row before, the engine's result. */
export interface ChargedChange {
  row: { iccid: string; custId: number | null; rootCustId: number | null; operatorId: number; cardTypeId: number | null };
  next: CardSnapshot;
  effects: Effect[];
}

/** One card's charge at the event, rated. */
export interface EventCharge extends BillLine {
  iccid: string;
  custId: number;
  rootCustId: number;
  event: ChargeEvent;
  goodsReleaseId: number;
  periodKey: string;
  operatorId: number;
  cardTypeId: number | null;
}

interface Priced {
  plan: RatingPlan & { durationMonths: number; cycleUnit: number; cycleValue: number };
  salePrice: string;
}

/** The rating facts and the customer's price of each (customer, plan or pack) pair, in one query. */
async function pricesOf(ex: Executor, pairs: { custId: number; goodsReleaseId: number }[]): Promise<Map<string, Priced>> {
  const out = new Map<string, Priced>();
  if (pairs.length === 0) return out;
  const rows = rowsOf<Record<string, unknown>>(await ex.execute(sql`
    select x.cust_id, x.gid, coalesce(r.sale_price, rr.sale_price, p.sale_price)::text sale_price, p.goods_type, p.quota_mb::text quota_mb,
      p.use_up_action, p.overage_grade, p.overage_price::text overage_price, p.test_quota_kb, p.test_price::text test_price,
      p.downtime_fee::text downtime_fee, p.downtime_free_months, p.tax_rate::text tax_rate, p.duration_months, p.cycle_unit, p.cycle_value
    from unnest(${sql.param(pairs.map((p) => p.custId))}::int[], ${sql.param(pairs.map((p) => p.goodsReleaseId))}::int[]) x (cust_id, gid)
    join customers cu on cu.cust_id = x.cust_id
    join basic_plans p on p.goods_release_id = x.gid
    left join plan_releases r on r.goods_release_id = x.gid and r.cust_id = x.cust_id
    left join plan_releases rr on rr.goods_release_id = x.gid and rr.cust_id = cu.root_cust_id`));
  for (const r of rows) {
    const plan: Priced['plan'] = {
      goodsType: Number(r.goods_type),
      quotaMb: Number(r.quota_mb ?? 0),
      useUpAction: Number(r.use_up_action),
      overageGrade: r.overage_grade == null ? null : Number(r.overage_grade),
      overagePrice: r.overage_price == null ? null : String(r.overage_price),
      testQuotaKb: Number(r.test_quota_kb ?? 0),
      testPrice: String(r.test_price ?? '0'),
      downtimeFee: String(r.downtime_fee ?? '0'),
      downtimeFreeMonths: Number(r.downtime_free_months ?? 0),
      taxRate: Number(r.tax_rate ?? 0),
      durationMonths: Number(r.duration_months ?? 0),
      cycleUnit: Number(r.cycle_unit ?? 0),
      cycleValue: Number(r.cycle_value ?? 0),
    };
    out.set(`${r.cust_id}:${r.gid}`, { salePrice: String(r.sale_price ?? '0'), plan });
  }
  return out;
}

/** What a change charges, before prices: the plan or pack, the event, the stretch paid for and how many terms or packs. */
interface Due { goodsReleaseId: number; event: ChargeEvent; start: Date; end: Date; count: number; pack: boolean }

/** The charges at the event that one card's effects cause (prepaid plans and packs only; the rest is on the bill). */
function duesOf(c: ChargedChange): Due[] {
  const plan = c.next.plan;
  const out: Due[] = [];
  const prepaid = plan && plan.goodsType === PlanGoodsType.Prepaid;
  const term = plan ? Math.max(1, plan.durationMonths) : 1;
  // extensions are paid for from the contract end before them: walk back from the contract as it is now
  let monthsAfter = c.next.contractMonths;
  const extensions = new Map<Effect, { start: Date; end: Date }>();
  for (const e of [...c.effects].reverse()) {
    if (e.kind === 'contractExtended' && plan && c.next.contractStartAt) {
      const end = contractEndOf(plan, c.next.contractStartAt, monthsAfter);
      const start = contractEndOf(plan, c.next.contractStartAt, monthsAfter - e.months);
      // a contract restarted after this extension in the same change: count back from the extension's own end
      extensions.set(e, end.getTime() === e.endsAt.getTime() ? { start, end } : { start: addBusinessMonths(e.endsAt, -e.months), end: e.endsAt });
      monthsAfter -= e.months;
    }
  }
  for (const e of c.effects) {
    if (e.kind === 'cycleStarted' && e.index === 1 && prepaid) {
      out.push({ goodsReleaseId: plan.id, event: ChargeEvent.ContractStart, start: e.start, end: contractEndOf(plan, e.start, term), count: 1, pack: false });
    } else if (e.kind === 'contractExtended' && prepaid) {
      const span = extensions.get(e)!;
      out.push({
        goodsReleaseId: plan.id, event: e.auto ? ChargeEvent.AutoRenewal : ChargeEvent.Renewal, ...span,
        count: Math.max(1, Math.round(e.months / term)), pack: false,
      });
    } else if (e.kind === 'eventPackAdded') {
      out.push({ goodsReleaseId: e.packId, event: ChargeEvent.PackOrder, start: e.startsAt, end: e.endsAt, count: 1, pack: true });
    }
  }
  return out;
}

/**
 * Rates the charges at the event of a set of card changes, at the customers' prices (the card owner's release of the
 * plan, else its first-level customer's, else the plan's list price, as the bill run prices). Cards without a
 * customer are the platform's own and are not charged. Writes nothing.
 */
export async function rateEventCharges(ex: Executor, changes: ChargedChange[], now: Date): Promise<EventCharge[]> {
  const dues = changes.flatMap((c) => (c.row.custId == null ? [] : duesOf(c).map((d) => ({ c, d }))));
  if (dues.length === 0) return [];
  const pairs = new Map<string, { custId: number; goodsReleaseId: number }>();
  for (const { c, d } of dues) pairs.set(`${c.row.custId}:${d.goodsReleaseId}`, { custId: c.row.custId!, goodsReleaseId: d.goodsReleaseId });
  const prices = await pricesOf(ex, [...pairs.values()]);
  const out: EventCharge[] = [];
  for (const { c, d } of dues) {
    const p = prices.get(`${c.row.custId}:${d.goodsReleaseId}`);
    if (!p) continue;
    const span = { start: d.start, end: d.end };
    let line: BillLine | null = null;
    if (d.pack) {
      if (p.plan.goodsType === PlanGoodsType.Supplementary) line = packFeeLine(p.plan, p.salePrice, span, d.count);
    } else if (p.plan.goodsType === PlanGoodsType.Prepaid) {
      line = prepaidFeeLine(p.plan, p.salePrice, span, d.count);
    }
    if (!line) continue;
    out.push({
      ...line, iccid: c.row.iccid, custId: c.row.custId!, rootCustId: c.row.rootCustId ?? c.row.custId!, event: d.event,
      goodsReleaseId: d.goodsReleaseId, periodKey: periodAt(now, defaultBillingDay(c.row.operatorId)).key,
      operatorId: c.row.operatorId, cardTypeId: c.row.cardTypeId,
    });
  }
  return out;
}

/** The customers among `custIds` who pay at the event (payment model prepaid). */
async function prepaidCustomers(ex: Executor, custIds: number[]): Promise<Set<number>> {
  if (custIds.length === 0) return new Set();
  const rows = rowsOf<{ cust_id: number }>(await ex.execute(sql`select cust_id from customers
    where cust_id = any(${sql.param(custIds)}::int[]) and payment_model = ${PaymentModel.Prepaid}`));
  return new Set(rows.map((r) => Number(r.cust_id)));
}

const sumFen = (xs: EventCharge[]) => xs.reduce((s, x) => s + x.inclFen, 0n);

/**
 * A person's change must be paid for: for each prepaid customer, its cards' charges are taken in ICCID order while the
 * balance (pre-deposit, grants, contract payments and valid credit) covers them; the cards beyond are refused with
 * 20800 and what is available. The balances are locked here, before the operator is asked, so no other payment can
 * spend the same money meanwhile. Answers the refused ICCIDs with their error.
 */
export async function refuseUnaffordable(tx: Executor, charges: EventCharge[]): Promise<Map<string, AppError>> {
  const refused = new Map<string, AppError>();
  const custs = [...new Set(charges.map((c) => c.custId))].sort((a, b) => a - b);
  const prepaid = await prepaidCustomers(tx, custs);
  for (const custId of custs) {
    if (!prepaid.has(custId)) continue;
    const balances = await lockBalances(tx, custId);
    let left = availableFen(balances);
    const byCard = new Map<string, EventCharge[]>();
    for (const c of charges) {
      if (c.custId !== custId) continue;
      const xs = byCard.get(c.iccid);
      if (xs) xs.push(c);
      else byCard.set(c.iccid, [c]);
    }
    for (const iccid of [...byCard.keys()].sort()) {
      const fen = sumFen(byCard.get(iccid)!);
      if (fen <= left) left -= fen;
      else refused.set(iccid, new AppError(ErrorCode.BalanceInsufficient, { available: formatMoney(fenToMoney(left < 0n ? 0n : left)) }));
    }
  }
  return refused;
}

/** How a withholding of `fen` is taken: grants first, then contract payments, then pre-deposit (down to minus the credit). */
export function splitWithholding(fen: bigint, b: Pick<BalanceFen, 'grants' | 'contractPayment'>): PostingLine[] {
  const fromGrants = b.grants > 0n ? (fen < b.grants ? fen : b.grants) : 0n;
  const rest = fen - fromGrants;
  const fromContract = b.contractPayment > 0n ? (rest < b.contractPayment ? rest : b.contractPayment) : 0n;
  const fromPre = rest - fromContract;
  const lines: PostingLine[] = [];
  if (fromGrants > 0n) lines.push({ account: LedgerAccount.Grants, fen: -fromGrants });
  if (fromContract > 0n) lines.push({ account: LedgerAccount.ContractPayment, fen: -fromContract });
  if (fromPre > 0n) lines.push({ account: LedgerAccount.PreDeposit, fen: -fromPre });
  lines.push({ account: LedgerAccount.Revenue, fen });
  return lines;
}

export const chargeNo = (chargeId: number) => `W${String(chargeId).padStart(10, '0')}`;

/**
 * Records the charges of the changes that were applied: one record per customer × event × plan or pack × period,
 * its cards, and for a prepaid customer one withholding journal per record (refType 'card_charge'). A prepaid customer
 * whose balance cannot pay a change the platform made by itself (an automatic renewal, a silent period ending) is not
 * withheld: the charge goes on its bill (state 3), as a postpaid customer's does (state 2). Answers the records made.
 */
export async function recordEventCharges(
  tx: Executor, charges: EventCharge[], by: { accountId: number | null; loginName: string },
): Promise<{ chargeId: number; custId: number; state: ChargeState; amountFen: bigint }[]> {
  if (charges.length === 0) return [];
  // customer → record key → charges
  const groups = new Map<number, Map<string, EventCharge[]>>();
  for (const c of charges) {
    const k = `${c.event}|${c.category}|${c.goodsReleaseId}|${c.periodKey}`;
    let mine = groups.get(c.custId);
    if (!mine) groups.set(c.custId, (mine = new Map()));
    const xs = mine.get(k);
    if (xs) xs.push(c);
    else mine.set(k, [c]);
  }
  const custs = [...new Set(charges.map((c) => c.custId))].sort((a, b) => a - b);
  const prepaid = await prepaidCustomers(tx, custs);
  const made: { chargeId: number; custId: number; state: ChargeState; amountFen: bigint }[] = [];
  for (const custId of custs) {
    const mine = [...groups.get(custId)!.entries()].sort(([a], [b]) => (a < b ? -1 : 1));
    const total = mine.reduce((s, [, xs]) => s + sumFen(xs), 0n);
    let withhold = false;
    if (prepaid.has(custId)) {
      const balances = await lockBalances(tx, custId);
      withhold = total <= availableFen(balances);
    }
    for (const [, xs] of mine) {
      // one line per card of a record: a change that charged a card twice (two renewals caught up at once) sums them
      const perCard = new Map<string, EventCharge>();
      for (const x of xs) {
        const had = perCard.get(x.iccid);
        perCard.set(x.iccid, had
          ? { ...had, quantity: had.quantity + x.quantity, inclFen: had.inclFen + x.inclFen, taxFen: had.taxFen + x.taxFen,
            from: had.from < x.from ? had.from : x.from, to: had.to > x.to ? had.to : x.to }
          : x);
      }
      const items = [...perCard.values()];
      const amount = sumFen(items);
      const tax = items.reduce((s, x) => s + x.taxFen, 0n);
      const quantity = items.reduce((s, x) => s + x.quantity, 0n);
      const state = !prepaid.has(custId) ? ChargeState.OnBill : withhold ? ChargeState.Withheld : ChargeState.OnBillShort;
      const head = xs[0];
      const [row] = rowsOf<{ charge_id: string }>(await tx.execute(sql`insert into card_charges
          (cust_id, root_cust_id, event, category, goods_release_id, period_key, cards, quantity, amount, tax, state, journal_id, actor)
        values (${custId}, ${head.rootCustId}, ${head.event}, ${head.category}, ${head.goodsReleaseId}, ${head.periodKey}, ${items.length},
          ${String(quantity)}, ${fenToMoney(amount)}::numeric, ${fenToMoney(tax)}::numeric, ${state}, null, ${by.loginName})
        returning charge_id`));
      const chargeId = Number(row.charge_id);
      await tx.execute(sql`insert into card_charge_items (charge_id, iccid, from_day, to_day, quantity, unit_price, amount, tax, operator_id, card_type_id)
        select ${chargeId}, t.iccid, t.f::date, t.t::date, t.q, t.u, t.a, t.x, t.o, t.ct
        from unnest(${sql.param(items.map((i) => i.iccid))}::text[], ${sql.param(items.map((i) => i.from))}::text[],
          ${sql.param(items.map((i) => i.to))}::text[], ${sql.param(items.map((i) => String(i.quantity)))}::bigint[],
          ${sql.param(items.map((i) => fenToMoney(i.unitFen)))}::numeric[], ${sql.param(items.map((i) => fenToMoney(i.inclFen)))}::numeric[],
          ${sql.param(items.map((i) => fenToMoney(i.taxFen)))}::numeric[], ${sql.param(items.map((i) => i.operatorId))}::smallint[],
          ${sql.param(items.map((i) => i.cardTypeId))}::int[]) as t (iccid, f, t, q, u, a, x, o, ct)`);
      if (state === ChargeState.Withheld) {
        const balances = await lockBalances(tx, custId);
        const posted = await postJournal(tx as Tx, {
          kind: JournalKind.Spend, custId, lines: splitWithholding(amount, balances), refType: 'card_charge', refId: chargeId,
          memo: `${BillLineCategory.label(head.category, 'zh')} ${chargeNo(chargeId)}`, by: { accountId: by.accountId, loginName: by.loginName },
        });
        await tx.execute(sql`update card_charges set journal_id = ${posted.journalId} where charge_id = ${chargeId}`);
      }
      made.push({ chargeId, custId, state, amountFen: amount });
    }
  }
  return made;
}
