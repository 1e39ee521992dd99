import { sql } from 'drizzle-orm';
import { businessDay, businessDayStartMs, datapush as api, ErrorCode, errorMessage, type Lang } from '@lynx/contract';
import type { Db } from '../../../db/client.ts';
import { AppError, notFound } from '../../../platform/errors.ts';
import { audit } from '../../../platform/audit.ts';
import { customerScope } from '../../money/capital-service.ts';
import type { SessionContext, Actor } from '../../../platform/context.ts';
import { pageOf } from '../../../platform/paging.ts';
import type { SecretBox } from '../../network/opconfig/secrets.ts';
import { iso, rowsOf } from '../../billing/bills/bill-sql.ts';
import { SftpSession } from './datapush-sftp.ts';
import { fileLines, fileNameOf } from './datapush-files.ts';
import { purposeOf } from './datapush-tasks.ts';

/**
 * Runs of file push tasks (docs/data-push.md). A run is a row first (scheduled: one per task and business day, by a
 * unique index; by hand: one waiting or running per task), then a job of the job runner. The job claims the row
 * (waiting → running, or a running row whose heartbeat stopped: its worker died), streams the file to the server under
 * a temporary name, renames it and records name, bytes and rows. A failed try is retried (DATA_PUSH_MAX_ATTEMPTS in
 * all) and then recorded as failed with the reason. A minute tick creates the day's due runs and sends again the
 * runs whose job was lost (a crash between the row and the job, a worker killed mid-push).
 */
export const DATA_PUSH_RUN_QUEUE = 'data-push-run';
export const DATA_PUSH_TICK_QUEUE = 'data-push-tick';

const { DataPushRunState: RunState, DataPushTrigger: Trigger, DATA_PUSH_MAX_ATTEMPTS } = api;

/** A running row whose heartbeat is older than this belongs to a dead worker and may be claimed again. */
const STALE_RUNNING_SECONDS = 300;
/** A waiting row no job has taken for this long gets a job again. */
const STALE_WAITING_SECONDS = 120;

const previousDay = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);

const RUN_COLUMNS = sql.raw(`r.run_id, r.task_id, r.trigger, to_char(r.run_day, 'YYYY-MM-DD') as run_day, r.state, r.file_name, r.size_bytes, r.row_count, r.error_code, r.error_params,
  r.attempts, r.requested_by, r.created_at, r.started_at, r.finished_at`);

export function runOut(r: Record<string, unknown>, lang: Lang) {
  const code = r.error_code == null ? null : Number(r.error_code);
  return {
    runId: Number(r.run_id), taskId: Number(r.task_id), trigger: Number(r.trigger),
    runDay: (r.run_day as string | null) ?? null,
    state: Number(r.state), fileName: (r.file_name as string | null) ?? null,
    sizeBytes: r.size_bytes == null ? null : Number(r.size_bytes), rowCount: r.row_count == null ? null : Number(r.row_count),
    error: code == null ? null : errorMessage(code as ErrorCode, lang, (r.error_params as Record<string, string | number> | null) ?? undefined),
    attempts: Number(r.attempts), requestedBy: (r.requested_by as string | null) ?? null,
    createdAt: iso(r.created_at)!, startedAt: iso(r.started_at), finishedAt: iso(r.finished_at),
  };
}

/** A task's runs, newest first, when the actor sees the task (deleted tasks' runs are not listed). */
export async function runPage(db: Db, q: { taskId: number; current?: number; pageSize?: number }, actor: Actor, lang: Lang) {
  const p = pageOf(q);
  const [task] = rowsOf(await db.execute(sql`select 1 from data_push_tasks t where t.task_id = ${q.taskId} and t.deleted_at is null and ${customerScope(actor, 't')}`));
  if (!task) throw notFound();
  const rows = rowsOf<Record<string, unknown>>(await db.execute(sql`select ${RUN_COLUMNS} from data_push_runs r where r.task_id = ${q.taskId}
    order by r.run_id desc limit ${p.limit} offset ${p.offset}`));
  const [{ n }] = rowsOf<{ n: string }>(await db.execute(sql`select count(*) as n from data_push_runs where task_id = ${q.taskId}`));
  return { list: rows.map((r) => runOut(r, lang)), total: Number(n), current: p.current, pageSize: p.pageSize };
}

