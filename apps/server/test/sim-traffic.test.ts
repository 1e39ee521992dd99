import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { CardState, ErrorCode } from '@lynx/contract';
import { backends, startTestApp, type TestApp } from './harness.ts';
import { businessDay, businessDayStartMs, simulateUsage } from '../src/operators/simulator-usage.ts';
import type { UsageCard } from '../src/operators/gateway.ts';
import type { GeneratedSession, TrafficByCard } from '../src/operators/simulator-traffic.ts';
import { runUsageFeed } from '../src/modules/usage/usage-feed.ts';

/**
 * The network simulator's traffic generator (issue 15; docs/operator-gateway.md "Generated traffic"): staff make a card's
 * simulated device use data now, and the usage feed brings it in like any usage.
 */
const MB = 1024 * 1024;
const MIN = 60_000;

describe('generated sessions in the simulator\'s usage', () => {
  const iccid = '89860000000000000017';
  const day = '2026-11-20';
  const dayStart = businessDayStartMs(day);
  const at = dayStart + 15 * 60 * MIN;
  const g: GeneratedSession = { trafficId: 7, iccid, at, seconds: 60, bytesUp: 30 * MB, bytesDown: 70 * MB };
  const card = (service: UsageCard['service']): UsageCard => ({ iccid, msisdn: null, operatorId: 1, apn: 'cmiot', networkTypes: [], service } as unknown as UsageCard);
  const serving = card([{ from: new Date(dayStart - 86_400_000), to: null, test: false }]);
  /** the day's counters up to `to` (a pull from the day's start reports every card that used anything that day) and the window's sessions */
  const bytes = (cards: UsageCard[], from: number, to: number, generated?: TrafficByCard) => {
    const d = simulateUsage({ cards, from: new Date(dayStart), to: new Date(to) }, generated).daily.find((x) => x.iccid === iccid && x.day === day);
    return { total: d ? d.bytesUp + d.bytesDown : 0, sessions: simulateUsage({ cards, from: new Date(from), to: new Date(to) }, generated).sessions };
  };
  const with_ = new Map([[iccid, [g]]]);

  it('adds the whole session once it has ended, half of it half-way, nothing before it starts', () => {
    const end = at + 60_000;
    expect(bytes([serving], at - MIN, end + MIN, with_).total - bytes([serving], at - MIN, end + MIN).total).toBe(100 * MB);
    expect(bytes([serving], at - MIN, at + 30_000, with_).total - bytes([serving], at - MIN, at + 30_000).total).toBe(50 * MB);
    expect(bytes([serving], at - 2 * MIN, at, with_).total).toBe(bytes([serving], at - 2 * MIN, at).total);
    // reported as a session of the card, with a stable id, open until it ends
    const open = bytes([serving], at - MIN, at + 30_000, with_).sessions.filter((s) => s.startedAt.getTime() === at);
    const closed = bytes([serving], at - MIN, end + MIN, with_).sessions.filter((s) => s.startedAt.getTime() === at);
    expect(open).toHaveLength(1);
    expect(open[0].endedAt).toBeNull();
    expect(closed[0]).toMatchObject({ sessionId: open[0].sessionId, bytesUp: 30 * MB, bytesDown: 70 * MB, endedAt: new Date(end) });
    // a later window of the same day still counts it (the day's counters run from its start)
    expect(bytes([serving], end + 60 * MIN, end + 61 * MIN, with_).total - bytes([serving], end + 60 * MIN, end + 61 * MIN).total).toBe(100 * MB);
  });

  it('counts only while the card may use the network, and only on its own day', () => {
    const deactivatedBefore = card([{ from: new Date(dayStart - 86_400_000), to: new Date(at - MIN), test: false }]);
    expect(bytes([deactivatedBefore], at - MIN, at + 2 * MIN, with_).total).toBe(bytes([deactivatedBefore], at - MIN, at + 2 * MIN).total);
    const nextDay = new Map([[iccid, [{ ...g, at: at + 86_400_000 }]]]);
    expect(bytes([serving], at - MIN, at + 2 * MIN, nextDay).total).toBe(bytes([serving], at - MIN, at + 2 * MIN).total);
    expect(businessDay(at)).toBe(day);
  });
});

