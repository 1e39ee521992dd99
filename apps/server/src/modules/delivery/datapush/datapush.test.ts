import fs from 'node:fs';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { CardState, Operator, Perm, RoleType, datapush, ErrorCode, businessDay, businessDayStartMs, errorMessage } from '@lynx/contract';
import { builtInRolePermissions } from '../../../seed/demo.ts';
import { backends, callOk, iccidsOf, insertCards, startTestApp, waitFor, HD, HD_SZ, ZX, ZX_EAST, type TestApp } from '../../../../test/harness.ts';
import { secretBoxFor } from '../../network/opconfig/secrets.ts';
import { startTestSftpServer, type TestSftpServer } from './test-sftp-server.ts';
import { createDueRuns, executeRun, lostRuns } from './datapush-run.ts';
import { CARD_COLUMNS, USAGE_COLUMNS } from './datapush-files.ts';

/**
 * Issue 15, SFTP data push (System › File push, 14030000): tasks validated with messages in both languages, sealed
 * credentials that never leave the server, "test connection" against a real in-process SFTP server (ssh2 Server with an
 * SFTP subsystem over a temporary directory) with the failure in words (wrong password, nothing listening, path
 * missing or not writable), "push now" through the job runner with the file read back from the server's directory
 * (content, rows and size match the run history), a run left by a dead worker taken over, the daily schedule once per
 * task and day, audit records, and every endpoint kept to the caller's tenant.
 */
const A = 'system/dataPush/';
const { DataPushRunState: RunState, DataPushFileType: FileType, DataPushAuthType: Auth } = datapush;

const freePort = async () => {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
};

