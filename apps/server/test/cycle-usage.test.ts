// The cards' maintained cycle usage and quota (issue 12, migration 0019, usage/cycle-columns.ts): every path that
// changes them keeps them equal to a computation from scratch — usage written by the feed, the roll-over into a new
// cycle, event pack order and expiry, plan change, renewal, batch actions, import — and the card list shows them,
// sorts by them and exports them.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { CardChangeSource, CardState, ExportFormat, TariffType, formatSize } from '@lynx/contract';
import { backends, callOk, startTestApp, type TestApp } from './harness.ts';
import { writeDaily, type CardTenant } from '../src/modules/usage/usage-write.ts';
import { cycleMismatches, refreshCardCycles, rollCycles } from '../src/modules/usage/cycle-columns.ts';
import { applyCardAction, applyCardActions, loadCardPlan, type CardActor } from '../src/modules/card/lifecycle/card-service.ts';
import { addDay, businessDay } from '../src/modules/usage/usage-time.ts';

const LIST = 'core/sim/simQuery/getSimListPage';
const USAGE = 'core/sim/simDetails/getUsage';
const MB = 1024 * 1024;
const SYSTEM: CardActor = { kind: 'system', source: CardChangeSource.Rule, actor: 'test' };

interface Card {
  iccid: string;
  operator_id: number;
  cust_id: number | null;
  root_cust_id: number | null;
  goods_release_id: number | null;
  cycle_from: string;
  cycle_to: string;
  used: string;
  sms: string;
  quota: string | null;
}

