import type { FastifyInstance } from 'fastify';
import { resell as api } from '@lynx/contract';
import type { AppDeps } from '../../app.ts';
import { bind } from '../../platform/http.ts';
import type { SessionContext } from '../../platform/context.ts';
import { resalePlatform } from '../../operators/resale/simulator.ts';
import { ResellService, runScheduledSync } from './service.ts';

/** Every ten minutes: the cards whose last sync is older than RESELL_SYNC_EVERY_MINUTES (restart-safe claims). */
export const RESELL_SYNC_QUEUE = 'resell-sync';

/** Shortcuts › resale status sync (6020000, sync now 6020001; docs/channel-cards.md "Resale"). */
export function resellRoutes(app: FastifyInstance, deps: AppDeps) {
  const service = new ResellService(deps.db, resalePlatform);
  const ctxOf = (c: unknown) => c as SessionContext;
  bind(app, deps, api.getResellPage, (b, c) => service.page(b, ctxOf(c).actor, ctxOf(c).lang));
  bind(app, deps, api.syncResellNow, (b, c) => service.syncNow(b, ctxOf(c)));

  deps.jobs.define(RESELL_SYNC_QUEUE, async () => {
    const r = await runScheduledSync(deps.db, resalePlatform());
    if (r.synced || r.failed) app.log.info({ run: r }, 'resale status sync');
  }, { retryLimit: 1, expireInSeconds: 15 * 60 });
  deps.jobs.schedule(RESELL_SYNC_QUEUE, '*/10 * * * *');
}
