import type { FastifyInstance } from 'fastify';
import { CardState, Operator, carddata, type Endpoint } from '@lynx/contract';
import { bind } from '../../../platform/http.ts';
import type { AppDeps } from '../../../app.ts';
import { denied } from '../../../platform/errors.ts';
import { isStaff, type Actor, type SessionContext } from '../../../platform/context.ts';
import { CardListService } from './list.ts';
import { exportCatalogColumns } from './catalog.ts';
import { bindExport, sizeColumns } from '../../../platform/exports.ts';
import { CardImportService } from '../import/import.ts';
import { changeCardState } from '../lifecycle/card-service.ts';

/**
 * The card list (every role, scoped to its tenant) and card file imports (operator staff only: customers are
 * refused here even if a role gives them the import code).
 */
export function cardDataRoutes(app: FastifyInstance, deps: AppDeps) {
  const list = new CardListService(deps.db);
  const imports = new CardImportService(deps.db);
  const staffOnly = (actor: Actor) => {
    if (!isStaff(actor)) throw denied();
  };

  bind(app, deps, carddata.getSimListPage, (b, ctx) => list.list(b, ctx.actor));
  // one card's state, through the lifecycle engine; tenant scope is checked on the locked card row
  bind(app, deps, carddata.changeCardStatus, (b, ctx) => changeCardState(deps, ctx as SessionContext, b.iccid, b.action, b.reason));

  bind(app, deps, carddata.importCards, (_b, ctx, req) => (staffOnly(ctx.actor), imports.import(req, ctx)));
  bind(app, deps, carddata.downloadCardImportTemplate, (b, ctx, _req, reply) => (staffOnly(ctx.actor), imports.template(b, ctx, reply)));
  bind(app, deps, carddata.getCardImportPage, (b, ctx) => (staffOnly(ctx.actor), imports.page(b)));
  bind(app, deps, carddata.getCardImportDetail, (b, ctx) => (staffOnly(ctx.actor), imports.detail(b.batchId)));
  bind(app, deps, carddata.getCardImportErrorPage, async (b, ctx) => (staffOnly(ctx.actor), await imports.detail(b.batchId), imports.errorPage(b, ctx.lang)));

  const exportOf = (wrapper: Endpoint, source: Endpoint, guard?: (a: Actor) => void) => bindExport(app, deps, wrapper, source, guard);
  exportOf(carddata.exportSimList, carddata.getSimListPage);
  exportOf(carddata.exportCardImportErrors, carddata.getCardImportErrorPage, staffOnly);

  deps.exports.register(carddata.getSimListPage, {
    title: { zh: '卡列表', en: 'Card list' },
    filters: {
      states: { title: { zh: '状态', en: 'State' }, enum: CardState },
    },
    // the same tenant rule as the screen, read by key so a million cards export in linear time
    page: async (f, actor) => {
      const page = await list.exportPage(f, actor);
      return { ...page, list: page.list.map(exportCatalogColumns) };
    },
    // the pages above read by key without counting; the list's own count stops after 10,001 cards
    count: async (f, actor) => {
      const first = await list.list({ ...f, current: 1, pageSize: 1 }, actor);
      return first.totalCapped ? Number.POSITIVE_INFINITY : first.total;
    },
    columns: [
      { key: 'iccid', title: { zh: 'ICCID', en: 'ICCID' } },
      { key: 'msisdn', title: { zh: 'MSISDN', en: 'MSISDN' } },
      { key: 'imsi', title: { zh: 'IMSI', en: 'IMSI' } },
      { key: 'imei', title: { zh: 'IMEI', en: 'IMEI' } },
      { key: 'state', title: { zh: '状态', en: 'State' }, enum: CardState },
      { key: 'operatorId', title: { zh: '运营商', en: 'Operator' }, enum: Operator },
      { key: 'custName', title: { zh: '客户', en: 'Customer' } },
      { key: 'planName', title: { zh: '套餐', en: 'Plan' } },
      { key: 'batchNo', title: { zh: '批次', en: 'Batch' } },
      { key: 'online', title: { zh: '在线', en: 'Online' } },
      // this cycle's usage (docs/cards.md "Cycle usage"): the number in KB and as people read it; % and quota empty without a quota
      ...sizeColumns('cycleUsedKb', { zh: '本周期已用', en: 'Used this cycle' }, 'KB'),
      ...sizeColumns('cycleQuotaKb', { zh: '本周期额度', en: 'Quota this cycle' }, 'KB'),
      { key: 'cycleUsedPercent', title: { zh: '额度使用率（%）', en: '% of quota used' }, type: 'number' },
      { key: 'cycleFrom', title: { zh: '本周期开始', en: 'Cycle from' } },
      { key: 'cycleTo', title: { zh: '本周期结束', en: 'Cycle to' } },
      { key: 'lastSessionAt', title: { zh: '最近会话时间', en: 'Last session' }, type: 'datetime' },
      { key: 'activatedAt', title: { zh: '激活时间', en: 'Activated' }, type: 'datetime' },
      { key: 'firstUsedAt', title: { zh: '首次使用时间', en: 'First used' }, type: 'datetime' },
      { key: 'custom1', title: { zh: '自定义字段 1', en: 'Custom field 1' } },
      { key: 'custom2', title: { zh: '自定义字段 2', en: 'Custom field 2' } },
      { key: 'labelNames', title: { zh: '标签', en: 'Labels' } },
      { key: 'cardTypeName', title: { zh: '卡类型', en: 'Card type' }, type: 'bilingual' },
      { key: 'poolName', title: { zh: '流量池', en: 'Pool' } },
      { key: 'createdAt', title: { zh: '入库时间', en: 'Added' }, type: 'datetime' },
    ],
  });
  deps.exports.register(carddata.getCardImportErrorPage, {
    title: { zh: '卡导入失败明细', en: 'Card import failures' },
    page: async (f, actor) => (staffOnly(actor), imports.errorPage(f, 'both')),
    columns: [
      { key: 'row', title: { zh: '行号', en: 'Row' }, type: 'number' },
      { key: 'iccid', title: { zh: 'ICCID', en: 'ICCID' } },
      { key: 'msisdn', title: { zh: 'MSISDN', en: 'MSISDN' } },
      { key: 'imsi', title: { zh: 'IMSI', en: 'IMSI' } },
      { key: 'column', title: { zh: '列', en: 'Column' } },
      { key: 'reason', title: { zh: '原因', en: 'Reason' } },
    ],
  });
}
