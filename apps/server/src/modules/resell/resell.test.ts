import { describe, it, expect, beforeAll, afterEach } from 'vitest';
import { CardState, ErrorCode, Operator, RESALE_PLATFORM_STATES, ResellSyncState, resaleStateLabel, resell as api } from '@lynx/contract';
import { backends, iccidsOf, insertCards, type Owner, type TestApp } from '../../../test/harness.ts';
import { moduleSuite } from '../../../test/module-suite.ts';
import { createResaleSimulator, setResaleFaults, simulatedListingStatus } from '../../operators/resale/simulator.ts';
import type { ResaleListingStatus, ResalePlatform } from '../../operators/resale/platform.ts';
import { runScheduledSync, syncCards } from './service.ts';

/**
 * Resale status sync (6020000, sync now 6020001): the platform's states mapped, "sync now" within the tenant and the
 * §9 limit, the failure paths (platform down, one listing failing, no answer in time), the scheduled sync restart-safe
 * (a claim left by a killed run is taken over after its lease) and audited.
 */
const R = 'core/shortcuts/resell/';
const MAPPED: Record<string, number> = { PENDING_REVIEW: ResellSyncState.Listed, ON_SALE: ResellSyncState.Listed, SOLD: ResellSyncState.Sold, OFF_SHELF: ResellSyncState.Delisted };

describe('the resale simulator', () => {
  it('is deterministic and injects faults', async () => {
    const sim = createResaleSimulator();
    const a = await sim.queryListings(['L1', 'L2', 'XNOPE']);
    const b = await sim.queryListings(['L1', 'L2', 'XNOPE']);
    expect(a).toEqual(b);
    expect(a.ok && a.data[0].status).toBe(simulatedListingStatus('L1'));
    expect(a.ok && a.data[2]).toMatchObject({ status: null, error: expect.stringContaining('NOT_FOUND') });
    setResaleFaults({ down: true });
    expect(await sim.queryListings(['L1'])).toMatchObject({ ok: false, code: 'PLATFORM_DOWN' });
    setResaleFaults({ fail: 'L2*' });
    const c = await sim.queryListings(['L1', 'L2']);
    expect(c.ok && c.data[1].error).toContain('LISTING_ERROR');
    setResaleFaults({});
  });
});

describe('the resale platform\'s states on the console', () => {
  it('labels the known words in both languages and leaves an unknown one to be shown raw', () => {
    expect(Object.keys(RESALE_PLATFORM_STATES).sort()).toEqual(Object.keys(MAPPED).sort());
    expect([resaleStateLabel('ON_SALE', 'zh'), resaleStateLabel('ON_SALE', 'en')]).toEqual(['在售', 'On sale']);
    expect([resaleStateLabel('PENDING_REVIEW', 'zh'), resaleStateLabel('OFF_SHELF', 'en')]).toEqual(['待审核', 'Off the shelf']);
    expect([resaleStateLabel('RESERVED', 'zh'), resaleStateLabel('toString', 'en'), resaleStateLabel(null, 'zh')]).toEqual([null, null, null]);
  });
});

