import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { CardState, ExportFormat, businessDay, getBusinessTimeZone } from '@lynx/contract';
import { loadConfig, parseTimeZone } from '../src/config.ts';
import { startOfBusinessMonth, startOfNextBusinessDay } from '../src/modules/card/lifecycle/time.ts';
import { callOk, iccidsOf, insertCards, startTestApp, type TestApp } from './harness.ts';

// Issue 12: one business time zone (CMP_TIME_ZONE, Asia/Shanghai by default) governs business days, cycles, exports
// and the zone the console is told to show times in.

const CARD_LIST = 'core/sim/simQuery/getSimListPage';
// 2026-11-19 20:00 UTC: still the 19th in Berlin (21:00, UTC+1), already the 20th in Shanghai (04:00, UTC+8)
const ACTIVATED = '2026-11-19T20:00:00Z';

async function activatedCard(t: TestApp, prefix: string): Promise<string> {
  const [iccid] = await insertCards(t, iccidsOf(prefix, 0, 1), { state: CardState.Activated, owner: null, operatorId: 1 });
  await t.database.sql.query(`update cards set activated_at = $1::timestamptz where iccid = $2`, [ACTIVATED, iccid]);
  return iccid;
}

/** The csv of a card list export (written during the call: a handful of rows). */
async function exportCsv(t: TestApp, token: string, iccid: string, lang: 'zh' | 'en'): Promise<string[]> {
  const r = await t.call('core/sim/simQuery/exportSimList', { iccid, format: ExportFormat.Csv }, { token, lang });
  expect(r.body.data.direct).toBe(true);
  const file = await t.app.inject({ method: 'GET', url: `/api/cmp/core/downloadTask/download?taskId=${r.body.data.taskId}&ts=1&lang=${lang}`, headers: { authorization: token } });
  expect(file.statusCode).toBe(200);
  return file.body.replace(/^\uFEFF/, '').trim().split('\r\n');
}

/** The activation time column of an export: its header and the card's value. */
function activatedColumn(lines: string[], title: string): { header: string; value: string } {
  const headers = lines[0].split(',');
  const i = headers.findIndex((h) => h.startsWith(title));
  expect(i).toBeGreaterThanOrEqual(0);
  return { header: headers[i], value: lines[1].split(',')[i] };
}

const listed = async (t: TestApp, token: string, iccid: string, day: string) =>
  (await callOk(t, CARD_LIST, { iccid, activatedFrom: day, activatedTo: day }, token)).total;

describe('CMP_TIME_ZONE configuration', () => {
  it('defaults to Asia/Shanghai and refuses a name that is no time zone, saying what is wrong', () => {
    expect(parseTimeZone(undefined)).toBe('Asia/Shanghai');
    expect(parseTimeZone(' ')).toBe('Asia/Shanghai');
    expect(parseTimeZone('Europe/Berlin')).toBe('Europe/Berlin');
    expect(() => parseTimeZone('Beijing')).toThrow('CMP_TIME_ZONE: "Beijing" is not an IANA time zone name (examples: Asia/Shanghai, Europe/Berlin, UTC)');
    expect(() => loadConfig({ CMP_TIME_ZONE: 'UTC+8' })).toThrow(/CMP_TIME_ZONE/);
    expect(loadConfig({ CMP_TIME_ZONE: 'Europe/Berlin' }).timeZone).toBe('Europe/Berlin');
  });
});

describe('business time zone Europe/Berlin', () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await startTestApp('pglite', { timeZone: 'Europe/Berlin', runWorkers: false });
    admin = await t.login('admin');
  });
  afterAll(() => t?.stop());

  it('tells the console the zone in the public settings the login page reads', async () => {
    const r = await t.call('core/account/account/getLogoByCustId', {});
    expect(r.body.data.timeZone).toBe('Europe/Berlin');
    expect(getBusinessTimeZone()).toBe('Europe/Berlin');
  });

  it('counts business days and months in Berlin', async () => {
    expect(businessDay(Date.parse(ACTIVATED))).toBe('2026-11-19');
    expect(startOfNextBusinessDay(new Date(ACTIVATED)).toISOString()).toBe('2026-11-19T23:00:00.000Z');
    expect(startOfBusinessMonth(new Date(ACTIVATED), 1).toISOString()).toBe('2026-11-30T23:00:00.000Z');
    const iccid = await activatedCard(t, '8988120');
    // "activated on 2026-11-19" is the Berlin day
    expect(await listed(t, admin, iccid, '2026-11-19')).toBe(1);
    expect(await listed(t, admin, iccid, '2026-11-20')).toBe(0);
  });

  it("writes an export's times on the Berlin clock and says so in the header", async () => {
    const en = activatedColumn(await exportCsv(t, admin, '89881200000000000000', 'en'), 'Activated');
    expect(en).toEqual({ header: 'Activated (UTC+1)', value: '2026-11-19 21:00:00' });
    const zh = activatedColumn(await exportCsv(t, admin, '89881200000000000000', 'zh'), '激活时间');
    expect(zh).toEqual({ header: '激活时间 (UTC+1)', value: '2026-11-19 21:00:00' });
  });
});

describe('business time zone by default (Asia/Shanghai)', () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await startTestApp('pglite', { runWorkers: false });
    admin = await t.login('admin');
  });
  afterAll(() => t?.stop());

  it('follows Shanghai for the settings, business days and exports', async () => {
    expect((await t.call('core/account/account/getLogoByCustId', {})).body.data.timeZone).toBe('Asia/Shanghai');
    expect(businessDay(Date.parse(ACTIVATED))).toBe('2026-11-20');
    expect(startOfNextBusinessDay(new Date(ACTIVATED)).toISOString()).toBe('2026-11-20T16:00:00.000Z');
    const iccid = await activatedCard(t, '8988121');
    expect(await listed(t, admin, iccid, '2026-11-19')).toBe(0);
    expect(await listed(t, admin, iccid, '2026-11-20')).toBe(1);
    const en = activatedColumn(await exportCsv(t, admin, iccid, 'en'), 'Activated');
    expect(en).toEqual({ header: 'Activated (UTC+8)', value: '2026-11-20 04:00:00' });
  });
});
