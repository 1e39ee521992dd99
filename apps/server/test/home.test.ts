import crypto from 'node:crypto';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { CardState, batch, home } from '@lynx/contract';
import { backends, callOk, ownerOf, startTestApp, type Owner, type TestApp } from './harness.ts';
import { writeDaily } from '../src/modules/usage/usage-write.ts';
import { cycleMismatches } from '../src/modules/usage/cycle-columns.ts';
import { recentSince } from '../src/modules/home/fleet-health.ts';
import { businessDay } from '../src/modules/usage/usage-time.ts';

const HEALTH = 'edge/homepage/fleetHealth';
const LIST = 'core/sim/simQuery/getSimListPage';
const USAGE = 'core/sim/simDetails/getUsage';
const MB = 1024 * 1024;
const DAY = 86_400_000;

describe.each(backends)('home fleet health on %s', (backend) => {
  let t: TestApp;
  const tokens: Record<string, string> = {};
  let ent: Owner;
  let east: Owner;
  const q = <T = any>(text: string, params: unknown[] = []) => t.database.sql.query<T>(text, params);
  const count = async (text: string, params: unknown[] = []) => Number((await q<{ n: string }>(text, params))[0].n);
  /** The SQL tenant predicate of a demo login on a table with cust_id / root_cust_id (as the server decides it). */
  const scopeOf = (login: string, alias = 'c') =>
    login === 'admin' ? 'true' : login === 'enterprise' ? `${alias}.root_cust_id = ${ent.root_cust_id}` : `${alias}.cust_id = ${east.cust_id}`;

  /** Active cards with a plan that has a quota, of one customer, in ICCID order. */
  const quotaCards = (custId: number) =>
    q<{ iccid: string; quota_mb: string; operator_id: number; cust_id: number; root_cust_id: number }>(
      `select c.iccid, p.quota_mb, c.operator_id, c.cust_id, c.root_cust_id from cards c join basic_plans p on p.goods_release_id = c.goods_release_id
       where p.quota_mb > 0 and c.state = $1 and c.cust_id = $2 and c.pool_id is null order by c.iccid`, [CardState.Activated, custId]);
  /** Today's usage of a card, written the way the feed writes it (usage-write.ts writeDaily: the cards' cycle usage moves too). */
  const useToday = (c: { iccid: string; operator_id: number; cust_id: number; root_cust_id: number }, bytes: number) =>
    writeDaily(t.deps.db, [{ iccid: c.iccid, day: businessDay(Date.now()), bytesUp: 0, bytesDown: bytes, sms: 0, voiceSeconds: 0, sessions: 1 }],
      new Map([[c.iccid, { iccid: c.iccid, operatorId: c.operator_id, custId: c.cust_id, rootCustId: c.root_cust_id, apn: 'iot' }]]));
  /** Near (1) / over (2) quota of the cards by their maintained columns. */
  const levelsOf = async () => new Map((await q<{ iccid: string; level: number }>(`
    select iccid, case when cycle_used_bytes > cycle_quota_bytes then 2 else 1 end as level from cards
    where cycle_quota_bytes > 0 and cycle_used_bytes * 100 >= cycle_quota_bytes * 80`)).map((r) => [r.iccid, Number(r.level)]));
  const planted: { near: string[]; over: string[]; under: string[] } = { near: [], over: [], under: [] };

  beforeAll(async () => {
    t = await startTestApp(backend);
    for (const login of ['admin', 'enterprise', 'subcustomer']) tokens[login] = await t.login(login);
    ent = await ownerOf(t, 'enterprise');
    east = await ownerOf(t, 'subcustomer');
    const own = await quotaCards(ent.cust_id);
    const sub = await quotaCards(east.cust_id);
    expect(own.length).toBeGreaterThanOrEqual(4);
    expect(sub.length).toBeGreaterThanOrEqual(2);
    // the boundaries: 80 % exactly is near, a byte less is not; 100 % exactly is still near, a byte more is over
    const quota = (c: { quota_mb: string }) => Math.round(Number(c.quota_mb) * MB);
    const plant = async (c: (typeof own)[number], bytes: number, kind: keyof typeof planted) => {
      await useToday(c, bytes);
      planted[kind].push(c.iccid);
    };
    await plant(own[0], Math.ceil(quota(own[0]) * 0.8), 'near');
    await plant(own[1], Math.ceil(quota(own[1]) * 0.8) - 1, 'under');
    await plant(own[2], quota(own[2]), 'near');
    await plant(own[3], quota(own[3]) + 1, 'over');
    await plant(sub[0], Math.round(quota(sub[0]) * 0.9), 'near');
    await plant(sub[1], quota(sub[1]) * 2, 'over');
    // online now: a few cards across the tree
    await q('update cards set online = true where iccid = any($1)', [[own[0].iccid, own[4]?.iccid ?? own[1].iccid, sub[0].iccid]]);

    // recent alerts: a threshold event of the demo pool (the enterprise's), an unblock (not an alert) and an old block
    const [pool] = await q<{ pool_id: number }>('select pool_id from card_pools where cust_id = $1 limit 1', [ent.cust_id]);
    await q(`insert into card_pool_events (pool_id, type, used_bytes, quota_bytes, member_count, actor, at) values
      ($1, 6, 900, 1000, 8, 'pool-usage', now()), ($1, 3, 0, 1000, 8, 'pool-usage', now()), ($1, 1, 1001, 1000, 8, 'pool-usage', now() - interval '10 days')`, [pool.pool_id]);
    // a card of the second-level customer used up its quota; an operator refused a change on an enterprise card
    await q(`insert into card_quota_exhaustions (iccid, cycle_start, exhausted_at, used_bytes, quota_bytes, action) values ($1, now() - interval '3 days', now(), 2, 1, 2)`, [sub[1].iccid]);
    await q(`insert into card_change_failures (msisdn, iccid, operator_id, change_type, request, failure_code, failure_reason, cust_id, root_cust_id)
      values ('1064000000001', $1, $2, 1, '{}', 'E1', 'card busy', $3, $4)`, [own[5]?.iccid ?? own[1].iccid, own[0].operator_id, ent.cust_id, ent.root_cust_id]);

    // batch failures: the enterprise's batch with two failed cards (one of them the second-level customer's), a staff
    // batch with a failed enterprise card (staff see it, the enterprise does not: batches belong to their creator's tenant),
    // and an old enterprise batch (outside the window)
    const batchOf = async (owner: Owner | null, createdAt: string, items: [string, number][]) => {
      const id = crypto.randomUUID();
      await q(`insert into card_batches (batch_id, type, params, source, state, creator_account_id, created_by, cust_id, root_cust_id, total_count, valid_count,
        succeeded_count, failed_count, processed_count, created_at, finished_at) values ($1, 1, '{}', 4, 3, 1, 'test', $2, $3, $4, $4, $5, $6, $4, ${createdAt}, ${createdAt})`,
      [id, owner?.cust_id ?? null, owner?.root_cust_id ?? null, items.length, items.filter((i) => i[1] === 2).length, items.filter((i) => i[1] === 3).length]);
      for (const [i, [iccid, status]] of items.entries()) {
        await q('insert into card_batch_items (batch_id, seq, iccid, verdict, status) values ($1, $2, $3, 1, $4)', [id, i + 1, iccid, status]);
      }
      return id;
    };
    await batchOf(ent, 'now()', [[own[6]?.iccid ?? own[2].iccid, 3], [sub[0].iccid, 3], [own[0].iccid, 2]]);
    await batchOf(null, 'now()', [[own[3].iccid, 3]]);
    await batchOf(ent, "now() - interval '9 days'", [[own[1].iccid, 3]]);

    // the maintained columns equal a computation from scratch
    expect(await cycleMismatches(t.deps.db, new Date())).toEqual([]);
  });
  afterAll(() => t?.stop());

  it('classifies the planted cards at the boundaries (80 % near, 100 % near, 100 % + 1 byte over)', async () => {
    const levels = await levelsOf();
    for (const i of planted.near) expect(levels.get(i), i).toBe(home.QuotaLevel.Near);
    for (const i of planted.over) expect(levels.get(i), i).toBe(home.QuotaLevel.Over);
    for (const i of planted.under) expect(levels.has(i), i).toBe(false);
    // the usage module's own view of each card agrees (its cycle, its quota)
    for (const iccid of [...planted.near, ...planted.over, ...planted.under]) {
      const u = await callOk(t, USAGE, { iccid }, tokens.admin);
      const level = u.usedBytes > u.quotaBytes ? home.QuotaLevel.Over : u.usedBytes * 100 >= u.quotaBytes * 80 ? home.QuotaLevel.Near : undefined;
      expect(levels.get(iccid), iccid).toBe(level);
    }
  });

  it.each(['admin', 'enterprise', 'subcustomer'])('counts exactly what direct SQL counts in the tenant of %s, and each number is its card list total', async (login) => {
    const h = await callOk(t, HEALTH, {}, tokens[login]);
    const since = recentSince(Date.now());
    const from = `'${since}T00:00:00+08:00'::timestamptz`;
    const scope = scopeOf(login);
    expect(h.scope).toBe({ admin: home.FleetScope.Platform, enterprise: home.FleetScope.Tree, subcustomer: home.FleetScope.Customer }[login]);
    expect(h.since).toBe(since);
    expect(h.activeCards).toBe(await count(`select count(*) n from cards c where ${scope} and c.state = ${CardState.Activated}`));
    expect(h.onlineNow).toBe(await count(`select count(*) n from cards c where ${scope} and c.online`));
    // near / over: each card's usage summed over its own cycle, card by card
    const perCard = `select c.iccid, (select coalesce(sum(d.bytes), 0) from card_usage_daily d where d.iccid = c.iccid and d.day between c.cycle_from and c.cycle_to) as used,
      c.cycle_quota_bytes as quota from cards c where ${scope} and c.cycle_quota_bytes > 0`;
    const classified = await q<{ used: string; quota: string }>(perCard);
    expect(h.nearQuota).toBe(classified.filter((r) => Number(r.used) * 100 >= Number(r.quota) * 80 && Number(r.used) <= Number(r.quota)).length);
    expect(h.overQuota).toBe(classified.filter((r) => Number(r.used) > Number(r.quota)).length);
    const expected = {
      admin: { near: 3, over: 2 }, enterprise: { near: 3, over: 2 }, subcustomer: { near: 1, over: 1 },
    }[login]!;
    expect({ near: h.nearQuota, over: h.overQuota }).toEqual(expected);
    // always current: nothing counts them in the background
    expect(h.quotaCountedAt).toBeNull();

    // alerts: the visible pools' alert events, the exhaustions and the operator refusals of visible cards
    const poolScope = scopeOf(login, 'p');
    const alertCards = new Set([
      ...(await q<{ iccid: string }>(`select c.iccid from cards c join card_pools p on p.pool_id = c.pool_id where ${scope} and ${poolScope}
        and exists (select 1 from card_pool_events e where e.pool_id = p.pool_id and e.type in (1, 2, 6) and e.at >= ${from})`)).map((r) => r.iccid),
      ...(await q<{ iccid: string }>(`select c.iccid from cards c join card_quota_exhaustions x on x.iccid = c.iccid where ${scope} and x.exhausted_at >= ${from}`)).map((r) => r.iccid),
      ...(await q<{ iccid: string }>(`select c.iccid from cards c join card_change_failures f on f.iccid = c.iccid where ${scope} and f.created_at >= ${from}`)).map((r) => r.iccid),
    ]);
    expect(h.alerts.cards).toBe(alertCards.size);
    const events = await count(`select (select count(*) from card_pool_events e join card_pools p on p.pool_id = e.pool_id where ${poolScope} and e.type in (1, 2, 6) and e.at >= ${from})
      + (select count(*) from card_quota_exhaustions x join cards c on c.iccid = x.iccid where ${scope} and x.exhausted_at >= ${from})
      + (select count(*) from card_change_failures f join cards c on c.iccid = f.iccid where ${scope} and f.created_at >= ${from}) as n`);
    expect(h.alerts.events).toBe(events);
    expect(h.alerts.list.length).toBe(Math.min(events, home.HOME_RECENT_LIMIT));
    expect({ admin: 3, enterprise: 3, subcustomer: 1 }[login]).toBe(events);

    // batch failures: failed items of visible batches of the window, on visible cards
    const batchScope = scopeOf(login, 'b');
    expect(h.batchFailures.cards).toBe(await count(`select count(distinct i.iccid) n from card_batch_items i join card_batches b on b.batch_id = i.batch_id
      join cards c on c.iccid = i.iccid where ${batchScope} and ${scope} and i.status = ${batch.BatchItemStatus.Failed} and b.created_at >= ${from}`));
    expect(h.batchFailures.batches).toBe(await count(`select count(*) n from card_batches b where ${batchScope} and b.failed_count > 0 and b.created_at >= ${from}`));
    expect({ cards: h.batchFailures.cards, batches: h.batchFailures.batches }).toEqual(
      { admin: { cards: 3, batches: 2 }, enterprise: { cards: 2, batches: 1 }, subcustomer: { cards: 0, batches: 0 } }[login],
    );

    // every number opens the card list with its filter: the list's total is the number
    const total = async (filters: object) => (await callOk(t, LIST, { ...filters, pageSize: 1 }, tokens[login])).total;
    expect(await total({ states: [CardState.Activated] })).toBe(h.activeCards);
    expect(await total({ online: true })).toBe(h.onlineNow);
    expect(await total({ quotaLevel: 'near' })).toBe(h.nearQuota);
    expect(await total({ quotaLevel: 'over' })).toBe(h.overQuota);
    expect(await total({ alertsFrom: since })).toBe(h.alerts.cards);
    expect(await total({ batchFailedFrom: since })).toBe(h.batchFailures.cards);
    for (const b of h.batchFailures.list) {
      expect(await total({ failedBatchId: b.batchId })).toBe(await count(`select count(*) n from card_batch_items i join cards c on c.iccid = i.iccid
        where i.batch_id = $1 and i.status = 3 and ${scope}`, [b.batchId]));
    }
  });

  it('lists the newest alerts first with what they are about, in the caller tenant only', async () => {
    const admin = await callOk(t, HEALTH, {}, tokens.admin);
    const kinds = admin.alerts.list.map((a: { kind: number }) => a.kind).sort();
    expect(kinds).toEqual([home.HomeAlertKind.PoolThreshold, home.HomeAlertKind.CardQuotaUsedUp, home.HomeAlertKind.OperatorRefused].sort());
    const pool = admin.alerts.list.find((a: { kind: number }) => a.kind === home.HomeAlertKind.PoolThreshold);
    expect(pool).toMatchObject({ poolName: expect.any(String), usedBytes: 900, quotaBytes: 1000, iccid: null });
    const sub = await callOk(t, HEALTH, {}, tokens.subcustomer);
    // the second-level customer sees its own card's alert, not its parent's pool or cards
    expect(sub.alerts.list.map((a: { kind: number }) => a.kind)).toEqual([home.HomeAlertKind.CardQuotaUsedUp]);
    // a batch of another tenant is neither counted nor listed, and its failed cards are not found through the filter
    const [staffBatch] = await q<{ batch_id: string }>('select batch_id from card_batches where cust_id is null');
    const ent = await callOk(t, LIST, { failedBatchId: staffBatch.batch_id }, tokens.enterprise);
    expect(ent.total).toBe(0);
    expect((await callOk(t, LIST, { failedBatchId: staffBatch.batch_id }, tokens.admin)).total).toBe(1);
  });

  it('follows usage at once: a card passing its quota moves from near to over with the usage write', async () => {
    const [c] = await q<{ iccid: string; operator_id: number; cust_id: number; root_cust_id: number; quota_bytes: string }>(
      `select iccid, operator_id, cust_id, root_cust_id, cycle_quota_bytes as quota_bytes from cards
       where cust_id = $1 and cycle_quota_bytes > 0 and cycle_used_bytes * 100 >= cycle_quota_bytes * 80 and cycle_used_bytes <= cycle_quota_bytes limit 1`,
      [east.cust_id]);
    const before = await callOk(t, HEALTH, {}, tokens.subcustomer);
    await useToday(c, Number(c.quota_bytes) + 1);
    const after = await callOk(t, HEALTH, {}, tokens.subcustomer);
    expect(after.nearQuota).toBe(before.nearQuota - 1);
    expect(after.overQuota).toBe(before.overQuota + 1);
  });

  it('is refused without a session', async () => {
    expect((await t.call(HEALTH, {})).body.errorCode).toBe(20003);
  });

  it('keeps the window at 7 China days, today included', () => {
    const now = Date.parse('2026-11-26T01:00:00+08:00');
    expect(recentSince(now)).toBe('2026-11-20');
    expect(recentSince(now - DAY)).toBe('2026-11-19');
  });
});
