import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import ExcelJS from 'exceljs';
import { ErrorCode, ExportFormat, ExportState } from '@lynx/contract';
import { backends, seededInstallation, startTestApp, waitFor, type TestApp } from './harness.ts';

async function finished(t: TestApp, token: string, taskId: string, ms = 20_000) {
  return waitFor(async () => {
    const r = await t.call('core/downloadTask/getListPage', {}, { token });
    const task = r.body.data.list.find((x: any) => x.taskId === taskId);
    return task && task.state !== ExportState.InProcess ? task : null;
  }, ms);
}

const download = (t: TestApp, token: string, taskId: string, lang: 'zh' | 'en' = 'en') =>
  t.app.inject({ method: 'GET', url: `/api/cmp/core/downloadTask/download?taskId=${taskId}&ts=1&lang=${lang}`, headers: { authorization: token } });

describe.each(backends)('exports on %s', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(backend);
  });
  afterAll(() => t?.stop());

  it('exports a list to xlsx in the requester language, with enum labels, and only the owner tenant downloads it', async () => {
    const admin = await t.login('admin');
    await t.login('manager');
    const created = await t.call('core/downloadTask/createExport', { source: 'core/account/operationLog/getListPage', filters: { action: 1 } }, { token: admin, lang: 'zh' });
    expect(created.body.success).toBe(true);
    const task = await finished(t, admin, created.body.data.taskId);
    expect(task.state).toBe(ExportState.Succeeded);
    // created in Chinese, listed in English: the title follows the reader's language
    expect(task.taskName).toBe('User behaviour log');
    expect(task.direct).toBe(true);
    expect(task.rowCount).toBeGreaterThanOrEqual(2);

    const res = await download(t, admin, task.taskId, 'zh');
    expect(res.statusCode).toBe(200);
    // an attachment under the task's name in the caller's language, never rendered by the browser
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="_-\d{12}\.xlsx"; filename\*=UTF-8''%E7%94%A8%E6%88%B7%E8%A1%8C%E4%B8%BA%E6%97%A5%E5%BF%97-\d{12}\.xlsx$/);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'; sandbox");
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const ws = wb.worksheets[0];
    expect(ws.getRow(1).values).toEqual([undefined, '时间 (UTC+8)', '登录名', '行为', '对象', '说明', 'IP']);
    const actions = new Set<string>();
    ws.eachRow((row, i) => {
      if (i > 1) actions.add(String(row.getCell(3).value));
    });
    expect([...actions]).toEqual(['登录']);
    expect(ws.rowCount - 1).toBe(task.rowCount);

    // a customer cannot download the staff's file, and gets the same answer as for a missing task
    const enterprise = await t.login('enterprise');
    const foreign = await download(t, enterprise, task.taskId);
    const missing = await download(t, enterprise, '00000000-0000-4000-8000-000000000000');
    expect(foreign.json()).toEqual(missing.json());
    expect(foreign.json().errorCode).toBe(ErrorCode.NotFound);
    // and does not see it in its task list
    const theirs = await t.call('core/downloadTask/getListPage', {}, { token: enterprise });
    expect(theirs.body.data.list.some((x: any) => x.taskId === task.taskId)).toBe(false);
  });

  it('exports csv with a BOM and English headers', async () => {
    const admin = await t.login('admin');
    const created = await t.call('core/downloadTask/createExport', { source: 'core/account/account/getAccountListPage', format: ExportFormat.Csv }, { token: admin, lang: 'en' });
    const task = await finished(t, admin, created.body.data.taskId);
    expect(task.state).toBe(ExportState.Succeeded);
    const res = await download(t, admin, task.taskId);
    expect(res.body.charCodeAt(0)).toBe(0xfeff);
    const lines = res.body.slice(1).trim().split('\r\n');
    expect(lines[0]).toBe('Login name,User name,Role,Customer,Phone,E-mail,Status,Last login (UTC+8),Created (UTC+8)');
    expect(lines.some((l) => l.startsWith('enterprise,') && l.includes(',Normal,'))).toBe(true);
  });

  it('refuses unknown sources, lists the user lacks permission for, and bad filters', async () => {
    const sub = await t.login('subcustomer');
    expect((await t.call('core/downloadTask/createExport', { source: 'nope/list' }, { token: sub })).body.errorCode).toBe(ErrorCode.ExportNotExportable);
    expect((await t.call('core/downloadTask/createExport', { source: 'system/apiLog/getListPage' }, { token: sub })).body.errorCode).toBe(ErrorCode.PermissionDenied);
    const admin = await t.login('admin');
    const bad = await t.call('core/downloadTask/createExport', { source: 'core/account/account/getAccountListPage', filters: { hacker: 1 } }, { token: admin });
    expect(bad.body.errorCode).toBe(ErrorCode.Validation);
  });
});

describe('export jobs are durable', () => {
  it('a queued export survives a server restart and completes afterwards (PGlite on disk)', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lynx-restart-'));
    try {
      // first process: no workers, so the job only gets queued
      // (the first start from the seeded image: the test pays for the restart, not for a first start's seed)
      const a = await startTestApp('pglite', { runWorkers: false }, { dataDir, fromImage: true });
      const admin = await a.login('admin');
      // QR code images are always drawn by a job (small table exports are written during the call)
      const iccids = (await a.database.sql.query<{ iccid: string }>('select iccid from cards where state = 64 order by iccid limit 2')).map((r) => r.iccid);
      const created = await a.call('core/sim/simDetails/downloadQrCodes', { iccids }, { token: admin });
      expect(created.body.success).toBe(true);
      const taskId = created.body.data.taskId;
      await new Promise((r) => setTimeout(r, 1500));
      const pending = await a.call('core/downloadTask/getListPage', {}, { token: admin });
      expect(pending.body.data.list[0].state).toBe(ExportState.InProcess);
      await a.stop();

      // second process on the same data: the worker picks the job up
      const b = await startTestApp('pglite', { runWorkers: true }, { dataDir });
      const admin2 = await b.login('admin');
      // the second process starts its queue and workers first: give it time on a busy machine
      const task = await finished(b, admin2, taskId, 90_000);
      expect(task.state).toBe(ExportState.Succeeded);
      await b.stop();
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it.runIf(!!process.env.TEST_DATABASE_URL)('two server processes sharing one PostgreSQL queue never run the same job twice', async () => {
    // one database from the seeded template: the test pays for the two starts, not for migrations and the seed
    const pgdb = await seededInstallation('postgres');
    const a = await pgdb.open({}, { jobs: false });
    const b = await pgdb.open({}, { jobs: false });
    const runs: { app: string; id: string }[] = [];
    const slow = (app: string) => async (_data: unknown, job: { id: string }) => {
      runs.push({ app, id: job.id });
      await new Promise((r) => setTimeout(r, 20));
    };
    a.deps.jobs.define('test-count', slow('a'));
    b.deps.jobs.define('test-count', slow('b'));
    try {
      await a.startJobs(0.5);
      await b.startJobs(0.5);
      const N = 20;
      for (let i = 0; i < N; i++) await a.deps.jobs.send('test-count', { i });
      await waitFor(async () => runs.length >= N, 60_000);
      await new Promise((r) => setTimeout(r, 1500));
      const ids = runs.map((r) => r.id);
      expect(new Set(ids).size).toBe(N);
      expect(ids.length).toBe(N);
      expect(new Set(runs.map((r) => r.app)).size).toBe(2);
    } finally {
      await a.stop();
      await b.stop();
      await pgdb.remove();
    }
  });
});
