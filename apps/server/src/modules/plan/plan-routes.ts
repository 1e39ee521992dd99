import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app.ts';

export function planRoutes(_app: FastifyInstance, _deps: AppDeps) {}
