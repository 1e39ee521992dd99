// Charges at the event (issue 14, docs/billing.md "Charges at the event"): a prepaid plan's term when its contract
// starts or is renewed and a pack when it is ordered are rated by the card change and, for a prepaid customer, withheld
// from its balance in that change's transaction (grants, then contract payments, then pre-deposit); a person's change
// the balance cannot pay is refused and changes nothing; a postpaid customer, or a platform-made change a prepaid
// balance cannot pay, goes on the bill. The bill run lists them; the screens read them in the viewer's scope.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import {
  BillLineCategory, BillRunState, CardState, ChargeEvent, ChargeState, ErrorCode, JournalKind, LedgerAccount, Operator, PaymentModel,
  PlanRenewalMode, businessDay, carddetail, errorMessage, withholding,
} from '@lynx/contract';
import { backends, callOk, ownerOf, startTestApp, type Owner, type TestApp } from './harness.ts';
import { postJournal, readBalances } from '../src/modules/money/ledger.ts';
import { refuseUnaffordable, type EventCharge } from '../src/modules/billing/charges/charges.ts';
import { tickCard } from '../src/modules/card/lifecycle/card-service.ts';
import { addBusinessMonths } from '../src/modules/card/lifecycle/time.ts';
import { continueBillRun, startBillRun } from '../src/modules/billing/run/bill-run.ts';
import { periodByKey } from '../src/modules/billing/rating/periods.ts';

const CHANGE_STATUS = 'core/sim/singleCard/changeStatus';
const DAY = 86_400_000;
const lastDayBefore = (d: Date) => businessDay(d.getTime() - 1);