describe.each(backends)('SFTP data push on %s', (backend) => {
  let t: TestApp;
  let sftp: TestSftpServer;
  let admin: string;
  let enterprise: string;
  let channel: string;
  let sub: string;
  const ids: Record<string, number> = {};
  const q = async <T = Record<string, unknown>>(text: string, params: unknown[] = []) => t.database.sql.query<T>(text, params);
  let base: Record<string, unknown>;
  /** an update body: the task's fields without its customer (which stays) */
  const edit = (o: Record<string, unknown>) => {
    const { custId: _c, ...rest } = { ...base, ...o };
    return rest;
  };

  beforeAll(async () => {
    t = await startTestApp(backend);
    sftp = await startTestSftpServer();
    fs.mkdirSync(sftp.local('/upload'));
    fs.mkdirSync(sftp.local('/readonly'));
    sftp.readOnly.add('/readonly');
    // of the built-in customer roles only the enterprise's holds File push (seed and migration 0052); a platform admin
    // grants it to the others (docs/data-push.md). Granted here to all three so the tests below see every kind of customer.
    const builtIn = builtInRolePermissions();
    expect([RoleType.Enterprise, RoleType.Channel, RoleType.SubCustomer].filter((r) => builtIn[r].includes(Perm.SystemDataPush))).toEqual([RoleType.Enterprise]);
    await q(`update roles set permissions = array_append(permissions, 14030000) where role_id in (3000, 4000, 5000) and not 14030000 = any (permissions)`);
    admin = await t.login('admin');
    enterprise = await t.login('enterprise');
    channel = await t.login('channel');
    sub = await t.login('subcustomer');
    for (const name of [ZX, ZX_EAST, HD, HD_SZ]) ids[name] = (await q<{ cust_id: number }>('select cust_id from customers where cust_name = $1', [name]))[0].cust_id;
    base = {
      custId: ids[ZX], taskName: '每日卡片', fileType: FileType.CardList, host: '127.0.0.1', port: sftp.port, account: sftp.user,
      authType: Auth.Password, password: sftp.password, remotePath: '/upload', pushTime: '02:30',
    };
  });
  afterAll(async () => {
    await t?.stop();
    await sftp?.close();
  });

  it('validates a task with messages in both languages; a refused task writes nothing', async () => {
    const before = (await q<{ n: string }>('select count(*) n from data_push_tasks'))[0].n;
    const cases: [Record<string, unknown>, string, RegExp, RegExp][] = [
      [{ host: 'sftp://bad host' }, 'host', /有效的主机名或 IP 地址/, /valid host name or IP address/],
      [{ host: 'files.example.com:22' }, 'host', /主机名/, /host name/],
      [{ remotePath: 'upload/cards' }, 'remotePath', /绝对路径/, /must be absolute/],
      [{ remotePath: '/upload/../etc' }, 'remotePath', /\.\./, /\.\./],
      [{ account: 'a b' }, 'account', /空格/, /spaces/],
      [{ pushTime: '24:00' }, 'pushTime', /HH:mm/, /HH:mm/],
      [{ taskName: '   ' }, 'taskName', /请选择或输入/, /Please select or enter/],
    ];
    for (const [bad, field, zh, en] of cases) {
      const z = await t.call(`${A}insert`, { ...base, ...bad }, { token: admin, lang: 'zh' });
      expect(z.body.errorCode, JSON.stringify(bad)).toBe(ErrorCode.Validation);
      expect(z.body.msg).toContain(field);
      expect(z.body.msg).toMatch(zh);
      const e = await t.call(`${A}insert`, { ...base, ...bad }, { token: admin, lang: 'en' });
      expect(e.body.msg).toMatch(en);
    }
    for (const port of [0, 65536]) {
      const z = await t.call(`${A}insert`, { ...base, port }, { token: admin, lang: 'zh' });
      expect(z.body.errorCode).toBe(ErrorCode.Validation);
      expect(z.body.msg).toContain('port');
    }
    const noPass = await t.call(`${A}insert`, { ...base, password: '' }, { token: admin, lang: 'en' });
    expect(noPass.body).toMatchObject({ errorCode: ErrorCode.Validation, msg: 'Field password: enter the password' });
    const badKey = await t.call(`${A}insert`, { ...base, authType: Auth.PrivateKey, privateKey: '-----BEGIN OPENSSH PRIVATE KEY-----\nnope\n-----END OPENSSH PRIVATE KEY-----' }, { token: admin, lang: 'zh' });
    expect(badKey.body).toMatchObject({ errorCode: ErrorCode.DataPushKeyInvalid, msg: '私钥格式错误或口令不正确' });
    // staff name the customer
    const { custId: _c, ...noCust } = base;
    expect((await t.call(`${A}insert`, noCust, { token: admin })).body.msg).toMatch(/custId: choose a customer/);
    expect((await t.call(`${A}insert`, { ...base, custId: 999999 }, { token: admin })).body.errorCode).toBe(ErrorCode.NotFound);
    expect((await t.call(`${A}insert`, { ...base, bogus: 1 }, { token: admin })).body.success).toBe(false);
    expect((await q<{ n: string }>('select count(*) n from data_push_tasks'))[0].n).toBe(before);
  });

  it('adds a task with its password sealed, never answered, audited without it; a name once per customer', async () => {
    const task = await callOk(t, `${A}insert`, { ...base, host: ' 127.0.0.1 ', remotePath: '/upload/' }, admin);
    expect(task).toMatchObject({ custId: ids[ZX], custName: ZX, taskName: '每日卡片', host: '127.0.0.1', port: sftp.port, remotePath: '/upload', hasSecret: true, open: 1, lastRun: null, createdBy: 'admin' });
    expect(JSON.stringify(task)).not.toContain(sftp.password);
    const [row] = await q<{ credentials_sealed: string }>('select credentials_sealed from data_push_tasks where task_id = $1', [task.taskId]);
    expect(row.credentials_sealed).toMatch(/^v1:/);
    expect(row.credentials_sealed).not.toContain(sftp.password);
    const audits = await q<{ after: unknown }>(`select after from audit_log where entity = 'dataPushTask' and entity_id = $1`, [String(task.taskId)]);
    expect(audits).toHaveLength(1);
    expect(JSON.stringify(audits)).not.toContain(sftp.password);

    const dup = await t.call(`${A}insert`, { ...base, taskName: '每日卡片' }, { token: admin, lang: 'zh' });
    expect(dup.body).toMatchObject({ errorCode: ErrorCode.DataPushNameTaken, msg: '该客户已有名为“每日卡片”的推送任务' });
    const dupEn = await t.call(`${A}insert`, { ...base, taskName: '每日卡片' }, { token: admin, lang: 'en' });
    expect(dupEn.body.msg).toBe('This customer already has a push task named "每日卡片"');
    // the same name for another customer is fine
    const other = await callOk(t, `${A}insert`, { ...base, custId: ids[HD] }, admin);
    expect(other.custName).toBe(HD);

    const list = await callOk(t, `${A}getListPage`, { taskName: '每日', custId: ids[ZX] }, admin);
    expect(list.list.map((r: { taskId: number }) => r.taskId)).toEqual([task.taskId]);
    expect(JSON.stringify(list)).not.toContain(sftp.password);

    // an edit with the password left empty keeps it; a new time is audited before and after
    const edited = await callOk(t, `${A}update`, edit({ taskId: task.taskId, password: '', pushTime: '03:15', taskName: '每日卡片清单' }), admin);
    expect(edited).toMatchObject({ pushTime: '03:15', taskName: '每日卡片清单', hasSecret: true });
    const test = await callOk(t, `${A}testConnection`, { taskId: task.taskId, host: '127.0.0.1', port: sftp.port, account: sftp.user, authType: Auth.Password, remotePath: '/upload' }, admin);
    expect(test.ok).toBe(true);
    // a stored password is never sent to another server than the one it was given for
    const elsewhere = await t.call(`${A}testConnection`, { taskId: task.taskId, host: 'localhost', port: sftp.port, account: sftp.user, authType: Auth.Password, remotePath: '/upload' }, { token: admin, lang: 'en' });
    expect(elsewhere.body).toMatchObject({ errorCode: ErrorCode.Validation, msg: 'Field password: the address or account changed: enter the password again' });
    const moved = await t.call(`${A}update`, edit({ taskId: task.taskId, password: '', account: 'other' }), { token: admin, lang: 'zh' });
    expect(moved.body).toMatchObject({ errorCode: ErrorCode.Validation, msg: '字段 password：地址或账号已修改，请重新输入密码' });
    // switching to a private key needs the key
    const noKey = await t.call(`${A}update`, edit({ taskId: task.taskId, authType: Auth.PrivateKey, password: '' }), { token: admin, lang: 'en' });
    expect(noKey.body).toMatchObject({ errorCode: ErrorCode.Validation, msg: 'Field privateKey: enter the private key' });

    const off = await callOk(t, `${A}openById`, { taskId: task.taskId, open: 0 }, admin);
    expect(off.open).toBe(0);
    expect((await callOk(t, `${A}getListPage`, { open: 0 }, admin)).list.map((r: { taskId: number }) => r.taskId)).toContain(task.taskId);
    expect((await callOk(t, `${A}openById`, { taskId: task.taskId, open: 1 }, admin)).open).toBe(1);
    expect((await q(`select 1 from audit_log where entity = 'dataPushTask' and entity_id = $1`, [String(task.taskId)])).length).toBe(4);

    await callOk(t, `${A}deleteById`, { taskId: other.taskId }, admin);
    expect((await t.call(`${A}getRunPage`, { taskId: other.taskId }, { token: admin })).body.errorCode).toBe(ErrorCode.NotFound);
    expect((await callOk(t, `${A}getListPage`, { custId: ids[HD] }, admin)).total).toBe(0);
  });

  it('tests a connection and says in words what is wrong: wrong password, nothing listening, path missing or not writable', async () => {
    const conn = { host: '127.0.0.1', port: sftp.port, account: sftp.user, authType: Auth.Password, password: sftp.password, remotePath: '/upload' };
    const test = (body: Record<string, unknown>, lang: 'zh' | 'en' = 'en') => t.call(`${A}testConnection`, { ...conn, ...body }, { token: admin, lang }).then((r) => {
      expect(r.body.success).toBe(true);
      return r.body.data as { ok: boolean; message: string; errorCode: number | null };
    });
    expect(await test({})).toMatchObject({ ok: true, errorCode: null, message: 'Connected; the path /upload is writable' });
    expect(await test({}, 'zh')).toMatchObject({ ok: true, message: '连接成功，路径 /upload 可写' });
    // the probe file is gone
    expect(fs.readdirSync(sftp.local('/upload')).filter((f) => f.startsWith('.lynx-probe'))).toEqual([]);
    expect(await test({ password: 'wrong-password' })).toMatchObject({ ok: false, errorCode: ErrorCode.DataPushAuthFailed, message: `Sign-in as ${sftp.user} failed: wrong account, password or private key` });
    expect(await test({ password: 'wrong-password' }, 'zh')).toMatchObject({ message: `账号 ${sftp.user} 登录失败：账号、密码或私钥错误` });
    const closed = await freePort();
    expect(await test({ port: closed })).toMatchObject({ ok: false, errorCode: ErrorCode.DataPushConnectRefused, message: `Cannot connect to 127.0.0.1:${closed}: the connection was refused; check the address and port` });
    expect(await test({ remotePath: '/readonly' })).toMatchObject({ ok: false, errorCode: ErrorCode.DataPushPathNotWritable, message: 'The path /readonly is not writable: permission denied' });
    expect(await test({ remotePath: '/readonly' }, 'zh')).toMatchObject({ message: '路径 /readonly 不可写：没有写入权限' });
    expect(await test({ remotePath: '/nowhere' })).toMatchObject({ ok: false, errorCode: ErrorCode.DataPushPathMissing, message: 'The path /nowhere does not exist or is not a directory' });
    // a private key the server accepts
    expect(await test({ authType: Auth.PrivateKey, password: undefined, privateKey: sftp.clientKey })).toMatchObject({ ok: true });
    // a bad field is an error of the call, as on save
    expect((await t.call(`${A}testConnection`, { ...conn, remotePath: 'relative' }, { token: admin })).body.errorCode).toBe(ErrorCode.Validation);
  });

  it('pins the server\'s host key: the test shows its fingerprint, the first push pins it, another key is refused until accepted', async () => {
    const box = secretBoxFor(t.config);
    const other = await startTestSftpServer({ user: sftp.user, password: sftp.password });
    try {
      fs.mkdirSync(other.local('/upload'));
      const conn = { host: '127.0.0.1', port: sftp.port, account: sftp.user, authType: Auth.Password, password: sftp.password, remotePath: '/upload' };
      const tested = await callOk(t, `${A}testConnection`, conn, admin);
      expect(tested).toMatchObject({ ok: true, hostKeyChanged: false });
      expect(tested.hostKey).toMatch(/^SHA256:[A-Za-z0-9+/]{43}$/);
      // the fingerprint is shown also when the sign-in fails (the handshake came first)
      expect((await callOk(t, `${A}testConnection`, { ...conn, password: 'wrong-password' }, admin)).hostKey).toBe(tested.hostKey);
      const otherKey = (await callOk(t, `${A}testConnection`, { ...conn, port: other.port }, admin)).hostKey;
      expect(otherKey).toMatch(/^SHA256:/);
      expect(otherKey).not.toBe(tested.hostKey);
      // saved with the accepted fingerprint; a malformed one is refused
      const accepted = await callOk(t, `${A}insert`, { ...base, taskName: 'pinned', hostKey: tested.hostKey }, admin);
      expect(accepted.hostKey).toBe(tested.hostKey);
      expect((await t.call(`${A}insert`, { ...base, taskName: 'pinned-bad', hostKey: 'MD5:aa:bb' }, { token: admin })).body.errorCode).toBe(ErrorCode.Validation);

      // a task saved without one (as before keys were pinned): the first push pins the key it meets
      const task = await callOk(t, `${A}insert`, { ...base, taskName: 'tofu' }, admin);
      expect(task.hostKey).toBeNull();
      const push = async () => {
        const run = await callOk(t, `${A}pushNow`, { taskId: task.taskId }, admin);
        return executeRun(t.deps.db, box, run.runId);
      };
      // the job runner may have claimed the run first: the outcome is read from the run either way
      const outcome = async () => {
        const page = await callOk(t, `${A}getRunPage`, { taskId: task.taskId }, admin);
        return page.list[0] as { state: number; error: string | null; attempts: number };
      };
      await push();
      expect(await waitFor(async () => ((await outcome()).state === RunState.Succeeded ? true : null), 90_000)).toBe(true);
      expect((await callOk(t, `${A}getListPage`, { taskName: 'tofu' }, admin)).list[0].hostKey).toBe(tested.hostKey);

      // the server behind the address now presents another key (moved to the other server, key kept): refused, not retried
      await q('update data_push_tasks set port = $2 where task_id = $1', [task.taskId, other.port]);
      await push();
      const refused = await waitFor(async () => {
        const r = await outcome();
        return r.state === RunState.Failed ? r : null;
      }, 90_000);
      expect(refused.attempts).toBe(1);
      const params = { host: '127.0.0.1', port: other.port, expected: tested.hostKey, actual: otherKey };
      expect(refused.error).toBe(errorMessage(ErrorCode.DataPushHostKeyChanged, 'en', params));
      expect(refused.error).toMatch(/^The host key of the SFTP server 127\.0\.0\.1:\d+ has changed \(accepted fingerprint SHA256:/);
      const zhRun = (await t.call(`${A}getRunPage`, { taskId: task.taskId }, { token: admin, lang: 'zh' })).body.data.list[0];
      expect(zhRun.error).toBe(errorMessage(ErrorCode.DataPushHostKeyChanged, 'zh', params));
      expect(zhRun.error).toMatch(/^SFTP 服务器 127\.0\.0\.1:\d+ 的主机密钥已变更/);
      // the impostor received nothing
      expect(fs.readdirSync(other.local('/upload'))).toEqual([]);

      // testing again says so; saving the shown fingerprint accepts it and the push goes through
      const again = (await t.call(`${A}testConnection`, { ...conn, port: other.port, password: undefined, taskId: task.taskId }, { token: admin, lang: 'en' })).body.data;
      expect(again).toMatchObject({ ok: true, hostKey: otherKey, hostKeyChanged: true });
      expect(again.message).toContain('host key differs from the one the task accepted');
      const saved = await callOk(t, `${A}update`, edit({ taskId: task.taskId, taskName: 'tofu', port: other.port, password: '', hostKey: again.hostKey }), admin);
      expect(saved.hostKey).toBe(otherKey);
      await push();
      expect(await waitFor(async () => ((await outcome()).state === RunState.Succeeded ? true : null), 90_000)).toBe(true);
      expect(fs.readdirSync(other.local('/upload')).filter((f) => f.endsWith('.csv'))).toHaveLength(1);
      // a new address without a fingerprint drops the pin (the next push pins the new server's key)
      const moved = await callOk(t, `${A}update`, edit({ taskId: task.taskId, taskName: 'tofu', port: sftp.port, password: sftp.password }), admin);
      expect(moved.hostKey).toBeNull();
      const audit = await q<{ after: { hostKey: string | null } }>(`select after from audit_log where entity = 'dataPushTask' and entity_id = $1 order by created_at`, [String(task.taskId)]);
      expect(audit.map((a) => a.after.hostKey)).toEqual([null, otherKey, null]);
    } finally {
      await other.close();
    }
  }, 300_000);

  it('pushes the card list now through the job runner: the file on the server matches the run history', async () => {
    const task = await callOk(t, `${A}insert`, { ...base, taskName: 'push-now' }, admin);
    const run = await callOk(t, `${A}pushNow`, { taskId: task.taskId }, admin);
    expect(run).toMatchObject({ taskId: task.taskId, trigger: datapush.DataPushTrigger.Manual, requestedBy: 'admin' });
    const done = await waitFor(async () => {
      const page = await callOk(t, `${A}getRunPage`, { taskId: task.taskId }, admin);
      const r = page.list.find((x: { runId: number }) => x.runId === run.runId);
      return r && r.state !== RunState.Waiting && r.state !== RunState.Running ? r : null;
    });
    expect(done).toMatchObject({ state: RunState.Succeeded, error: null, attempts: 1 });
    expect(done.fileName).toMatch(new RegExp(`^cards_${ids[ZX]}_\\d{8}_\\d{6}\\.csv$`));
    const file = fs.readFileSync(sftp.local(`/upload/${done.fileName}`));
    expect(file.length).toBe(done.sizeBytes);
    const lines = file.toString('utf8').split('\n');
    expect(lines.pop()).toBe('');
    expect(lines[0]).toBe(CARD_COLUMNS.join(','));
    const cards = await q<{ iccid: string }>('select iccid from cards where root_cust_id = $1 order by iccid', [ids[ZX]]);
    expect(cards.length).toBeGreaterThan(0);
    expect(done.rowCount).toBe(cards.length);
    expect(lines.slice(1).map((l) => l.split(',')[0])).toEqual(cards.map((c) => c.iccid));
    // no temporary file is left behind
    expect(fs.readdirSync(sftp.local('/upload')).filter((f) => f.endsWith('.part'))).toEqual([]);
    const listed = (await callOk(t, `${A}getListPage`, { taskName: 'push-now' }, admin)).list[0];
    expect(listed.lastRun).toMatchObject({ runId: run.runId, state: RunState.Succeeded, fileName: done.fileName });
    expect((await q(`select 1 from audit_log where entity = 'dataPushRun' and entity_id = $1`, [String(run.runId)])).length).toBe(1);
  });

  it('streams a file of many keyset pages (12,001 cards) in ICCID order, every card once, size as sent', async () => {
    const [owner] = await q<{ cust_id: number; root_cust_id: number }>('select cust_id, root_cust_id from customers where cust_id = $1', [ids[HD_SZ]]);
    await insertCards(t, iccidsOf('8986957', 0, 12_001), { state: CardState.Activated, owner, operatorId: Operator.ChinaUnicom });
    const task = await callOk(t, `${A}insert`, { ...base, taskName: 'many', custId: ids[HD_SZ] }, admin);
    const [{ run_id: id }] = await q<{ run_id: string }>(`insert into data_push_runs (task_id, cust_id, root_cust_id, trigger)
      select task_id, cust_id, root_cust_id, 2 from data_push_tasks where task_id = $1 returning run_id`, [task.taskId]);
    const out = await executeRun(t.deps.db, secretBoxFor(t.config), Number(id));
    if (out.claimed) expect(out.state).toBe(RunState.Succeeded);
    const r = await waitFor(async () => {
      const [x] = (await callOk(t, `${A}getRunPage`, { taskId: task.taskId }, admin)).list;
      return x.state === RunState.Succeeded || x.state === RunState.Failed ? x : null;
    });
    const cards = await q<{ iccid: string }>('select iccid from cards where cust_id = $1 order by iccid', [ids[HD_SZ]]);
    expect(cards.length).toBeGreaterThanOrEqual(12_001);
    expect(r).toMatchObject({ state: RunState.Succeeded, rowCount: cards.length });
    const file = fs.readFileSync(sftp.local(`/upload/${r.fileName}`));
    expect(file.length).toBe(r.sizeBytes);
    const iccids = file.toString('utf8').split('\n').filter(Boolean).slice(1).map((l) => l.split(',')[0]);
    expect(iccids).toEqual(cards.map((c) => c.iccid));
  });

  it('one push at a time per task; a failing push is retried and then failed with the reason in words', async () => {
    const task = await callOk(t, `${A}insert`, { ...base, taskName: 'busy' }, admin);
    const [{ cust_id, root_cust_id }] = await q<{ cust_id: number; root_cust_id: number }>('select cust_id, root_cust_id from data_push_tasks where task_id = $1', [task.taskId]);
    const [{ run_id: waiting }] = await q<{ run_id: string }>(`insert into data_push_runs (task_id, cust_id, root_cust_id, trigger, state, heartbeat_at)
      values ($1, $2, $3, 2, 2, now()) returning run_id`, [task.taskId, cust_id, root_cust_id]);
    const busy = await t.call(`${A}pushNow`, { taskId: task.taskId }, { token: admin, lang: 'zh' });
    expect(busy.body).toMatchObject({ errorCode: ErrorCode.DataPushBusy, msg: '该任务已有推送在进行中，请稍后再试' });
    // a running row with a live heartbeat is not taken by another worker
    expect(await executeRun(t.deps.db, secretBoxFor(t.config), Number(waiting))).toMatchObject({ claimed: false });
    await q(`update data_push_runs set state = 3, finished_at = now() where run_id = $1`, [waiting]);

    // the server's path became read-only: three tries, then failed with the reason
    await callOk(t, `${A}update`, edit({ taskId: task.taskId, taskName: 'busy', password: '', remotePath: '/readonly' }), admin);
    const [{ run_id: id }] = await q<{ run_id: string }>(`insert into data_push_runs (task_id, cust_id, root_cust_id, trigger) values ($1, $2, $3, 2) returning run_id`,
      [task.taskId, cust_id, root_cust_id]);
    const box = secretBoxFor(t.config);
    expect(await executeRun(t.deps.db, box, Number(id))).toMatchObject({ claimed: true, state: RunState.Waiting, retry: true });
    expect(await executeRun(t.deps.db, box, Number(id))).toMatchObject({ state: RunState.Waiting, retry: true });
    expect(await executeRun(t.deps.db, box, Number(id))).toMatchObject({ state: RunState.Failed, retry: false });
    const page = await callOk(t, `${A}getRunPage`, { taskId: task.taskId }, admin);
    expect(page.list[0]).toMatchObject({ runId: Number(id), state: RunState.Failed, attempts: 3, error: 'The path /readonly is not writable: permission denied' });
    const zh = await t.call(`${A}getRunPage`, { taskId: task.taskId }, { token: admin, lang: 'zh' });
    expect(zh.body.data.list[0].error).toBe('路径 /readonly 不可写：没有写入权限');
  });

  it('takes over a run whose worker died, and writes the daily usage file of the day before', async () => {
    const task = await callOk(t, `${A}insert`, { ...base, taskName: 'usage', fileType: FileType.DailyUsage, custId: ids[ZX_EAST] }, admin);
    const today = businessDay(Date.now());
    const yesterday = new Date(Date.parse(`${today}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
    // a worker was killed mid-push: running, heartbeat ten minutes old
    const [{ run_id: id }] = await q<{ run_id: string }>(`insert into data_push_runs (task_id, cust_id, root_cust_id, trigger, run_day, state, attempts, started_at, heartbeat_at)
      select task_id, cust_id, root_cust_id, 1, $2::date, 2, 1, now() - interval '10 minutes', now() - interval '10 minutes' from data_push_tasks where task_id = $1
      returning run_id`, [task.taskId, today]);
    expect(await lostRuns(t.deps.db)).toContain(Number(id));
    // the minute tick may hand it to the job runner first: either way it is pushed once, on its second try
    const out = await executeRun(t.deps.db, secretBoxFor(t.config), Number(id));
    if (out.claimed) expect(out.state).toBe(RunState.Succeeded);
    const r = await waitFor(async () => {
      const [x] = (await callOk(t, `${A}getRunPage`, { taskId: task.taskId }, admin)).list;
      return x.state === RunState.Succeeded || x.state === RunState.Failed ? x : null;
    });
    expect(r).toMatchObject({ runId: Number(id), state: RunState.Succeeded, attempts: 2, runDay: today });
    expect(r.fileName).toBe(r.fileName.replace(/\.part$/, ''));
    expect(r.fileName).toMatch(new RegExp(`^daily-usage_${ids[ZX_EAST]}_${yesterday.replace(/-/g, '')}_`));
    const text = fs.readFileSync(sftp.local(`/upload/${r.fileName}`), 'utf8');
    expect(Buffer.byteLength(text)).toBe(r.sizeBytes);
    const lines = text.split('\n').filter(Boolean);
    expect(lines[0]).toBe(USAGE_COLUMNS.join(','));
    const usage = await q<{ iccid: string }>('select iccid from card_usage_daily where day = $1::date and cust_id = $2 order by iccid', [yesterday, ids[ZX_EAST]]);
    expect(r.rowCount).toBe(usage.length);
    expect(lines.length - 1).toBe(usage.length);
    expect(await lostRuns(t.deps.db)).not.toContain(Number(id));
  });

  it('schedules one run per open task and business day once its time has come (not for a time already past when set)', async () => {
    const task = await callOk(t, `${A}insert`, { ...base, taskName: 'scheduled', pushTime: '02:30' }, admin);
    // tomorrow's times, so the real minute tick of the running server (today) never takes these runs
    const tomorrow = new Date(Date.parse(`${businessDay(Date.now())}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    const at = (hh: number, mm: number) => new Date(businessDayStartMs(tomorrow) + (hh * 60 + mm) * 60_000);
    const mine = async (now: Date) => {
      const created = await createDueRuns(t.deps.db, now);
      const rows = created.length ? await q<{ task_id: number }>('select task_id from data_push_runs where run_id = any($1::bigint[])', [created]) : [];
      return rows.filter((x) => Number(x.task_id) === task.taskId).length;
    };
    // switched on (or re-timed) after the day's time: that day is skipped
    await q(`update data_push_tasks set active_from = $2 where task_id = $1`, [task.taskId, at(3, 0).toISOString()]);
    expect(await mine(at(23, 59))).toBe(0);
    await q(`update data_push_tasks set active_from = now() where task_id = $1`, [task.taskId]);
    expect(await mine(at(2, 29))).toBe(0);
    expect(await mine(at(2, 30))).toBe(1);
    expect(await mine(at(2, 31))).toBe(0);
    expect(await mine(at(23, 0))).toBe(0);
    const runs = await q<{ trigger: number; day: string }>(`select trigger, to_char(run_day, 'YYYY-MM-DD') as day from data_push_runs where task_id = $1`, [task.taskId]);
    expect(runs.map((r) => [Number(r.trigger), r.day])).toEqual([[datapush.DataPushTrigger.Schedule, tomorrow]]);
    // switched off: no run the next day either
    await callOk(t, `${A}openById`, { taskId: task.taskId, open: 0 }, admin);
    await q(`delete from data_push_runs where task_id = $1`, [task.taskId]);
    expect(await mine(at(3, 0))).toBe(0);
  });

  it('keeps every endpoint to the caller\'s tenant, and a customer\'s task to its own cards', async () => {
    const zxTask = await callOk(t, `${A}insert`, { ...base, taskName: 'tenant-zx' }, admin);
    const hdTask = await callOk(t, `${A}insert`, { ...base, taskName: 'tenant-hd', custId: ids[HD] }, admin);
    // a customer adds for itself without naming the customer; naming another tree's customer is not found
    const { custId: _c, ...noCust } = base;
    const mine = await callOk(t, `${A}insert`, { ...noCust, taskName: 'ent-own' }, enterprise);
    expect(mine.custId).toBe(ids[ZX]);
    expect((await t.call(`${A}insert`, { ...base, taskName: 'x', custId: ids[HD] }, { token: enterprise })).body.errorCode).toBe(ErrorCode.NotFound);
    const subTask = await callOk(t, `${A}insert`, { ...noCust, taskName: 'sub-own' }, sub);
    expect(subTask.custId).toBe(ids[ZX_EAST]);
    expect((await t.call(`${A}insert`, { ...base, taskName: 'x', custId: ids[ZX] }, { token: sub })).body.errorCode).toBe(ErrorCode.NotFound);

    const seen = async (token: string) => (await callOk(t, `${A}getListPage`, { pageSize: 500 }, token)).list.map((r: { taskId: number }) => r.taskId);
    expect(await seen(enterprise)).toEqual(expect.arrayContaining([zxTask.taskId, mine.taskId, subTask.taskId]));
    expect(await seen(enterprise)).not.toContain(hdTask.taskId);
    expect(await seen(channel)).toContain(hdTask.taskId);
    expect(await seen(channel)).not.toContain(zxTask.taskId);
    expect(await seen(sub)).toContain(subTask.taskId);
    expect(await seen(sub)).not.toContain(zxTask.taskId);
    expect(await seen(sub)).not.toContain(mine.taskId);

    // every endpoint naming a task of another tenant answers as if it did not exist, and changes nothing
    const conn = { host: '127.0.0.1', port: sftp.port, account: sftp.user, authType: Auth.Password, remotePath: '/upload' };
    const calls: [string, Record<string, unknown>][] = [
      ['update', edit({ taskId: zxTask.taskId, taskName: 'stolen' })],
      ['deleteById', { taskId: zxTask.taskId }],
      ['openById', { taskId: zxTask.taskId, open: 0 }],
      ['pushNow', { taskId: zxTask.taskId }],
      ['getRunPage', { taskId: zxTask.taskId }],
      ['testConnection', { ...conn, taskId: zxTask.taskId }],
    ];
    for (const [name, body] of calls) {
      expect((await t.call(`${A}${name}`, body, { token: channel })).body.errorCode, name).toBe(ErrorCode.NotFound);
      expect((await t.call(`${A}${name}`, body, { token: sub })).body.errorCode, `sub ${name}`).toBe(ErrorCode.NotFound);
    }
    expect((await callOk(t, `${A}getListPage`, { taskName: 'tenant-zx' }, admin)).list[0]).toMatchObject({ taskName: 'tenant-zx', open: 1 });
    expect((await q('select 1 from data_push_runs where task_id = $1', [zxTask.taskId])).length).toBe(0);

    // the second-level customer's file holds its own cards only
    const run = await callOk(t, `${A}pushNow`, { taskId: subTask.taskId }, sub);
    const done = await waitFor(async () => {
      const r = (await callOk(t, `${A}getRunPage`, { taskId: subTask.taskId }, sub)).list[0];
      return r.state === RunState.Succeeded || r.state === RunState.Failed ? r : null;
    });
    expect(done).toMatchObject({ runId: run.runId, state: RunState.Succeeded });
    const rows = fs.readFileSync(sftp.local(`/upload/${done.fileName}`), 'utf8').split('\n').filter(Boolean).slice(1);
    const own = await q<{ iccid: string }>('select iccid from cards where cust_id = $1 order by iccid', [ids[ZX_EAST]]);
    expect(rows.map((l) => l.split(',')[0])).toEqual(own.map((c) => c.iccid));
    expect(rows.every((l) => l.split(',')[6] === String(ids[ZX_EAST]))).toBe(true);

    // without the permission: refused
    await q(`update roles set permissions = array_remove(permissions, 14030000) where role_id = 4000`);
    const channel2 = await t.login('channel');
    expect((await t.call(`${A}getListPage`, {}, { token: channel2 })).body.errorCode).toBe(ErrorCode.PermissionDenied);
  });
});
