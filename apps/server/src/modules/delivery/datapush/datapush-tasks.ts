import net from 'node:net';
import { sql, type SQL } from 'drizzle-orm';
import ssh2 from 'ssh2';
import { ErrorCode, validationMessages, type BodyOf, type datapush as api } from '@lynx/contract';
import type { Db, Executor } from '../../../db/client.ts';
import { audit } from '../../../platform/audit.ts';
import { AppError, invalid, notFound } from '../../../platform/errors.ts';
import type { Actor, SessionContext } from '../../../platform/context.ts';
import { contains, pageOf } from '../../../platform/paging.ts';
import type { SecretBox } from '../../network/opconfig/secrets.ts';
import { customerScope } from '../../money/capital-service.ts';
import { iso, rowsOf } from '../../billing/bills/bill-sql.ts';
import type { SftpTarget } from './datapush-sftp.ts';

/**
 * File push tasks (System › File push, 14030000; docs/data-push.md). A task belongs to one customer: staff name it, a
 * customer's user gets its own (a first-level customer may name one of its second-level customers). Read with raw
 * SQL, task aliased `t`, customer `c`. Secrets are sealed with the installation's key under a purpose bound to the
 * task id, and never leave the server.
 */

type TaskInput = Pick<BodyOf<typeof api.insertDataPush>,
  'taskName' | 'fileType' | 'host' | 'port' | 'account' | 'authType' | 'password' | 'privateKey' | 'passphrase' | 'remotePath' | 'pushTime' | 'hostKey'>;
type ConnectionInput = Pick<TaskInput, 'host' | 'port' | 'account' | 'authType' | 'password' | 'privateKey' | 'passphrase' | 'remotePath'>;

export const purposeOf = (taskId: number) => `data_push_tasks.credentials:${taskId}`;

