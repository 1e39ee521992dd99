import type { FastifyInstance } from 'fastify';
import { NetworkType, Operator, usage as api, type Endpoint } from '@lynx/contract';
import type { AppDeps } from '../../app.ts';
import { bind } from '../../platform/http.ts';
import type { SessionContext } from '../../platform/context.ts';
import { bindExport, sizeColumns, type ExportColumn } from '../../platform/exports.ts';
import { UsageService } from './usage-service.ts';
import { runUsageFeed } from './usage-feed.ts';
import { AUTORULE_FEED_QUEUE } from '../automation/routes.ts';
import { DSIM_STRATEGY_QUEUE } from '../dsim/routes.ts';
import { dropExpiredSessionPartitions, ensureUsagePartitions } from './usage-partitions.ts';
import { checkAllPools } from '../pool/pool-usage.ts';

export const USAGE_FEED_QUEUE = 'usage-feed';
export const USAGE_PARTITIONS_QUEUE = 'usage-partitions';

const FLOW_COMMON: ExportColumn[] = [
  { key: 'iccid', title: { zh: 'ICCID', en: 'ICCID' } },
  { key: 'msisdn', title: { zh: 'MSISDN', en: 'MSISDN' } },
  { key: 'custName', title: { zh: '客户', en: 'Customer' } },
  { key: 'operatorId', title: { zh: '运营商', en: 'Operator' }, enum: Operator },
  { key: 'apn', title: { zh: 'APN', en: 'APN' } },
];

/**
 * Usage: a card's usage and sessions (card detail), the traffic detail query with its exports, the Home overview;
 * the usage feed job and the monthly partition job. Partitions for the months around today are made sure of before
 * anything else runs.
 */
export async function usageModule(app: FastifyInstance, deps: AppDeps): Promise<void> {
  await ensureUsagePartitions(deps.db);
  const usage = new UsageService(deps.db);
  const ctxOf = (c: unknown) => c as SessionContext;

  bind(app, deps, api.getCardUsage, (b, c) => usage.cardUsage(b, ctxOf(c).actor));
  bind(app, deps, api.getCardSessions, (b, c) => usage.cardSessions(b, ctxOf(c).actor));
  bind(app, deps, api.getFlowDailyPage, (b, c) => usage.flowDaily(b, ctxOf(c).actor));
  bind(app, deps, api.getFlowSessionPage, (b, c) => usage.flowSessions(b, ctxOf(c).actor));
  bind(app, deps, api.getHomeCardStates, (_b, c) => usage.homeCardStates(ctxOf(c).actor));
  bind(app, deps, api.getHomeMonthUsage, (b, c) => usage.homeMonthUsage(b, ctxOf(c).actor));
  bind(app, deps, api.getHomeTopCustomers, (b, c) => usage.homeTopCustomers(b, ctxOf(c).actor));
  bind(app, deps, api.getHomeTopLinks, (b, c) => usage.homeTopLinks(b, ctxOf(c).actor));

  const exportOf = (wrapper: Endpoint, source: Endpoint) => bindExport(app, deps, wrapper, source);
  exportOf(api.exportFlowDaily, api.getFlowDailyPage);
  exportOf(api.exportFlowSessions, api.getFlowSessionPage);
  deps.exports.register(api.getFlowDailyPage, {
    title: { zh: '流量详单（按日）', en: 'Traffic details by day' },
    page: (f, actor) => usage.exportPage('daily', f, actor),
    columns: [
      { key: 'day', title: { zh: '日期', en: 'Day' } },
      ...FLOW_COMMON,
      ...sizeColumns('bytes', { zh: '流量', en: 'Data' }),
      ...sizeColumns('bytesUp', { zh: '上行', en: 'Uplink' }),
      ...sizeColumns('bytesDown', { zh: '下行', en: 'Downlink' }),
      { key: 'sessions', title: { zh: '会话数', en: 'Sessions' }, type: 'number' },
      { key: 'sms', title: { zh: '短信（条）', en: 'SMS' }, type: 'number' },
      { key: 'voiceSeconds', title: { zh: '语音（秒）', en: 'Voice (seconds)' }, type: 'number' },
    ],
  });
  deps.exports.register(api.getFlowSessionPage, {
    title: { zh: '流量详单（按会话）', en: 'Traffic details by session' },
    page: (f, actor) => usage.exportPage('session', f, actor),
    columns: [
      { key: 'sessionId', title: { zh: '会话 ID', en: 'Session ID' } },
      ...FLOW_COMMON,
      { key: 'startedAt', title: { zh: '开始时间', en: 'Started' }, type: 'datetime' },
      { key: 'endedAt', title: { zh: '结束时间', en: 'Ended' }, type: 'datetime' },
      { key: 'durationSeconds', title: { zh: '时长（秒）', en: 'Duration (seconds)' }, type: 'number' },
      { key: 'rat', title: { zh: '网络制式', en: 'Network type' }, enum: NetworkType },
      { key: 'cell', title: { zh: '小区', en: 'Cell' } },
      ...sizeColumns('bytes', { zh: '流量', en: 'Data' }),
      ...sizeColumns('bytesUp', { zh: '上行', en: 'Uplink' }),
      ...sizeColumns('bytesDown', { zh: '下行', en: 'Downlink' }),
    ],
  });

  // the feed job runs every minute and works each operator's feed when its interval has passed (one process at a time per feed)
  const feedDeps = { db: deps.db, config: deps.config };
  const minutes = deps.config.usageFeedMinutes;
  deps.jobs.define(USAGE_FEED_QUEUE, async () => {
    const runs = await runUsageFeed(feedDeps, {
      intervalMs: Math.max(1, minutes) * 60_000,
      log: (err, operatorId) => app.log.error({ err, operatorId }, 'usage feed failed'),
    });
    // new usage: the pools' rule right away (it also runs every 15 minutes on its own, pool-routes.ts)
    if (runs.some((r) => r.ran && r.windows > 0)) {
      await checkAllPools(feedDeps, { log: (err, poolId) => app.log.error({ err, poolId }, 'pool usage check failed') });
      // and the automation rules' threshold check (docs/automation.md): an alert within minutes of the crossing
      await deps.jobs.send(AUTORULE_FEED_QUEUE, {}, { singletonKey: 'autorule-feed-check', singletonSeconds: 30 })
        .catch((err: unknown) => app.log.warn({ err }, 'rule check after the usage feed not kicked; its minute schedule takes it'));
      // and the super SIM strategies (docs/super-sim.md): switches by rule on the new window's sessions
      await deps.jobs.send(DSIM_STRATEGY_QUEUE, {}, { singletonKey: 'dsim-strategy', singletonSeconds: 30 })
        .catch((err: unknown) => app.log.warn({ err }, 'super SIM strategies after the usage feed not kicked; their minute schedule takes them'));
    }
  }, { retryLimit: 0, expireInSeconds: 10 * 60 });
  deps.jobs.schedule(USAGE_FEED_QUEUE, minutes > 0 ? '* * * * *' : null);
  // monthly: the partitions of the coming months, and session records past their retention dropped a month at a time
  deps.jobs.define(USAGE_PARTITIONS_QUEUE, async () => {
    await ensureUsagePartitions(deps.db);
    await dropExpiredSessionPartitions(deps.db);
  }, { retryLimit: 2 });
  deps.jobs.schedule(USAGE_PARTITIONS_QUEUE, '7 0 1 * *');
}
