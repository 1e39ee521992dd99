import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { CardState, ErrorCode, Operator, PlanUseUpAction, batch, carddetail, formatSize, pool as api } from '@lynx/contract';
import { backends, iccidsOf, insertCards, multipart, ownerOf, startTestApp, waitFor, type Owner, type TestApp } from './harness.ts';
import { checkPool } from '../src/modules/pool/pool-usage.ts';
import { runUsageWindow } from '../src/modules/usage/usage-feed.ts';
import { clearUsagePlanCache } from '../src/modules/usage/usage-plans.ts';
import { billingPeriod, businessDay } from '../src/modules/usage/usage-time.ts';

const { BatchType, BatchState } = batch;
const { PoolState, PoolExhaustAction, PoolEventType } = api;
const MB = 1024 * 1024;
const HOUR = 3_600_000;

const P = {
  page: 'core/sim/pool/getPoolPage', options: 'core/sim/pool/getPoolOptions', detail: 'core/sim/pool/getPoolDetail', save: 'core/sim/pool/savePool',
  remove: 'core/sim/pool/deletePool', block: 'core/sim/pool/blockPool', unblock: 'core/sim/pool/unblockPool', refresh: 'core/sim/pool/refreshUsage',
  cards: 'core/sim/pool/getPoolCardPage', events: 'core/sim/pool/getBlockHistory', export: 'core/sim/pool/exportPools',
};
const VALIDATE = 'core/sim/batchOperate/validate';
const VALIDATE_FILE = 'core/sim/batchOperate/validateFile';
const CONFIRM = 'core/sim/batchOperate/process';
const DETAIL = 'core/sim/batchOperate/getBatchDetail';
const ITEMS = 'core/sim/batchOperate/getItemPage';
const BATCHES = 'core/sim/batchOperate/getBatchListPage';
const CARD_LIST = 'core/sim/simQuery/getSimListPage';
const CARD_DETAIL = 'core/sim/simDetails/getParamsByIccid';


