import type { FastifyInstance } from 'fastify';
import { datapush as api, interpolate } from '@lynx/contract';
import { bind } from '../../../platform/http.ts';
import { AppError } from '../../../platform/errors.ts';
import type { SessionContext } from '../../../platform/context.ts';
import type { AppDeps } from '../../../app.ts';
import { secretBoxFor } from '../../network/opconfig/secrets.ts';
import { DataPushTaskService } from './datapush-tasks.ts';
import { SftpSession } from './datapush-sftp.ts';
import { createDueRuns, DATA_PUSH_RUN_QUEUE, DATA_PUSH_TICK_QUEUE, executeRun, lostRuns, requestPush, runPage } from './datapush-run.ts';

const OK = { zh: '连接成功，路径 {path} 可写', en: 'Connected; the path {path} is writable' };
const KEY_CHANGED = {
  zh: '。注意：服务器的主机密钥与任务已确认的不同（已确认 {pinned}，本次 {presented}），推送会被拒绝；请与服务器管理员核对新指纹，确认无误后保存任务即接受新密钥',
  en: '. Note: the server\'s host key differs from the one the task accepted (accepted {pinned}, now {presented}) and pushes are refused; check the new fingerprint with the server\'s administrator and save the task to accept it',
};

/**
 * System › File push (14030000, issue 15; docs/data-push.md): the tasks, "test connection", "push now", the runs, and
 * the jobs: one per run, and a tick every minute (and at start) that creates the day's due runs and re-sends lost ones.
 */
export function dataPushRoutes(app: FastifyInstance, deps: AppDeps) {
  const box = () => secretBoxFor(deps.config);
  const tasks = new DataPushTaskService(deps.db, box);
  const ctxOf = (c: unknown) => c as SessionContext;
  const sendRun = (runId: number) => deps.jobs.send(DATA_PUSH_RUN_QUEUE, { runId }, { singletonKey: `data-push-run:${runId}` });

  bind(app, deps, api.getDataPushListPage, (b, c) => tasks.list(b, ctxOf(c).actor));
  bind(app, deps, api.insertDataPush, (b, c) => tasks.insert(b, ctxOf(c)));
  bind(app, deps, api.updateDataPush, (b, c) => tasks.update(b, ctxOf(c)));
  bind(app, deps, api.deleteDataPushById, (b, c) => tasks.remove(b.taskId, ctxOf(c)));
  bind(app, deps, api.openDataPushById, (b, c) => tasks.open(b, ctxOf(c)));
  bind(app, deps, api.getDataPushRunPage, (b, c) => runPage(deps.db, b, ctxOf(c).actor, c.lang));
  bind(app, deps, api.pushDataPushNow, async (b, c) => {
    const run = await requestPush(deps.db, b.taskId, ctxOf(c));
    // the row is there: should the job not be sent now, the minute tick sends it
    await sendRun(run.runId).catch((err: unknown) => app.log.warn({ err, runId: run.runId }, 'data push job not sent; the tick sends it'));
    return run;
  });
  bind(app, deps, api.testDataPushConnection, async (b, c) => {
    const started = Date.now();
    // a bad field or a task the caller does not see is an error (the envelope); an unreachable server is an answer
    const { target, pinned } = await tasks.targetForTest(b, ctxOf(c).actor);
    let hostKey: string | null = null;
    let session: SftpSession | null = null;
    const answer = (ok: boolean, message: string, errorCode: number | null) => {
      const hostKeyChanged = pinned !== null && hostKey !== null && hostKey !== pinned;
      const note = hostKeyChanged ? interpolate(KEY_CHANGED[c.lang], { pinned: pinned!, presented: hostKey! }) : '';
      return { ok, message: message + note, errorCode, elapsedMs: Date.now() - started, hostKey, hostKeyChanged };
    };
    try {
      session = await SftpSession.open(target, undefined, (fp) => {
        hostKey = fp;
      });
      await session.checkWritable();
      return answer(true, interpolate(OK[c.lang], { path: target.remotePath }), null);
    } catch (e) {
      if (!(e instanceof AppError)) throw e;
      return answer(false, e.message_(c.lang), e.code);
    } finally {
      session?.close();
    }
  });

  deps.jobs.define(DATA_PUSH_RUN_QUEUE, async (data: { runId: number }) => {
    const out = await executeRun(deps.db, box(), Number(data.runId));
    if (out.retry) throw new Error(`data push run ${out.runId} failed; retried`);
  }, { retryLimit: api.DATA_PUSH_MAX_ATTEMPTS - 1, expireInSeconds: 30 * 60 });
  deps.jobs.define(DATA_PUSH_TICK_QUEUE, async () => {
    const created = await createDueRuns(deps.db, new Date());
    const lost = await lostRuns(deps.db);
    for (const runId of [...created, ...lost]) await sendRun(runId);
    if (created.length || lost.length) app.log.info({ created, lost }, 'data push runs sent');
  }, { retryLimit: 0, expireInSeconds: 5 * 60 });
  deps.jobs.schedule(DATA_PUSH_TICK_QUEUE, '* * * * *');
  deps.jobs.runAtStart(DATA_PUSH_TICK_QUEUE);
}
