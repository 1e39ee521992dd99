import type { FastifyInstance } from 'fastify';
import { ProfitShareMethod, retail } from '@lynx/contract';
import type { AppDeps } from '../../app.ts';
import { bind } from '../../platform/http.ts';
import { retailService } from './retail-service.ts';

/** Retail plans a customer sells to its end users (Billing → Packages, retail tab). */
export function retailRoutes(app: FastifyInstance, deps: AppDeps) {
  const svc = retailService(deps.db);

  bind(app, deps, retail.getRetailListPage, (b, ctx) => svc.list(b, ctx.actor));
  bind(app, deps, retail.getRetailDetail, (b, ctx) => svc.detail(b.retailId, ctx.actor));
  bind(app, deps, retail.saveRetail, (b, ctx) => svc.create(b, ctx));
  bind(app, deps, retail.updateRetail, (b, ctx) => svc.update(b, ctx));
  bind(app, deps, retail.getRetailChangeRecord, (b, ctx) => svc.records(b, ctx.actor));
  bind(app, deps, retail.getRetailCustomerOptions, (b, ctx) => svc.customerOptions(b, ctx.actor));
  bind(app, deps, retail.getRetailBasicOptions, (b, ctx) => svc.basicOptions(b, ctx.actor));

  const { RetailStatus } = retail;
  deps.exports.register(retail.getRetailListPage, {
    title: { zh: '零售套餐', en: 'Retail plans' },
    filters: {
      retailName: { title: { zh: '零售套餐名称', en: 'Retail plan name' } },
      status: { title: { zh: '状态', en: 'Status' }, enum: retail.RetailStatus },
    },
    perm: retail.RETAIL_EXPORT,
    page: svc.list,
    columns: [
      { key: 'retailId', title: { zh: '零售套餐 ID', en: 'Retail plan ID' }, type: 'number' },
      { key: 'retailName', title: { zh: '零售套餐名称', en: 'Retail plan name' } },
      { key: 'custName', title: { zh: '客户', en: 'Customer' } },
      { key: 'basicName', title: { zh: '基础套餐', en: 'Basic plan' } },
      { key: 'basicSalePrice', title: { zh: '基础套餐售价（元）', en: 'Basic plan price (CNY)' }, type: 'money' },
      { key: 'price', title: { zh: '零售价格（元）', en: 'Retail price (CNY)' }, type: 'money' },
      { key: 'crossedPrice', title: { zh: '划线价格（元）', en: 'Crossed-out price (CNY)' }, type: 'money' },
      { key: 'taxRate', title: { zh: '税率（%）', en: 'Tax rate (%)' }, type: 'number' },
      { key: 'dividendMethod', title: { zh: '分润方式', en: 'Dividend method' }, enum: ProfitShareMethod },
      { key: 'dividendProportion', title: { zh: '分润比例（%）', en: 'Dividend proportion (%)' }, type: 'number' },
      { key: 'eventName', title: { zh: '关联事件包', en: 'Linked event package' } },
      { key: 'status', title: { zh: '状态', en: 'Status' }, enum: RetailStatus },
      { key: 'updatedBy', title: { zh: '更新人', en: 'Updated by' } },
      { key: 'updatedAt', title: { zh: '更新时间', en: 'Updated' }, type: 'datetime' },
    ],
  });
}