describe.each(backends)('cycle usage columns on %s', (backend) => {
  let t: TestApp;
  let admin: string;
  const q = <T = any>(text: string, params: unknown[] = []) => t.database.sql.query<T>(text, params);
  const cardOf = async (iccid: string) => (await q<Card>(
    `select iccid, operator_id, cust_id, root_cust_id, goods_release_id, cycle_from::text, cycle_to::text, cycle_used_bytes::text as used,
       cycle_sms::text as sms, cycle_quota_bytes::text as quota from cards where iccid = $1`, [iccid]))[0];
  const tenantOf = (c: Card): CardTenant => ({ iccid: c.iccid, operatorId: c.operator_id, custId: c.cust_id, rootCustId: c.root_cust_id, apn: 'iot' });
  /** A day's counters written as the feed writes them. */
  const feed = (c: Card, day: string, bytesDown: number, sms = 0) =>
    writeDaily(t.deps.db, [{ iccid: c.iccid, day, bytesUp: 0, bytesDown, sms, voiceSeconds: 0, sessions: 1 }], new Map([[c.iccid, tenantOf(c)]]));
  const expectConsistent = async (at = new Date(), iccids: string[] | null = null) => expect(await cycleMismatches(t.deps.db, at, iccids)).toEqual([]);
  /** Active cards with a plan that has a quota and a running contract, in ICCID order. */
  const activeWithQuota = () => q<Card>(
    `select c.iccid from cards c join basic_plans p on p.goods_release_id = c.goods_release_id
     where p.quota_mb > 0 and c.state = $1 and c.pool_id is null and c.cycle_start_at <= now() and c.cycle_end_at > now() order by c.iccid`,
    [CardState.Activated]);

  beforeAll(async () => {
    t = await startTestApp(backend);
    admin = await t.login('admin');
  });
  afterAll(() => t?.stop());

  it('the demo cards carry their cycle values from the start, equal to a computation from scratch', async () => {
    const [{ n, worked }] = await q<{ n: string; worked: string }>('select count(*) n, count(cycle_from) worked from cards');
    expect(Number(n)).toBeGreaterThan(0);
    expect(worked).toBe(n);
    await expectConsistent();
  });

  it('the feed moves a card\'s usage by the difference of the days in its cycle, and only those', async () => {
    const [{ iccid }] = await activeWithQuota();
    const c = await cardOf(iccid);
    const used = Number(c.used);
    const today = businessDay(Date.now());
    const [row] = await q<{ down: string; sms: number }>('select bytes_down::text down, sms from card_usage_daily where iccid = $1 and day = $2', [iccid, today]);
    const before = Number(row?.down ?? 0);
    const smsBefore = Number(row?.sms ?? 0);
    const sms = Number(c.sms);
    const moved = new Date(Date.now() - 1000);
    await feed(c, today, before + 5 * MB, smsBefore + 4);
    expect(await cardOf(iccid)).toMatchObject({ used: String(used + 5 * MB), sms: String(sms + 4) });
    // marked as moved for the automation rules' check after the feed window (migration 0059)
    const [mark] = await q<{ at: Date }>('select usage_moved_at at from cards where iccid = $1', [iccid]);
    expect(mark.at.getTime()).toBeGreaterThanOrEqual(moved.getTime());
    // the same report again changes nothing (counters merge with greatest())
    await feed(c, today, before + 5 * MB, smsBefore + 4);
    expect(await cardOf(iccid)).toMatchObject({ used: String(used + 5 * MB), sms: String(sms + 4) });
    // SMS alone moves the count too
    await feed(c, today, before + 5 * MB, smsBefore + 6);
    expect(await cardOf(iccid)).toMatchObject({ used: String(used + 5 * MB), sms: String(sms + 6) });
    // a day before the cycle is kept in the daily rows but not counted in this cycle
    await feed(c, addDay(c.cycle_from, -1), 7 * MB, 9);
    expect(await cardOf(iccid)).toMatchObject({ used: String(used + 5 * MB), sms: String(sms + 6) });
    await expectConsistent(new Date(), [iccid]);
    // the usage module's own view of the card agrees
    const u = await callOk(t, USAGE, { iccid }, admin);
    expect(u.usedBytes).toBe(used + 5 * MB);
    expect(u.quotaBytes).toBe(Number(c.quota));
  });

  it('an event pack raises the quota when ordered, and the roll-over lowers it again when it ends', async () => {
    const list = await activeWithQuota();
    const c = await cardOf(list[1].iccid);
    const [pack] = await q<{ id: number; quota_mb: string }>(
      'select goods_release_id id, quota_mb from basic_plans where tariff_type = $1 and quota_mb > 0 order by goods_release_id limit 1', [TariffType.EventPack]);
    expect(pack).toBeDefined();
    await applyCardAction({ db: t.deps.db, config: t.deps.config }, SYSTEM, c.iccid, { type: 'orderEventPack', packId: pack.id });
    const [p] = await q<{ starts_at: Date; ends_at: Date }>('select starts_at, ends_at from card_event_packs where iccid = $1 order by ordered_at desc limit 1', [c.iccid]);
    const withPack = await cardOf(c.iccid);
    if (p.starts_at.getTime() <= Date.now()) {
      expect(Number(withPack.quota)).toBe(Number(c.quota) + Math.round(Number(pack.quota_mb) * MB));
    }
    await expectConsistent(new Date(), [c.iccid]);
    // after the pack's end the tick's roll-over works the card out again: the pack no longer counts
    const after = new Date(p.ends_at.getTime() + 1000);
    await rollCycles(t.deps.db, after);
    await expectConsistent(after, [c.iccid]);
    const rolled = await cardOf(c.iccid);
    expect(rolled.cycle_from >= c.cycle_from).toBe(true);
  });

  it('the roll-over starts the next cycle with the usage of its own days, set-based for every due card', async () => {
    const list = await activeWithQuota();
    const c = await cardOf(list[2].iccid);
    // past the end of the current cycle: the next cycle's first day already has usage
    const next = addDay(c.cycle_to, 1);
    await feed(c, next, 3 * MB, 2);
    expect(Number((await cardOf(c.iccid)).used)).toBe(Number(c.used));
    const at = new Date(Date.parse(`${next}T12:00:00+08:00`));
    const written = await rollCycles(t.deps.db, at);
    expect(written).toBeGreaterThan(0);
    const rolled = await cardOf(c.iccid);
    expect(rolled.cycle_from > c.cycle_to).toBe(true);
    expect(Number(rolled.used)).toBe(3 * MB);
    expect(Number(rolled.sms)).toBe(2);
    // nothing is due any more at that time, and everything equals a computation from scratch
    expect(await rollCycles(t.deps.db, at)).toBe(0);
    await expectConsistent(at);
    // back to the present for the other tests
    await refreshCardCycles(t.database.db, (await q<{ iccid: string }>('select iccid from cards')).map((r) => r.iccid), new Date());
    await expectConsistent();
  });

  it('a plan change, a renewal and a batch action keep them right (one transaction with the change)', async () => {
    const list = await activeWithQuota();
    const deps = { db: t.deps.db, config: t.deps.config };
    const c = await cardOf(list[3].iccid);
    const [alt] = await q<{ id: number }>('select alt_goods_release_id id from plan_alternatives where goods_release_id = $1 limit 1', [c.goods_release_id]);
    if (alt) {
      await applyCardAction(deps, SYSTEM, c.iccid, { type: 'changePlan', plan: await loadCardPlan(t.database.db, alt.id) }).catch(() => undefined);
      await expectConsistent(new Date(), [c.iccid]);
    }
    await applyCardAction(deps, SYSTEM, list[4].iccid, { type: 'renew' }).catch(() => undefined);
    await expectConsistent(new Date(), [list[4].iccid]);
    // a batch: several cards through one set-based write
    const [pack] = await q<{ id: number }>('select goods_release_id id from basic_plans where tariff_type = $1 and quota_mb > 0 limit 1', [TariffType.EventPack]);
    const many = list.slice(5, 9).map((r) => r.iccid);
    const before = await Promise.all(many.map(cardOf));
    const out = await applyCardActions(deps, SYSTEM, many, { type: 'orderEventPack', packId: pack.id });
    expect([...out.values()].every((o) => o.ok)).toBe(true);
    const after = await Promise.all(many.map(cardOf));
    const started = await q<{ iccid: string }>('select iccid from card_event_packs where iccid = any($1) and starts_at <= now() and ends_at > now()', [many]);
    for (const [i, a] of after.entries()) {
      if (started.some((s) => s.iccid === a.iccid)) expect(Number(a.quota)).toBeGreaterThan(Number(before[i].quota));
    }
    await expectConsistent(new Date(), many);
  });

  it('a failed write leaves the card as it was (all or nothing)', async () => {
    const [{ iccid }] = await activeWithQuota();
    const c = await cardOf(iccid);
    await t.database.db.transaction(async (tx) => {
      await writeDaily(tx, [{ iccid, day: businessDay(Date.now()), bytesUp: 0, bytesDown: Number(c.used) + 100 * MB, sms: 0, voiceSeconds: 0, sessions: 1 }],
        new Map([[iccid, tenantOf(c)]]));
      throw new Error('abort');
    }).catch(() => undefined);
    expect(await cardOf(iccid)).toEqual(c);
  });

  it('the card list shows them, sorts by usage and by % used both ways, and cards without a quota show none', async () => {
    const page = async (body: object) => (await callOk(t, LIST, { pageSize: 50, ...body }, admin)).list as {
      iccid: string; cycleUsedKb: number; cycleQuotaKb: number | null; cycleUsedPercent: number | null;
    }[];
    const down = await page({ sortField: 'cycleUsedKb', sortOrder: 'descend' });
    expect(down.length).toBeGreaterThan(1);
    for (let i = 1; i < down.length; i++) expect(down[i - 1].cycleUsedKb).toBeGreaterThanOrEqual(down[i].cycleUsedKb);
    const up = await page({ sortField: 'cycleUsedKb', sortOrder: 'ascend' });
    for (let i = 1; i < up.length; i++) expect(up[i - 1].cycleUsedKb).toBeLessThanOrEqual(up[i].cycleUsedKb);
    const pct = await page({ sortField: 'cycleUsedPercent', sortOrder: 'descend', pageSize: 500 });
    const withQuota = pct.filter((r) => r.cycleUsedPercent !== null);
    // most used first, then the cards without a quota
    expect(pct.findIndex((r) => r.cycleUsedPercent === null)).toBeGreaterThanOrEqual(withQuota.length);
    for (let i = 1; i < withQuota.length; i++) expect(withQuota[i - 1].cycleUsedPercent!).toBeGreaterThanOrEqual(withQuota[i].cycleUsedPercent!);
    // what each row says equals the database
    for (const r of down.slice(0, 10)) {
      const c = await cardOf(r.iccid);
      expect(r.cycleUsedKb * 1024).toBe(Number(c.used));
      expect(r.cycleQuotaKb === null ? null : r.cycleQuotaKb * 1024).toBe(c.quota === null ? null : Number(c.quota));
      expect(r.cycleUsedPercent).toBe(c.quota === null ? null : Math.round((Number(c.used) * 10_000) / Number(c.quota)) / 100);
    }
    const noPlan = pct.find((r) => r.cycleQuotaKb === null);
    if (noPlan) expect(noPlan.cycleUsedPercent).toBeNull();
    // a label-less, contains-free filter and the same sort through the fragment path agree on the order
    const fragment = down[0].iccid.slice(-8);
    const viaFragment = await page({ iccid: fragment, iccidMatch: 'contains', sortField: 'cycleUsedKb', sortOrder: 'descend' });
    expect(viaFragment[0]?.iccid).toBe(down[0].iccid);
  });

  it('the export (direct and task) has the usage columns in both languages, sorted as asked', async () => {
    const [top] = (await callOk(t, LIST, { pageSize: 1, sortField: 'cycleUsedKb', sortOrder: 'descend' }, admin)).list;
    const c = await cardOf(top.iccid);
    const file = async (lang: 'zh' | 'en', body: object) => {
      // the file's language is the one the export was asked in
      const made = (await t.call('core/downloadTask/createExport', { source: LIST, filters: body, format: ExportFormat.Csv }, { token: admin, lang })).body.data;
      if (!made.direct) await t.deps.exports.run(made.taskId);
      const res = await t.app.inject({ method: 'GET', url: `/api/cmp/core/downloadTask/download?taskId=${made.taskId}&ts=1&lang=${lang}`, headers: { authorization: admin } });
      expect(res.statusCode).toBe(200);
      return res.body.replace(/^\uFEFF/, '').trim().split('\r\n').map((l) => l.split(','));
    };
    for (const [lang, used, pct] of [['en', 'Used this cycle', '% of quota used'], ['zh', '本周期已用', '额度使用率（%）']] as const) {
      const [head, row] = await file(lang, { iccid: top.iccid });
      expect(head).toEqual(expect.arrayContaining([used, pct]));
      expect(Number(row[head.indexOf(pct)])).toBeCloseTo(c.quota === null ? NaN : (Number(c.used) * 100) / Number(c.quota), 1);
      expect(row[head.indexOf(used)]).toBe(formatSize(Number(c.used)));
    }
    // sorted by usage, the file's first card is the list's
    const rows = await file('en', { sortField: 'cycleUsedKb', sortOrder: 'descend', states: [CardState.Activated] });
    const [first] = (await callOk(t, LIST, { pageSize: 1, sortField: 'cycleUsedKb', sortOrder: 'descend', states: [CardState.Activated] }, admin)).list;
    expect(rows[1][0]).toBe(first.iccid);
  });
});
