import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { CardState, ErrorCode, ExportFormat, Operator } from '@lynx/contract';
import { backends, startTestApp, ZX, ZX_EAST, ZX_COLD, HD, HD_SZ, type TestApp } from '../../../../test/harness.ts';
import { sumCounts, usageRange } from './simreport-service.ts';

/**
 * Report › Monthly SIM report and Report › Data usage: cards by state per customer, the month's new, activated and
 * closed cards decided by the 00:00 business-time (UTC+8) boundary, usage summed from the daily rollup by day and by
 * month, bill fees only from published bills for customers, range limits refused in both languages, and every
 * endpoint kept to the viewer's tenant and refused without its page code or a session.
 */
const CARD = 'core/report/cardReport/';
const ES = 'edge/es/report/';
// a month of the past with no demo data: 2020-02 in UTC+8 runs from 2020-01-31T16:00Z to 2020-02-29T16:00Z
const M = '2020-02';
const CM = Operator.ChinaMobile;
const CU = Operator.ChinaUnicom;

describe('usage range limits', () => {
  it('takes whole months by month and refuses more than 31 days or 12 months', () => {
    expect(usageRange(2, '2020-02-10', '2020-03-05', '2026-11-28')).toEqual({ from: '2020-02-01', to: '2020-03-31' });
    expect(usageRange(1, '2020-02-01', '2020-03-02', '2026-11-28')).toEqual({ from: '2020-02-01', to: '2020-03-02' });
    expect(() => usageRange(1, '2020-02-01', '2020-03-03', '2026-11-28')).toThrow();
    expect(usageRange(2, '2020-01-15', '2020-12-01', '2026-11-28')).toEqual({ from: '2020-01-01', to: '2020-12-31' });
    expect(() => usageRange(2, '2020-01-15', '2021-01-01', '2026-11-28')).toThrow();
    expect(() => usageRange(1, '2020-02-02', '2020-02-01', '2026-11-28')).toThrow();
    expect(usageRange(1, undefined, undefined, '2026-11-28')).toEqual({ from: '2026-11-01', to: '2026-11-28' });
    expect(usageRange(2, undefined, undefined, '2026-11-28')).toEqual({ from: '2026-06-01', to: '2026-11-30' });
  });
  it('sums fees exactly and keeps "no bill" apart from zero', () => {
    const z = { cards: 0, beforeUse: 0, activated: 0, deactivated: 0, closed: 0, newCards: 0, activatedInMonth: 0, closedInMonth: 0, bytes: 0, sms: 0 };
    expect(sumCounts([{ ...z, fee: null }]).fee).toBeNull();
    expect(sumCounts([{ ...z, cards: 2, fee: '0.10' }, { ...z, cards: 3, fee: '0.20' }, { ...z, fee: null }])).toMatchObject({ cards: 5, fee: '0.30' });
    expect(sumCounts([{ ...z, fee: '-1.05' }, { ...z, fee: '0.04' }]).fee).toBe('-1.01');
  });
});

