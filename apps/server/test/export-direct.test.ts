import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { CardState, EXPORT_DIRECT_MAX_ROWS, ExportFormat, ExportState, endpoints } from '@lynx/contract';
import { backends, callOk, iccidsOf, insertCards, ownerOf, startTestApp, HD, type TestApp } from './harness.ts';
import { fieldOf } from '../src/platform/export-filters.ts';

const CREATE = 'core/downloadTask/createExport';
const TASKS = 'core/downloadTask/getListPage';
const BADGE = 'core/downloadTask/getBadge';
const CARD_LIST = 'core/sim/simQuery/getSimListPage';
const PAGING = new Set(['current', 'pageSize', 'sortField', 'sortOrder']);

const download = (t: TestApp, token: string, taskId: string, lang: 'zh' | 'en' = 'en') =>
  t.app.inject({ method: 'GET', url: `/api/cmp/core/downloadTask/download?taskId=${taskId}&ts=1&lang=${lang}`, headers: { authorization: token } });

describe.each(backends)('exports: direct or task, badge, filters in words on %s', (backend) => {
  // no job workers: a task stays "in process" until the test runs its job, so the badge can be seen in every state
  let t: TestApp;
  let admin: string;
  const task = async (taskId: string, token = admin, lang: 'zh' | 'en' = 'en') =>
    (await t.call(TASKS, { pageSize: 100 }, { token, lang })).body.data.list.find((x: { taskId: string }) => x.taskId === taskId);
  const badge = (token = admin) => callOk(t, BADGE, {}, token);

  beforeAll(async () => {
    t = await startTestApp(backend, { runWorkers: false });
    admin = await t.login('admin');
  });
  afterAll(() => t?.stop());

  it(`writes an export of ${EXPORT_DIRECT_MAX_ROWS.toLocaleString('en')} rows during the call and queues one of ${(EXPORT_DIRECT_MAX_ROWS + 1).toLocaleString('en')} as a task`, async () => {
    const prefix = '8988100';
    await insertCards(t, iccidsOf(prefix, 0, EXPORT_DIRECT_MAX_ROWS), { state: CardState.Inventory, owner: null, operatorId: 1 });
    const filters = { iccid: prefix, iccidMatch: 'prefix' };
    expect((await callOk(t, CARD_LIST, { ...filters, pageSize: 1 }, admin)).total).toBe(EXPORT_DIRECT_MAX_ROWS);
    const before = await badge();

    const small = await callOk(t, 'core/sim/simQuery/exportSimList', { ...filters, format: ExportFormat.Csv }, admin);
    expect(small.direct).toBe(true);
    const done = await task(small.taskId);
    expect(done).toMatchObject({ state: ExportState.Succeeded, rowCount: EXPORT_DIRECT_MAX_ROWS, direct: true, downloadedAt: null });
    // the browser fetches it right away: all rows are there
    const file = await download(t, admin, small.taskId);
    expect(file.statusCode).toBe(200);
    expect(file.body.trim().split('\r\n').length).toBe(EXPORT_DIRECT_MAX_ROWS + 1);
    expect((await task(small.taskId)).downloadedAt).not.toBeNull();
    // downloaded at once: it never shows in the badge
    expect(await badge()).toMatchObject({ ready: before.ready, inProcess: before.inProcess });

    await insertCards(t, iccidsOf(prefix, EXPORT_DIRECT_MAX_ROWS, 1), { state: CardState.Inventory, owner: null, operatorId: 1 });
    const big = await callOk(t, CREATE, { source: CARD_LIST, filters, format: ExportFormat.Csv }, admin);
    expect(big.direct).toBe(false);
    expect(await task(big.taskId)).toMatchObject({ state: ExportState.InProcess, direct: false, rowCount: null });
    expect(await badge()).toMatchObject({ ready: before.ready, inProcess: before.inProcess + 1 });

    // the job writes it; the badge counts it as ready and names it for the notice, until it is downloaded
    await t.deps.exports.run(big.taskId);
    expect(await task(big.taskId)).toMatchObject({ state: ExportState.Succeeded, rowCount: EXPORT_DIRECT_MAX_ROWS + 1 });
    const ready = await badge();
    expect(ready).toMatchObject({ ready: before.ready + 1, inProcess: before.inProcess });
    expect(ready.recent[0]).toMatchObject({ taskId: big.taskId, taskName: 'Card list', state: ExportState.Succeeded });
    expect((await t.call(BADGE, {}, { token: admin, lang: 'zh' })).body.data.recent[0].taskName).toBe('卡列表');
    expect((await download(t, admin, big.taskId)).statusCode).toBe(200);
    const after = await badge();
    expect(after.ready).toBe(before.ready);
    expect(after.recent.some((r: { taskId: string }) => r.taskId === big.taskId)).toBe(false);
  });

  it("counts only the caller's own tasks in the badge", async () => {
    const enterprise = await t.login('enterprise');
    const mine = await badge(enterprise);
    await callOk(t, CREATE, { source: CARD_LIST, filters: { iccid: '8988100', iccidMatch: 'prefix' } }, admin);
    expect(await badge(enterprise)).toEqual(mine);
  });

  it('describes the filters in words in both languages and keeps the title in both', async () => {
    const created = (await t.call(CREATE, { source: CARD_LIST, filters: { states: [CardState.Activated], operatorId: 1 } }, { token: admin, lang: 'zh' })).body.data;
    const zh = await task(created.taskId, admin, 'zh');
    const en = await task(created.taskId, admin, 'en');
    expect(zh.filtersText).toBe('状态：已激活；运营商：中国移动');
    expect(en.filtersText).toBe('State: Activated; Operator: China Mobile');
    // created from the Chinese console, read in the English one: an English title
    expect(zh.taskName).toBe('卡列表');
    expect(en.taskName).toBe('Card list');
  });

  it('names customers, plans and ranges, and never names what the owner may not see', async () => {
    const enterprise = await t.login('enterprise');
    const own = await ownerOf(t, 'enterprise');
    const [other] = await t.database.sql.query<{ cust_id: number }>('select cust_id from customers where cust_name = $1', [HD]);
    const [mine] = await t.database.sql.query<{ cust_name: string }>('select cust_name from customers where cust_id = $1', [own.cust_id]);
    const filters = { custId: own.cust_id, activatedFrom: '2026-11-01', activatedTo: '2026-11-30', iccid: '898600', iccidMatch: 'prefix', online: true, quotaLevel: 'near' };
    const created = await callOk(t, CREATE, { source: CARD_LIST, filters }, enterprise);
    const en = await task(created.taskId, enterprise, 'en');
    expect(en.filtersText).toBe(`ICCID: 898600 (prefix); Customer: ${mine.cust_name}; Activated: 2026-11-01 – 2026-11-30; Online: Yes; Quota this cycle: Near quota (≥ 80 %)`);
    const zh = await task(created.taskId, enterprise, 'zh');
    expect(zh.filtersText).toBe(`ICCID：898600（前缀）；客户：${mine.cust_name}；激活日期：2026-11-01 至 2026-11-30；在线：是；本周期额度：接近额度（≥80%）`);
    const foreign = await callOk(t, CREATE, { source: CARD_LIST, filters: { custId: other.cust_id } }, enterprise);
    expect((await task(foreign.taskId, enterprise, 'en')).filtersText).toBe(`Customer: #${other.cust_id}`);
    const none = await callOk(t, CREATE, { source: CARD_LIST, filters: {} }, enterprise);
    expect((await task(none.taskId, enterprise, 'en')).filtersText).toBe('');
  });

  it('has words for every filter of every exportable list', () => {
    const byName = new Map(endpoints.map((e) => [e.name, e]));
    const missing: string[] = [];
    for (const source of t.deps.exports.sources()) {
      const fields = t.deps.exports.filterFieldsOf(source)!;
      const body = byName.get(source)!.body as unknown as { properties: Record<string, unknown> };
      for (const key of Object.keys(body.properties)) {
        if (PAGING.has(key)) continue;
        const f = fieldOf(key, fields.own, fields.registered);
        if (!f || (!f.hidden && (!f.title.zh || !f.title.en))) missing.push(`${source}: ${key}`);
      }
    }
    expect(missing).toEqual([]);
  });
});
