import type { FastifyInstance } from 'fastify';
import { home } from '@lynx/contract';
import { bind } from '../../platform/http.ts';
import type { AppDeps } from '../../app.ts';
import { FleetHealthService } from './fleet-health.ts';

/** The interim near / over quota job of an earlier version (replaced by the cards' cycle columns, migration 0019). */
export const RETIRED_QUOTA_LEVELS_QUEUE = 'home-quota-levels';

/** Home overview: fleet health (every role with the Home code, scoped to its tenant). */
export function homeRoutes(app: FastifyInstance, deps: AppDeps) {
  const health = new FleetHealthService(deps.db);
  bind(app, deps, home.getFleetHealth, (_b, ctx) => health.health(ctx.actor));
  // its schedule lives in the database: the workers remove the one an earlier version left there
  deps.jobs.schedule(RETIRED_QUOTA_LEVELS_QUEUE, null);
}
