import type { FastifyInstance } from 'fastify';
import { billautomate as api } from '@lynx/contract';
import { bind } from '../../../platform/http.ts';
import type { SessionContext } from '../../../platform/context.ts';
import type { AppDeps } from '../../../app.ts';
import { BillAutoRuleService } from './automate-rules.ts';
import { execPage } from './automate-execs.ts';
import { AUTO_LEDGER_QUEUE, executeDueRules } from './automate-run.ts';

/**
 * Billing › Automated ledger (4060000, issue 14): the rules, their executions, and the job that executes due rules
 * (hourly at :05 business time and once when the workers start; a rule added or switched on is looked at right away).
 */
export function billAutomateRoutes(app: FastifyInstance, deps: AppDeps) {
  const rules = new BillAutoRuleService(deps.db);
  const ctxOf = (c: unknown) => c as SessionContext;
  // a rule whose day has come today acts now, not at the next hour
  const kick = () => deps.jobs.send(AUTO_LEDGER_QUEUE, {}, { singletonKey: 'bill-automate-kick', singletonSeconds: 5 })
    .catch((err: unknown) => app.log.warn({ err }, 'automated ledger not kicked; the hourly job takes it'));

  bind(app, deps, api.getBillAutomateListPage, (b, c) => rules.list(b, ctxOf(c).actor));
  bind(app, deps, api.getBillAutomateDetail, (b, c) => rules.detail(b.ruleId, ctxOf(c).actor));
  bind(app, deps, api.getBillAutomateExecPage, (b, c) => execPage(deps.db, b, ctxOf(c).actor, c.lang));
  bind(app, deps, api.addBillAutomateRule, async (b, c) => {
    const rule = await rules.add(b, ctxOf(c));
    if (rule.enabled) await kick();
    return rule;
  });
  bind(app, deps, api.editBillAutomateRule, async (b, c) => {
    const rule = await rules.edit(b, ctxOf(c));
    if (rule.enabled) await kick();
    return rule;
  });
  bind(app, deps, api.deleteBillAutomateRule, (b, c) => rules.remove(b.ruleId, ctxOf(c)));
  bind(app, deps, api.switchBillAutomateRule, async (b, c) => {
    const rule = await rules.switch(b, ctxOf(c));
    if (rule.enabled) await kick();
    return rule;
  });

  deps.jobs.define(AUTO_LEDGER_QUEUE, async () => {
    const done = await executeDueRules(deps.db, new Date(), (err, ruleId) => app.log.error({ err, ruleId }, 'automated ledger rule failed'));
    if (done.length) app.log.info({ executions: done }, 'automated ledger executed');
  }, { retryLimit: 2, expireInSeconds: 60 * 60 });
  deps.jobs.schedule(AUTO_LEDGER_QUEUE, '5 * * * *');
  deps.jobs.runAtStart(AUTO_LEDGER_QUEUE);
}