describe.each(backends)('data pools on %s', (backend) => {
  let t: TestApp;
  let admin: string;
  let enterprise: string;
  let channel: string;
  let sub: string;
  let ent: Owner;
  let east: Owner;
  let chan: Owner;
  /** a 1 MB Telecom plan ("enter next status" after use-up), so a few MB of usage decide the rules */
  let plan1m: number;
  let next = 0;

  const q = <T = Record<string, unknown>>(text: string, params: unknown[] = []) => t.database.sql.query<T>(text, params);
  const n = async (text: string, params: unknown[] = []) => Number((await q<{ n: string }>(text, params))[0].n);
  const call = (endpoint: string, body: unknown, token: string, lang: 'zh' | 'en' = 'en') => t.call(endpoint, body, { token, lang }).then((r) => r.body);
  const ok = <T = any>(r: { success: boolean; data: T; msg: string }) => {
    expect(r.success, r.msg).toBe(true);
    return r.data;
  };
  /** Cards straight in the table (Telecom, the 1 MB plan, activated unless told). */
  const cardsOf = async (count: number, o: { owner: Owner | null; state?: number; operatorId?: number; plan?: number | null; online?: boolean }) => {
    const iccids = iccidsOf('8986077', next, count);
    next += count;
    return insertCards(t, iccids, {
      ...o, state: o.state ?? CardState.Activated, operatorId: o.operatorId ?? Operator.ChinaTelecom, plan: o.plan === undefined ? plan1m : o.plan,
    });
  };
  const savePool = (token: string, body: Record<string, unknown>, lang: 'zh' | 'en' = 'en') =>
    call(P.save, { operatorId: Operator.ChinaTelecom, exhaustAction: PoolExhaustAction.Block, alertPercent: 80, ...body }, token, lang);
  const validate = (token: string, type: number, poolId: number, iccids: string[]) =>
    call(VALIDATE, { params: { type, poolId }, sourceKind: 'paste', iccids }, token);
  const reasons = async (batchId: string, token: string, lang: 'zh' | 'en' = 'en') =>
    Object.fromEntries((ok(await call(ITEMS, { batchId, pageSize: 500 }, token, lang)) as { list: { iccid: string; reason: string | null }[] }).list.map((i) => [i.iccid, i.reason]));
  /** validate + confirm + wait for the job */
  const run = async (token: string, type: number, poolId: number, iccids: string[]) => {
    const v = ok(await validate(token, type, poolId, iccids));
    ok(await call(CONFIRM, { batchId: v.batchId }, token));
    return waitFor(async () => {
      const d = ok(await call(DETAIL, { batchId: v.batchId }, token));
      return d.state === BatchState.Done ? d : null;
    }, 60_000, 100);
  };
  const poolOf = async (iccid: string) => (await q<{ pool_id: number | null }>('select pool_id from cards where iccid = $1', [iccid]))[0].pool_id;
  const members = (poolId: number) => n('select member_count n from card_pools where pool_id = $1', [poolId]);
  const events = async (poolId: number) => (await q<{ type: number }>('select type from card_pool_events where pool_id = $1 order by event_id', [poolId])).map((e) => Number(e.type));
  const today = () => businessDay(Date.now());
  const use = (iccid: string, bytes: number, day = today()) =>
    q(`insert into card_usage_daily (iccid, day, bytes_down, bytes, apn, operator_id, cust_id, root_cust_id) values ($1, $2, $3, $3, 'ctnet', 3, $4, $5)
       on conflict (iccid, day) do update set bytes = card_usage_daily.bytes + excluded.bytes, bytes_down = card_usage_daily.bytes_down + excluded.bytes`,
      [iccid, day, bytes, ent!.cust_id, ent!.root_cust_id]);

  beforeAll(async () => {
    t = await startTestApp(backend);
    [admin, enterprise, channel, sub] = await Promise.all(['admin', 'enterprise', 'channel', 'subcustomer'].map((l) => t.login(l)));
    ent = await ownerOf(t, 'enterprise');
    east = await ownerOf(t, 'subcustomer');
    chan = await ownerOf(t, 'channel');
    const [p] = await q<{ id: number }>(`
      insert into basic_plans (code, name, goods_type, tariff_type, standard_price, sale_price, cycle_unit, cycle_value, duration_months, quota_mb,
        use_up_action, operator_id, operation_mode, renewal_mode, network_types, created_by)
      select 'POOL-1M', 'Pool 1M', goods_type, tariff_type, standard_price, sale_price, cycle_unit, cycle_value, duration_months, 1, $1, operator_id,
        operation_mode, renewal_mode, network_types, 'test' from basic_plans where code = 'CTCC-M10G' returning goods_release_id as id`, [PlanUseUpAction.NextStatus]);
    plan1m = Number(p.id);
  });
  afterAll(() => t?.stop());

  it('seeds one demo pool with exact member count', async () => {
    const [demo] = await q<{ pool_id: number; member_count: number; cust_id: number }>('select pool_id, member_count, cust_id from card_pools');
    expect(demo.cust_id).toBe(ent!.cust_id);
    expect(Number(demo.member_count)).toBeGreaterThan(0);
    expect(await n('select count(*) n from cards where pool_id = $1', [demo.pool_id])).toBe(Number(demo.member_count));
  });

  it('creates, edits, lists, exports and deletes pools; refusals in both languages', async () => {
    const a = ok(await savePool(enterprise, { name: 'Fleet A', description: ' trucks ' }));
    expect(a).toMatchObject({ custId: ent!.cust_id, operatorId: Operator.ChinaTelecom, state: PoolState.Normal, memberCount: 0, description: 'trucks', createdBy: 'enterprise' });
    // the name once per customer, whatever the case
    expect(await savePool(enterprise, { name: 'fleet a' })).toMatchObject({ success: false, errorCode: ErrorCode.PoolNameTaken, msg: 'This customer already has a pool with this name' });
    expect((await savePool(enterprise, { name: 'FLEET A' }, 'zh')).msg).toBe('该客户已有同名流量池');
    // staff name the customer; a customer may name one of its own tree only
    expect(await savePool(admin, { name: 'Staff pool' })).toMatchObject({ errorCode: ErrorCode.PoolCustomerInvalid, msg: "Choose the pool's customer (one within your tenant)" });
    expect((await savePool(enterprise, { name: 'Foreign', custId: chan!.cust_id }, 'zh')).msg).toBe('请选择流量池所属的客户（本租户内的客户）');
    const staff = ok(await savePool(admin, { name: 'Staff pool', custId: chan!.cust_id, exhaustAction: PoolExhaustAction.Continue }));
    expect(staff.custId).toBe(chan!.cust_id);
    const eastPool = ok(await savePool(enterprise, { name: 'East', custId: east!.cust_id }));
    expect(eastPool.custId).toBe(east!.cust_id);
    // schema limits name the field
    expect((await savePool(enterprise, { name: 'x', alertPercent: 0 })).errorCode).toBe(ErrorCode.Validation);

    const edited = ok(await savePool(enterprise, { poolId: a.poolId, name: 'Fleet A2', alertPercent: 90, operatorId: Operator.ChinaUnicom }));
    expect(edited).toMatchObject({ name: 'Fleet A2', alertPercent: 90, operatorId: Operator.ChinaUnicom });
    const list = ok(await call(P.page, { name: 'Fleet', pageSize: 50 }, enterprise));
    expect(list.list.map((p: { name: string }) => p.name)).toEqual(['Fleet A2']);
    const mine = ok(await call(P.page, { pageSize: 50 }, enterprise)).list.map((p: { name: string }) => p.name);
    expect(mine).toEqual(expect.arrayContaining(['East', 'Fleet A2']));
    expect(mine).not.toContain('Staff pool');
    const options = ok(await call(P.options, { operatorId: Operator.ChinaUnicom }, enterprise));
    expect(options.map((o: { name: string }) => o.name)).toContain('Fleet A2');
    expect(options.every((o: { operatorId: number }) => o.operatorId === Operator.ChinaUnicom)).toBe(true);
    expect(ok(await call(P.export, { name: 'Fleet' }, enterprise)).taskId).toBeTruthy();

    ok(await call(P.remove, { poolId: a.poolId }, enterprise));
    expect((await call(P.detail, { poolId: a.poolId }, enterprise)).errorCode).toBe(ErrorCode.NotFound);
    expect(await n(`select count(*) n from audit_log where entity = 'cardPool' and entity_id = $1`, [String(a.poolId)])).toBe(3);
  });

  it('keeps tenants apart: another tenant\'s pool is "not found" everywhere; a second-level customer has no pool codes', async () => {
    const pool = ok(await savePool(enterprise, { name: 'Private' }));
    const inside = await cardsOf(1, { owner: ent });
    await run(enterprise, BatchType.PoolJoin, pool.poolId, inside);
    for (const [endpoint, body] of [
      [P.detail, { poolId: pool.poolId }], [P.cards, { poolId: pool.poolId }], [P.events, { poolId: pool.poolId }], [P.remove, { poolId: pool.poolId }],
      [P.block, { poolId: pool.poolId }], [P.refresh, { poolId: pool.poolId }],
      [P.save, { poolId: pool.poolId, name: 'Mine now', operatorId: Operator.ChinaTelecom, exhaustAction: 1, alertPercent: 80 }],
    ] as const) {
      expect((await call(endpoint, body, channel)).errorCode, endpoint).toBe(ErrorCode.NotFound);
    }
    expect(ok(await call(P.page, { name: 'Private' }, channel)).total).toBe(0);
    expect(ok(await call(P.options, {}, channel)).map((o: { poolId: number }) => o.poolId)).not.toContain(pool.poolId);
    expect((await validate(channel, BatchType.PoolJoin, pool.poolId, inside)).errorCode).toBe(ErrorCode.PoolNotFound);
    // the card list's pool filter never reaches another tenant's cards
    expect(ok(await call(CARD_LIST, { poolId: pool.poolId }, channel)).total).toBe(0);
    expect(ok(await call(CARD_LIST, { poolId: pool.poolId }, enterprise)).total).toBe(1);
    // another tenant's cards cannot be put into the pool: pasted or in a file they are "not found"
    const foreign = await cardsOf(2, { owner: chan });
    const pasted = ok(await validate(enterprise, BatchType.PoolJoin, pool.poolId, foreign));
    expect(pasted).toMatchObject({ validCount: 0, invalidCount: 2 });
    expect(Object.values(await reasons(pasted.batchId, enterprise))).toEqual(['Card not found', 'Card not found']);
    const m = multipart([
      { name: 'params', value: JSON.stringify({ type: BatchType.PoolJoin, poolId: pool.poolId }) },
      { name: 'file', filename: 'cards.csv', type: 'text/csv', data: Buffer.from(`ICCID\r\n${foreign.join('\r\n')}\r\n`) },
    ]);
    const file = (await t.app.inject({ method: 'POST', url: `/api/cmp/${VALIDATE_FILE}?lang=en`, payload: m.payload, headers: { ...m.headers, authorization: enterprise } })).json();
    expect(file.data).toMatchObject({ validCount: 0, invalidCount: 2 });
    expect(await n('select count(*) n from cards where iccid = any($1) and pool_id is not null', [foreign])).toBe(0);
    // a second-level customer's role has neither the page nor the button code
    expect((await call(P.page, {}, sub)).errorCode).toBe(ErrorCode.PermissionDenied);
    expect((await call(P.save, { name: 'x', operatorId: 3, exhaustAction: 1, alertPercent: 80 }, sub)).errorCode).toBe(ErrorCode.PermissionDenied);
  });

  it('join and leave batches: verdicts, runs, member count, card list and detail, delete refused with members', async () => {
    const pool = ok(await savePool(enterprise, { name: 'Join test' }));
    const eastPool = ok(await savePool(enterprise, { name: 'East join', custId: east!.cust_id }));
    const good = await cardsOf(4, { owner: ent });
    const [otherOp] = await cardsOf(1, { owner: ent, operatorId: Operator.ChinaUnicom });
    const [noPlan] = await cardsOf(1, { owner: ent, plan: null });
    const [retired] = await cardsOf(1, { owner: ent, state: CardState.Retired });
    const [eastCard] = await cardsOf(1, { owner: east });

    const v = ok(await validate(enterprise, BatchType.PoolJoin, pool.poolId, [...good.slice(0, 3), otherOp, noPlan, retired]));
    expect(v).toMatchObject({ validCount: 3, invalidCount: 3, alreadyCount: 0, params: { poolId: pool.poolId, poolName: 'Join test' } });
    const en = await reasons(v.batchId, enterprise);
    expect([en[otherOp], en[noPlan], en[retired]]).toEqual([
      'The card is on another operator than the pool', 'A card without a basic plan cannot join a pool', 'A card in state "Retired" cannot join a pool',
    ]);
    expect((await reasons(v.batchId, enterprise, 'zh'))[retired]).toBe('处于“已销户”状态的卡不能加入流量池');
    expect(await poolOf(good[0])).toBeNull();

    const done = await run(enterprise, BatchType.PoolJoin, pool.poolId, good.slice(0, 3));
    expect(done).toMatchObject({ succeededCount: 3, failedCount: 0 });
    for (const iccid of good.slice(0, 3)) expect(await poolOf(iccid)).toBe(pool.poolId);
    expect(await members(pool.poolId)).toBe(3);
    expect(ok(await call(P.detail, { poolId: pool.poolId }, enterprise))).toMatchObject({ memberCount: 3, quotaBytes: 3 * MB });

    const again = ok(await validate(enterprise, BatchType.PoolJoin, pool.poolId, [good[0]]));
    expect(again).toMatchObject({ alreadyCount: 1, validCount: 0 });
    expect((await reasons(again.batchId, enterprise))[good[0]]).toBe('The card is already in this pool');
    // a second-level customer's pool takes only that customer's cards; a card is in one pool at a time
    const east1 = ok(await validate(enterprise, BatchType.PoolJoin, eastPool.poolId, [good[3], good[0], eastCard]));
    expect(east1).toMatchObject({ validCount: 1, invalidCount: 2 });
    const er = await reasons(east1.batchId, enterprise);
    expect(er[good[3]]).toBe("The card does not belong to the pool's customer");
    expect(er[good[0]]).toBe('The card is already in pool "Join test": remove it from there first');
    await run(enterprise, BatchType.PoolJoin, eastPool.poolId, [eastCard]);

    // the card list filters by pool and names it; the card detail shows it
    const listed = ok(await call(CARD_LIST, { poolId: pool.poolId }, enterprise));
    expect(listed.total).toBe(3);
    expect(listed.list[0]).toMatchObject({ poolId: pool.poolId, poolName: 'Join test' });
    expect(ok(await call(CARD_DETAIL, { iccid: good[0] }, enterprise))).toMatchObject({ poolId: pool.poolId, poolName: 'Join test', poolState: PoolState.Normal });
    expect(ok(await call(CARD_DETAIL, { iccid: good[3] }, enterprise))).toMatchObject({ poolId: null, poolName: null, poolState: null });
    const cardPage = ok(await call(P.cards, { poolId: pool.poolId }, enterprise));
    expect(cardPage.total).toBe(3);
    expect(cardPage.list[0]).toMatchObject({ planName: 'Pool 1M', quotaBytes: MB, usedBytes: 0 });
    expect(cardPage.list[0].joinedAt).toBeTruthy();

    // a pool with members keeps its customer and operator, and cannot be deleted
    expect((await savePool(enterprise, { poolId: pool.poolId, name: 'Join test', operatorId: Operator.ChinaMobile })).errorCode).toBe(ErrorCode.PoolOwnerLocked);
    expect(await call(P.remove, { poolId: pool.poolId }, enterprise)).toMatchObject({ errorCode: ErrorCode.PoolHasCards, msg: 'The pool still holds 3 cards: remove them before deleting it' });

    // the pool change screens: the batches of one pool
    const changes = ok(await call(BATCHES, { types: [BatchType.PoolJoin, BatchType.PoolLeave], poolId: pool.poolId }, enterprise));
    expect(changes.list.map((b: { params: { poolId: number } }) => b.params.poolId)).toEqual(Array(changes.total).fill(pool.poolId));
    expect(changes.total).toBe(3);

    const leave = ok(await validate(enterprise, BatchType.PoolLeave, pool.poolId, [good[0], good[3], eastCard]));
    expect(leave).toMatchObject({ validCount: 1, alreadyCount: 1, invalidCount: 1 });
    const lr = await reasons(leave.batchId, enterprise);
    expect([lr[good[3]], lr[eastCard]]).toEqual(['The card is not in this pool', 'The card is not in this pool']);
    await run(enterprise, BatchType.PoolLeave, pool.poolId, [good[0]]);
    expect(await poolOf(good[0])).toBeNull();
    expect(await members(pool.poolId)).toBe(2);
    expect(await poolOf(eastCard)).toBe(eastPool.poolId);
    await run(enterprise, BatchType.PoolLeave, pool.poolId, good.slice(1, 3));
    expect(await members(pool.poolId)).toBe(0);
    ok(await call(P.remove, { poolId: pool.poolId }, enterprise));
  });

  it('a full pool takes no more cards: the items beyond its capacity fail', async () => {
    const pool = ok(await savePool(enterprise, { name: 'Nearly full' }));
    // as if it held POOL_CARDS_MAX - 1 cards
    await q('update card_pools set member_count = $1 where pool_id = $2', [api.POOL_CARDS_MAX - 1, pool.poolId]);
    const two = await cardsOf(2, { owner: ent });
    const done = await run(enterprise, BatchType.PoolJoin, pool.poolId, two);
    expect(done).toMatchObject({ succeededCount: 1, failedCount: 1 });
    const items = ok(await call(ITEMS, { batchId: done.batchId }, enterprise, 'zh')).list;
    expect(items[1]).toMatchObject({ iccid: two[1], error: `一个流量池最多 ${api.POOL_CARDS_MAX} 张卡` });
    expect(await poolOf(two[0])).toBe(pool.poolId);
    expect(await poolOf(two[1])).toBeNull();
  });

  it('a card distributed out of the pool\'s tenant leaves the pool, and the pool counts it no more', async () => {
    const pool = ok(await savePool(enterprise, { name: 'East only', custId: east!.cust_id }));
    const [x] = await cardsOf(1, { owner: east });
    expect((await run(enterprise, BatchType.PoolJoin, pool.poolId, [x])).succeededCount).toBe(1);
    expect(ok(await call(P.detail, { poolId: pool.poolId }, enterprise)).memberCount).toBe(1);
    // the enterprise takes the card back from its second-level customer, whose pool cannot hold a card of the parent
    const r = ok(await call(carddetail.assignCards.name, { mode: 'distribute', custId: ent!.cust_id, selection: { by: 'list', iccids: [x] }, expectedNum: 1 }, enterprise));
    await waitFor(async () => (await poolOf(x)) === null && ok(await call(P.detail, { poolId: pool.poolId }, enterprise)).memberCount === 0, 20_000, 100);
    expect(ok(await call(carddetail.getAssignResult.name, { allocationId: r.allocationId }, enterprise)).status).toBe(carddetail.AllocationStatus.Succeeded);
    expect(ok(await call(P.cards, { poolId: pool.poolId }, enterprise)).list).toEqual([]);
  });

  it('a second-level customer\'s card in its parent\'s pool shows no pool to that customer', async () => {
    const pool = ok(await savePool(enterprise, { name: 'Tree pool' }));
    const [x] = await cardsOf(1, { owner: east });
    expect((await run(enterprise, BatchType.PoolJoin, pool.poolId, [x])).succeededCount).toBe(1);
    expect(ok(await call(CARD_LIST, { iccid: x }, enterprise)).list[0]).toMatchObject({ poolId: pool.poolId, poolName: 'Tree pool' });
    expect(ok(await call(CARD_LIST, { iccid: x }, sub)).list[0]).toMatchObject({ iccid: x, poolId: null, poolName: null });
    expect(ok(await call(CARD_DETAIL, { iccid: x }, sub))).toMatchObject({ poolId: null, poolName: null, poolState: null });
    expect(ok(await call(CARD_DETAIL, { iccid: x }, enterprise))).toMatchObject({ poolId: pool.poolId, poolName: 'Tree pool' });
  });

  it('usage rule: threshold once, block once under concurrency, unblock refused while used up, more cards lift it, a new cycle unblocks, a manual block stays', async () => {
    const pool = ok(await savePool(enterprise, { name: 'Rule', alertPercent: 50 }));
    const [a, b, c] = await cardsOf(3, { owner: ent });
    await run(enterprise, BatchType.PoolJoin, pool.poolId, [a, b]);
    const deps = { db: t.deps.db };

    await use(a, 1.25 * MB);
    const first = await checkPool(deps, pool.poolId);
    expect(first).toMatchObject({ state: PoolState.Normal, quotaBytes: 2 * MB, usedBytes: 1.25 * MB, memberCount: 2 });
    await checkPool(deps, pool.poolId);
    expect(await events(pool.poolId)).toEqual([PoolEventType.ThresholdReached]);

    await use(b, 1.25 * MB);
    await Promise.all([checkPool(deps, pool.poolId), checkPool(deps, pool.poolId), checkPool(deps, pool.poolId)]);
    expect(await events(pool.poolId)).toEqual([PoolEventType.ThresholdReached, PoolEventType.QuotaBlocked]);
    const blocked = ok(await call(P.detail, { poolId: pool.poolId }, enterprise));
    expect(blocked).toMatchObject({ state: PoolState.Blocked, usedBytes: 2.5 * MB, quotaBytes: 2 * MB });
    expect(ok(await call(CARD_DETAIL, { iccid: a }, enterprise)).poolState).toBe(PoolState.Blocked);

    const refused = await call(P.unblock, { poolId: pool.poolId }, enterprise);
    expect(refused).toMatchObject({ errorCode: ErrorCode.PoolUnblockExhausted });
    expect(refused.msg).toContain(formatSize(2.5 * MB));
    expect(refused.msg).toContain(formatSize(2 * MB));
    expect((await call(P.unblock, { poolId: pool.poolId }, enterprise, 'zh')).msg).toContain('本周期用量');
    expect((await call(P.block, { poolId: pool.poolId }, enterprise)).errorCode).toBe(ErrorCode.PoolAlreadyBlocked);

    // a third card raises the quota above the usage: the job's check lifts the block
    await run(enterprise, BatchType.PoolJoin, pool.poolId, [c]);
    expect(ok(await call(P.detail, { poolId: pool.poolId }, enterprise))).toMatchObject({ state: PoolState.Normal, quotaBytes: 3 * MB, memberCount: 3 });
    expect((await events(pool.poolId)).at(-1)).toBe(PoolEventType.QuotaUnblocked);

    // used up again, then the next cycle begins
    await use(c, 1 * MB);
    expect(ok(await call(P.refresh, { poolId: pool.poolId }, enterprise)).state).toBe(PoolState.Blocked);
    const cycle = billingPeriod(Date.now(), 1);
    const nextCycle = new Date(cycle.end.getTime() + HOUR);
    const unblocked = await checkPool(deps, pool.poolId, nextCycle);
    expect(unblocked).toMatchObject({ state: PoolState.Normal, usedBytes: 0, cycleStart: cycle.end });
    expect((await events(pool.poolId)).slice(-2)).toEqual([PoolEventType.QuotaBlocked, PoolEventType.CycleUnblocked]);

    // a manual block outlives cycles and the rule
    const manual = ok(await call(P.block, { poolId: pool.poolId, reason: 'audit' }, enterprise));
    expect(manual.state).toBe(PoolState.Blocked);
    await checkPool(deps, pool.poolId, new Date(cycle.end.getTime() + 40 * 24 * HOUR));
    await checkPool(deps, pool.poolId);
    expect((await checkPool(deps, pool.poolId))!.state).toBe(PoolState.Blocked);
    expect((await events(pool.poolId)).at(-1)).toBe(PoolEventType.ManualBlocked);
    // still above the quota in this cycle: only switching to "keep using" allows the unblock
    expect((await call(P.unblock, { poolId: pool.poolId }, enterprise)).errorCode).toBe(ErrorCode.PoolUnblockExhausted);
    ok(await savePool(enterprise, { poolId: pool.poolId, name: 'Rule', alertPercent: 50, exhaustAction: PoolExhaustAction.Continue }));
    expect(ok(await call(P.unblock, { poolId: pool.poolId, reason: 'ok now' }, enterprise)).state).toBe(PoolState.Normal);

    const history = ok(await call(P.events, { poolId: pool.poolId }, enterprise));
    // newest first (the checks run "next cycle" above recorded their events in the future)
    const ats = history.list.map((e: { at: string }) => e.at);
    expect(ats).toEqual([...ats].sort().reverse());
    expect(history.list.find((e: { type: number }) => e.type === PoolEventType.ManualUnblocked)).toMatchObject({ actor: 'enterprise', reason: 'ok now' });
    expect(history.list.find((e: { type: number }) => e.type === PoolEventType.ManualBlocked)).toMatchObject({ actor: 'enterprise', reason: 'audit', memberCount: 3 });
    const quotaBlocks = history.list.filter((e: { type: number }) => e.type === PoolEventType.QuotaBlocked);
    expect(quotaBlocks.map((e: { usedBytes: number; quotaBytes: number; memberCount: number }) => [e.usedBytes, e.quotaBytes, e.memberCount]))
      .toEqual([[3.5 * MB, 3 * MB, 3], [2.5 * MB, 2 * MB, 2]]);
    expect(quotaBlocks[0].actor).toBe('pool-usage');
    const onlyBlocks = ok(await call(P.events, { poolId: pool.poolId, types: [PoolEventType.QuotaBlocked], from: today(), to: today() }, enterprise));
    expect(onlyBlocks.total).toBe(2);
  });

  it('the feed gives a blocked pool\'s cards no usage, and no per-card use-up action to pooled cards', async () => {
    const deps = { db: t.deps.db, config: t.config };
    const blockedPool = ok(await savePool(enterprise, { name: 'Feed blocked' }));
    const sharing = ok(await savePool(enterprise, { name: 'Feed sharing', exhaustAction: PoolExhaustAction.Continue }));
    const pooled = await cardsOf(6, { owner: ent, online: true });
    const shared = await cardsOf(6, { owner: ent, online: true });
    const alone = await cardsOf(6, { owner: ent, online: true });
    await run(enterprise, BatchType.PoolJoin, blockedPool.poolId, pooled);
    await run(enterprise, BatchType.PoolJoin, sharing.poolId, shared);
    ok(await call(P.block, { poolId: blockedPool.poolId }, enterprise));
    clearUsagePlanCache();

    const from = new Date(Math.floor(Date.now() / 60_000) * 60_000);
    await runUsageWindow(deps, Operator.ChinaTelecom, from, new Date(from.getTime() + 12 * HOUR));
    const sessions = (iccids: string[]) => n('select count(*) n from card_sessions where iccid = any($1) and started_at >= $2', [iccids, from.toISOString()]);
    expect(await sessions(pooled)).toBe(0);
    expect(await sessions(alone)).toBeGreaterThan(0);
    expect(await sessions(shared)).toBeGreaterThan(0);
    // 1 MB plans used up: the cards on their own are deactivated by their plan, the pool's cards are not
    const exhausted = await n('select count(*) n from card_quota_exhaustions where iccid = any($1)', [alone]);
    expect(exhausted).toBeGreaterThan(0);
    expect(await n('select count(*) n from cards where iccid = any($1) and state = $2', [alone, CardState.Deactivated])).toBe(exhausted);
    expect(await n('select count(*) n from card_quota_exhaustions where iccid = any($1)', [[...shared, ...pooled]])).toBe(0);
    expect(await n('select count(*) n from cards where iccid = any($1) and state <> $2', [[...shared, ...pooled], CardState.Activated])).toBe(0);
  });
});
