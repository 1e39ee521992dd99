import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { sql } from 'drizzle-orm';
import { CardState, ErrorCode, Operator, Perm, search } from '@lynx/contract';
import { backends, iccidsOf, insertCards, ownerOf, startTestApp, HD, ZX, type Owner, type TestApp } from './harness.ts';
import { viaFragmentIndex } from '../src/modules/card/list/fragment.ts';
import { matchOf } from '../src/modules/card/list/card-search.ts';
import { AppError } from '../src/platform/errors.ts';

/*
 * Finding a card by a fragment of its numbers (issue 12): the card list's "contains" match and the header search.
 * Every answer is checked against a plain LIKE '%…%' over the cards the caller may see, for every kind of user.
 */

const SEARCH = 'core/search/globalSearch';
const LIST = 'core/sim/simQuery/getSimListPage';

describe('where the digits are in a card (pure)', () => {
  const card = { iccid: '89860112345678901234', msisdn: '1064912345678', imsi: '460011234567890', imei: null };
  it('prefers the whole number, then its end, then its beginning, then anywhere', () => {
    expect(matchOf(card, '89860112345678901234')).toEqual({ field: 'iccid', how: 'exact' });
    expect(matchOf(card, '901234')).toEqual({ field: 'iccid', how: 'suffix' });
    expect(matchOf(card, '345678')).toEqual({ field: 'msisdn', how: 'suffix' });
    expect(matchOf(card, '106491')).toEqual({ field: 'msisdn', how: 'prefix' });
    expect(matchOf(card, '1234567')).toEqual({ field: 'iccid', how: 'contains' });
    expect(matchOf(card, '999999')).toBeNull();
  });
  it('reads a keyword as card digits: 6 to 20 digits, spaces and dashes left out', () => {
    expect(search.cardKeyword('8986 0112 3456')).toEqual({ kind: 'search', digits: '898601123456' });
    expect(search.cardKeyword(' 12-34-56 ')).toEqual({ kind: 'search', digits: '123456' });
    expect(search.cardKeyword('12345')).toEqual({ kind: 'short' });
    expect(search.cardKeyword('1'.repeat(21))).toEqual({ kind: 'none' });
    expect(search.cardKeyword('智行')).toEqual({ kind: 'none' });
    expect(search.cardKeyword('CU-2026')).toEqual({ kind: 'none' });
  });
});