describe.each(backends)('the traffic generator on %s', (backend) => {
  let t: TestApp;
  let admin: string;
  let enterprise: string;
  const q = <T = Record<string, unknown>>(text: string, params: unknown[] = []) => t.database.sql.query<T>(text, params);
  const cardIn = async (state: number) => (await q<{ iccid: string; operator_id: number }>(
    `select iccid, operator_id from cards where state = $1 and cust_id is not null order by iccid limit 1`, [state]))[0];

  beforeAll(async () => {
    t = await startTestApp(backend, {}, { jobs: false });
    admin = await t.login('admin');
    enterprise = await t.login('enterprise');
  });
  afterAll(() => t?.stop());

  it('an activated card on the built-in network gets usage; the next feed window brings it to the card', async () => {
    const card = await cardIn(CardState.Activated);
    const target = await t.call('network/simulator/trafficTarget', { iccid: card.iccid }, { token: admin });
    expect(target.body.data).toMatchObject({ iccid: card.iccid, simulator: true, available: true, reason: null, recent: [] });
    // the feed has delivered up to a few minutes ago
    await q(`update usage_feeds set watermark = now() - interval '5 minutes', window_to = null`);
    await runUsageFeed({ db: t.deps.db, config: t.config } as never, { now: new Date() });
    const before = Number((await q<{ b: string }>('select cycle_used_bytes::text b from cards where iccid = $1', [card.iccid]))[0].b);

    const r = await t.call('network/simulator/generateTraffic', { iccid: card.iccid, dataMb: 40 }, { token: admin });
    expect(r.body.success, r.body.msg).toBe(true);
    expect(r.body.data).toMatchObject({ iccid: card.iccid, bytes: 40 * MB, seconds: 60 });
    // two minutes on, the session has ended and the feed window has it: the card's cycle moved by at least its bytes
    await runUsageFeed({ db: t.deps.db, config: t.config } as never, { now: new Date(Date.now() + 3 * MIN) });
    const [session] = await q<{ up: string; down: string }>(
      `select bytes_up::text up, bytes_down::text down from card_sessions where iccid = $1 and started_at = $2::timestamptz`, [card.iccid, r.body.data.at]);
    expect(Number(session.up) + Number(session.down)).toBe(40 * MB);
    const after = Number((await q<{ b: string }>('select cycle_used_bytes::text b from cards where iccid = $1', [card.iccid]))[0].b);
    expect(after - before).toBeGreaterThanOrEqual(40 * MB);
    // listed, and audited
    const again = await t.call('network/simulator/trafficTarget', { iccid: card.iccid }, { token: admin });
    expect(again.body.data.recent).toMatchObject([{ trafficId: r.body.data.trafficId, bytes: 40 * MB, createdBy: 'admin' }]);
    const [a] = await q<{ n: string }>(`select count(*) n from audit_log where entity = 'simulatorTraffic' and entity_id = $1`, [String(r.body.data.trafficId)]);
    expect(Number(a.n)).toBe(1);
  });

  it('refuses a card whose device cannot use the network, in the user\'s language, and writes nothing', async () => {
    const card = await cardIn(CardState.Deactivated);
    const target = await t.call('network/simulator/trafficTarget', { iccid: card.iccid }, { token: admin, lang: 'zh' });
    expect(target.body.data).toMatchObject({ simulator: true, available: false });
    expect(target.body.data.reason.zh).toContain(CardState.label(CardState.Deactivated, 'zh'));
    for (const lang of ['en', 'zh'] as const) {
      const r = await t.call('network/simulator/generateTraffic', { iccid: card.iccid, dataMb: 5 }, { token: admin, lang });
      expect(r.body.errorCode).toBe(ErrorCode.SimTrafficNotServing);
      expect(r.body.msg).toContain(lang === 'en' ? 'its device cannot use the network' : '设备不能使用网络');
    }
    const [n] = await q<{ n: string }>('select count(*) n from simulator_traffic where iccid = $1', [card.iccid]);
    expect(Number(n.n)).toBe(0);
  });

  it('refuses a card whose operator is reached through a real network', async () => {
    const card = await cardIn(CardState.Activated);
    await q(`insert into operator_accounts (operator_id, account_name, endpoint_url, api_version, adapter, credentials_sealed, created_by)
      values ($1, 'CMIoT production', 'https://api.example.com', 'v2', 'cmcc-onelink', 'x', 'test')`, [card.operator_id]);
    try {
      const target = await t.call('network/simulator/trafficTarget', { iccid: card.iccid }, { token: admin });
      expect(target.body.data).toMatchObject({ simulator: false, available: false });
      const r = await t.call('network/simulator/generateTraffic', { iccid: card.iccid, dataMb: 5 }, { token: admin });
      expect(r.body.errorCode).toBe(ErrorCode.SimTrafficNotSimulator);
      expect(r.body.msg).toContain('CMIoT production');
    } finally {
      await q(`delete from operator_accounts where account_name = 'CMIoT production'`);
    }
  });

  it('is for staff who may test the network: a customer is refused; bad input is refused; an unknown card is not found', async () => {
    const card = await cardIn(CardState.Activated);
    const r = await t.call('network/simulator/generateTraffic', { iccid: card.iccid, dataMb: 5 }, { token: enterprise });
    expect(r.body.errorCode).toBe(ErrorCode.PermissionDenied);
    for (const dataMb of [0, 102_401, 1.5]) {
      const bad = await t.call('network/simulator/generateTraffic', { iccid: card.iccid, dataMb }, { token: admin });
      expect(bad.body.errorCode).toBe(ErrorCode.Validation);
    }
    const unknown = await t.call('network/simulator/generateTraffic', { iccid: '89860000000000099999', dataMb: 5 }, { token: admin });
    expect(unknown.body.errorCode).toBe(ErrorCode.NotFound);
  });
});