/** A run by hand: refused while one of the task is waiting or running (21050). The caller sends its job. */
export async function requestPush(db: Db, taskId: number, ctx: SessionContext) {
  return db.transaction(async (tx) => {
    const [task] = rowsOf<{ cust_id: number; root_cust_id: number }>(await tx.execute(sql`select t.cust_id, t.root_cust_id from data_push_tasks t
      where t.task_id = ${taskId} and t.deleted_at is null and ${customerScope(ctx.actor, 't')} for update`));
    if (!task) throw notFound();
    const [busy] = rowsOf(await tx.execute(sql`select 1 from data_push_runs where task_id = ${taskId} and state in (${RunState.Waiting}, ${RunState.Running})`));
    if (busy) throw new AppError(ErrorCode.DataPushBusy);
    const [r] = rowsOf<Record<string, unknown>>(await tx.execute(sql`insert into data_push_runs as r (task_id, cust_id, root_cust_id, trigger, requested_by)
      values (${taskId}, ${task.cust_id}, ${task.root_cust_id}, ${Trigger.Manual}, ${ctx.actor.loginName}) returning ${RUN_COLUMNS}`));
    await audit(tx, ctx, { entity: 'dataPushRun', entityId: Number(r.run_id), custId: task.cust_id, rootCustId: task.root_cust_id, after: { taskId, trigger: Trigger.Manual } });
    return runOut(r, ctx.lang);
  });
}

/**
 * The day's scheduled runs of open tasks whose push time has come (business time), once per task and day; a task
 * added, switched on or re-timed after today's time first pushes tomorrow. Answers the ids of the runs created.
 */
export async function createDueRuns(db: Db, now: Date): Promise<number[]> {
  const today = businessDay(now.getTime());
  const dayStart = businessDayStartMs(today);
  const tasks = rowsOf<{ task_id: number; push_time: string; active_from: string | Date }>(await db.execute(sql`select task_id, push_time, active_from
    from data_push_tasks t where t.open and t.deleted_at is null
      and not exists (select 1 from data_push_runs r where r.task_id = t.task_id and r.trigger = ${Trigger.Schedule} and r.run_day = ${today}::date)`));
  const due = tasks.filter((t) => {
    const [h, m] = t.push_time.split(':').map(Number);
    const at = dayStart + (h * 60 + m) * 60_000;
    return now.getTime() >= at && at >= new Date(t.active_from).getTime();
  }).map((t) => Number(t.task_id));
  if (!due.length) return [];
  const rows = rowsOf<{ run_id: string | number }>(await db.execute(sql`insert into data_push_runs (task_id, cust_id, root_cust_id, trigger, run_day)
    select t.task_id, t.cust_id, t.root_cust_id, ${Trigger.Schedule}, ${today}::date from data_push_tasks t
    where t.task_id = any(${sql.param(due)}::int[]) and t.open and t.deleted_at is null
    on conflict (task_id, run_day) where trigger = 1 do nothing returning run_id`));
  return rows.map((r) => Number(r.run_id));
}

/** Runs whose job was lost: waiting with no try for a while, or running with a dead worker's heartbeat. */
export async function lostRuns(db: Db): Promise<number[]> {
  const rows = rowsOf<{ run_id: string | number }>(await db.execute(sql`select run_id from data_push_runs
    where (state = ${RunState.Waiting} and coalesce(heartbeat_at, created_at) < now() - make_interval(secs => ${STALE_WAITING_SECONDS}))
       or (state = ${RunState.Running} and heartbeat_at < now() - make_interval(secs => ${STALE_RUNNING_SECONDS}))
    order by run_id limit 500`));
  return rows.map((r) => Number(r.run_id));
}

export interface RunOutcome {
  runId: number;
  /** not claimed: finished already, or another worker has it */
  claimed: boolean;
  state: number | null;
  /** the try failed and another is due (the job is to be retried) */
  retry: boolean;
}

/**
 * Claims and executes one run. Never throws for a push problem: the outcome is recorded on the row; `retry` says the
 * job runner should try again.
 */
