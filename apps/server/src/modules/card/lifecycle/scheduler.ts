// The card lifecycle scheduler: every minute (and once at start) it applies the time-driven changes that are due
// (test end, silent period end, cycle and contract end, pending plan changes) card by card, then rolls the maintained
// cycle usage and quota columns over (cards whose cycle ended or whose event pack started or ended, set-based). Each card is claimed
// with SKIP LOCKED and re-checked under its lock (tickCard), so with several server processes every deadline is
// applied exactly once; a card whose deadline passed while no process ran is caught up in time order.
import type { Jobs } from '../../../platform/jobs.ts';
import { dueCards, tickCard, type CardServiceDeps } from './card-service.ts';
import { rollCycles } from '../../usage/cycle-columns.ts';

export const CARD_TICK_QUEUE = 'card-lifecycle-tick';

export interface TickRunStats {
  applied: number;
  skipped: number;
  failed: number;
}

/**
 * Applies every change due at `now`, `concurrency` cards at a time, for at most `budgetMs` (the next run goes
 * on where this one stopped: due cards stay due). Errors of one card are logged and do not stop the others.
 */
export async function runDueCards(
  deps: CardServiceDeps, opts: { now?: Date; concurrency?: number; budgetMs?: number; log?: (err: unknown, iccid: string) => void } = {},
): Promise<TickRunStats> {
  const now = opts.now ?? new Date();
  const started = Date.now();
  const budget = opts.budgetMs ?? 50_000;
  const stats: TickRunStats = { applied: 0, skipped: 0, failed: 0 };
  let after: { at: Date; iccid: string } | undefined;
  for (;;) {
    const due = await dueCards(deps.db, now, 200, after);
    if (due.length === 0) break;
    after = due[due.length - 1];
    let i = 0;
    const worker = async () => {
      while (i < due.length) {
        const { iccid } = due[i++];
        try {
          if (await tickCard(deps, iccid, now)) stats.applied++;
          else stats.skipped++;
        } catch (err) {
          stats.failed++;
          opts.log?.(err, iccid);
        }
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, opts.concurrency ?? 4) }, worker));
    if (Date.now() - started > budget) break;
    // the embedded database runs in this thread: let timers and requests in between rounds
    await new Promise((resolve) => setImmediate(resolve));
  }
  return stats;
}

/** Registers the scheduler's queue: every minute, the business time zone, one run across all processes. */
export function scheduleCardLifecycle(deps: CardServiceDeps, jobs: Jobs, log: { error: (obj: unknown, msg: string) => void }): void {
  jobs.define(CARD_TICK_QUEUE, async () => {
    await runDueCards(deps, { log: (err, iccid) => log.error({ err, iccid }, 'card lifecycle tick failed') });
    // the cycle usage and quota columns of cards whose cycle ended or whose event pack started or ended
    await rollCycles(deps.db).catch((err) => log.error({ err }, 'card cycle roll-over failed'));
  }, { retryLimit: 0, expireInSeconds: 120 });
  jobs.schedule(CARD_TICK_QUEUE, '* * * * *');
}
