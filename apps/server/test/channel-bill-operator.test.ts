import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { ChannelBillSource, ChannelBillState, ErrorCode, Operator, businessDay, operatebill } from '@lynx/contract';
import { backends, callOk, insertCards, iccidsOf, ownerOf, startTestApp, type TestApp } from './harness.ts';
import { ensureUsagePartitions } from '../src/modules/usage/usage-partitions.ts';
import { runUsageWindow } from '../src/modules/usage/usage-feed.ts';
import { periodByKey, periodOfDay, shiftPeriodKey } from '../src/modules/billing/rating/periods.ts';
import { discoverOperatorBills, fetchOperatorBill, type OperatorBillDeps } from '../src/modules/billing/operator/operator-bill-fetch.ts';
import { continueChannelBills } from '../src/modules/billing/channel/channel-bill-routes.ts';

/**
 * Issue 14, a channel bill from an operating bill: the network simulator's bill of a closed period, fetched through
 * the gateway, reconciled without a file against the platform's own usage. The simulator bills from the usage its
 * feed delivered, so every line matches. One channel bill per operating bill; staff holding both pages only.
 */
const { OperatorBillState: S } = operatebill;
const CB = 'core/finance/channelBill/';
const O = 'core/finance/operateBill/';
const DAY = 86_400_000;