export async function executeRun(db: Db, box: SecretBox, runId: number, opts: { timeoutMs?: number } = {}): Promise<RunOutcome> {
  const [run] = rowsOf<Record<string, unknown>>(await db.execute(sql`update data_push_runs set state = ${RunState.Running}, attempts = attempts + 1,
      started_at = coalesce(started_at, now()), heartbeat_at = now()
    where run_id = ${runId} and (state = ${RunState.Waiting}
      or (state = ${RunState.Running} and heartbeat_at < now() - make_interval(secs => ${STALE_RUNNING_SECONDS})))
    returning task_id, trigger, to_char(run_day, 'YYYY-MM-DD') as run_day, attempts, created_at`));
  if (!run) return { runId, claimed: false, state: null, retry: false };
  const attempts = Number(run.attempts);
  const [task] = rowsOf<Record<string, unknown>>(await db.execute(sql`select t.task_id, t.cust_id, c.level, t.file_type, t.host, t.port, t.account,
      t.credentials_sealed, t.remote_path, t.host_key
    from data_push_tasks t join customers c on c.cust_id = t.cust_id where t.task_id = ${run.task_id} and t.deleted_at is null`));
  const finish = async (e: unknown): Promise<RunOutcome> => {
    const err = e instanceof AppError ? e : new AppError(ErrorCode.DataPushFailed, { detail: ((e as Error)?.message ?? String(e)).slice(0, 200) });
    // another host key is not a passing trouble: the run fails now, until the user accepts the new key
    const retry = task != null && attempts < DATA_PUSH_MAX_ATTEMPTS && err.code !== ErrorCode.DataPushHostKeyChanged;
    const state = retry ? RunState.Waiting : RunState.Failed;
    await db.execute(sql`update data_push_runs set state = ${state}, error_code = ${err.code}, error_params = ${err.params ? JSON.stringify(err.params) : null}::jsonb,
      heartbeat_at = now(), finished_at = ${retry ? sql`null` : sql`now()`} where run_id = ${runId}`);
    return { runId, claimed: true, state, retry };
  };
  if (!task) return finish(new AppError(ErrorCode.NotFound));
  let session: SftpSession | null = null;
  try {
    const secrets = box.openJson((task.credentials_sealed as string | null) ?? null, purposeOf(Number(task.task_id)));
    session = await SftpSession.open({
      host: String(task.host), port: Number(task.port), account: String(task.account), remotePath: String(task.remote_path),
      password: secrets.password ?? null, privateKey: secrets.privateKey ?? null, passphrase: secrets.passphrase ?? null,
      hostKey: (task.host_key as string | null) ?? null,
    }, opts.timeoutMs);
    // a task saved without a host key (before keys were pinned, or after its address changed) is pinned by its first
    // connection; the address is part of the condition, so a concurrent edit of it is not pinned to the old server
    if (!task.host_key && session.hostKey) {
      await db.execute(sql`update data_push_tasks set host_key = ${session.hostKey} where task_id = ${task.task_id} and host_key is null
        and host = ${String(task.host)} and port = ${Number(task.port)}`);
    }
    // the run's own day: a scheduled run covers the day before its day, one by hand the day before it was asked for
    const created = new Date(run.created_at as string);
    const day = run.run_day ? String(run.run_day) : businessDay(created.getTime());
    const usageDay = previousDay(day);
    // the name stays the same across tries, so a retry overwrites the temporary file a dead try left
    const fileName = fileNameOf(Number(task.file_type), Number(task.cust_id), created, usageDay);
    const counter = { rows: 0 };
    const bytes = await session.upload(fileName,
      fileLines(db, Number(task.file_type), { custId: Number(task.cust_id), level: Number(task.level) }, usageDay, counter),
      async () => {
        await db.execute(sql`update data_push_runs set heartbeat_at = now() where run_id = ${runId}`);
      });
    await db.execute(sql`update data_push_runs set state = ${RunState.Succeeded}, file_name = ${fileName}, size_bytes = ${bytes}, row_count = ${counter.rows},
      error_code = null, error_params = null, heartbeat_at = now(), finished_at = now() where run_id = ${runId}`);
    return { runId, claimed: true, state: RunState.Succeeded, retry: false };
  } catch (e) {
    return finish(e);
  } finally {
    session?.close();
  }
}