describe.each(backends)('SIM reports on %s', (backend) => {
  let t: TestApp;
  const ids: Record<string, number> = {};
  const tok: Record<string, string> = {};
  const q = <T = Record<string, unknown>>(text: string, params: unknown[] = []) => t.database.sql.query<T>(text, params);
  const call = (name: string, body: object, who: string, lang: 'zh' | 'en' = 'en') => t.call(name, body, { token: tok[who], lang });
  const ok = async (name: string, body: object, who: string) => {
    const r = await call(name, body, who);
    expect(r.body.errorCode, r.body.msg).toBeNull();
    return r.body.data;
  };
  const card = (n: number, custId: number, rootCustId: number, state: number, created: string, activated: string | null = null) => q(
    `insert into cards (iccid, state, operator_id, cust_id, root_cust_id, created_at, activated_at) values ($1, $2, $3, $4, $5, $6, $7)`,
    [`89869920200200000${String(n).padStart(2, '0')}`, state, CM, custId, rootCustId, created, activated],
  );
  const history = (n: number, to: number, at: string) => q(
    `insert into card_history (iccid, from_state, to_state, source, at) values ($1, 64, $2, 1, $3)`, [`89869920200200000${String(n).padStart(2, '0')}`, to, at],
  );
  const usage = (day: string, custId: number, root: number, op: number, apn: string, bytes: number, sms: number, voice: number, sessions: number, cards: number) => q(
    `insert into card_usage_daily_cust (day, cust_id, root_cust_id, operator_id, apn, bytes, sms, voice_seconds, sessions, cards)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`, [day, custId, root, op, apn, bytes, sms, voice, sessions, cards],
  );
  const bill = (custId: number, root: number, total: string, published: boolean) => q(
    `insert into bills (bill_no, period_key, cust_id, root_cust_id, period_from, period_to, published, total)
     values ($1, $2, $3, $4, '2020-02-01', '2020-02-29', $5, $6)`, [`BT${M}${custId}`, M, custId, root, published, total],
  );
  const rowOf = async (who: string, custId: number, month = M) =>
    ((await ok(`${CARD}getCardReportPage`, { month, pageSize: 500 }, who)).list as { custId: number }[]).find((r) => r.custId === custId);

  beforeAll(async () => {
    t = await startTestApp(backend, { rateLimitPerToken: 1_000_000, rateLimitPerIp: 1_000_000 }, { jobs: false });
    for (const name of [ZX, ZX_EAST, ZX_COLD, HD, HD_SZ]) ids[name] = (await q<{ cust_id: number }>('select cust_id from customers where cust_name = $1', [name]))[0].cust_id;
    for (const who of ['admin', 'enterprise', 'channel', 'subcustomer']) tok[who] = await t.login(who);
    const zx = ids[ZX];
    const east = ids[ZX_EAST];
    // the month boundary, both ways: created a second before 00:00 UTC+8 on 1 February is January's
    await card(1, east, zx, CardState.Inventory, '2020-01-31T15:59:59Z');
    await card(2, east, zx, CardState.Activated, '2020-01-31T16:00:00Z', '2020-02-29T15:59:59Z');
    await card(3, east, zx, CardState.Activated, '2020-02-10T00:00:00Z', '2020-02-29T16:00:00Z');
    await card(4, east, zx, CardState.Retired, '2020-02-10T00:00:00Z', '2020-02-11T00:00:00Z');
    await card(5, east, zx, CardState.Invalidated, '2019-12-01T00:00:00Z');
    await card(6, east, zx, CardState.Frozen, '2019-12-01T00:00:00Z');
    // card 4 invalidated then retired in the month: one closed card; card 5 closed at 00:00 on 1 March: March's
    await history(4, CardState.Invalidated, '2020-02-12T00:00:00Z');
    await history(4, CardState.Retired, '2020-02-20T00:00:00Z');
    await history(5, CardState.Invalidated, '2020-02-29T16:00:00Z');
    // usage: two APNs on 1 February (cards add up within a day), the last day of February, and 1 March
    await usage('2020-02-01', east, zx, CM, 'cmiot', 1000, 1, 60, 2, 2);
    await usage('2020-02-01', east, zx, CM, 'private', 500, 0, 30, 1, 1);
    await usage('2020-02-29', east, zx, CM, 'cmiot', 2000, 3, 90, 4, 2);
    await usage('2020-02-29', east, zx, CU, 'uninet', 7, 0, 0, 1, 1);
    await usage('2020-03-01', east, zx, CM, 'cmiot', 4000, 5, 0, 1, 1);
    await usage('2020-02-15', ids[HD_SZ], ids[HD], CM, 'cmiot', 999, 9, 9, 9, 9);
    await bill(east, zx, '12.34', false);
    await bill(ids[HD_SZ], ids[HD], '50.00', true);
  });
  afterAll(async () => { await t?.stop(); });

  it('counts cards by state now and the month\'s new, activated and closed cards at the UTC+8 boundary', async () => {
    const east = await rowOf('admin', ids[ZX_EAST]);
    const [now] = await q<Record<string, string>>(`select count(*) as cards,
      count(*) filter (where state in (60, 61, 62, 63)) as before_use, count(*) filter (where state = 64) as activated,
      count(*) filter (where state in (65, 68)) as deactivated, count(*) filter (where state in (66, 67)) as closed
      from cards where cust_id = $1`, [ids[ZX_EAST]]);
    expect(east).toMatchObject({
      custName: ZX_EAST, cards: Number(now.cards), beforeUse: Number(now.before_use), activated: Number(now.activated),
      deactivated: Number(now.deactivated), closed: Number(now.closed),
      newCards: 3, activatedInMonth: 2, closedInMonth: 1, bytes: 3507, sms: 4, fee: '12.34',
    });
    expect(Number(now.closed)).toBeGreaterThanOrEqual(2);
    const jan = await rowOf('admin', ids[ZX_EAST], '2020-01');
    expect(jan).toMatchObject({ newCards: 1, activatedInMonth: 0, closedInMonth: 0, bytes: 0, fee: null });
    const mar = await rowOf('admin', ids[ZX_EAST], '2020-03');
    expect(mar).toMatchObject({ newCards: 0, activatedInMonth: 1, closedInMonth: 1, bytes: 4000, sms: 5 });
    // the totals are the rows' sums; the platform's stock is a row of its own for staff
    const all = await ok(`${CARD}getCardReportPage`, { month: M, pageSize: 500 }, 'admin');
    const [{ n }] = await q<{ n: string }>('select count(*) as n from cards');
    expect(all.totals.cards).toBe(Number(n));
    expect(all.totals.bytes).toBe(3507 + 999);
    expect(all.totals.fee).toBe('62.34');
    expect(all.month).toBe(M);
    // paging and sorting
    const page = await ok(`${CARD}getCardReportPage`, { month: M, pageSize: 1, sortField: 'bytes', sortOrder: 'descend' }, 'admin');
    expect(page.list).toHaveLength(1);
    expect(page.list[0].custId).toBe(ids[ZX_EAST]);
    expect(page.total).toBe(all.total);
  });

  it('sums usage by day and by month from the rollup; a month\'s cards are its busiest day\'s', async () => {
    const days = await ok(`${ES}dayFlow`, { startDate: '2020-02-01', endDate: '2020-03-01', custId: ids[ZX_EAST], pageSize: 100 }, 'admin');
    expect(days.list.map((r: { period: string; operatorId: number }) => `${r.period}/${r.operatorId}`)).toEqual([`2020-03-01/${CM}`, `2020-02-29/${CM}`, `2020-02-29/${CU}`, `2020-02-01/${CM}`]);
    expect(days.list[3]).toMatchObject({ bytes: 1500, sms: 1, voiceSeconds: 90, sessions: 3, cards: 3, custName: ZX_EAST, operatorName: { en: 'China Mobile' } });
    expect(days.totals).toEqual({ bytes: 7507, sms: 9, voiceSeconds: 180, sessions: 9, cards: 3 });
    const months = await ok(`${ES}monthFlow`, { startDate: '2020-02-15', endDate: '2020-03-15', custId: ids[ZX_EAST], operatorId: CM }, 'admin');
    expect(months).toMatchObject({ startDate: '2020-02-01', endDate: '2020-03-31', total: 2 });
    expect(months.list[1]).toMatchObject({ period: M, bytes: 3500, sms: 4, voiceSeconds: 180, sessions: 7, cards: 3 });
    expect(months.list[0]).toMatchObject({ period: '2020-03', bytes: 4000, cards: 1 });
    const apn = await ok(`${ES}monthFlow`, { startDate: '2020-02-01', endDate: '2020-02-29', apn: 'private' }, 'admin');
    expect(apn.totals).toMatchObject({ bytes: 500, cards: 1 });
  });

  it('refuses ranges past the limits with a message in the caller\'s language', async () => {
    const d = await call(`${ES}dayFlow`, { startDate: '2020-02-01', endDate: '2020-03-03' }, 'admin', 'en');
    expect(d.body.errorCode).toBe(ErrorCode.Validation);
    expect(d.body.msg).toContain('at most 31 days');
    const dz = await call(`${ES}dayFlow`, { startDate: '2020-02-01', endDate: '2020-03-03' }, 'admin', 'zh');
    expect(dz.body.msg).toContain('最多 31 天');
    const m = await call(`${ES}monthFlow`, { startDate: '2020-01-01', endDate: '2021-01-01' }, 'admin', 'en');
    expect(m.body.msg).toContain('at most 12 months');
    const x = await call(`${ES}exportFile`, { type: 1, startDate: '2020-01-01', endDate: '2020-03-01' }, 'admin', 'en');
    expect(x.body.errorCode).toBe(ErrorCode.Validation);
  });

  it('keeps every endpoint to the tenant and shows customers only published bills', async () => {
    const custIds = async (who: string) => ((await ok(`${CARD}getCardReportPage`, { month: M, pageSize: 500 }, who)).list as { custId: number }[]).map((r) => r.custId);
    const zxTree = [ids[ZX], ids[ZX_EAST], ids[ZX_COLD]];
    expect((await custIds('enterprise')).every((id) => zxTree.includes(id))).toBe(true);
    expect((await custIds('channel')).every((id) => [ids[HD], ids[HD_SZ]].includes(id))).toBe(true);
    expect(await custIds('subcustomer')).toEqual([ids[ZX_EAST]]);
    expect(await custIds('admin')).toContain(0);
    // the unpublished bill is finance's draft: the customer sees no fee yet; the channel sees its published one
    expect((await rowOf('subcustomer', ids[ZX_EAST]))).toMatchObject({ fee: null, bytes: 3507 });
    expect((await rowOf('channel', ids[HD_SZ]))).toMatchObject({ fee: '50.00', bytes: 999 });
    const usageOf = async (who: string) => (await ok(`${ES}monthFlow`, { startDate: '2020-02-01', endDate: '2020-03-31', pageSize: 500 }, who)).list.map((r: { custId: number }) => r.custId);
    expect(new Set(await usageOf('subcustomer'))).toEqual(new Set([ids[ZX_EAST]]));
    expect(new Set(await usageOf('channel'))).toEqual(new Set([ids[HD_SZ]]));
    // naming another tenant's customer, or the platform's stock, answers like a missing one on every endpoint
    const named = (custId: number) => [
      [`${CARD}getCardReportPage`, { month: M, custId }], [`${CARD}exportCardReport`, { month: M, custId }],
      [`${ES}dayFlow`, { custId }], [`${ES}monthFlow`, { custId }], [`${ES}exportFile`, { type: 2, custId }],
    ] as const;
    for (const custId of [ids[HD_SZ], 0]) {
      for (const [name, body] of named(custId)) {
        expect((await call(name, body, 'enterprise')).body.errorCode, name).toBe(ErrorCode.NotFound);
        expect((await call(name, body, 'subcustomer')).body.errorCode, name).toBe(ErrorCode.NotFound);
      }
    }
    // exports hold the caller's rows only
    const exp = await ok(`${CARD}exportCardReport`, { month: M, format: ExportFormat.Csv }, 'subcustomer');
    expect(exp.direct).toBe(true);
    expect((await q<{ row_count: number }>('select row_count from download_tasks where task_id = $1', [exp.taskId]))[0].row_count).toBe(1);
    const ue = await ok(`${ES}exportFile`, { type: 1, startDate: '2020-02-01', endDate: '2020-02-29', format: ExportFormat.Csv }, 'channel');
    expect((await q<{ row_count: number }>('select row_count from download_tasks where task_id = $1', [ue.taskId]))[0].row_count).toBe(1);
    // without the page's code: refused on every endpoint; without a session: 20003
    await q('update roles set permissions = array_remove(array_remove(permissions, 10010000), 10030000) where role_id = 5000');
    tok.subcustomer = await t.login('subcustomer');
    for (const [name, body] of named(ids[ZX_EAST])) {
      expect((await call(name, body, 'subcustomer')).body.errorCode, name).toBe(ErrorCode.PermissionDenied);
      expect((await t.call(name, body)).body.errorCode, name).toBe(ErrorCode.SessionInvalid);
    }
  });
});
