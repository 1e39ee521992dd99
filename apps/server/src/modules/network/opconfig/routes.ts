import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../../app.ts';
import { secretBoxFor } from './secrets.ts';
import { accessRoutes } from './access.ts';
import { platformRoutes } from './platform.ts';
import { commPlanRoutes } from './commplan.ts';
import { failureRoutes } from './failures.ts';

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