describe.each(backends)('resale sync on %s', (backend) => {
  const s = moduleSuite(backend);
  const { own, q, call, ok } = s;
  let t: TestApp;
  const ent = iccidsOf('8986002065', 1, 3);
  const chan = iccidsOf('8986002066', 1, 1);

  beforeAll(async () => {
    t = s.t;
    await insertCards(t, ent, { state: CardState.Activated, owner: own.enterprise, operatorId: Operator.ChinaMobile });
    await insertCards(t, chan, { state: CardState.Activated, owner: own.channel, operatorId: Operator.ChinaMobile });
    const rows: [string, string, Owner][] = [...ent.map((i, n): [string, string, Owner] => [i, n === 2 ? `XGONE${n}` : `LT${i.slice(-6)}`, own.enterprise]), [chan[0], `LT${chan[0].slice(-6)}`, own.channel]];
    for (const [iccid, ext, o] of rows) {
      await q('insert into resell_cards (iccid, platform_code, external_id, cust_id, root_cust_id) values ($1, $2, $3, $4, $5)', [iccid, 'TEST', ext, o.cust_id, o.root_cust_id]);
    }
  });
  afterEach(() => setResaleFaults({}));

  it('lists within the tenant; sync now maps the platform states, records the unknown listing\'s error, and is audited', async () => {
    const mine = await ok(`${R}getPage`, { iccid: '89860020', pageSize: 100 }, 'enterprise');
    expect(mine.list.map((r: { iccid: string }) => r.iccid)).toEqual(expect.arrayContaining(ent));
    expect(mine.list.map((r: { iccid: string }) => r.iccid)).not.toContain(chan[0]);
    expect((await ok(`${R}getPage`, { iccid: chan[0] }, 'channel')).total).toBe(1);
    expect((await ok(`${R}getPage`, { iccid: chan[0] }, 'enterprise')).total).toBe(0);
    expect(mine.list.find((r: { iccid: string }) => r.iccid === ent[0])).toMatchObject({ syncState: ResellSyncState.NotSynced, lastSyncAt: null });

    const r = await ok(`${R}sync`, { iccids: ent }, 'enterprise');
    expect(r).toEqual({ synced: 2, failed: 1 });
    const [a, , gone] = (await ok(`${R}getPage`, { iccid: ent[0].slice(0, 18), pageSize: 100 }, 'enterprise')).list
      .filter((x: { iccid: string }) => ent.includes(x.iccid));
    expect(a.platformState).toBe(simulatedListingStatus(`LT${ent[0].slice(-6)}`));
    expect(a.syncState).toBe(MAPPED[a.platformState]);
    expect(a.lastSyncAt).not.toBeNull();
    expect(a.lastError).toBeNull();
    // the platform's own error text is kept as sent, after "the resale platform answered:" in the reader's language
    expect(gone).toMatchObject({ syncState: ResellSyncState.Failed, lastError: 'The resale platform answered: NOT_FOUND: no such listing' });
    const goneZh = (await call(`${R}getPage`, { iccid: ent[2] }, 'enterprise', 'zh')).body.data.list[0];
    expect(goneZh.lastError).toBe('转售平台答复：NOT_FOUND: no such listing');
    expect(await q("select 1 from audit_log where entity = 'resellSync'")).toHaveLength(1);

    // another tenant's card in the selection: nothing synced, the answer of a missing record
    const before = await q<{ last_sync_at: Date }>('select last_sync_at from resell_cards where iccid = $1', [chan[0]]);
    expect((await call(`${R}sync`, { iccids: [ent[0], chan[0]] }, 'enterprise')).body.errorCode).toBe(ErrorCode.NotFound);
    expect(await q('select last_sync_at from resell_cards where iccid = $1', [chan[0]])).toEqual(before);
    // the second-level customer has no page; over 10,000 refused with the spec's text in both languages
    expect((await call(`${R}getPage`, {}, 'subcustomer')).body.errorCode).not.toBeNull();
    const many = Array.from({ length: api.RESELL_SYNC_MAX + 1 }, (_, i) => iccidsOf('8986', i, 1)[0]);
    const tooMany = await call(`${R}sync`, { iccids: many }, 'admin', 'zh');
    expect(tooMany.body.errorCode).toBe(ErrorCode.ResellSyncTooMany);
    expect(tooMany.body.msg).toBe(`所选数量过多（${api.RESELL_SYNC_MAX + 1} 张），每次最多 ${api.RESELL_SYNC_MAX} 张，请缩小范围`);
    expect((await call(`${R}sync`, { iccids: [] }, 'admin')).body.errorCode).not.toBeNull();
  });

  it('a platform that is down or does not answer in time fails the sync with its reason and keeps the last state seen', async () => {
    const [seen] = await q<{ platform_state: string }>('select platform_state from resell_cards where iccid = $1', [ent[0]]);
    setResaleFaults({ down: true });
    expect(await ok(`${R}sync`, { iccids: [ent[0]] }, 'admin')).toEqual({ synced: 0, failed: 1 });
    const [down] = await q<{ sync_state: number; platform_state: string; last_error: string }>('select * from resell_cards where iccid = $1', [ent[0]]);
    expect(down).toMatchObject({ sync_state: ResellSyncState.Failed, platform_state: seen.platform_state, last_error: expect.stringContaining('PLATFORM_DOWN') });
    // platform down and no answer are our reasons: both languages, no English on the Chinese screen
    expect((await call(`${R}getPage`, { iccid: ent[0] }, 'admin', 'zh')).body.data.list[0].lastError).toBe('转售平台暂时不可用（PLATFORM_DOWN），稍后会自动重试');
    expect((await call(`${R}getPage`, { iccid: ent[0] }, 'admin', 'en')).body.data.list[0].lastError).toBe('PLATFORM_DOWN: the resale platform is unavailable; the sync tries again later');

    setResaleFaults({ delayMs: 300 });
    expect(await syncCards(t.deps.db, createResaleSimulator(), [ent[1]], 50)).toEqual({ synced: 0, failed: 1 });
    const [late] = await q<{ last_error: string; last_error_zh: string }>('select last_error, last_error_zh from resell_cards where iccid = $1', [ent[1]]);
    expect(late).toEqual({ last_error: 'TIMEOUT: the resale platform did not answer within 0.05 s', last_error_zh: '转售平台在 0.05 秒内没有应答（TIMEOUT）' });

    // a state the platform added after ours: kept as sent, the sync failed with a bilingual reason
    const newer: ResalePlatform = { adapter: 'test', queryListings: async (ids) => ({ ok: true, data: ids.map((externalId) => ({ externalId, status: 'RESERVED' as ResaleListingStatus })) }) };
    expect(await syncCards(t.deps.db, newer, [ent[1]])).toEqual({ synced: 0, failed: 1 });
    const [odd] = await q<Record<string, unknown>>('select platform_state, sync_state, last_error, last_error_zh from resell_cards where iccid = $1', [ent[1]]);
    expect(odd).toEqual({
      platform_state: 'RESERVED', sync_state: ResellSyncState.Failed,
      last_error: 'UNKNOWN_STATE: the resale platform answered the state RESERVED, which we do not know', last_error_zh: '转售平台返回了未知状态 RESERVED，无法对应本平台状态',
    });

    setResaleFaults({});
    expect(await ok(`${R}sync`, { iccids: [ent[0], ent[1]] }, 'admin')).toEqual({ synced: 2, failed: 0 });
    expect(await q('select 1 from resell_cards where iccid = any($1) and last_error is null', [[ent[0], ent[1]]])).toHaveLength(2);
  });

  it('the scheduled sync takes the due cards, leaves a live claim alone and takes over an expired one', async () => {
    // everything due again; the channel card's row is claimed by a run that is "still working", one killed long ago
    await q("update resell_cards set last_sync_at = now() - interval '2 hours', claimed_until = null");
    await q("update resell_cards set claimed_until = now() + interval '1 minute' where iccid = $1", [chan[0]]);
    await q("update resell_cards set claimed_until = now() - interval '1 minute' where iccid = $1", [ent[0]]);
    const total = Number((await q<{ n: string }>('select count(*) as n from resell_cards'))[0].n);
    const r = await runScheduledSync(t.deps.db, createResaleSimulator());
    expect(r.synced + r.failed).toBe(total - 1);
    const [held] = await q<{ last_sync_at: Date }>('select last_sync_at from resell_cards where iccid = $1', [chan[0]]);
    expect(Date.now() - new Date(held.last_sync_at).getTime()).toBeGreaterThan(3600_000);
    expect(await q('select 1 from resell_cards where claimed_until is not null and iccid <> $1', [chan[0]])).toHaveLength(0);
    // nothing due: a second run does nothing
    expect(await runScheduledSync(t.deps.db, createResaleSimulator())).toEqual({ synced: 0, failed: 0 });
    expect(await q("select 1 from audit_log where entity = 'resellSync' and endpoint = 'job:resell-sync'")).toHaveLength(1);
  });
});