for (const backend of backends) {
  describe(`charges at the event (${backend})`, () => {
    let t: TestApp;
    let admin: string;
    let enterprise: string;
    let sub: string;
    let channel: string;
    let ent: Owner;
    let subOwner: Owner;
    const plan: Record<string, number> = {};
    let seq = 0;
    const q = <T = Record<string, unknown>>(text: string, params: unknown[] = []) => t.database.sql.query<T>(text, params);
    const by = { accountId: null, loginName: 'test' };

    beforeAll(async () => {
      t = await startTestApp(backend, {}, { jobs: false });
      [admin, enterprise, sub, channel] = await Promise.all(['admin', 'enterprise', 'subcustomer', 'channel'].map((l) => t.login(l)));
      ent = await ownerOf(t, 'enterprise');
      subOwner = await ownerOf(t, 'subcustomer');
      for (const r of await q<{ code: string; id: number }>('select code, goods_release_id id from basic_plans')) plan[r.code] = r.id;
      // the enterprise pays at the event and buys the prepaid annual plan at 100.00 and the pack at 12.00
      await q('update customers set payment_model = $1 where cust_id = any($2::int[])', [PaymentModel.Prepaid, [ent.cust_id, subOwner.cust_id]]);
      await q('delete from plan_releases where cust_id = $1 and goods_release_id = any($2::int[])', [ent.cust_id, [plan['CTCC-P2G12'], plan['CTCC-EV5G']]]);
      await q(`insert into plan_releases (goods_release_id, cust_id, root_cust_id, sale_price, released_by) values ($1, $3, $3, '100.00', 'test'), ($2, $3, $3, '12.00', 'test')`,
        [plan['CTCC-P2G12'], plan['CTCC-EV5G'], ent.cust_id]);
    });
    afterAll(() => t?.stop());

    /** A China Telecom card of `owner` on `planId` in `state`; with `startedAgo`, its 12-month contract started that long ago. */
    const card = async (state: number, planId: number, owner: Owner = ent, o: { startedAgo?: number; renewal?: number } = {}) => {
      seq++;
      const iccid = `89860377${String(seq).padStart(12, '0')}`;
      const started = o.startedAgo != null ? new Date(Date.now() - o.startedAgo) : null;
      await q(`insert into cards (iccid, msisdn, imsi, state, operator_id, cust_id, root_cust_id, goods_release_id, operation_mode, renewal_mode,
          activated_at, contract_start_at, contract_months, cycles_used)
        values ($1, $2, $3, $4, $5, $6, $7, $8, 1, $9, $10, $10, $11, $12)`,
      [iccid, `1064377${String(seq).padStart(6, '0')}`, `4601177${String(seq).padStart(8, '0')}`, state, Operator.ChinaTelecom, owner.cust_id,
        owner.root_cust_id, planId, o.renewal ?? PlanRenewalMode.NoRenew, started, started ? 12 : 0, started ? 12 : 0]);
      return iccid;
    };
    /** Puts money on a customer's grants and pre-deposit, as a grant and a top-up would. */
    const fund = (custId: number, grantsFen: bigint, preFen: bigint) => t.deps.db.transaction(async (tx) => {
      if (grantsFen) await postJournal(tx, { kind: JournalKind.Grant, custId, lines: [{ account: LedgerAccount.Grants, fen: grantsFen }, { account: LedgerAccount.GrantExpense, fen: -grantsFen }], by });
      if (preFen) await postJournal(tx, { kind: JournalKind.Recharge, custId, lines: [{ account: LedgerAccount.PreDeposit, fen: preFen }, { account: LedgerAccount.Bank, fen: -preFen }], by });
    });
    const balances = async (custId: number) => {
      const b = (await readBalances(t.deps.db, custId))!;
      return { grants: b.grants, preDeposit: b.preDeposit };
    };
    const chargesOf = (iccid: string) => q<Record<string, string | number | null>>(`
      select ch.charge_id, ch.cust_id, ch.event, ch.category, ch.goods_release_id, ch.period_key, ch.cards, ch.quantity::int quantity, ch.amount::text amount,
        ch.state, ch.journal_id, i.from_day::text from_day, i.to_day::text to_day, i.amount::text item_amount
      from card_charge_items i join card_charges ch on ch.charge_id = i.charge_id where i.iccid = $1 order by ch.charge_id`, [iccid]);

    it('activating a prepaid plan withholds one term: grants first, then pre-deposit, in one journal with the card change', async () => {
      const start = await balances(ent.cust_id);
      expect(start.grants).toBe(0n);
      await fund(ent.cust_id, 5_000n, 30_000n);
      const iccid = await card(CardState.ActivationReady, plan['CTCC-P2G12']);
      const r = await t.call(CHANGE_STATUS, { iccid, action: 'activate' }, { token: admin });
      expect(r.body.success, r.body.msg).toBe(true);
      const [c] = await chargesOf(iccid);
      const today = businessDay(Date.now());
      const [{ at }] = await q<{ at: Date }>('select contract_start_at at from cards where iccid = $1', [iccid]);
      expect(c).toMatchObject({
        cust_id: ent.cust_id, event: ChargeEvent.ContractStart, category: BillLineCategory.PrepaidPlanFee, goods_release_id: plan['CTCC-P2G12'],
        cards: 1, quantity: 1, amount: '100.00', state: ChargeState.Withheld, from_day: today, to_day: lastDayBefore(addBusinessMonths(at, 12)),
      });
      expect(c.journal_id).not.toBeNull();
      expect(await balances(ent.cust_id)).toEqual({ grants: 0n, preDeposit: start.preDeposit + 25_000n });
      const postings = await q<{ account: number; amount: string }>('select account, amount::text amount from ledger_postings where journal_id = $1 order by account', [c.journal_id]);
      expect(postings).toEqual([
        { account: LedgerAccount.PreDeposit, amount: '-50.00' }, { account: LedgerAccount.Grants, amount: '-50.00' }, { account: LedgerAccount.Revenue, amount: '100.00' },
      ]);
      const [j] = await q<{ kind: number; ref_type: string; ref_id: string }>('select kind, ref_type, ref_id from ledger_journals where journal_id = $1', [c.journal_id]);
      expect(j).toEqual({ kind: JournalKind.Spend, ref_type: 'card_charge', ref_id: String(c.charge_id) });
    });

    it('refuses an activation the balance cannot pay, in both languages, and changes nothing', async () => {
      await fund(subOwner.cust_id, 0n, 3_000n);
      const iccid = await card(CardState.ActivationReady, plan['CTCC-P2G12'], subOwner);
      const before = await balances(subOwner.cust_id);
      for (const lang of ['zh', 'en'] as const) {
        const r = await t.call(CHANGE_STATUS, { iccid, action: 'activate' }, { token: admin, lang });
        expect(r.body.errorCode).toBe(ErrorCode.BalanceInsufficient);
        expect(r.body.msg).toBe(errorMessage(ErrorCode.BalanceInsufficient, lang, { available: '30.00' }));
      }
      expect(await q('select state, contract_start_at from cards where iccid = $1', [iccid])).toEqual([{ state: CardState.ActivationReady, contract_start_at: null }]);
      expect(await chargesOf(iccid)).toEqual([]);
      expect(await q('select 1 from card_history where iccid = $1', [iccid])).toEqual([]);
      expect(await balances(subOwner.cust_id)).toEqual(before);
    });

    it('takes a set of cards in ICCID order while the balance lasts', async () => {
      const line = (iccid: string, fen: bigint): EventCharge => ({
        iccid, custId: subOwner.cust_id, rootCustId: subOwner.root_cust_id, event: ChargeEvent.ContractStart, goodsReleaseId: plan['CTCC-P2G12'],
        periodKey: '2026-11', operatorId: Operator.ChinaTelecom, cardTypeId: null, category: BillLineCategory.PrepaidPlanFee, quantity: 1n,
        unitFen: fen, inclFen: fen, exclFen: fen, taxFen: 0n, from: '2026-11-01', to: '2026-11-30',
      });
      // 30.00 available: 10.00 and 15.00 fit, the third card's 10.00 does not
      const refused = await t.deps.db.transaction((tx) => refuseUnaffordable(tx, [line('C3', 1_000n), line('C1', 1_000n), line('C2', 1_500n)]));
      expect([...refused.keys()]).toEqual(['C3']);
      expect(refused.get('C3')).toMatchObject({ code: ErrorCode.BalanceInsufficient, params: { available: '5.00' } });
    });

    it('charges renewals by their terms and packs when ordered', async () => {
      const start = await balances(ent.cust_id);
      const annual = await card(CardState.Activated, plan['CTCC-P2G12'], ent, { startedAgo: 60_000 });
      const r = await t.call(carddetail.renewCard.name, { iccid: annual, periods: 2 }, { token: admin });
      expect(r.body.success, r.body.msg).toBe(true);
      const [{ at }] = await q<{ at: Date }>('select contract_start_at at from cards where iccid = $1', [annual]);
      expect(await chargesOf(annual)).toMatchObject([{
        event: ChargeEvent.Renewal, category: BillLineCategory.PrepaidPlanFee, quantity: 2, amount: '200.00', state: ChargeState.Withheld,
        from_day: businessDay(addBusinessMonths(at, 12).getTime()), to_day: lastDayBefore(addBusinessMonths(at, 36)),
      }]);
      const monthly = await card(CardState.Activated, plan['CTCC-M10G'], ent, { startedAgo: 60_000 });
      const p = await t.call(carddetail.orderEventPack.name, { iccid: monthly, packId: plan['CTCC-EV5G'] }, { token: admin });
      expect(p.body.success, p.body.msg).toBe(true);
      expect(await chargesOf(monthly)).toMatchObject([{
        event: ChargeEvent.PackOrder, category: BillLineCategory.PackFee, goods_release_id: plan['CTCC-EV5G'], quantity: 1, amount: '12.00', state: ChargeState.Withheld,
      }]);
      // a monthly plan's renewal is charged on the bill, cycle by cycle: nothing at the event
      const m2 = await card(CardState.Activated, plan['CTCC-M10G'], ent, { startedAgo: 60_000 });
      expect((await t.call(carddetail.renewCard.name, { iccid: m2, periods: 1 }, { token: admin })).body.success).toBe(true);
      expect(await chargesOf(m2)).toEqual([]);
      expect(await balances(ent.cust_id)).toEqual({ grants: 0n, preDeposit: start.preDeposit - 20_000n - 1_200n });
    });

    it('a postpaid customer is charged on the bill; its balance is not touched', async () => {
      await q('update customers set payment_model = $1 where cust_id = $2', [PaymentModel.Postpaid, ent.cust_id]);
      try {
        const before = await balances(ent.cust_id);
        const iccid = await card(CardState.ActivationReady, plan['CTCC-P2G12']);
        expect((await t.call(CHANGE_STATUS, { iccid, action: 'activate' }, { token: admin })).body.success).toBe(true);
        expect(await chargesOf(iccid)).toMatchObject([{ amount: '100.00', state: ChargeState.OnBill, journal_id: null }]);
        expect(await balances(ent.cust_id)).toEqual(before);
      } finally {
        await q('update customers set payment_model = $1 where cust_id = $2', [PaymentModel.Prepaid, ent.cust_id]);
      }
    });

    it('an automatic renewal the prepaid balance cannot pay still happens, and goes on the bill', async () => {
      // the second-level customer has 30.00; its annual contract ended a minute ago and renews itself at 100.00
      const iccid = await card(CardState.Activated, plan['CTCC-P2G12'], subOwner, { startedAgo: 0, renewal: PlanRenewalMode.AutoRenew });
      const now = new Date();
      const start = new Date(now.getTime() - 366 * DAY);
      await q('update cards set contract_start_at = $2, activated_at = $2, next_deadline_at = $3 where iccid = $1', [iccid, start, new Date(now.getTime() - 60_000)]);
      expect(await tickCard({ db: t.deps.db, config: t.config }, iccid, now)).toBe(true);
      const [row] = await q<{ state: number; contract_months: number }>('select state, contract_months from cards where iccid = $1', [iccid]);
      expect(row).toEqual({ state: CardState.Activated, contract_months: 24 });
      expect(await chargesOf(iccid)).toMatchObject([{ event: ChargeEvent.AutoRenewal, quantity: 1, amount: '100.00', state: ChargeState.OnBillShort, journal_id: null }]);
      expect(await balances(subOwner.cust_id)).toEqual({ grants: 0n, preDeposit: 3_000n });
    });

    it('lists records in the viewer\'s scope with their cards; the capital detail groups them', async () => {
      const list = (token: string, body: object = {}) => callOk<{ list: { chargeId: number; custId: number; chargeNo: string; goodsName: string }[]; total: number; sum: { amount: string } }>(
        t, withholding.getChargeListPage.name, { current: 1, pageSize: 100, ...body }, token);
      const all = await list(admin);
      const custs = new Set(all.list.map((r) => r.custId));
      expect(custs.has(ent.cust_id) && custs.has(subOwner.cust_id)).toBe(true);
      expect((await list(enterprise)).list.every((r) => [ent.cust_id, subOwner.cust_id].includes(r.custId))).toBe(true);
      expect((await list(sub)).list.every((r) => r.custId === subOwner.cust_id)).toBe(true);
      expect((await list(sub)).total).toBeGreaterThan(0);
      expect((await list(channel)).list.filter((r) => [ent.cust_id, subOwner.cust_id].includes(r.custId))).toEqual([]);
      const mine = all.list.find((r) => r.custId === ent.cust_id)!;
      expect(mine.chargeNo).toBe(`W${String(mine.chargeId).padStart(10, '0')}`);
      // another tree's record is not found, whether it exists or not
      const foreign = await t.call(withholding.getChargeDetail.name, { chargeId: mine.chargeId }, { token: channel });
      expect(foreign.body.errorCode).toBe(ErrorCode.NotFound);
      const filtered = await list(admin, { event: ChargeEvent.PackOrder });
      expect(filtered.list.length).toBeGreaterThan(0);
      expect(filtered.list.every((r) => r.goodsName.includes('加油包'))).toBe(true);
      const bad = await t.call(withholding.getChargeListPage.name, { from: '2026-12-01', to: '2026-11-01' }, { token: admin });
      expect(bad.body.success).toBe(false);

      const cards = await callOk<{ list: { iccid: string }[]; total: number; next: string | null }>(t, withholding.getChargeCards.name, { chargeId: mine.chargeId, pageSize: 1 }, enterprise);
      expect(cards.total).toBe(1);
      expect(cards.list).toHaveLength(1);
      // the card detail's Billing tab: the card's charges, for its owner only
      const own = await callOk<{ list: { chargeNo: string; amount: string }[]; total: number }>(t, withholding.getCardCharges.name, { iccid: cards.list[0].iccid }, enterprise);
      expect(own.list.map((r) => r.chargeNo)).toContain(mine.chargeNo);
      expect((await t.call(withholding.getCardCharges.name, { iccid: cards.list[0].iccid }, { token: channel })).body.errorCode).toBe(ErrorCode.NotFound);

      const groups = await callOk<{ list: { goodsReleaseId: number; category: number; periodKey: string; event: number; cards: number; amount: string }[] }>(
        t, withholding.getPrepayGroups.name, { current: 1, pageSize: 50 }, enterprise);
      const g = groups.list.find((x) => x.event === ChargeEvent.ContractStart && x.goodsReleaseId === plan['CTCC-P2G12'])!;
      expect(g).toMatchObject({ category: BillLineCategory.PrepaidPlanFee, cards: 2, amount: '200.00' });
      const first = await callOk<{ list: { iccid: string }[]; total: number; next: string | null }>(t, withholding.getPrepayCards.name,
        { goodsReleaseId: g.goodsReleaseId, category: g.category, periodKey: g.periodKey, event: g.event, pageSize: 1 }, enterprise);
      expect(first.total).toBe(2);
      const second = await callOk<{ list: { iccid: string }[]; next: string | null }>(t, withholding.getPrepayCards.name,
        { goodsReleaseId: g.goodsReleaseId, category: g.category, periodKey: g.periodKey, event: g.event, pageSize: 1, after: first.next }, enterprise);
      expect(second.list[0].iccid).not.toBe(first.list[0].iccid);
      expect(second.next).toBeNull();
      // staff must name the customer; a customer cannot name another tree's
      expect((await t.call(withholding.getPrepayGroups.name, { custId: ent.cust_id }, { token: channel })).body.errorCode).toBe(ErrorCode.NotFound);
      const exported = await t.call(withholding.exportChargeList.name, { event: ChargeEvent.ContractStart }, { token: admin });
      expect(exported.body.success, exported.body.msg).toBe(true);
    });

    it('the bill run lists the period\'s charges; what was withheld is not due again', async () => {
      const [{ period_key: key }] = await q<{ period_key: string }>('select max(period_key) period_key from card_charges where cust_id = $1', [ent.cust_id]);
      const p = periodByKey(key, 1);
      await q('update usage_feeds set watermark = $1', [new Date(p.end.getTime() + DAY)]);
      const runId = await startBillRun(t.deps.db, { periodKey: key, by: 'test', custId: ent.cust_id }, p.end.getTime() + 2 * DAY);
      expect(await continueBillRun(t.deps.db, runId, 'w1')).toMatchObject({ state: BillRunState.Done });
      const [bill] = await q<Record<string, string>>(`select bill_id, total::text total, withheld::text withheld, amount_due::text amount_due, prepaid_fee::text prepaid_fee,
        pack_fee::text pack_fee from bills where period_key = $1 and cust_id = $2`, [key, ent.cust_id]);
      const [want] = await q<Record<string, string>>(`select
          coalesce(sum(amount) filter (where category = 2), 0)::numeric(16, 2)::text prepaid, coalesce(sum(amount) filter (where category = 6), 0)::numeric(16, 2)::text pack,
          coalesce(sum(amount) filter (where state = 1), 0)::numeric(16, 2)::text withheld
        from card_charges where period_key = $1 and cust_id = $2`, [key, ent.cust_id]);
      expect(bill).toMatchObject({ prepaid_fee: want.prepaid, pack_fee: want.pack, withheld: want.withheld });
      expect(Number(bill.amount_due)).toBeCloseTo(Number(bill.total) - Number(bill.withheld), 2);
      expect(Number(want.withheld)).toBeGreaterThan(0);
      const lines = await q<{ n: number }>(`select count(*)::int n from bill_lines where period_key = $1 and bill_id = $2 and category in (2, 6) and ref_id > 0`, [key, bill.bill_id]);
      const items = await q<{ n: number }>(`select count(*)::int n from card_charge_items i join card_charges ch on ch.charge_id = i.charge_id
        where ch.period_key = $1 and ch.cust_id = $2`, [key, ent.cust_id]);
      expect(lines[0].n).toBe(items[0].n);
    });
  });
}
