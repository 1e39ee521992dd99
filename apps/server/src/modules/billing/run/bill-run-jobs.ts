// The bill run's job: every minute (and when a run is started, `kickBillRun`) each running run is continued under
// its lease, so a run whose process died is resumed by the next turn once its lease has run out.
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../../app.ts';
import { billRunOwner, continueBillRun, runningBillRuns } from './bill-run.ts';

export const BILL_RUN_QUEUE = 'bill-run';

/** One turn of the job: the given run, else every running one. */
export async function continueBillRuns(deps: Pick<AppDeps, 'db'>, runId?: number, log?: (err: unknown, runId: number) => void): Promise<void> {
  const owner = billRunOwner();
  const ids = runId !== undefined ? [runId] : await runningBillRuns(deps.db);
  for (const id of ids) {
    try {
      await continueBillRun(deps.db, id, owner);
    } catch (err) {
      log?.(err, id);
    }
  }
}

export function billRunJobs(app: FastifyInstance, deps: AppDeps): void {
  const log = (err: unknown, runId: number) => app.log.error({ err, runId }, 'bill run failed');
  deps.jobs.define(BILL_RUN_QUEUE, async (data: { runId?: number }) => {
    await continueBillRuns(deps, Number.isInteger(data?.runId) ? Number(data.runId) : undefined, log);
  }, { retryLimit: 0, expireInSeconds: 60 * 60 });
  deps.jobs.schedule(BILL_RUN_QUEUE, '* * * * *');
  // a run left by a stopped process goes on as soon as this one is up, not at the next minute
  app.addHook('onReady', async () => {
    void deps.jobs.send(BILL_RUN_QUEUE, {}, { singletonKey: 'bill-run-start' }).catch(() => null);
  });
}

/** Starts the work of a run right away (after `startBillRun`); the minute job would otherwise pick it up. */
export async function kickBillRun(deps: Pick<AppDeps, 'jobs'>, runId: number): Promise<void> {
  await deps.jobs.send(BILL_RUN_QUEUE, { runId }, { singletonKey: `bill-run-${runId}` });
}
