import type { FastifyInstance } from 'fastify';
import { search } from '@lynx/contract';
import { bind } from '../../platform/http.ts';
import type { AppDeps } from '../../app.ts';
import { GlobalSearchService } from './search-service.ts';

/** The header search: any signed-in user; the service searches only the kinds the caller may open, in its tenant. */
export function searchRoutes(app: FastifyInstance, deps: AppDeps) {
  const service = new GlobalSearchService(deps.db);
  bind(app, deps, search.globalSearch, (b, ctx) => service.search(b, ctx.actor!));
}
