import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app.ts';
import { secretBoxFor } from './opconfig-secrets.ts';
import { accessRoutes } from './opconfig-access.ts';
import { platformRoutes } from './opconfig-platform.ts';
import { commPlanRoutes } from './opconfig-commplan.ts';
import { failureRoutes } from './opconfig-failures.ts';

/**
 * Operator access configuration (with the operator gateway behind it), platform configuration,
 * communication plans and card change failure records: configuration kept by operator staff only.
 */
export function opconfigRoutes(app: FastifyInstance, deps: AppDeps) {
  const box = secretBoxFor(deps.config);
  accessRoutes(app, deps, box);
  platformRoutes(app, deps, box);
  commPlanRoutes(app, deps);
  failureRoutes(app, deps, box);
}
