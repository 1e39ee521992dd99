import type { FastifyInstance } from 'fastify';
import { euicc as api } from '@lynx/contract';
import { bind } from '../../platform/http.ts';
import type { AppDeps } from '../../app.ts';
import type { SessionContext } from '../../platform/context.ts';
import { SmdpSimulator } from '../../operators/esim/simulator.ts';
import type { EsimGateway } from '../../operators/esim/gateway.ts';
import { EuiccEngine } from './engine.ts';
import { EuiccService } from './service.ts';

const engines = new WeakMap<FastifyInstance, EuiccEngine>();
/** The app's eUICC engine (its SM-DP+ gateway and timeout): tests and the benchmark turn the simulator's knobs. */
export const euiccEngineOf = (app: FastifyInstance) => engines.get(app)!;

/**
 * Card › eUICC (2040000; changes 2040001): eUICCs and profiles, check and change of profile states, EID assignment,
 * import, activation codes. The SM-DP+ is the in-process simulator unless a real EsimGateway is given.
 */
export function euiccRoutes(app: FastifyInstance, deps: AppDeps, gateway: EsimGateway = new SmdpSimulator()) {
  const engine = new EuiccEngine(deps, gateway, app.log);
  engines.set(app, engine);
  const service = new EuiccService(deps.db, gateway, engine);
  const ctxOf = (c: unknown) => c as SessionContext;
  if (deps.config.runWorkers) engine.startTimer();
  app.addHook('onClose', async () => engine.stop());

  bind(app, deps, api.getEuiccPage, (body, c) => service.page(body, ctxOf(c).actor));
  bind(app, deps, api.getProfilePage, (body, c) => service.profilePage(body, ctxOf(c).actor));
  bind(app, deps, api.checkProfiles, (body, c) => service.check(body, ctxOf(c).actor));
  bind(app, deps, api.changeProfileState, (body, c) => service.changeState(body, ctxOf(c)));
  bind(app, deps, api.assignEid, (body, c) => service.assign(body, ctxOf(c)));
  bind(app, deps, api.batchAssignEid, (body, c) => service.batchAssign(body, ctxOf(c)));
  bind(app, deps, api.batchInsert, (body, c) => service.batchInsert(body, ctxOf(c)));
  bind(app, deps, api.activationQrCodes, (body, c) => service.qrCodes(body, ctxOf(c)));
  bind(app, deps, api.euiccCustomers, (_body, c) => service.customers(ctxOf(c).actor));
}