describe.each(backends)('channel bills from operating bills on %s', (backend) => {
  let t: TestApp;
  let admin: string;
  let enterprise: string;
  let obId: number;
  let channelBillId: number;
  // a closed period two months back (China Mobile: the natural month)
  const KEY = shiftPeriodKey(periodOfDay(businessDay(Date.now()), 1).key, -2);
  const cm = periodByKey(KEY, 1);
  const q = <T = Record<string, unknown>>(text: string, params: unknown[] = []) => t.database.sql.query<T>(text, params);
  const reconcile = (body: object, token = admin, lang: 'zh' | 'en' = 'en') => t.call(`${CB}reconcileOperatorBill`, body, { token, lang }).then((r) => r.body);
  const run = (billId: number) => continueChannelBills(t.deps, billId, (err) => { throw err; });

  beforeAll(async () => {
    t = await startTestApp(backend, {}, { jobs: false });
    admin = await t.login('admin');
    enterprise = await t.login('enterprise');
    const deps: OperatorBillDeps = { db: t.deps.db, config: t.config };
    await ensureUsagePartitions(t.deps.db, cm.start.getTime());
    const zx = await ownerOf(t, 'enterprise');
    const cards = await insertCards(t, iccidsOf('8986009931', 1, 6), { state: 64, owner: zx, operatorId: Operator.ChinaMobile });
    for (const i of cards) {
      await q(`insert into card_history (iccid, from_state, to_state, source, actor, at) values ($1, 60, 64, 1, 'test', $2)`, [i, new Date(cm.start.getTime() - 40 * DAY).toISOString()]);
    }
    // one card deactivated on the 10th: billed and used for part of the period
    await q(`insert into card_history (iccid, from_state, to_state, source, actor, at) values ($1, 64, 65, 1, 'test', $2)`,
      [cards[5], new Date(cm.start.getTime() + 9 * DAY + 8 * 3_600_000).toISOString()]);
    await q(`update cards set state = 65 where iccid = $1`, [cards[5]]);
    await runUsageWindow(deps, Operator.ChinaMobile, cm.start, cm.end);
    await q(`insert into usage_feeds (operator_id, watermark) select operator_id, now() from operators on conflict (operator_id) do update set watermark = now()`);
    await discoverOperatorBills(t.deps.db);
    [{ id: obId }] = await q<{ id: number }>(`select operator_bill_id::int as id from operator_bills where period_key = $1 and operator_id = 1 and oper_account_id = 0`, [KEY]);
    expect(await fetchOperatorBill(deps, obId, 'w1')).toMatchObject({ state: S.Fetched });
  });
  afterAll(() => t?.stop());

  it('reconciles a fetched simulator bill against the platform\'s usage: every line matched, linked both ways', async () => {
    const [ob] = await q<{ cards: number; amount: string; account_name: string; bill_ref: string }>(
      `select cards, amount::text, account_name, bill_ref from operator_bills where operator_bill_id = $1`, [obId]);
    expect(ob.cards).toBeGreaterThan(5);
    const made = await reconcile({ operatorBillId: obId });
    expect(made.errorCode, made.msg).toBeNull();
    channelBillId = made.data.billId;
    expect(made.data).toMatchObject({
      state: ChannelBillState.Reconciling, periodKey: KEY, periodFrom: cm.firstDay, periodTo: cm.lastDay, operatorId: Operator.ChinaMobile,
      sourceType: ChannelBillSource.Operator, sourceName: ob.account_name, findMissing: true, totalLines: ob.cards, linesDone: ob.cards,
      channelAmount: ob.amount, fileName: ob.bill_ref, fileSize: 0,
      operatorBill: { operatorBillId: obId, operAccountId: 0, accountName: ob.account_name, billRef: ob.bill_ref },
    });
    // the lines are the operator bill's cards: bytes as stored (the carrier's measured data), SMS, amount tax excluded
    const [diff] = await q<{ n: number }>(`select count(*)::int as n from (
        select iccid, data_bytes, sms, amount from operator_bill_cards where period_key = $1 and operator_bill_id = $2
        except select iccid, channel_bytes, channel_sms, channel_amount from channel_bill_lines where bill_id = $3) x`, [KEY, obId, channelBillId]);
    expect(diff.n).toBe(0);

    await run(channelBillId);
    const { bill } = await callOk(t, `${CB}detail`, { billId: channelBillId }, admin);
    expect(bill).toMatchObject({ state: ChannelBillState.Reconciled, matched: ob.cards, differs: 0, missingOnPlatform: 0, missingInChannel: 0, disputedAmount: '0.00' });
    const audit = await q(`select after from audit_log where entity = 'channelBill' and entity_id = $1`, [String(channelBillId)]);
    expect(audit).toHaveLength(1);

    // the operating bill shows its channel bill with the counts, and the channel bill list shows where it came from
    const listed = (await callOk(t, `${O}getOperatorBillListPage`, { periodFrom: KEY, periodTo: KEY, operatorId: 1 }, admin)).list
      .find((r: { operatorBillId: number }) => r.operatorBillId === obId);
    expect(listed.channelBill).toEqual({
      billId: channelBillId, state: ChannelBillState.Reconciled, matched: ob.cards, differs: 0, missingOnPlatform: 0, missingInChannel: 0,
      reconciledAt: bill.reconciledAt, stale: false,
    });
    expect((await callOk(t, `${O}getOperatorBillDetail`, { operatorBillId: obId }, admin)).bill.channelBill.billId).toBe(channelBillId);
    const page = (await callOk(t, `${CB}page`, { periodKey: KEY }, admin)).list;
    expect(page.find((r: { billId: number }) => r.billId === channelBillId).operatorBill.operatorBillId).toBe(obId);
  });

  it('refuses a second channel bill of the same operating bill, naming the first; deleting it frees the operating bill', async () => {
    const en = await reconcile({ operatorBillId: obId });
    expect(en).toMatchObject({ success: false, errorCode: ErrorCode.ChannelBillOperatorBillLinked, data: { billId: channelBillId } });
    expect(en.msg).toContain(`no. ${channelBillId}`);
    const zh = await reconcile({ operatorBillId: obId }, admin, 'zh');
    expect(zh.msg).toContain(`编号 ${channelBillId}`);
    expect((await q(`select 1 from channel_bills where operator_bill_id = $1`, [obId]))).toHaveLength(1);
    // a re-fetch after the reconciliation: the channel bill compares the earlier charges, and says so
    await q(`update operator_bills set fetched_at = now() + interval '1 minute' where operator_bill_id = $1`, [obId]);
    expect((await callOk(t, `${O}getOperatorBillDetail`, { operatorBillId: obId }, admin)).bill.channelBill.stale).toBe(true);

    await callOk(t, `${CB}delete`, { billId: channelBillId }, admin);
    expect((await callOk(t, `${O}getOperatorBillDetail`, { operatorBillId: obId }, admin)).bill.channelBill).toBeNull();
    const again = await reconcile({ operatorBillId: obId });
    expect(again.errorCode, again.msg).toBeNull();
    channelBillId = again.data.billId;
    await run(channelBillId);
    expect((await callOk(t, `${CB}detail`, { billId: channelBillId }, admin)).bill.differs).toBe(0);
  });

  it('refuses a bill not fetched, a bill that charges no card, an unknown bill and bad input, changing nothing', async () => {
    const before = (await q<{ n: number }>(`select count(*)::int as n from channel_bills`))[0].n;
    const other = (k: string, state: number, cards: number) => q<{ id: number }>(`insert into operator_bills (oper_account_id, operator_id, account_name, period_key,
        period_from, period_to, state, cards) values (0, 3, 'built-in network simulator', $1, ($1 || '-01')::date, ($1 || '-28')::date, $2, $3)
      returning operator_bill_id::int as id`, [k, state, cards]).then((r) => r[0].id);
    const pending = await other('2020-01', S.Pending, 0);
    expect(await reconcile({ operatorBillId: pending })).toMatchObject({ errorCode: ErrorCode.ChannelBillOperatorBillNotFetched, msg: expect.stringContaining('Pending') });
    const empty = await other('2020-02', S.Confirmed, 0);
    expect((await reconcile({ operatorBillId: empty })).errorCode).toBe(ErrorCode.ChannelBillOperatorBillEmpty);
    expect((await reconcile({ operatorBillId: 99_999_999 })).errorCode).toBe(ErrorCode.NotFound);
    for (const body of [{}, { operatorBillId: 0 }, { operatorBillId: 'x' }, { operatorBillId: 1.5 }, { operatorBillId: obId, remark: 'r'.repeat(1000) }]) {
      expect((await reconcile(body)).errorCode, JSON.stringify(body)).toBe(ErrorCode.Validation);
    }
    expect((await q<{ n: number }>(`select count(*)::int as n from channel_bills`))[0].n).toBe(before);
  });

  it('is staff\'s with both pages only: customers are refused even with the codes, and so is staff without the operating bills', async () => {
    await callOk(t, `${CB}delete`, { billId: channelBillId }, admin);
    expect((await reconcile({ operatorBillId: obId }, enterprise)).errorCode).toBe(ErrorCode.PermissionDenied);
    await q(`update roles set permissions = permissions || array[4050000, 4050001, 9030000] where role_type = 3000`);
    expect((await reconcile({ operatorBillId: obId }, await t.login('enterprise'))).errorCode).toBe(ErrorCode.PermissionDenied);
    await q(`update roles set permissions = array_remove(permissions, 9030000) where role_type = 2000`);
    expect((await reconcile({ operatorBillId: obId }, await t.login('manager'))).errorCode).toBe(ErrorCode.PermissionDenied);
    expect(await q(`select 1 from channel_bills where operator_bill_id = $1`, [obId])).toHaveLength(0);
  });
});