describe.each(backends)('card search on %s', (backend) => {
  let t: TestApp;
  const token: Record<string, string> = {};
  let owners: Record<'enterprise' | 'channel' | 'subcustomer', Owner>;
  /** each kind of user with the SQL of the cards it may see ($1 is the pattern) */
  let viewers: { login: string; tenant: string; args: unknown[] }[];

  beforeAll(async () => {
    t = await startTestApp(backend, {}, { jobs: false });
    for (const login of ['admin', 'enterprise', 'channel', 'subcustomer']) token[login] = await t.login(login);
    owners = { enterprise: await ownerOf(t, 'enterprise'), channel: await ownerOf(t, 'channel'), subcustomer: await ownerOf(t, 'subcustomer') };
    viewers = [
      { login: 'admin', tenant: 'true', args: [] },
      { login: 'enterprise', tenant: 'root_cust_id = $2', args: [owners.enterprise.root_cust_id] },
      { login: 'channel', tenant: 'root_cust_id = $2', args: [owners.channel.root_cust_id] },
      { login: 'subcustomer', tenant: 'cust_id = $2', args: [owners.subcustomer.cust_id] },
    ];
  });
  afterAll(() => t?.stop());

  const call = (endpoint: string, body: object, login = 'admin', lang: 'zh' | 'en' = 'en') => t.call(endpoint, body, { token: token[login], lang });
  const find = async (keyword: string, login = 'admin', limit?: number) => {
    const r = await call(SEARCH, { keyword, ...(limit ? { limit } : {}) }, login);
    expect(r.body.success, r.body.msg).toBe(true);
    return r.body.data as import('@lynx/contract').ResponseOf<typeof search.globalSearch>;
  };
  const like = async (field: string, fragment: string, v: { tenant: string; args: unknown[] }, order = 'iccid') =>
    (await t.database.sql.query<{ iccid: string }>(`select iccid from cards where ${field} like $1 and ${v.tenant} order by ${order}`, [`%${fragment}%`, ...v.args]))
      .map((r) => r.iccid);
  const someCard = async (where: string, args: unknown[] = []) =>
    (await t.database.sql.query<{ iccid: string; msisdn: string; imsi: string }>(`select iccid, msisdn, imsi from cards where ${where} order by iccid limit 1`, args))[0];

  it('validates the request against the contract: a keyword of 1 to 64 characters, a limit of 1 to 10, nothing else', async () => {
    for (const body of [{}, { keyword: '' }, { keyword: 'x'.repeat(65) }, { keyword: '123456', limit: 0 }, { keyword: '123456', limit: 11 }, { keyword: 123456 }]) {
      const r = await call(SEARCH, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.success).toBe(false);
      expect(r.body.errorCode).toBe(ErrorCode.Validation);
    }
    expect((await call(SEARCH, { keyword: '123456', extra: 1 })).body.errorCode).toBe(ErrorCode.UnknownField);
    expect((await t.call(SEARCH, { keyword: '123456' })).body.errorCode).toBe(ErrorCode.SessionInvalid);
    // blank after trimming: nothing is searched
    const blank = await find('   ');
    expect(blank.cards).toBeNull();
    expect(blank.customers).toBeNull();
  });

  it('"contains" in the card list finds the same cards as LIKE \'%…%\' on ICCID, MSISDN and IMSI, for every kind of user', async () => {
    const ent = await someCard('cust_id = $1', [owners.enterprise.cust_id]);
    const sub = await someCard('cust_id = $1', [owners.subcustomer.cust_id]);
    const hd = await someCard('root_cust_id = $1', [owners.channel.root_cust_id]);
    const stock = await someCard('cust_id is null');
    const fragments: [string, string][] = [
      ['iccid', ent.iccid.slice(-6)], ['iccid', sub.iccid.slice(-7)], ['iccid', hd.iccid.slice(-8)], ['iccid', stock.iccid.slice(-6)],
      ['iccid', ent.iccid.slice(7, 14)], ['iccid', '898601'], ['iccid', hd.iccid],
      ['msisdn', sub.msisdn.slice(-6)], ['msisdn', ent.msisdn.slice(2, 9)], ['imsi', hd.imsi.slice(-6)], ['imsi', stock.imsi.slice(4, 11)],
    ];
    // and one that matches nothing
    let none = '975310';
    while ((await like('iccid', none, viewers[0])).length) none = String(Number(none) + 1);
    fragments.push(['iccid', none]);
    let compared = 0;
    for (const [field, fragment] of fragments) {
      for (const v of viewers) {
        const expected = await like(field, fragment, v);
        const got = await call(LIST, { [field]: fragment, [`${field}Match`]: 'contains', pageSize: 500 }, v.login);
        const why = `${field} contains ${fragment} as ${v.login}`;
        expect(got.body.success, why).toBe(true);
        expect(got.body.data.total, why).toBe(expected.length);
        expect(got.body.data.totalCapped, why).toBe(false);
        expect(got.body.data.list.map((c: { iccid: string }) => c.iccid), why).toEqual(expected);
        compared += expected.length;
      }
    }
    expect(compared).toBeGreaterThan(20);
    // other orders and pages come from the same matches
    const v = viewers[1];
    const byActivation = (await t.database.sql.query<{ iccid: string }>(
      `select iccid from cards where iccid like $1 and ${v.tenant} order by activated_at desc nulls last, iccid`, ['%8986%', ...v.args])).map((r) => r.iccid);
    const page2 = await call(LIST, { iccid: '898600', iccidMatch: 'contains', sortField: 'activatedAt', sortOrder: 'descend', pageSize: 7, current: 2 }, 'enterprise');
    const expected = (await like('iccid', '898600', v, 'activated_at desc nulls last, iccid')).slice(7, 14);
    expect(page2.body.data.list.map((c: { iccid: string }) => c.iccid)).toEqual(expected);
    expect(byActivation.length).toBeGreaterThan(0);
    // with other filters: only the caller's activated cards holding the digits
    const states = [CardState.Activated];
    const act = await call(LIST, { iccid: '898601', iccidMatch: 'contains', states, pageSize: 500 }, 'subcustomer');
    const actSql = (await t.database.sql.query<{ iccid: string }>(
      `select iccid from cards where iccid like '%898601%' and cust_id = $1 and state = 64 order by iccid`, [owners.subcustomer.cust_id])).map((r) => r.iccid);
    expect(act.body.data.list.map((c: { iccid: string }) => c.iccid)).toEqual(actSql);
  });

  it('matches MSISDN and IMSI by prefix or exactly as asked', async () => {
    const c = await someCard('cust_id = $1', [owners.enterprise.cust_id]);
    for (const [field, value] of [['msisdn', c.msisdn], ['imsi', c.imsi]] as const) {
      const prefix = value.slice(0, 8);
      const expected = (await t.database.sql.query<{ iccid: string }>(`select iccid from cards where ${field} like $1 and root_cust_id = $2 order by iccid`, [`${prefix}%`, owners.enterprise.root_cust_id])).map((r) => r.iccid);
      const got = await call(LIST, { [field]: prefix, [`${field}Match`]: 'prefix', pageSize: 500 }, 'enterprise');
      expect(got.body.data.list.map((r: { iccid: string }) => r.iccid)).toEqual(expected);
      expect((await call(LIST, { [field]: prefix, pageSize: 500 }, 'enterprise')).body.data.total).toBe(0);
      expect((await call(LIST, { [field]: value, [`${field}Match`]: 'exact' }, 'enterprise')).body.data.list.map((r: { iccid: string }) => r.iccid)).toEqual([c.iccid]);
    }
  });

  it('refuses a "contains" fragment of fewer than 6 digits, naming the field, in both languages', async () => {
    for (const field of ['iccid', 'msisdn', 'imsi']) {
      const en = await call(LIST, { [field]: '12345', [`${field}Match`]: 'contains' }, 'enterprise', 'en');
      expect(en.status).toBe(400);
      expect(en.body.errorCode).toBe(ErrorCode.CardFragmentTooShort);
      expect(en.body.data).toEqual({ field });
      expect(en.body.msg).toContain('at least 6 digits');
      const zh = await call(LIST, { [field]: '12345', [`${field}Match`]: 'contains' }, 'enterprise', 'zh');
      expect(zh.body.msg).toContain('至少需要 6 位数字');
    }
    // six digits are enough
    expect((await call(LIST, { iccid: '123456', iccidMatch: 'contains' }, 'enterprise')).body.success).toBe(true);
  });

  it('pages a fragment held by more than 10,000 cards in ICCID order and counts it as "more than 10,000"', async () => {
    const many = iccidsOf('8986097', 0, 10_050);
    const mine = iccidsOf('8986097', 20_000, 30);
    await insertCards(t, many, { state: CardState.Start, owner: null, operatorId: Operator.ChinaTelecom });
    await insertCards(t, mine, { state: CardState.Activated, owner: owners.subcustomer, operatorId: Operator.ChinaTelecom });
    try {
      const expected = await like('iccid', '8986097', viewers[0]);
      expect(expected.length).toBeGreaterThan(10_000);
      for (const [current, sortOrder] of [[1, undefined], [3, undefined], [2, 'descend']] as const) {
        const got = await call(LIST, { iccid: '8986097', iccidMatch: 'contains', pageSize: 50, current, ...(sortOrder ? { sortField: 'iccid', sortOrder } : {}) });
        expect(got.body.data.total).toBe(10_000);
        expect(got.body.data.totalCapped).toBe(true);
        const order = sortOrder ? [...expected].reverse() : expected;
        expect(got.body.data.list.map((c: { iccid: string }) => c.iccid)).toEqual(order.slice((current - 1) * 50, current * 50));
      }
      // the second-level customer holds 30 of them: an exact count and its own cards only
      const sub = await call(LIST, { iccid: '8986097', iccidMatch: 'contains', pageSize: 500 }, 'subcustomer');
      expect(sub.body.data.total).toBe(30);
      expect(sub.body.data.list.map((c: { iccid: string }) => c.iccid)).toEqual(mine);
      // the header search too: the fleet holds more than FLEET_PROBE matches, so the tenant is read inside the index
      const found = await find('8986097', 'subcustomer');
      expect(found.cards!.items.map((c) => c.iccid)).toEqual(mine.slice(0, 5));
      expect(found.cards!.more).toBe(true);
      expect((await find('8986097', 'enterprise')).cards!.items.map((c) => c.iccid)).toEqual(mine.slice(0, 5));
      expect((await find('8986097', 'channel')).cards!.items).toEqual([]);
    } finally {
      await t.database.sql.query('delete from cards where iccid = any($1)', [[...many, ...mine]]);
    }
  });

  it('header search: a card by the last digits printed on it, whole numbers first, the same cards as LIKE, in the caller\'s tenant only', async () => {
    const parentOwn = await someCard('cust_id = $1', [owners.enterprise.cust_id]);
    const last8 = parentOwn.iccid.slice(-8);
    const ent = await find(last8, 'enterprise');
    expect(ent.cardDigits).toBe(last8);
    expect(ent.cards!.items[0]).toMatchObject({ iccid: parentOwn.iccid, field: 'iccid', how: 'suffix', custName: ZX });
    // its second-level customer, another first-level customer and the platform stock never see it
    for (const login of ['subcustomer', 'channel']) expect((await find(last8, login)).cards!.items.map((c) => c.iccid)).not.toContain(parentOwn.iccid);
    expect((await find(last8, 'admin')).cards!.items.map((c) => c.iccid)).toContain(parentOwn.iccid);
    // the whole ICCID, typed with spaces as printed: exact, first
    const spaced = parentOwn.iccid.replace(/(\d{4})(?=\d)/g, '$1 ');
    expect((await find(spaced, 'enterprise')).cards!.items[0]).toMatchObject({ iccid: parentOwn.iccid, how: 'exact' });
    // every kind of user gets exactly the cards LIKE finds on any of the four numbers (a fragment with few matches)
    for (const fragment of [last8, parentOwn.msisdn.slice(-6), parentOwn.imsi.slice(-7), '8986011']) {
      for (const v of viewers) {
        const expected = (await t.database.sql.query<{ iccid: string }>(
          `select iccid from cards where (iccid like $1 or msisdn like $1 or imsi like $1 or imei like $1) and ${v.tenant}`, [`%${fragment}%`, ...v.args])).map((r) => r.iccid);
        const got = await find(fragment, v.login, 10);
        const why = `${fragment} as ${v.login}`;
        if (expected.length <= 10) {
          expect(got.cards!.items.map((c) => c.iccid).sort(), why).toEqual(expected.sort());
          expect(got.cards!.more, why).toBe(false);
        } else {
          expect(got.cards!.items.length, why).toBe(10);
          expect(got.cards!.more, why).toBe(true);
          for (const c of got.cards!.items) expect(expected, why).toContain(c.iccid);
        }
      }
    }
  });

  it('header search: fewer than 6 digits search the other kinds only and say so', async () => {
    const r = await find('10001', 'admin');
    expect(r.cards).toBeNull();
    expect(r.cardDigits).toBeNull();
    expect(r.cardDigitsShort).toBe(true);
    expect(r.customers).not.toBeNull();
    // a customer id is a number too
    expect(r.customers!.items.some((c) => String(c.custId).includes('10001') || c.custName.includes('10001'))).toBe(r.customers!.items.length > 0);
    // words are not card numbers: no hint
    const words = await find('智行', 'admin');
    expect(words.cardDigitsShort).toBe(false);
    expect(words.cards).toBeNull();
    expect(words.customers!.items.map((c) => c.custName)).toContain(ZX);
  });

  it('header search: only the kinds the caller may open, inside its tenant', async () => {
    // customers: staff and channel customers; a second-level customer has no customer management
    expect((await find('华电', 'admin')).customers!.items.map((c) => c.custName)).toContain(HD);
    expect((await find('华电', 'enterprise')).customers!.items).toEqual([]);
    expect((await find('智行', 'channel')).customers!.items).toEqual([]);
    expect((await find('智行', 'enterprise')).customers!.items.map((c) => c.custName)).toContain(ZX);
    expect((await find('智行', 'subcustomer')).customers).toBeNull();
    // pools: the demo pool is 智行物流's
    const [pool] = await t.database.sql.query<{ name: string; pool_id: number }>('select name, pool_id from card_pools order by pool_id limit 1');
    expect((await find(pool.name.slice(0, 3), 'enterprise')).pools!.items.map((p) => p.poolId)).toContain(pool.pool_id);
    expect((await find(pool.name.slice(0, 3), 'channel')).pools!.items).toEqual([]);
    expect((await find(pool.name.slice(0, 3), 'subcustomer')).pools).toBeNull();
    // plans: released to the caller's tenant only
    const [zxOnly] = await t.database.sql.query<{ id: number; name: string }>(
      `select b.goods_release_id id, b.name from basic_plans b where exists (select 1 from plan_releases r where r.goods_release_id = b.goods_release_id and r.root_cust_id = $1)
         and not exists (select 1 from plan_releases r where r.goods_release_id = b.goods_release_id and r.root_cust_id = $2) order by 1 limit 1`,
      [owners.enterprise.root_cust_id, owners.channel.root_cust_id]);
    expect(zxOnly).toBeTruthy();
    expect((await find(zxOnly.name, 'enterprise')).basicPlans!.items.map((p) => p.goodsReleaseId)).toContain(zxOnly.id);
    expect((await find(zxOnly.name, 'channel')).basicPlans!.items.map((p) => p.goodsReleaseId)).not.toContain(zxOnly.id);
    expect((await find(String(zxOnly.id), 'channel')).basicPlans!.items.map((p) => p.goodsReleaseId)).not.toContain(zxOnly.id);
    expect((await find(zxOnly.name, 'admin')).basicPlans!.items.map((p) => p.goodsReleaseId)).toContain(zxOnly.id);
    // batches: the tenant's own; imports: operator staff only
    const c = await someCard('cust_id = $1 and state = $2', [owners.enterprise.cust_id, CardState.Activated]);
    const made = await call('core/sim/batchOperate/validate', { sourceKind: 'paste', iccids: [c.iccid], params: { type: 1, action: 'deactivate', reason: 'search test' } }, 'enterprise');
    expect(made.body.success, made.body.msg).toBe(true);
    const batchId: string = made.body.data.batchId;
    expect((await find(batchId.slice(0, 8), 'enterprise')).batches!.items.map((b) => b.batchId)).toContain(batchId);
    expect((await find(batchId.slice(0, 8), 'admin')).batches!.items.map((b) => b.batchId)).toContain(batchId);
    expect((await find(batchId.slice(0, 8), 'channel')).batches!.items.map((b) => b.batchId)).not.toContain(batchId);
    expect((await find('CU-2026', 'admin')).cardImports).not.toBeNull();
    expect((await find('CU-2026', 'enterprise')).cardImports).toBeNull();
    expect((await find('CU-2026', 'subcustomer')).batches).toBeNull();
  });

  it('does not search cards for a role without the card list code', async () => {
    const [role] = await t.database.sql.query<{ role_id: number; permissions: number[] }>(
      `select r.role_id, r.permissions from roles r join accounts a on a.role_id = r.role_id where a.login_name = 'subcustomer'`);
    await t.database.sql.query('update roles set permissions = $2 where role_id = $1', [role.role_id, role.permissions.filter((p) => p !== Perm.CardList)]);
    try {
      const fresh = await t.login('subcustomer');
      const r = await t.call(SEARCH, { keyword: '898601' }, { token: fresh });
      expect(r.body.data.cards).toBeNull();
      expect(r.body.data.cardDigits).toBeNull();
      expect(r.body.data.cardDigitsShort).toBe(false);
    } finally {
      await t.database.sql.query('update roles set permissions = $2 where role_id = $1', [role.role_id, role.permissions]);
    }
  });

  it.runIf(backend === 'postgres')('stops a fragment search that runs too long with "type more digits" (PostgreSQL)', async () => {
    const err = await viaFragmentIndex(t.database.db, (ex) => ex.execute(sql`select pg_sleep(2)`), 50).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe(ErrorCode.CardFragmentTooBroad);
  });
});
