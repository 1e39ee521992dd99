import type { FastifyInstance } from 'fastify';
import { dsim as api } from '@lynx/contract';
import type { AppDeps } from '../../app.ts';
import { bind } from '../../platform/http.ts';
import { denied } from '../../platform/errors.ts';
import { isStaff, type Actor, type SessionContext } from '../../platform/context.ts';
import { superSimGateway } from '../../operators/registry.ts';
import { DsimService } from './service.ts';
import { StrategyService } from './strategies.ts';
import { DsimImportService } from './import.ts';
import { runStrategiesAfterFeed } from './switching.ts';

/** Sent by the usage feed job after it has fed a window (usage-routes.ts); also every minute as the sweep of open switches. */
export const DSIM_STRATEGY_QUEUE = 'dsim-strategy';

/**
 * Card › Super SIM (2090000) and its imports (2070000, staff; docs/super-sim.md): list, detail, usage per operator,
 * switch records, switch by hand, strategy choice, OEM strategies; the strategy step after each usage feed window.
 */
export function dsimRoutes(app: FastifyInstance, deps: AppDeps) {
  const service = new DsimService(deps.db, superSimGateway);
  const strategies = new StrategyService(deps.db);
  const imports = new DsimImportService(deps.db);
  const ctxOf = (c: unknown) => c as SessionContext;
  const staffOnly = (actor: Actor) => {
    if (!isStaff(actor)) throw denied();
  };

  bind(app, deps, api.getDsimPage, (b, c) => service.page(b, ctxOf(c).actor));
  bind(app, deps, api.getDsimInfo, (b, c) => service.info(b.snNumber, ctxOf(c).actor));
  bind(app, deps, api.getDsimFlowUse, (b, c) => service.flowUse(b, ctxOf(c).actor));
  bind(app, deps, api.getDsimChangeRecordPage, (b, c) => service.records(b, ctxOf(c).actor));
  bind(app, deps, api.switchOperator, (b, c) => service.switchOperator(b, ctxOf(c)));
  bind(app, deps, api.chooseStrategy, (b, c) => service.chooseStrategy(b, ctxOf(c)));
  bind(app, deps, api.getOemStrategyPage, (b, c) => strategies.page(b, ctxOf(c).actor));
  bind(app, deps, api.insertOemStrategy, (b, c) => strategies.add(b, ctxOf(c)));
  bind(app, deps, api.updateOemStrategy, (b, c) => strategies.edit(b, ctxOf(c)));
  bind(app, deps, api.deleteOemStrategy, (b, c) => strategies.remove(b.strategyName, ctxOf(c)));

  bind(app, deps, api.importDsims, (_b, c, req) => (staffOnly(ctxOf(c).actor), imports.import(req, ctxOf(c))));
  bind(app, deps, api.downloadDsimImportTemplate, (b, c, _req, reply) => (staffOnly(ctxOf(c).actor), imports.template(b, ctxOf(c), reply)));
  bind(app, deps, api.getDsimImportPage, (b, c) => (staffOnly(ctxOf(c).actor), imports.page(b)));
  bind(app, deps, api.getDsimImportDetail, (b, c) => (staffOnly(ctxOf(c).actor), imports.detail(b.batchId)));
  bind(app, deps, api.getDsimImportItemPage, (b, c) => (staffOnly(ctxOf(c).actor), imports.items(b)));

  deps.jobs.define(DSIM_STRATEGY_QUEUE, async () => {
    const r = await runStrategiesAfterFeed(deps.db, superSimGateway());
    if (r.ran || r.swept) app.log.info({ run: r }, 'super SIM strategies after the usage feed');
  }, { retryLimit: 1, expireInSeconds: 15 * 60 });
  deps.jobs.schedule(DSIM_STRATEGY_QUEUE, deps.config.usageFeedMinutes > 0 ? '* * * * *' : null);
}
