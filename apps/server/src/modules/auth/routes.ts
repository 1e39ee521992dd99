import type { FastifyInstance } from 'fastify';
import { auth } from '@lynx/contract';
import { bind } from '../../platform/http.ts';
import type { AppDeps } from '../../app.ts';
import { AuthService } from './service.ts';

export function authRoutes(app: FastifyInstance, deps: AppDeps): AuthService {
  const service = new AuthService(deps.db, deps.config, deps.sessions);
  bind(app, deps, auth.login, (body, ctx) => service.login(body, ctx));
  bind(app, deps, auth.logout, (_body, ctx) => service.logout(ctx));
  bind(app, deps, auth.captcha, () => service.newCaptcha());
  bind(app, deps, auth.captchaRequired, async (body) => ({ required: await service.captchaRequired(body.loginName) }));
  bind(app, deps, auth.register, (body, ctx) => service.register(body, ctx));
  bind(app, deps, auth.resetPassword, (body, ctx) => service.changeOwnPassword(body, ctx));
  bind(app, deps, auth.getIsResetPassword, async (_body, ctx) => ({ mustResetPassword: ctx.actor.mustResetPassword }));
  return service;
}
