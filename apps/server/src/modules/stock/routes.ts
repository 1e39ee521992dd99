import type { FastifyInstance } from 'fastify';
import { Operator, StockBalanceType, StockMatchState, StockOutState, stock as api } from '@lynx/contract';
import { bind } from '../../platform/http.ts';
import { bindExport } from '../../platform/exports.ts';
import type { AppDeps } from '../../app.ts';
import type { SessionContext } from '../../platform/context.ts';
import { StockItemService, staffOnly } from './items/service.ts';
import { StockOpService } from './ops/service.ts';
// registers the stock handler of batch types 20-23 with the card batch engine
import './ops/handler.ts';

/** every minute: match claims no running batch holds any more go back (ops/service.ts releaseClaims) */
export const STOCK_SWEEP_QUEUE = 'stock-batch-sweep';

/**
 * Stock › Stock list (11010000) and Stock › Stock operations (11030000): operator staff only (docs/stock.md). Every
 * call checks the session and the page code (the contract) and then that the caller is staff (the service).
 */
export function stockRoutes(app: FastifyInstance, deps: AppDeps) {
  const items = new StockItemService(deps.db);
  // the operations are card batch engine batches (types 20-23): its job runs them, its sweep queues a lost one again
  const ops = new StockOpService(deps.db, deps.jobs, app.log);
  deps.jobs.define(STOCK_SWEEP_QUEUE, () => ops.releaseClaims(), { retryLimit: 0, expireInSeconds: 300 });
  deps.jobs.schedule(STOCK_SWEEP_QUEUE, '* * * * *');

  bind(app, deps, api.getStockPage, (b, ctx) => items.page(b, ctx.actor));
  bind(app, deps, api.getStockLocations, (_b, ctx) => items.locations(ctx.actor));
  bind(app, deps, api.getStockDetail, (b, ctx) => items.detail(b.iccid, ctx.actor));
  bind(app, deps, api.getStockDoubleCard, (b, ctx) => items.doubleCard(b.sn, ctx.actor));
  bind(app, deps, api.getStockChangePage, (b, ctx) => items.changes(b, ctx.actor));
  bind(app, deps, api.batchUpdateStock, (b, ctx) => items.batchUpdate(b, ctx as SessionContext));
  bindExport(app, deps, api.exportStockCodes, api.getStockPage, staffOnly);

  bind(app, deps, api.validateStockOp, (b, ctx) => ops.validate(b, ctx as SessionContext));
  bind(app, deps, api.validateStockInFile, (_b, ctx, req) => ops.validateFile(req, ctx as SessionContext));
  bind(app, deps, api.downloadStockInTemplate, (b, ctx, _req, reply) => ops.template(b, ctx as SessionContext, reply));
  bind(app, deps, api.confirmStockOp, (b, ctx) => ops.confirm(b.batchId, ctx as SessionContext));
  bind(app, deps, api.cancelStockOp, (b, ctx) => ops.cancel(b.batchId, ctx as SessionContext));
  bind(app, deps, api.getStockOpPage, (b, ctx) => ops.page(b, ctx.actor));
  bind(app, deps, api.getStockOpDetail, (b, ctx) => ops.detail(b.batchId, ctx.actor));
  bind(app, deps, api.getStockOpItemPage, (b, ctx) => ops.items(b, ctx.actor, ctx.lang));

  // the three-code export: read by key, so a million items export in linear time and constant memory
  deps.exports.register(api.getStockPage, {
    title: { zh: '库存三码', en: 'Stock three codes' },
    filters: {
      iccid: { title: { zh: 'ICCID', en: 'ICCID' } },
      imsi: { title: { zh: 'IMSI', en: 'IMSI' } },
      msisdn: { title: { zh: 'MSISDN', en: 'MSISDN' } },
      sn: { title: { zh: 'SN', en: 'SN' } },
      operatorId: { title: { zh: '运营商', en: 'Operator' }, enum: Operator },
      location: { title: { zh: '库位', en: 'Location' } },
      matchState: { title: { zh: '配卡状态', en: 'Match state' }, enum: StockMatchState },
      outState: { title: { zh: '出库状态', en: 'Out state' }, enum: StockOutState },
      balanceType: { title: { zh: '余额类型', en: 'Balance type' }, enum: StockBalanceType },
      // a keyset cursor of the screen's paging, not a filter
      afterIccid: { title: { zh: '', en: '' }, hidden: true },
    },
    page: async (f, actor) => (staffOnly(actor), items.exportPage(f, actor)),
    count: (f, actor) => items.exportCount(f, actor),
    columns: [
      { key: 'iccid', title: { zh: 'ICCID', en: 'ICCID' } },
      { key: 'imsi', title: { zh: 'IMSI', en: 'IMSI' } },
      { key: 'msisdn', title: { zh: 'MSISDN', en: 'MSISDN' } },
    ],
  });
}