const HOST_NAME = /^(?=.{1,253}$)[a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(\.[a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;
const ACCOUNT = /^[^\s\p{C}]{1,64}$/u;
const PUSH_TIME = /^([01]\d|2[0-3]):[0-5]\d$/;

/** The connection fields checked and tidied, with messages in both languages naming the field. */
export function checkConnection(b: ConnectionInput) {
  const host = b.host.trim();
  if (!HOST_NAME.test(host) && !net.isIP(host)) {
    throw invalid('host', { zh: '请输入有效的主机名或 IP 地址（不含协议和端口）', en: 'enter a valid host name or IP address (no scheme, no port)' });
  }
  if (!Number.isInteger(b.port) || b.port < 1 || b.port > 65535) throw invalid('port', { zh: '端口须为 1-65535 的整数', en: 'the port must be a whole number from 1 to 65535' });
  const account = b.account.trim();
  if (!ACCOUNT.test(account)) throw invalid('account', { zh: '账号不能为空且不能包含空格', en: 'the account must not be empty or contain spaces' });
  const remotePath = b.remotePath.trim().replace(/\/+$/, '') || '/';
  if (!remotePath.startsWith('/')) throw invalid('remotePath', { zh: '路径须为以 / 开头的绝对路径', en: 'the path must be absolute, starting with /' });
  if (/[\p{C}\\]/u.test(remotePath) || remotePath.split('/').some((s) => s === '..' || s === '.')) {
    throw invalid('remotePath', { zh: '路径不能包含 .、..、反斜杠或控制字符', en: 'the path must not contain ., .., backslashes or control characters' });
  }
  const password = b.password || null;
  const privateKey = b.privateKey?.trim() ? `${b.privateKey.trim()}\n` : null;
  const passphrase = b.passphrase || null;
  if (b.authType === 2 && privateKey) {
    const parsed = ssh2.utils.parseKey(privateKey, passphrase ?? undefined);
    if (parsed instanceof Error || (Array.isArray(parsed) && !parsed.length)) throw new AppError(ErrorCode.DataPushKeyInvalid);
  }
  return { host, port: b.port, account, authType: b.authType, password, privateKey, passphrase, remotePath };
}

function checkTask(b: TaskInput) {
  const taskName = b.taskName.trim();
  if (!taskName) throw invalid('taskName', validationMessages.required);
  if (!PUSH_TIME.test(b.pushTime)) throw invalid('pushTime', { zh: '推送时间格式为 HH:mm，如 02:30', en: 'the push time is HH:mm, e.g. 02:30' });
  return { taskName, fileType: b.fileType, pushTime: b.pushTime, hostKey: b.hostKey ?? null, ...checkConnection(b) };
}

/**
 * The secrets to seal for a task: the typed ones, else the stored ones when the sign-in kind, the address and the account
 * stay the same (a stored password is never sent to another server than the one it was given for).
 */
function secretsOf(v: ReturnType<typeof checkConnection>, stored: StoredSecret | null): Record<string, string> {
  const reusable = stored != null && stored.authType === v.authType && stored.host === v.host && stored.port === v.port && stored.account === v.account;
  const moved = stored != null && stored.authType === v.authType && !reusable;
  if (v.authType === 1) {
    const password = v.password ?? (reusable ? stored.secrets.password : undefined);
    if (!password) {
      throw invalid('password', moved
        ? { zh: '地址或账号已修改，请重新输入密码', en: 'the address or account changed: enter the password again' }
        : { zh: '请填写密码', en: 'enter the password' });
    }
    return { password };
  }
  if (v.privateKey) return { privateKey: v.privateKey, ...(v.passphrase ? { passphrase: v.passphrase } : {}) };
  if (reusable && stored.secrets.privateKey) {
    const passphrase = v.passphrase ?? stored.secrets.passphrase;
    return { privateKey: stored.secrets.privateKey, ...(passphrase ? { passphrase } : {}) };
  }
  throw invalid('privateKey', moved
    ? { zh: '地址或账号已修改，请重新输入私钥', en: 'the address or account changed: enter the private key again' }
    : { zh: '请填写私钥', en: 'enter the private key' });
}

/** A saved task's secrets with what they were given for. */
interface StoredSecret { authType: number; host: string; port: number; account: string; secrets: Record<string, string> }

const TASK_SELECT = sql`select t.task_id, t.cust_id, t.root_cust_id, c.cust_name, c.level, t.task_name, t.file_type, t.host, t.port, t.account, t.auth_type,
    t.credentials_sealed is not null as has_secret, t.remote_path, t.host_key, t.push_time, t.open, t.created_by, t.created_at, t.updated_by, t.updated_at,
    lr.run_id as last_run_id, lr.state as last_state, lr.file_name as last_file, lr.created_at as last_at
  from data_push_tasks t join customers c on c.cust_id = t.cust_id
  left join lateral (select r.run_id, r.state, r.file_name, r.created_at from data_push_runs r where r.task_id = t.task_id
    order by r.run_id desc limit 1) lr on true`;

export type TaskOut = ReturnType<typeof taskOut>;

function taskOut(r: Record<string, unknown>) {
  return {
    taskId: Number(r.task_id), custId: Number(r.cust_id), custName: String(r.cust_name), taskName: String(r.task_name), fileType: Number(r.file_type),
    host: String(r.host), port: Number(r.port), account: String(r.account), authType: Number(r.auth_type), hasSecret: Boolean(r.has_secret),
    remotePath: String(r.remote_path), hostKey: (r.host_key as string | null) ?? null, pushTime: String(r.push_time), open: r.open ? 1 : 0,
    lastRun: r.last_run_id == null ? null : { runId: Number(r.last_run_id), state: Number(r.last_state), fileName: (r.last_file as string | null) ?? null, at: iso(r.last_at)! },
    createdBy: String(r.created_by), createdAt: iso(r.created_at)!, updatedBy: (r.updated_by as string | null) ?? null, updatedAt: iso(r.updated_at)!,
  };
}

/** What the audit trail keeps of a task (no secrets: only whether one is stored). */
const auditView = (t: TaskOut) => ({
  custId: t.custId, custName: t.custName, taskName: t.taskName, fileType: t.fileType, host: t.host, port: t.port, account: t.account,
  authType: t.authType, hasSecret: t.hasSecret, remotePath: t.remotePath, hostKey: t.hostKey, pushTime: t.pushTime, open: t.open,
});

const isUniqueViolation = (e: unknown) => {
  for (let c: unknown = e; c; c = (c as { cause?: unknown }).cause) if ((c as { code?: string }).code === '23505') return true;
  return false;
};

export class DataPushTaskService {
  constructor(private db: Db, private box: () => SecretBox) {}

  async list(q: BodyOf<typeof api.getDataPushListPage>, actor: Actor) {
    const p = pageOf(q);
    const where: SQL[] = [sql`t.deleted_at is null`, customerScope(actor, 't')];
    if (q.custId !== undefined) where.push(sql`t.cust_id = ${q.custId}`);
    if (q.taskName?.trim()) where.push(sql`t.task_name ilike ${contains(q.taskName.trim())}`);
    if (q.host?.trim()) where.push(sql`t.host ilike ${contains(q.host.trim())}`);
    if (q.fileType !== undefined) where.push(sql`t.file_type = ${q.fileType}`);
    if (q.open !== undefined) where.push(q.open ? sql`t.open` : sql`not t.open`);
    const cond = sql.join(where, sql` and `);
    const rows = rowsOf<Record<string, unknown>>(await this.db.execute(sql`${TASK_SELECT} where ${cond} order by t.task_id desc limit ${p.limit} offset ${p.offset}`));
    const [{ n }] = rowsOf<{ n: string }>(await this.db.execute(sql`select count(*) as n from data_push_tasks t where ${cond}`));
    return { list: rows.map(taskOut), total: Number(n), current: p.current, pageSize: p.pageSize };
  }

  /** One live task as the actor may see it (NotFound otherwise, whether it exists or not). */
  async detail(taskId: number, actor: Actor, ex: Executor = this.db) {
    const [r] = rowsOf<Record<string, unknown>>(await ex.execute(sql`${TASK_SELECT} where t.task_id = ${taskId} and t.deleted_at is null and ${customerScope(actor, 't')}`));
    if (!r) throw notFound();
    return taskOut(r);
  }

  async insert(b: BodyOf<typeof api.insertDataPush>, ctx: SessionContext) {
    const v = checkTask(b);
    const custId = b.custId ?? ctx.actor.custId;
    if (custId == null) throw invalid('custId', { zh: '请选择客户', en: 'choose a customer' });
    try {
      return await this.db.transaction(async (tx) => {
        const [cust] = rowsOf<{ cust_id: number; root_cust_id: number }>(await tx.execute(sql`select cust_id, root_cust_id from customers c
          where c.cust_id = ${custId} and ${customerScope(ctx.actor)} for share`));
        if (!cust) throw notFound();
        await this.nameFree(tx, cust.cust_id, v.taskName, null);
        const secrets = secretsOf(v, null);
        const [{ task_id: id }] = rowsOf<{ task_id: number }>(await tx.execute(sql`insert into data_push_tasks
            (cust_id, root_cust_id, task_name, file_type, host, port, account, auth_type, remote_path, host_key, push_time, open, active_from, created_by, updated_by)
          values (${cust.cust_id}, ${cust.root_cust_id}, ${v.taskName}, ${v.fileType}, ${v.host}, ${v.port}, ${v.account}, ${v.authType},
            ${v.remotePath}, ${v.hostKey}, ${v.pushTime}, ${b.open !== 0}, now(), ${ctx.actor.loginName}, ${ctx.actor.loginName}) returning task_id`));
        await tx.execute(sql`update data_push_tasks set credentials_sealed = ${this.box().sealJson(secrets, purposeOf(Number(id)))} where task_id = ${id}`);
        const after = await this.detail(Number(id), ctx.actor, tx);
        await audit(tx, ctx, { entity: 'dataPushTask', entityId: id, custId: cust.cust_id, rootCustId: cust.root_cust_id, after: auditView(after) });
        return after;
      });
    } catch (e) {
      if (isUniqueViolation(e)) throw new AppError(ErrorCode.DataPushNameTaken, { name: v.taskName });
      throw e;
    }
  }

  /**
   * Changes a task's fields (its customer stays). A new push time acts from the next time it comes. A host key given is
   * the one the user accepted (pinned from now); none given keeps the pinned one while host and port stay, and clears it
   * when they change (the next push pins the new server's key).
   */
  async update(b: BodyOf<typeof api.updateDataPush>, ctx: SessionContext) {
    const v = checkTask(b);
    try {
      return await this.db.transaction(async (tx) => {
        const before = await this.locked(tx, b.taskId, ctx.actor);
        await this.nameFree(tx, before.custId, v.taskName, b.taskId);
        const stored = { ...before, secrets: this.box().openJson(before.sealed, purposeOf(b.taskId)) };
        const secrets = secretsOf(v, stored);
        const hostKey = v.hostKey ?? (before.host === v.host && before.port === v.port ? before.hostKey : null);
        await tx.execute(sql`update data_push_tasks set task_name = ${v.taskName}, file_type = ${v.fileType}, host = ${v.host}, port = ${v.port},
          account = ${v.account}, auth_type = ${v.authType}, credentials_sealed = ${this.box().sealJson(secrets, purposeOf(b.taskId))},
          remote_path = ${v.remotePath}, host_key = ${hostKey}, push_time = ${v.pushTime},
          active_from = case when push_time = ${v.pushTime} then active_from else now() end,
          updated_by = ${ctx.actor.loginName}, updated_at = now() where task_id = ${b.taskId}`);
        const after = await this.detail(b.taskId, ctx.actor, tx);
        const secretChanged = JSON.stringify(secrets) !== JSON.stringify(stored.secrets);
        await audit(tx, ctx, {
          entity: 'dataPushTask', entityId: b.taskId, custId: before.custId, rootCustId: before.rootCustId,
          before: auditView(before), after: { ...auditView(after), secretChanged },
        });
        return after;
      });
    } catch (e) {
      if (isUniqueViolation(e)) throw new AppError(ErrorCode.DataPushNameTaken, { name: v.taskName });
      throw e;
    }
  }

  /** Deletes a task (kept, marked deleted, with its runs); a waiting run is given up. */
  async remove(taskId: number, ctx: SessionContext) {
    await this.db.transaction(async (tx) => {
      const before = await this.locked(tx, taskId, ctx.actor);
      await tx.execute(sql`update data_push_tasks set deleted_at = now(), deleted_by = ${ctx.actor.loginName}, open = false, credentials_sealed = null,
        updated_by = ${ctx.actor.loginName}, updated_at = now() where task_id = ${taskId}`);
      await tx.execute(sql`update data_push_runs set state = 4, error_code = ${ErrorCode.NotFound}, error_params = null, finished_at = now()
        where task_id = ${taskId} and state = 1`);
      await audit(tx, ctx, { entity: 'dataPushTask', entityId: taskId, custId: before.custId, rootCustId: before.rootCustId, before: auditView(before), after: { deleted: true } });
    });
    return null;
  }

  /** Switches a task on or off; switched on, it pushes from the next time its push time comes. */
  async open(b: BodyOf<typeof api.openDataPushById>, ctx: SessionContext) {
    return this.db.transaction(async (tx) => {
      const before = await this.locked(tx, b.taskId, ctx.actor);
      if (before.open !== b.open) {
        await tx.execute(sql`update data_push_tasks set open = ${b.open === 1}, active_from = case when ${b.open === 1} then now() else active_from end,
          updated_by = ${ctx.actor.loginName}, updated_at = now() where task_id = ${b.taskId}`);
      }
      const after = await this.detail(b.taskId, ctx.actor, tx);
      await audit(tx, ctx, {
        entity: 'dataPushTask', entityId: b.taskId, custId: before.custId, rootCustId: before.rootCustId,
        before: { open: before.open }, after: { open: after.open, ...(before.open === b.open ? { unchanged: true } : {}) },
      });
      return after;
    });
  }

  /**
   * The connection to test: the typed fields, with the saved task's password or key when `taskId` names one the actor
   * sees and none is typed. Not pinned (the test shows the key to accept); `pinned`: the saved task's key for the same
   * host and port, to tell the user when the server's key differs from it.
   */
  async targetForTest(b: BodyOf<typeof api.testDataPushConnection>, actor: Actor): Promise<{ target: SftpTarget; pinned: string | null }> {
    const v = checkConnection(b);
    const stored = b.taskId !== undefined ? await this.withSecret(b.taskId, actor) : null;
    const s = secretsOf(v, stored);
    return {
      target: { host: v.host, port: v.port, account: v.account, password: s.password ?? null, privateKey: s.privateKey ?? null, passphrase: s.passphrase ?? null, remotePath: v.remotePath },
      pinned: stored && stored.host === v.host && stored.port === v.port ? stored.hostKey : null,
    };
  }

  /** A live task the actor sees, with its secrets opened. */
  async withSecret(taskId: number, actor: Actor) {
    const t = await this.detail(taskId, actor);
    const [r] = rowsOf<{ credentials_sealed: string | null }>(await this.db.execute(sql`select credentials_sealed from data_push_tasks where task_id = ${taskId}`));
    return { ...t, secrets: this.box().openJson(r?.credentials_sealed ?? null, purposeOf(taskId)) };
  }

  private async nameFree(tx: Executor, custId: number, name: string, exceptTaskId: number | null) {
    const [taken] = rowsOf(await tx.execute(sql`select 1 from data_push_tasks where cust_id = ${custId} and lower(task_name) = lower(${name})
      and deleted_at is null ${exceptTaskId ? sql`and task_id <> ${exceptTaskId}` : sql``}`));
    if (taken) throw new AppError(ErrorCode.DataPushNameTaken, { name });
  }

  /** The task row locked for a change, as the actor may see it. */
  private async locked(tx: Executor, taskId: number, actor: Actor) {
    const [r] = rowsOf<{ root_cust_id: number; credentials_sealed: string | null }>(await tx.execute(sql`select t.root_cust_id, t.credentials_sealed
      from data_push_tasks t where t.task_id = ${taskId} and t.deleted_at is null and ${customerScope(actor, 't')} for update`));
    if (!r) throw notFound();
    return { ...(await this.detail(taskId, actor, tx)), rootCustId: Number(r.root_cust_id), sealed: r.credentials_sealed };
  }
}

