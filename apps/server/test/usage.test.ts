import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { CardChangeSource, CardState, ErrorCode, ExportState, Operator, PlanUseUpAction, formatSize } from '@lynx/contract';
import { backends, startTestApp, waitFor, type TestApp } from './harness.ts';
import { businessDay, businessDayStartMs, planDay, simulateUsage } from '../src/operators/simulator-usage.ts';
import type { UsageCard } from '../src/operators/gateway.ts';
import { demoUsageStart, runUsageFeed, runUsageWindow, type UsageDeps } from '../src/modules/usage/usage-feed.ts';
import { QUOTA_ACTOR } from '../src/modules/usage/usage-quota.ts';
import { clearUsagePlanCache } from '../src/modules/usage/usage-plans.ts';
import { dropExpiredSessionPartitions, ensureUsagePartitions, usagePartitions } from '../src/modules/usage/usage-partitions.ts';
import { monthFirstDay, businessMonth, addDay } from '../src/modules/usage/usage-time.ts';
import { applyCardAction } from '../src/modules/card/lifecycle/card-service.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const KB = 1024;

/** One csv line's fields, quotes undone ('"1,023 B"' is one field). */
const csvFields = (line: string) =>
  [...line.matchAll(/(?:^|,)("(?:[^"]|"")*"|[^,]*)/g)].map((m) => m[1].replace(/^"([\s\S]*)"$/, '$1').replace(/""/g, '"'));

// ---------------------------------------------------------------------------------------------------------------
// The network simulator's usage, without a database
// ---------------------------------------------------------------------------------------------------------------

describe('network simulator usage', () => {
  const t0 = businessDayStartMs('2026-11-02');
  const card = (iccid: string, service: UsageCard['service'], extra: Partial<UsageCard> = {}): UsageCard => ({
    iccid, operatorId: Operator.ChinaTelecom, apn: 'ctnet', networkTypes: [2, 3], service, ...extra,
  });
  const always = (test = false) => [{ from: new Date(t0 - 400 * DAY), to: null, test }];
  const iccids = Array.from({ length: 60 }, (_, i) => `8986031234567${String(i).padStart(7, '0')}`);

  it('is reproducible: the same window gives the same report, without clock or Math.random', () => {
    const req = { cards: iccids.map((i) => card(i, always())), from: new Date(t0), to: new Date(t0 + 3 * DAY) };
    const a = simulateUsage(req);
    const b = simulateUsage(structuredClone(req));
    expect(a).toEqual(b);
    expect(a.sessions.length).toBeGreaterThan(60);
    expect(new Set(a.sessions.map((s) => s.sessionId)).size).toBe(a.sessions.length);
  });

  it('a day fed window by window ends with the same counters as one window over the day; counters only grow and quiet cards are not repeated', () => {
    const cards = iccids.slice(0, 20).map((i) => card(i, always()));
    const whole = simulateUsage({ cards, from: new Date(t0), to: new Date(t0 + DAY) });
    let last = new Map<string, number>();
    const final = new Map<string, { up: number; down: number; sms: number; sessions: number }>();
    for (let f = t0; f < t0 + DAY; f += 2 * HOUR) {
      const r = simulateUsage({ cards, from: new Date(f), to: new Date(f + 2 * HOUR) });
      const now = new Map(r.daily.map((d) => [d.iccid, d.bytesUp + d.bytesDown]));
      // a card whose counters moved is reported again, never with smaller counters; a quiet card is not repeated
      for (const [k, v] of now) expect(v).toBeGreaterThanOrEqual(last.get(k) ?? 0);
      last = new Map([...last, ...now]);
      for (const d of r.daily) final.set(d.iccid, { up: d.bytesUp, down: d.bytesDown, sms: d.sms, sessions: d.sessions });
    }
    expect(whole.daily.length).toBeGreaterThan(10);
    for (const d of whole.daily) expect(final.get(d.iccid)).toEqual({ up: d.bytesUp, down: d.bytesDown, sms: d.sms, sessions: d.sessions });
    // the day's total is the sum of its sessions
    for (const d of whole.daily) {
      const s = whole.sessions.filter((x) => x.iccid === d.iccid);
      expect(s.reduce((n, x) => n + x.bytesUp + x.bytesDown, 0)).toBe(d.bytesUp + d.bytesDown);
      expect(s.length).toBe(d.sessions);
    }
  });

  it('nothing outside the service periods; a period end cuts the open session there', () => {
    const none = simulateUsage({ cards: iccids.slice(0, 10).map((i) => card(i, [])), from: new Date(t0), to: new Date(t0 + DAY) });
    expect(none).toEqual({ sessions: [], daily: [] });
    const cut = t0 + 13 * HOUR;
    const full = simulateUsage({ cards: iccids.map((i) => card(i, always())), from: new Date(t0), to: new Date(t0 + DAY) });
    const part = simulateUsage({ cards: iccids.map((i) => card(i, [{ from: new Date(t0 - DAY), to: new Date(cut), test: false }])), from: new Date(t0), to: new Date(t0 + DAY) });
    expect(part.sessions.every((s) => s.startedAt.getTime() < cut && s.endedAt !== null && s.endedAt.getTime() <= cut)).toBe(true);
    const sum = (r: typeof full) => r.daily.reduce((n, d) => n + d.bytesUp + d.bytesDown, 0);
    expect(sum(part)).toBeLessThan(sum(full));
    expect(sum(part)).toBeGreaterThan(0);
  });

  it('test cards use a few KB a day; active devices use megabytes, mostly in the daytime', () => {
    const days = 10;
    const test = simulateUsage({ cards: iccids.map((i) => card(i, always(true))), from: new Date(t0), to: new Date(t0 + days * DAY) });
    expect(test.daily.length).toBeGreaterThan(0);
    expect(Math.max(...test.daily.map((d) => d.bytesUp + d.bytesDown))).toBeLessThanOrEqual(6 * KB);
    const active = simulateUsage({ cards: iccids.map((i) => card(i, always())), from: new Date(t0), to: new Date(t0 + days * DAY) });
    const perDay = active.daily.reduce((n, d) => n + d.bytesUp + d.bytesDown, 0) / active.daily.length;
    expect(perDay).toBeGreaterThan(1024 * 1024);
    const hour = (s: { startedAt: Date }) => new Date(s.startedAt.getTime() + 8 * HOUR).getUTCHours();
    const day = active.sessions.filter((s) => hour(s) >= 8 && hour(s) < 20).length;
    const night = active.sessions.filter((s) => hour(s) < 6).length;
    expect(day).toBeGreaterThan(night * 3);
    // sessions never cross a China midnight
    expect(active.sessions.every((s) => businessDay(s.startedAt.getTime()) === businessDay((s.endedAt ?? s.startedAt).getTime() - 1))).toBe(true);
    expect(planDay(card(iccids[0], []), '2026-11-02', false)).toEqual(planDay(card(iccids[0], []), '2026-11-02', false));
  });
});

// ---------------------------------------------------------------------------------------------------------------
// The feed, the partitions and the queries, on a demo database
// ---------------------------------------------------------------------------------------------------------------

type Who = { cust_id: number; root_cust_id: number };

describe.each(backends)('usage feed and queries on %s', (backend) => {
  let t: TestApp;
  let deps: UsageDeps;
  let admin: string;
  let enterprise: string;
  let channel: string;
  let sub: string;
  let ent: Who;
  let chan: Who;
  let east: Who;
  /**
   * The feed's clock: moves forward with the tests. It starts at the next 14:00 China time, because the simulator's
   * traffic follows the day (few cards are online at 02:00): the tests must not depend on when they run.
   */
  let clock = nextChinaAfternoon(Date.now());
  let first: Awaited<ReturnType<typeof runUsageFeed>>;

  const q = <T = Record<string, unknown>>(text: string, params: unknown[] = []) => t.database.sql.query<T>(text, params);
  const n = async (text: string, params: unknown[] = []) => Number((await q<{ n: string }>(text, params))[0].n);
  const feed = (at: number, opts: Parameters<typeof runUsageFeed>[1] = {}) => runUsageFeed(deps, { now: new Date(at), ...opts });
  const ok = <T = any>(r: { body: { success: boolean; data: T; msg: string } }) => {
    expect(r.body.success, r.body.msg).toBe(true);
    return r.body.data;
  };

  /** Rows where the per-customer rollup differs from the daily rows it sums. */
  const rollupMismatches = () => n(`
    select count(*) n from (
      select day, coalesce(cust_id, 0) cust_id, operator_id, apn, sum(bytes) b, sum(sms) s, sum(voice_seconds) v, sum(sessions) se, count(*) k
      from card_usage_daily group by 1, 2, 3, 4
    ) d full join card_usage_daily_cust r on r.day = d.day and r.cust_id = d.cust_id and r.operator_id = d.operator_id and r.apn = d.apn
    where coalesce(r.bytes, 0) <> coalesce(d.b, 0) or coalesce(r.sms, 0) <> coalesce(d.s, 0) or coalesce(r.voice_seconds, 0) <> coalesce(d.v, 0)
      or coalesce(r.sessions, 0) <> coalesce(d.se, 0) or coalesce(r.cards, 0) <> coalesce(d.k, 0)`);
  const snapshot = async () => ({
    daily: await q(`select iccid, day::text, bytes_up::text, bytes_down::text, sms, voice_seconds, sessions, cust_id, apn from card_usage_daily order by iccid, day`),
    rollup: await q(`select day::text, cust_id, operator_id, apn, bytes::text, sms::text, sessions::text, cards from card_usage_daily_cust order by 1, 2, 3, 4`),
    sessions: await q(`select iccid, session_id, started_at::text, ended_at::text, bytes_up::text, bytes_down::text from card_sessions order by iccid, started_at, session_id`),
  });
  const activeCard = async (where: string, params: unknown[] = []) =>
    (await q<{ iccid: string }>(`select c.iccid from cards c where c.state = ${CardState.Activated} and exists (select 1 from card_usage_daily d where d.iccid = c.iccid) and ${where} order by c.iccid limit 1`, params))[0].iccid;

  beforeAll(async () => {
    t = await startTestApp(backend, {}, { jobs: false });
    deps = { db: t.deps.db, config: t.config };
    [admin, enterprise, channel, sub] = await Promise.all(['admin', 'enterprise', 'channel', 'subcustomer'].map((l) => t.login(l)));
    const who = async (login: string) => (await q<Who>('select cust_id, root_cust_id from accounts where login_name = $1', [login]))[0];
    [ent, chan, east] = await Promise.all([who('enterprise'), who('channel'), who('subcustomer')]);
    // the demo's feeds start 30 days back: the first run catches up
    first = await feed(clock);
  }, 180_000);
  afterAll(() => t?.stop());

  it('keeps monthly partitions of both usage tables from 13 months back to 2 ahead (declarative partitioning)', async () => {
    expect(await n(`select count(*) n from pg_partitioned_table where partrelid in ('card_sessions'::regclass, 'card_usage_daily'::regclass)`)).toBe(2);
    const month = businessMonth(clock);
    const want = Array.from({ length: 16 }, (_, i) => monthFirstDay(month, i - 13).slice(0, 7));
    for (const table of ['card_sessions', 'card_usage_daily'] as const) {
      const have = (await usagePartitions(t.deps.db, table)).map((p) => p.month);
      for (const m of want) expect(have, `${table} ${m}`).toContain(m);
    }
    expect(await ensureUsagePartitions(t.deps.db, clock)).toBe(0);
    // session records past the retention go a month at a time; the daily totals stay
    const dropped = await dropExpiredSessionPartitions(t.deps.db, clock);
    expect(dropped).toContain(`card_sessions_p${monthFirstDay(month, -4).slice(0, 7).replace('-', '_')}`);
    expect((await usagePartitions(t.deps.db, 'card_usage_daily')).length).toBeGreaterThanOrEqual(16);
    expect(await ensureUsagePartitions(t.deps.db, clock)).toBe(dropped.length);
  });

  it('catches up the demo month window by window and gives usage only to active and test cards', async () => {
    for (const r of first) {
      expect(r).toMatchObject({ ran: true, error: null, watermark: new Date(clock).toISOString() });
      expect(r.windows).toBeGreaterThanOrEqual(120);
    }
    const states = (await q<{ state: number }>(`select distinct c.state from card_usage_daily d join cards c using (iccid)`)).map((r) => Number(r.state));
    expect(states.length).toBeGreaterThan(0);
    for (const s of states) expect([CardState.Activated, CardState.Test]).toContain(s);
    // the demo cards in every other state (start, activation ready, inventory, deactivated, invalidated, retired, frozen) got nothing
    expect(await n(`select count(*) n from cards c where c.state not in (61, 64) and exists (select 1 from card_usage_daily d where d.iccid = c.iccid)`)).toBe(0);
    expect(await n(`select count(*) n from cards where state not in (61, 64)`)).toBeGreaterThan(20);
    // test cards use a few KB a day
    expect(await n(`select coalesce(max(d.bytes), 0) n from card_usage_daily d join cards c using (iccid) where c.state = 61`)).toBeLessThanOrEqual(6 * KB);
    // nothing before a card was activated (its history)
    expect(await n(`
      select count(*) n from card_sessions s join cards c using (iccid)
      where s.started_at < (select min(h.at) from card_history h where h.iccid = c.iccid and h.to_state in (61, 64))`)).toBe(0);
    // online = a session open at the end of the last window; first use and last session follow the sessions
    expect(await n(`select count(*) n from cards c where c.online <> exists (select 1 from card_sessions s where s.iccid = c.iccid and s.ended_at is null)`)).toBe(0);
    expect(await n(`select count(*) n from cards where online`)).toBeGreaterThan(0);
    expect(await n(`
      select count(*) n from cards c where exists (select 1 from card_sessions s where s.iccid = c.iccid)
        and (c.first_used_at is null or c.last_session_at < (select max(started_at) from card_sessions s where s.iccid = c.iccid))`)).toBe(0);
    expect(await rollupMismatches()).toBe(0);
  });

  it('doing windows again changes nothing: sessions, daily totals and the rollup', async () => {
    const before = await snapshot();
    for (const op of [Operator.ChinaMobile, Operator.ChinaUnicom, Operator.ChinaTelecom]) {
      await runUsageWindow(deps, op, new Date(clock - 30 * HOUR), new Date(clock - 2 * HOUR));
      // the whole month in one window, in small chunks
      await runUsageWindow(deps, op, demoUsageStart(clock), new Date(clock), { chunk: 40 });
    }
    expect(await snapshot()).toEqual(before);
    expect(await rollupMismatches()).toBe(0);
  });

  it('with two processes one claims each feed and the other skips; a crashed run is resumed from its cursor', async () => {
    clock += 10 * 60_000;
    const [a, b] = await Promise.all([feed(clock, { owner: 'process-a' }), feed(clock, { owner: 'process-b' })]);
    for (const op of [1, 2, 3]) expect([a, b].filter((r) => r.find((x) => x.operatorId === op)!.ran)).toHaveLength(1);
    expect(await rollupMismatches()).toBe(0);
    // not due yet: the interval has not passed
    expect((await feed(clock + 60_000, { intervalMs: 5 * 60_000 })).every((r) => !r.ran)).toBe(true);
    // a live lease of another process is respected; an expired one is taken over and its window finished from the cursor
    const cursor = (await q<{ iccid: string }>(`select iccid from cards where operator_id = 1 order by iccid limit 1 offset 10`))[0].iccid;
    await q(`update usage_feeds set lease_owner = 'gone', lease_until = now() + interval '5 minutes' where operator_id = 1`);
    expect((await feed(clock + 5 * 60_000, { operatorIds: [1] }))[0].ran).toBe(false);
    await q(`update usage_feeds set lease_until = now() - interval '1 second', window_to = $1, cursor_iccid = $2 where operator_id = 1`,
      [new Date(clock + 5 * 60_000).toISOString(), cursor]);
    const resumed = (await feed(clock + 5 * 60_000, { operatorIds: [1] }))[0];
    expect(resumed).toMatchObject({ ran: true, windows: 1, error: null });
    expect(resumed.stats.cards).toBeLessThan(first[0].stats.cards / first[0].windows);
    const f = (await q<{ watermark: Date; window_to: Date | null; lease_owner: string | null }>(`select watermark, window_to, lease_owner from usage_feeds where operator_id = 1`))[0];
    expect(new Date(f.watermark).getTime()).toBe(clock + 5 * 60_000);
    expect(f.window_to).toBeNull();
    expect(f.lease_owner).toBeNull();
  });

  it('catches up after downtime', async () => {
    const from = clock;
    clock += 2 * DAY + 30 * 60_000;
    const r = await feed(clock);
    for (const x of r) {
      expect(x.ran).toBe(true);
      expect(x.windows).toBeGreaterThanOrEqual(8);
      expect(x.watermark).toBe(new Date(clock).toISOString());
    }
    for (const day of [addDay(businessDay(from), 1), businessDay(clock)]) {
      expect(await n(`select count(*) n from card_usage_daily where day = $1`, [day]), day).toBeGreaterThan(5);
    }
    expect(await rollupMismatches()).toBe(0);
  });

  it('a deactivated card and a card with every zone blocked get nothing from then on, and their sessions close', async () => {
    const online = (await q<{ iccid: string }>(`select iccid from cards where state = 64 and online order by iccid limit 1`))[0]?.iccid
      ?? (await activeCard('true'));
    const res = await t.call('core/sim/singleCard/changeStatus', { iccid: online, action: 'deactivate', reason: 'usage test' }, { token: admin });
    ok(res);
    const zoned = await activeCard(`c.iccid <> $1 and exists (select 1 from plan_zones z where z.goods_release_id = c.goods_release_id)`, [online]);
    const zones = await q<{ zone_id: number }>(`select z.zone_id from plan_zones z join cards c on c.goods_release_id = z.goods_release_id where c.iccid = $1`, [zoned]);
    expect(zones.length).toBeGreaterThan(0);
    for (const z of zones) {
      await applyCardAction(deps, { kind: 'system', source: CardChangeSource.Rule, actor: 'usage-test' }, zoned, { type: 'block', target: { kind: 'zone', id: Number(z.zone_id) } });
    }
    const before = clock;
    clock += DAY;
    await feed(clock);
    for (const iccid of [online, zoned]) {
      expect(await n(`select count(*) n from card_sessions where iccid = $1 and started_at >= $2`, [iccid, new Date(before).toISOString()]), iccid).toBe(0);
      expect(await n(`select count(*) n from card_sessions where iccid = $1 and ended_at is null`, [iccid])).toBe(0);
      expect(await n(`select count(*) n from card_usage_daily where iccid = $1 and day > $2`, [iccid, businessDay(before)])).toBe(0);
      expect(await n(`select count(*) n from cards where iccid = $1 and online`, [iccid])).toBe(0);
    }
    // cards still active keep going
    expect(await n(`select count(*) n from card_sessions where started_at >= $1`, [new Date(before).toISOString()])).toBeGreaterThan(0);
  });

  it('quota used up: "enter next status immediately" deactivates, "block until cycle end" blocks the zones, once per cycle, and a new cycle releases', async () => {
    // two 1 MB plans copied from the demo monthly plan, each with two zones
    const copy = async (code: string, action: number) => {
      const [p] = await q<{ id: number }>(`
        insert into basic_plans (code, name, goods_type, tariff_type, standard_price, sale_price, cycle_unit, cycle_value, duration_months, quota_mb,
          use_up_action, operator_id, operation_mode, renewal_mode, network_types, created_by)
        select $1, $1, goods_type, tariff_type, standard_price, sale_price, cycle_unit, cycle_value, duration_months, 1, $2, operator_id, operation_mode,
          renewal_mode, network_types, 'test' from basic_plans where code = 'CTCC-M10G' returning goods_release_id as id`, [code, action]);
      for (const name of ['全国', '专网']) await q(`insert into plan_zones (goods_release_id, zone_name) values ($1, $2)`, [p.id, `${code}-${name}`]);
      return Number(p.id);
    };
    // the cycle of these cards is the natural month: a month that ends within the 12 hours below would start a new
    // cycle and release the block early, so near a month's end the clock first moves into the next month (the feed
    // catches up the days between, before the cards get their 1 MB plans)
    const [y, m] = businessDay(clock).split('-').map(Number);
    const nextMonth = businessDayStartMs(`${m === 12 ? y + 1 : y}-${String(m === 12 ? 1 : m + 1).padStart(2, '0')}-01`);
    if (nextMonth - clock < 2 * DAY) {
      // a few days into it, so the cards have used more than the 1 MB quota in the new cycle
      clock = nextMonth + 4 * DAY + 14 * HOUR;
      await feed(clock);
    }
    const nextPlan = await copy('USAGE-NEXT-1M', PlanUseUpAction.NextStatus);
    const blockPlan = await copy('USAGE-BLOCK-1M', PlanUseUpAction.BlockUntilCycleEnd);
    // cards with an open session use data in the next window
    const a = await activeCard('c.online');
    const b = await activeCard('c.online and c.iccid <> $1', [a]);
    await q(`update cards set goods_release_id = $1 where iccid = $2`, [nextPlan, a]);
    await q(`update cards set goods_release_id = $1 where iccid = $2`, [blockPlan, b]);
    clearUsagePlanCache();

    // a card with an open session may still send nothing in one half hour (a quiet hour of the simulated day): the
    // check runs on the cards a window brings usage for, so windows go on (at most 6 hours) until both have acted
    const acted: string[] = [];
    for (let i = 0; i < 12 && !(acted.includes(a) && acted.includes(b)); i++) {
      clock += 30 * 60_000;
      acted.push(...(await feed(clock)).flatMap((x) => x.stats.exhausted));
    }
    expect(acted).toContain(a);
    expect(acted).toContain(b);
    expect(Number((await q<{ state: number }>('select state from cards where iccid = $1', [a]))[0].state)).toBe(CardState.Deactivated);
    const h = await q<{ source: number; actor: string; to_state: number; note_en: string }>(
      `select source, actor, to_state, note_en from card_history where iccid = $1 order by at desc limit 1`, [a]);
    expect(h[0]).toMatchObject({ source: CardChangeSource.Rule, actor: QUOTA_ACTOR, to_state: CardState.Deactivated });
    expect(h[0].note_en).toContain('quota used up');
    expect(Number((await q<{ state: number }>('select state from cards where iccid = $1', [b]))[0].state)).toBe(CardState.Activated);
    expect(await n(`select count(*) n from card_zone_blocks where iccid = $1 and blocked_by = $2 and not by_deactivation`, [b, QUOTA_ACTOR])).toBe(2);
    const ex = await q<{ iccid: string; action: number; failure: string | null; used_bytes: string; quota_bytes: string }>(
      `select iccid, action, failure, used_bytes::text, quota_bytes::text from card_quota_exhaustions where iccid in ($1, $2) order by action`, [a, b]);
    expect(ex.map((e) => [e.iccid, Number(e.action), e.failure])).toEqual([[a, PlanUseUpAction.NextStatus, null], [b, PlanUseUpAction.BlockUntilCycleEnd, null]]);
    for (const e of ex) {
      expect(Number(e.quota_bytes)).toBe(1024 * 1024);
      expect(Number(e.used_bytes)).toBeGreaterThan(1024 * 1024);
    }

    // no more usage for either, and the action is not applied twice in the cycle
    const exhaustedAt = clock;
    clock += 12 * HOUR;
    const again = await feed(clock);
    expect(again.flatMap((x) => x.stats.exhausted)).not.toContain(b);
    for (const iccid of [a, b]) {
      expect(await n(`select count(*) n from card_sessions where iccid = $1 and started_at >= $2`, [iccid, new Date(exhaustedAt).toISOString()])).toBe(0);
    }
    expect(await n(`select count(*) n from card_quota_exhaustions where iccid in ($1, $2)`, [a, b])).toBe(2);

    // a new cycle (the card's contract cycle moves on) permits the zones again and usage resumes
    await q(`update basic_plans set quota_mb = 102400 where goods_release_id = $1`, [blockPlan]);
    clearUsagePlanCache();
    await q(`update cards set cycle_start_at = $1, cycle_end_at = $2 where iccid = $3`, [new Date(clock - HOUR).toISOString(), new Date(clock + 20 * DAY).toISOString(), b]);
    const releasedAt = clock;
    clock += 3 * DAY;
    const rel = await feed(clock);
    expect(rel.flatMap((x) => x.stats.released)).toContain(b);
    expect(await n(`select count(*) n from card_zone_blocks where iccid = $1`, [b])).toBe(0);
    expect(await n(`select count(*) n from card_quota_exhaustions where iccid = $1 and released_at is not null`, [b])).toBe(1);
    expect(await n(`select count(*) n from card_sessions where iccid = $1 and started_at >= $2`, [b, new Date(releasedAt).toISOString()])).toBeGreaterThan(0);
  });

  // ---- queries ------------------------------------------------------------------------------------------------

  const cardOf = async (where: string, params: unknown[] = []) =>
    (await q<{ iccid: string; msisdn: string }>(`select c.iccid, c.msisdn from cards c where exists (select 1 from card_usage_daily d where d.iccid = c.iccid) and ${where} order by c.iccid limit 1`, params))[0];

  it("a card's usage: cycle, quota, per-day series; tenant-scoped", async () => {
    const zx = await cardOf(`c.cust_id = $1 and c.goods_release_id = (select goods_release_id from basic_plans where code = 'CTCC-M10G')`, [ent.root_cust_id]);
    const hd = await cardOf('c.root_cust_id = $1', [chan.root_cust_id]);
    const ea = await cardOf('c.cust_id = $1', [east.cust_id]);
    const u = ok(await t.call('core/sim/simDetails/getUsage', { iccid: zx.iccid }, { token: enterprise }));
    // the contract cycle when the card's cycle columns cover now, else the operator's billing period
    const [cyc] = await q<{ s: Date | null; e: Date | null }>(`select cycle_start_at s, cycle_end_at e from cards where iccid = $1`, [zx.iccid]);
    const inContract = cyc.s !== null && cyc.e !== null && new Date(cyc.s).getTime() <= Date.now() && Date.now() < new Date(cyc.e).getTime();
    expect(u.cycleKind).toBe(inContract ? 'contract' : 'billing');
    if (inContract) expect(u.cycleStart).toBe(new Date(cyc.s!).toISOString());
    expect(u.days.length).toBe(Math.round((businessDayStartMs(u.to) - businessDayStartMs(u.from)) / DAY) + 1);
    expect(u.days[0].day).toBe(u.from);
    expect(u.total.bytes).toBe(u.days.reduce((s: number, d: { bytes: number }) => s + d.bytes, 0));
    const used = await n(`select coalesce(sum(bytes), 0) n from card_usage_daily where iccid = $1 and day >= $2 and day <= $3`,
      [zx.iccid, businessDay(new Date(u.cycleStart).getTime()), businessDay(new Date(u.cycleEnd).getTime() - 1)]);
    expect(u.usedBytes).toBe(used);
    expect(u.quotaBytes).toBe(10240 * 1024 * 1024);
    expect(u.remainingBytes).toBe(Math.max(0, u.quotaBytes - used));
    expect(u.planName).toBeTruthy();

    // an explicit range, zero-filled
    const from = addDay(businessDay(Date.now()), -40);
    const r = ok(await t.call('core/sim/simDetails/getUsage', { iccid: zx.iccid, from, to: addDay(from, 9) }, { token: admin }));
    expect(r.days).toHaveLength(10);
    expect(r.days.every((d: { bytes: number }) => d.bytes === 0)).toBe(true);
    const rev = await t.call('core/sim/simDetails/getUsage', { iccid: zx.iccid, from, to: addDay(from, -1) }, { token: admin, lang: 'zh' });
    expect(rev.body).toMatchObject({ success: false, errorCode: ErrorCode.UsageRangeReversed, msg: '结束日期不能早于开始日期' });
    const long = await t.call('core/sim/simDetails/getUsage', { iccid: zx.iccid, from, to: addDay(from, 92) }, { token: admin });
    expect(long.body).toMatchObject({ success: false, errorCode: ErrorCode.UsageRangeTooLong, msg: 'The date range can span at most 92 days' });

    // tenancy: a card outside the caller's scope answers like a missing one
    for (const [token, iccid, allowed] of [
      [enterprise, hd.iccid, false], [enterprise, ea.iccid, true], [channel, zx.iccid, false], [channel, hd.iccid, true],
      [sub, zx.iccid, false], [sub, ea.iccid, true], [admin, hd.iccid, true],
    ] as const) {
      for (const e of ['core/sim/simDetails/getUsage', 'core/sim/simDetails/getSessions']) {
        const x = await t.call(e, { iccid }, { token });
        if (allowed) expect(x.body.success, `${e} ${iccid}`).toBe(true);
        else expect(x.body, `${e} ${iccid}`).toMatchObject({ success: false, errorCode: ErrorCode.NotFound });
      }
    }
  });

  it('session history: the last 100 sessions within 3 days, newest first, with APN online status', async () => {
    const [c] = await q<{ iccid: string }>(`select iccid from cards where state = 63 and cust_id = $1 order by iccid limit 1`, [ent.cust_id]);
    const now = Date.now();
    const starts = [
      ...Array.from({ length: 150 }, (_, i) => now - 10 * 60_000 - i * 25 * 60_000),
      ...Array.from({ length: 10 }, (_, i) => now - 3 * DAY - (i + 1) * HOUR),
    ];
    await q(`
      insert into card_sessions (iccid, session_id, started_at, ended_at, reported_at, apn, bytes_up, bytes_down, rat, operator_id, cust_id, root_cust_id)
      select $1, 'T' || i, s, s + interval '5 minutes', s + interval '5 minutes', 'zhixing.ctm2m', 100, 200, 2, 3, $2, $3
      from unnest($4::timestamptz[]) with ordinality as u (s, i)`, [c.iccid, ent.cust_id, ent.root_cust_id, starts.map((s) => new Date(s).toISOString())]);
    const r = ok(await t.call('core/sim/simDetails/getSessions', { iccid: c.iccid }, { token: enterprise }));
    expect(r.list).toHaveLength(100);
    expect(r.list[0].startedAt).toBe(new Date(starts[0]).toISOString());
    expect(r.list.every((s: { startedAt: string }) => new Date(s.startedAt).getTime() >= now - 3 * DAY)).toBe(true);
    expect(r.list[1].bytes).toBe(300);
    expect(r.list[1].durationSeconds).toBe(300);
    expect(r.apns.find((a: { apn: string }) => a.apn === 'zhixing.ctm2m')).toMatchObject({ online: false });
    const zx = await cardOf('c.root_cust_id = $1 and c.state = 64 and c.online', [ent.root_cust_id]).catch(() => null);
    if (zx) {
      const s = ok(await t.call('core/sim/simDetails/getSessions', { iccid: zx.iccid }, { token: admin }));
      expect(s.online).toBe(true);
      expect(s.apns.some((a: { online: boolean }) => a.online)).toBe(true);
    }
    // only the sessions written above: the card's own sessions from the feed (e.g. of its test period) stay, as the daily
    // totals and the traffic query's rollup count them
    await q(`delete from card_sessions where iccid = $1 and session_id like 'T%'`, [c.iccid]);
  });

  const range = () => ({ startDate: addDay(businessDay(clock), -30), endDate: businessDay(clock) });

  it('traffic detail query by day and by session: each role sees its own tenant, totals match, filters and limits', async () => {
    const scopes: [string, string, string][] = [
      [admin, 'true', 'admin'], [enterprise, `root_cust_id = ${ent.root_cust_id}`, 'enterprise'],
      [channel, `root_cust_id = ${chan.root_cust_id}`, 'channel'], [sub, `cust_id = ${east.cust_id}`, 'subcustomer'],
    ];
    const { startDate, endDate } = range();
    for (const [token, where, who] of scopes) {
      const daily = ok(await t.call('shortcuts/queryFlow/getFlowDailyPage', { startDate, endDate, pageSize: 500 }, { token }));
      const want = await q<{ n: string; b: string }>(`select count(*) n, coalesce(sum(bytes), 0) b from card_usage_daily where ${where} and day between $1 and $2`, [startDate, endDate]);
      expect(daily.total, who).toBe(Number(want[0].n));
      expect(daily.totalBytes, who).toBe(Number(want[0].b));
      expect(daily.total, who).toBeGreaterThan(0);
      const allowed = new Set((await q<{ iccid: string }>(`select distinct iccid from card_usage_daily where ${where}`)).map((x) => x.iccid));
      expect(daily.list.every((x: { iccid: string }) => allowed.has(x.iccid)), who).toBe(true);
      const sessions = ok(await t.call('shortcuts/queryFlow/getFlowSessionPage', { startDate, endDate, pageSize: 100 }, { token }));
      // the total comes from the per-customer rollup of the operator's daily counters ("sessions started that day"),
      // exactly; the session records are the operator's per-session feed. The two agree but for a session now and then
      // at a feed window's edge (seen 1 in 6,000 at some clock times), so the records are held to a close match
      const rolled = await n(`select coalesce(sum(sessions), 0) n from card_usage_daily_cust where ${where} and day between $1 and $2`, [startDate, endDate]);
      expect(sessions.total, who).toBe(rolled);
      const ws = await n(`select count(*) n from card_sessions where ${where} and started_at >= $1 and started_at < $2`,
        [new Date(businessDayStartMs(startDate)).toISOString(), new Date(businessDayStartMs(addDay(endDate, 1))).toISOString()]);
      expect(Math.abs(sessions.total - ws), who).toBeLessThanOrEqual(Math.max(2, Math.ceil(ws / 1000)));
      expect(sessions.list.every((x: { iccid: string }) => allowed.has(x.iccid)), who).toBe(true);
    }
    // a customer filter inside the scope narrows it; outside the scope it finds nothing
    const eastOnly = ok(await t.call('shortcuts/queryFlow/getFlowDailyPage', { ...range(), custId: east.cust_id, pageSize: 500 }, { token: enterprise }));
    expect(eastOnly.total).toBe(await n(`select count(*) n from card_usage_daily where cust_id = $1 and day between $2 and $3`, [east.cust_id, startDate, endDate]));
    expect(eastOnly.list.every((x: { custId: number }) => x.custId === east.cust_id)).toBe(true);
    expect(ok(await t.call('shortcuts/queryFlow/getFlowDailyPage', { ...range(), custId: east.cust_id }, { token: channel })).total).toBe(0);
    // by card: ICCID or MSISDN; another tenant's card gives nothing
    const zx = await cardOf('c.root_cust_id = $1', [ent.root_cust_id]);
    const byIccid = ok(await t.call('shortcuts/queryFlow/getFlowDailyPage', { ...range(), iccid: zx.iccid }, { token: admin }));
    expect(byIccid.total).toBe(await n(`select count(*) n from card_usage_daily where iccid = $1 and day between $2 and $3`, [zx.iccid, startDate, endDate]));
    expect(byIccid.list.every((x: { iccid: string; msisdn: string }) => x.iccid === zx.iccid && x.msisdn === zx.msisdn)).toBe(true);
    const byMsisdn = ok(await t.call('shortcuts/queryFlow/getFlowSessionPage', { ...range(), msisdn: zx.msisdn }, { token: enterprise }));
    expect(byMsisdn.total).toBeGreaterThan(0);
    expect(byMsisdn.list.every((x: { iccid: string }) => x.iccid === zx.iccid)).toBe(true);
    expect(ok(await t.call('shortcuts/queryFlow/getFlowDailyPage', { ...range(), iccid: zx.iccid }, { token: channel })).total).toBe(0);
    // pages do not overlap
    const p1 = ok(await t.call('shortcuts/queryFlow/getFlowDailyPage', { ...range(), pageSize: 10, current: 1 }, { token: admin }));
    const p2 = ok(await t.call('shortcuts/queryFlow/getFlowDailyPage', { ...range(), pageSize: 10, current: 2 }, { token: admin }));
    const key = (x: { day: string; iccid: string }) => `${x.day}|${x.iccid}`;
    expect(p2.list.filter((x: { day: string; iccid: string }) => p1.list.map(key).includes(key(x)))).toHaveLength(0);
    expect(p1.list[0].day >= p2.list[0].day).toBe(true);
    // defaults: the last 7 days
    const d = ok(await t.call('shortcuts/queryFlow/getFlowDailyPage', {}, { token: admin }));
    expect(d.endDate).toBe(businessDay(Date.now()));
    expect(d.startDate).toBe(addDay(d.endDate, -6));
    // limits, in both languages
    const tooLong = await t.call('shortcuts/queryFlow/getFlowDailyPage', { startDate: '2026-01-01', endDate: '2026-02-01' }, { token: admin, lang: 'zh' });
    expect(tooLong.body).toMatchObject({ success: false, errorCode: ErrorCode.UsageRangeTooLong, msg: '查询的时间跨度不能超过 31 天' });
    const reversed = await t.call('shortcuts/queryFlow/getFlowSessionPage', { startDate: '2026-02-02', endDate: '2026-02-01' }, { token: admin });
    expect(reversed.body).toMatchObject({ success: false, errorCode: ErrorCode.UsageRangeReversed });
    const old = addDay(monthFirstDay(businessMonth(Date.now()), -4), 2);
    const expired = await t.call('shortcuts/queryFlow/getFlowSessionPage', { startDate: old, endDate: addDay(old, 3) }, { token: admin });
    expect(expired.body).toMatchObject({ success: false, errorCode: ErrorCode.UsageSessionsExpired });
    expect(ok(await t.call('shortcuts/queryFlow/getFlowDailyPage', { startDate: old, endDate: addDay(old, 3) }, { token: admin })).total).toBe(0);
    const bad = await t.call('shortcuts/queryFlow/getFlowDailyPage', { iccid: '12ab' }, { token: admin });
    expect(bad.body).toMatchObject({ success: false, errorCode: ErrorCode.Validation });
  });

  it('the query needs the query button (6100001); exports run through download tasks with the screen tenant', async () => {
    await q(`update roles set permissions = array_remove(permissions, 6100001) where role_id = 5000`);
    const subNoQuery = await t.login('subcustomer');
    for (const e of ['shortcuts/queryFlow/getFlowDailyPage', 'shortcuts/queryFlow/getFlowSessionPage', 'shortcuts/queryFlow/exportFlowDaily']) {
      expect((await t.call(e, {}, { token: subNoQuery })).body.errorCode, e).toBe(ErrorCode.PermissionDenied);
    }
    await q(`update roles set permissions = array_append(permissions, 6100001) where role_id = 5000`);

    await t.startJobs(0.5);
    for (const [token, kind, endpoint] of [
      [enterprise, 'daily', 'shortcuts/queryFlow/exportFlowDaily'], [sub, 'session', 'shortcuts/queryFlow/exportFlowSessions'],
    ] as const) {
      const { startDate, endDate } = range();
      const created = ok<{ taskId: string }>(await t.call(endpoint, { startDate, endDate, format: 2 }, { token }));
      const task = await waitFor(async () => {
        const [x] = await q<{ state: number; row_count: number }>(`select state, row_count from download_tasks where task_id = $1`, [created.taskId]);
        return x && Number(x.state) !== ExportState.InProcess ? x : null;
      });
      expect(Number(task.state)).toBe(ExportState.Succeeded);
      const list = ok(await t.call(kind === 'daily' ? 'shortcuts/queryFlow/getFlowDailyPage' : 'shortcuts/queryFlow/getFlowSessionPage', { startDate, endDate }, { token }));
      expect(Number(task.row_count), kind).toBe(list.total);
      // each size twice: the byte count a program reads, then the scaled text people read ('1.5 GB')
      const file = await t.app.inject({ method: 'GET', url: `/api/cmp/core/downloadTask/download?taskId=${created.taskId}&ts=1&lang=en`, headers: { authorization: token } });
      const [header, ...rows] = file.body.slice(1).trim().split('\r\n').map(csvFields);
      for (const title of ['Data', 'Uplink', 'Downlink']) {
        const raw = header.indexOf(`${title} (bytes)`);
        expect(raw, `${kind} ${title}`).toBeGreaterThan(-1);
        expect(header[raw + 1]).toBe(title);
        for (const r of rows) expect(r[raw + 1]).toBe(formatSize(Number(r[raw])));
      }
      expect(rows).toHaveLength(list.total);
    }
  });

  it('Home overview: cards by state, the month and its days, top customers and top links, per tenant', async () => {
    const today = businessDay(Date.now());
    const month = today.slice(0, 7);
    const scopes: [string, string, string, 'root' | 'cust' | 'staff'][] = [
      [admin, 'true', 'admin', 'staff'], [enterprise, `root_cust_id = ${ent.root_cust_id}`, 'enterprise', 'cust'],
      [channel, `root_cust_id = ${chan.root_cust_id}`, 'channel', 'cust'], [sub, `cust_id = ${east.cust_id}`, 'subcustomer', 'cust'],
    ];
    for (const [token, where, who, rank] of scopes) {
      const states = ok(await t.call('edge/homepage/cardStateCount', {}, { token }));
      expect(states.total, who).toBe(await n(`select count(*) n from cards where ${where}`));
      expect(states.states).toHaveLength(9);
      for (const s of states.states) expect(s.count, `${who} ${s.state}`).toBe(await n(`select count(*) n from cards where ${where} and state = $1`, [s.state]));

      const m = ok(await t.call('edge/homepage/usedInfo', {}, { token }));
      expect(m.month).toBe(month);
      expect(m.bytes, who).toBe(await n(`select coalesce(sum(bytes), 0) n from card_usage_daily where ${where} and day between $1 and $2`, [`${month}-01`, today]));
      expect(m.bytes, who).toBeGreaterThan(0);
      expect(m.days).toHaveLength(Number(today.slice(8)));
      expect(m.days.reduce((s: number, d: { bytes: number }) => s + d.bytes, 0)).toBe(m.bytes);
      expect(m.previousBytes).toBe(await n(`select coalesce(sum(bytes), 0) n from card_usage_daily where ${where} and day >= $1 and day < $2`,
        [monthFirstDay(month, -1), `${month}-01`]));

      const top = ok(await t.call('edge/homepage/top5CustomerUsage', {}, { token }));
      const col = rank === 'staff' ? 'root_cust_id' : 'cust_id';
      const want = await q<{ id: number; b: string }>(`
        select ${col} id, sum(bytes) b from card_usage_daily where ${where} and ${col} is not null and day between $1 and $2
        group by 1 order by 2 desc, 1 limit 5`, [`${month}-01`, today]);
      expect(top.list.map((x: { custId: number; bytes: number }) => [x.custId, x.bytes]), who).toEqual(want.map((w) => [Number(w.id), Number(w.b)]));
      expect(top.list.every((x: { custName: string }) => x.custName && !x.custName.startsWith('#'))).toBe(true);
      if (who === 'subcustomer') expect(top.list.map((x: { custId: number }) => x.custId)).toEqual([east.cust_id]);

      const links = ok(await t.call('edge/homepage/linkTop5', {}, { token }));
      const wl = await q<{ operator_id: number; apn: string; b: string }>(`
        select operator_id, apn, sum(bytes) b from card_usage_daily where ${where} and day between $1 and $2
        group by 1, 2 order by 3 desc, 1, 2 limit 5`, [`${month}-01`, today]);
      expect(links.list.map((x: { operatorId: number; apn: string; bytes: number }) => [x.operatorId, x.apn, x.bytes]), who)
        .toEqual(wl.map((w) => [Number(w.operator_id), w.apn, Number(w.b)]));
    }
    // another month: empty but well-formed
    const past = ok(await t.call('edge/homepage/usedInfo', { month: '2020-02' }, { token: admin }));
    expect(past).toMatchObject({ month: '2020-02', bytes: 0, previousBytes: 0 });
    expect(past.days).toHaveLength(29);
    expect((await t.call('edge/homepage/usedInfo', { month: '2026-13' }, { token: admin })).body.errorCode).toBe(ErrorCode.Validation);
  });
});

/** The first 14:00 China time at or after `ms`, to the minute. */
function nextChinaAfternoon(ms: number): number {
  const today = businessDayStartMs(businessDay(ms)) + 14 * HOUR;
  return Math.floor(ms / 60_000) * 60_000 <= today ? today : today + DAY;
}
