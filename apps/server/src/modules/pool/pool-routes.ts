import type { FastifyInstance } from 'fastify';
import { Operator, pool as api } from '@lynx/contract';
import { bind } from '../../platform/http.ts';
import { sizeColumns } from '../../platform/exports.ts';
import type { AppDeps } from '../../app.ts';
import type { SessionContext } from '../../platform/context.ts';
import { PoolService } from './pool-service.ts';
import { POOL_CHECK_QUEUE, checkAllPools } from './pool-usage.ts';

/**
 * Data pools (Card › Pools): every call needs the pool page code (writes the "add pool" button code); the service
 * scopes every pool to the caller's tenant. Cards join and leave through the batch endpoints (types 7 and 8). The
 * usage rule runs every 15 minutes and after each usage feed run that brought usage (usage-routes.ts), when the scheduled feed is on.
 */
export function poolRoutes(app: FastifyInstance, deps: AppDeps) {
  const pools = new PoolService(deps.db);
  const ctxOf = (c: unknown) => c as SessionContext;

  bind(app, deps, api.getPoolPage, (b, c) => pools.list(b, ctxOf(c).actor));
  bind(app, deps, api.getPoolOptions, (b, c) => pools.options(b, ctxOf(c).actor));
  bind(app, deps, api.getPoolDetail, (b, c) => pools.detail(b.poolId, ctxOf(c).actor));
  bind(app, deps, api.savePool, (b, c) => pools.save(b, ctxOf(c)));
  bind(app, deps, api.deletePool, (b, c) => pools.remove(b.poolId, ctxOf(c)));
  bind(app, deps, api.blockPool, (b, c) => pools.block(b, ctxOf(c)));
  bind(app, deps, api.unblockPool, (b, c) => pools.unblock(b, ctxOf(c)));
  bind(app, deps, api.refreshPoolUsage, (b, c) => pools.refresh(b.poolId, ctxOf(c)));
  bind(app, deps, api.getPoolCardPage, (b, c) => pools.cardPage(b, ctxOf(c).actor));
  bind(app, deps, api.getPoolEventPage, (b, c) => pools.eventPage(b, ctxOf(c).actor));

  bind(app, deps, api.exportPools, async (b, c) => {
    const { format, ...filters } = b;
    return deps.exports.create({ source: api.getPoolPage.name, filters, format }, ctxOf(c));
  });
  deps.exports.register(api.getPoolPage, {
    title: { zh: '流量池列表', en: 'Pools' },
    filters: {
      state: { title: { zh: '状态', en: 'State' }, enum: api.PoolState },
    },
    page: (f, actor) => pools.list(f, actor),
    columns: [
      { key: 'poolId', title: { zh: '流量池 ID', en: 'Pool ID' }, type: 'number' },
      { key: 'name', title: { zh: '流量池名称', en: 'Name' } },
      { key: 'custName', title: { zh: '客户', en: 'Customer' } },
      { key: 'operatorId', title: { zh: '运营商', en: 'Operator' }, enum: Operator },
      { key: 'state', title: { zh: '状态', en: 'State' }, enum: api.PoolState },
      { key: 'exhaustAction', title: { zh: '用尽动作', en: 'When used up' }, enum: api.PoolExhaustAction },
      { key: 'alertPercent', title: { zh: '提醒阈值（%）', en: 'Alert at (%)' }, type: 'number' },
      { key: 'memberCount', title: { zh: '成员卡数', en: 'Cards' }, type: 'number' },
      ...sizeColumns('quotaBytes', { zh: '本周期额度', en: 'Quota this cycle' }),
      ...sizeColumns('usedBytes', { zh: '本周期用量', en: 'Used this cycle' }),
      { key: 'cycleStart', title: { zh: '周期开始', en: 'Cycle start' }, type: 'datetime' },
      { key: 'cycleEnd', title: { zh: '周期结束', en: 'Cycle end' }, type: 'datetime' },
      { key: 'usageCheckedAt', title: { zh: '统计时间', en: 'Counted at' }, type: 'datetime' },
      { key: 'blockedAt', title: { zh: '阻断时间', en: 'Blocked at' }, type: 'datetime' },
      { key: 'description', title: { zh: '描述', en: 'Description' } },
      { key: 'createdBy', title: { zh: '创建人', en: 'Created by' } },
      { key: 'createdAt', title: { zh: '创建时间', en: 'Created' }, type: 'datetime' },
    ],
  });

  deps.jobs.define(POOL_CHECK_QUEUE, async () => {
    await checkAllPools(deps, { log: (err, poolId) => app.log.error({ err, poolId }, 'pool usage check failed') });
  }, { retryLimit: 0, expireInSeconds: 5 * 60 });
  // with the scheduled usage feed (off under NODE_ENV=test, where tests run the rule themselves)
  deps.jobs.schedule(POOL_CHECK_QUEUE, deps.config.usageFeedMinutes > 0 ? '*/15 * * * *' : null);
}
