import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { sql } from 'drizzle-orm';
import { CardState, PROFESSIONAL_CARD_STATES } from '@lynx/contract';
import { backends, startTestApp, type TestApp } from './harness.ts';
import { FLEET_ICCID_LIKE, seedFleet, type FleetResult } from '../src/seed/fleet.ts';
import { cards } from '../src/modules/card/card-tables.ts';
import { rowOfSnapshot, snapshotOf } from '../src/modules/card/lifecycle/card-service.ts';

const N = 2000;
const NOW = new Date('2026-11-20T09:30:00Z');
const DAY = 86_400_000;

describe.each(backends)('fleet seed on %s', (backend) => {
  let t: TestApp;
  let r: FleetResult;
  const q = <T = Record<string, unknown>>(text: string, params?: unknown[]) => t.database.sql.query<T>(text, params);
  const one = async (text: string, params?: unknown[]) => Number(Object.values((await q(text, params))[0])[0]);

  beforeAll(async () => {
    t = await startTestApp(backend, {}, { jobs: false });
    r = await seedFleet(t.database.sql, { cards: N, now: NOW, chunk: 700 });
  }, 120_000);
  afterAll(() => t?.stop());

  it('writes the cards asked for, spread over the demo customers, their second-level customers and the stock', async () => {
    expect(r.cards).toBe(N);
    expect(await one(`select count(*) from cards where iccid like $1`, [FLEET_ICCID_LIKE])).toBe(N);
    // ICCID, MSISDN and IMSI are well formed and unique
    expect(await one(`select count(*) from cards where iccid like $1 and (iccid !~ '^[0-9]{20}$' or msisdn !~ '^[0-9]{13}$' or imsi !~ '^[0-9]{15}$')`, [FLEET_ICCID_LIKE])).toBe(0);
    expect(await one(`select count(distinct msisdn) from cards where iccid like $1`, [FLEET_ICCID_LIKE])).toBe(N);
    expect(await one(`select count(distinct imsi) from cards where iccid like $1`, [FLEET_ICCID_LIKE])).toBe(N);
    // every customer gets cards; owners are real customers of the right tree; stock cards are in state start
    const owners = await q<{ cust_id: number | null; n: string }>(`select cust_id, count(*) n from cards where iccid like $1 group by 1`, [FLEET_ICCID_LIKE]);
    const custs = await q<{ cust_id: number }>('select cust_id from customers');
    expect(owners.filter((o) => o.cust_id != null).length).toBe(custs.length);
    const stock = Number(owners.find((o) => o.cust_id == null)?.n ?? 0);
    expect(stock / N).toBeGreaterThan(0.06);
    expect(stock / N).toBeLessThan(0.14);
    expect(await one(`select count(*) from cards c join customers k on k.cust_id = c.cust_id where c.iccid like $1 and c.root_cust_id <> k.root_cust_id`, [FLEET_ICCID_LIKE])).toBe(0);
    expect(await one(`select count(*) from cards where iccid like $1 and (cust_id is null) <> (state = $2)`, [FLEET_ICCID_LIKE, CardState.Start])).toBe(0);
    // mostly activated
    const activated = await one(`select count(*) from cards where iccid like $1 and state = $2`, [FLEET_ICCID_LIKE, CardState.Activated]);
    expect(activated / (N - stock)).toBeGreaterThan(0.6);
    // activations over the last year, each after the card arrived
    expect(await one(`select count(*) from cards where iccid like $1 and activated_at is not null and (activated_at > $2 or activated_at < $2::timestamptz - interval '366 days' or created_at >= activated_at)`, [FLEET_ICCID_LIKE, NOW])).toBe(0);
    // plans only from those released to the card's first-level customer, on the card's operator
    expect(await one(`select count(*) from cards c where c.iccid like $1 and c.goods_release_id is not null and not exists (
      select 1 from plan_releases r join basic_plans b on b.goods_release_id = r.goods_release_id
      where r.goods_release_id = c.goods_release_id and r.root_cust_id = c.root_cust_id and b.operator_id = c.operator_id)`, [FLEET_ICCID_LIKE])).toBe(0);
    expect(await one(`select count(*) from cards where iccid like $1 and goods_release_id is not null`, [FLEET_ICCID_LIKE])).toBeGreaterThan(0);
  });

  it('lifecycle facts agree with the lifecycle engine, and no activated card is overdue', async () => {
    const rows = await t.database.db.select().from(cards).where(sql`${cards.iccid} like ${FLEET_ICCID_LIKE} and (${cards.goodsReleaseId} is not null or ${cards.state} in (61, 63))`);
    expect(rows.length).toBeGreaterThan(100);
    const ms = (d: Date | null | undefined) => d?.getTime() ?? null;
    for (const row of rows) {
      const derived = rowOfSnapshot(await snapshotOf(t.database.db, row));
      expect({ iccid: row.iccid, contractEnd: ms(row.contractEndAt), cycleStart: ms(row.cycleStartAt), cycleEnd: ms(row.cycleEndAt), next: ms(row.nextDeadlineAt) })
        .toEqual({ iccid: row.iccid, contractEnd: ms(derived.contractEndAt), cycleStart: ms(derived.cycleStartAt), cycleEnd: ms(derived.cycleEndAt), next: ms(derived.nextDeadlineAt) });
      if (row.state === CardState.Activated && row.contractStartAt) {
        expect(row.cycleStartAt!.getTime()).toBeLessThanOrEqual(NOW.getTime());
        expect(row.cycleEndAt!.getTime()).toBeGreaterThan(NOW.getTime());
        expect(row.contractEndAt!.getTime()).toBeGreaterThan(NOW.getTime());
      }
      if (PROFESSIONAL_CARD_STATES.includes(row.state) && row.nextDeadlineAt) expect(row.nextDeadlineAt.getTime()).toBeGreaterThan(NOW.getTime());
    }
    // a deactivated card has every zone of its plan blocked by the deactivation
    expect(await one(`select count(*) from cards c join plan_zones z on z.goods_release_id = c.goods_release_id
      where c.iccid like $1 and c.state = $2 and not exists (select 1 from card_zone_blocks b where b.iccid = c.iccid and b.kind = 'zone' and b.target_id = z.zone_id and b.by_deactivation)`,
      [FLEET_ICCID_LIKE, CardState.Deactivated])).toBe(0);
    expect(r.zoneBlocks).toBe(await one(`select count(*) from card_zone_blocks where iccid like $1`, [FLEET_ICCID_LIKE]));
    expect(r.history).toBe(await one(`select count(*) from cards where iccid like $1 and state <> $2`, [FLEET_ICCID_LIKE, CardState.Start]));
  });

  it('a month of daily usage for activated cards, from their activation day, with an exact rollup', async () => {
    expect(r.usageRows).toBeGreaterThan(N * 5);
    expect(await one(`select count(*) from card_usage_daily where iccid like $1`, [FLEET_ICCID_LIKE])).toBe(r.usageRows);
    expect(await one(`select count(*) from card_usage_daily u join cards c on c.iccid = u.iccid
      where u.iccid like $1 and (c.state <> $2 or u.day < ((c.activated_at at time zone 'UTC') + interval '8 hours')::date
        or u.cust_id is distinct from c.cust_id or u.operator_id <> c.operator_id or u.bytes <> u.bytes_up + u.bytes_down or u.bytes <= 0)`,
    [FLEET_ICCID_LIKE, CardState.Activated])).toBe(0);
    const days = await q<{ lo: string; hi: string }>(`select min(day)::text lo, max(day)::text hi from card_usage_daily where iccid like $1`, [FLEET_ICCID_LIKE]);
    const yesterday = new Date(NOW.getTime() + 8 * 3_600_000 - DAY).toISOString().slice(0, 10);
    expect(days[0].hi).toBe(yesterday);
    expect(days[0].lo).toBe(new Date(NOW.getTime() + 8 * 3_600_000 - 30 * DAY).toISOString().slice(0, 10));
    // the rollup the dashboards read sums the same bytes per customer and day
    const [a] = await q<{ bytes: string; rows: string }>(`select sum(bytes)::text bytes, count(*)::text rows from card_usage_daily where iccid like $1`, [FLEET_ICCID_LIKE]);
    const [b] = await q<{ bytes: string; cards: string }>(`select sum(bytes)::text bytes, sum(cards)::text cards from card_usage_daily_cust`);
    expect(b).toEqual({ bytes: a.bytes, cards: a.rows });
  });

  it('labels come from the card\'s own first-level customer', async () => {
    expect(await one(`select count(*) from cards where iccid like $1 and cardinality(label_ids) > 0`, [FLEET_ICCID_LIKE])).toBeGreaterThan(N / 10);
    expect(await one(`select count(*) from cards c cross join unnest(c.label_ids) l(id) join card_labels cl on cl.label_id = l.id
      where c.iccid like $1 and cl.cust_id <> c.root_cust_id`, [FLEET_ICCID_LIKE])).toBe(0);
  });

  it('the card list counts up to 10,000 matches: beyond, the total is the cap and says so', async () => {
    // 10,050 stock cards with their own prefix, next to the fleet
    await q(`insert into cards (iccid, operator_id, state) select '89860177' || lpad(i::text, 12, '0'), 1, 60 from generate_series(1, 10050) i`);
    const admin = await t.login('admin');
    const list = (body: Record<string, unknown>) => t.call('core/sim/simQuery/getSimListPage', { current: 1, pageSize: 20, ...body }, { token: admin });
    const many = await list({ iccid: '89860177', iccidMatch: 'prefix' });
    expect(many.body.data).toMatchObject({ total: 10_000, totalCapped: true });
    expect(many.body.data.list).toHaveLength(20);
    const few = await list({ iccid: '8986017700000000100', iccidMatch: 'prefix' });
    expect(few.body.data).toMatchObject({ total: 10, totalCapped: false });
    // the last page within the cap still reads by offset
    const last = await list({ iccid: '89860177', iccidMatch: 'prefix', current: 500 });
    expect(last.body.data.list[19].iccid).toBe('89860177000000010000');
  });

  it('is reproducible: the same seed gives the same cards and usage; a second run is refused', async () => {
    const digest = async (tt: TestApp) => (await tt.database.sql.query<{ d: string }>(`
      select md5(string_agg(concat_ws('|', iccid, msisdn, imsi, state, cust_id, goods_release_id, label_ids::text, activated_at, cycle_end_at, next_deadline_at, online), ',' order by iccid))
        || md5((select string_agg(concat_ws('|', iccid, day, bytes, apn), ',' order by iccid, day) from card_usage_daily where iccid like $1)) d
      from cards where iccid like $1`, [FLEET_ICCID_LIKE]))[0].d;
    const other = await startTestApp('pglite', {}, { jobs: false });
    try {
      await seedFleet(other.database.sql, { cards: N, now: NOW, chunk: 1000 });
      expect(await digest(other)).toBe(await digest(t));
      await expect(seedFleet(other.database.sql, { cards: 10, now: NOW })).rejects.toThrow(/already holds 2000 fleet cards/);
    } finally {
      await other.stop();
    }
  }, 120_000);
});
