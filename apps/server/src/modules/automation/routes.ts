import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import { AUTO_RULE_SCAN_DAYS, autorule as api, businessDay } from '@lynx/contract';
import { bind } from '../../platform/http.ts';
import { notFound } from '../../platform/errors.ts';
import type { SessionContext } from '../../platform/context.ts';
import type { AppDeps } from '../../app.ts';
import { AutoRuleService } from './rules/rule-service.ts';
import { AlarmService } from './alarms/alarm-service.ts';
import { dryRun } from './engine/dry-run.ts';
import { engineRule } from './engine/rule-sql.ts';
import { resumeStaleRuns, runFeedCheck, runScan, type EngineDeps } from './engine/scan.ts';
import { dispatchDeliveries, notifiersFor } from './delivery/notifier.ts';
import { ownerSql, rows } from './sql.ts';

/** The scheduled scan: on the 5th, 15th and 25th (spec §9), and at start (a scan day the server missed is caught up). */
export const AUTORULE_SCAN_QUEUE = 'autorule-scan';
/** The threshold check after a usage feed window (sent by the feed job; every minute while the feed runs). */
export const AUTORULE_FEED_QUEUE = 'autorule-feed-check';
/** Sends the queued notifications. */
export const AUTORULE_DISPATCH_QUEUE = 'autorule-dispatch';

/** Auto rule (5000000, issue 15; docs/automation.md): rules, trigger records, the evaluation and notification jobs. */
export function autoRuleRoutes(app: FastifyInstance, deps: AppDeps) {
  const rules = new AutoRuleService(deps.db);
  const alarms = new AlarmService(deps.db);
  const engine: EngineDeps = { db: deps.db, config: deps.config };
  const ctxOf = (c: unknown) => c as SessionContext;
  const dispatchSoon = () => deps.jobs.send(AUTORULE_DISPATCH_QUEUE, {}, { singletonKey: 'autorule-dispatch', singletonSeconds: 5 })
    .catch((err: unknown) => app.log.warn({ err }, 'rule notifications not kicked; the next minute sends them'));

  bind(app, deps, api.getRuleListPage, (b, c) => rules.list(b, ctxOf(c).actor));
  bind(app, deps, api.getRuleDetail, (b, c) => rules.detail(b.ruleId, ctxOf(c).actor));
  bind(app, deps, api.saveRule, (b, c) => rules.add(b, ctxOf(c)));
  bind(app, deps, api.updateRule, (b, c) => rules.edit(b, ctxOf(c)));
  bind(app, deps, api.deleteRule, (b, c) => rules.remove(b.ruleId, ctxOf(c)));
  bind(app, deps, api.publishRule, (b, c) => rules.publish(b.ruleId, ctxOf(c)));
  bind(app, deps, api.switchRule, (b, c) => rules.switch(b, ctxOf(c)));
  bind(app, deps, api.dryRunRule, async (b, c) => {
    const [r] = await rows(deps.db, sql`select * from autorules r where r.rule_id = ${b.ruleId} and r.deleted_at is null and ${ownerSql(ctxOf(c).actor, 'r')}`);
    if (!r) throw notFound();
    return dryRun(deps.db, engineRule(r), c.lang);
  });
  bind(app, deps, api.getRuleRunPage, (b, c) => alarms.runs(b, ctxOf(c).actor));
  bind(app, deps, api.getAlarmListPage, (b, c) => alarms.list(b, ctxOf(c).actor));
  bind(app, deps, api.getAlarmDetail, (b, c) => alarms.detail(b.alarmId, ctxOf(c).actor));
  bind(app, deps, api.getAlarmCardPage, (b, c) => alarms.cards(b, ctxOf(c).actor, c.lang));
  bind(app, deps, api.getActionRecords, (b, c) => alarms.deliveries(b, ctxOf(c).actor, c.lang));

  const log = (msg: string) => (r: unknown) => {
    if (r) app.log.info({ run: r }, msg);
  };
  deps.jobs.define(AUTORULE_SCAN_QUEUE, async () => {
    await resumeStaleRuns(engine).then(log('rule runs resumed'));
    const now = new Date();
    const day = Number(businessDay(now.getTime()).slice(8, 10));
    if (AUTO_RULE_SCAN_DAYS.includes(day)) await runScan(engine, now).then(log('rule scan done'));
    await dispatchSoon();
  }, { retryLimit: 2, expireInSeconds: 60 * 60 });
  deps.jobs.schedule(AUTORULE_SCAN_QUEUE, '10 1 5,15,25 * *');
  deps.jobs.runAtStart(AUTORULE_SCAN_QUEUE);

  deps.jobs.define(AUTORULE_FEED_QUEUE, async () => {
    await resumeStaleRuns(engine).then(log('rule runs resumed'));
    const r = await runFeedCheck(engine, new Date());
    if (r?.worked) log('rule check after the usage feed done')(r);
    if (r?.cardsTriggered) await dispatchSoon();
  }, { retryLimit: 1, expireInSeconds: 30 * 60 });
  deps.jobs.schedule(AUTORULE_FEED_QUEUE, deps.config.usageFeedMinutes > 0 ? '* * * * *' : null);

  const notifiers = notifiersFor(deps.db);
  deps.jobs.define(AUTORULE_DISPATCH_QUEUE, async () => {
    const r = await dispatchDeliveries(deps.db, notifiers, 500);
    if (r.sent || r.failed) app.log.info(r, 'rule notifications dispatched');
  }, { retryLimit: 1, expireInSeconds: 15 * 60 });
  deps.jobs.schedule(AUTORULE_DISPATCH_QUEUE, '* * * * *');
}
