import type { FastifyInstance } from 'fastify';
import { CreditPaymentUnit, CreditStatus, CreditType, credit as api } from '@lynx/contract';
import { bind } from '../../../platform/http.ts';
import { bindExport } from '../../../platform/exports.ts';
import type { AppDeps } from '../../../app.ts';
import type { SessionContext } from '../../../platform/context.ts';
import { CreditService, refreshCredits } from './credit-service.ts';

export const CREDIT_EXPIRY_QUEUE = 'credit-expiry';

/**
 * Financial › Credit (issue 13): credit orders, their change log and export. Staff create, edit and reset; customers
 * read their own (a first-level customer its tree). A provisional credit's expiry is applied by a job at 00:00 in the
 * business time zone and hourly after (the status on the screens is computed at read, so it shows "expired" from the first second).
 */
export function creditRoutes(app: FastifyInstance, deps: AppDeps) {
  const credit = new CreditService(deps.db);
  const ctxOf = (c: unknown) => c as SessionContext;

  bind(app, deps, api.getCreditListPage, (b, c) => credit.list(b, ctxOf(c).actor));
  bind(app, deps, api.getCreditDetail, (b, c) => credit.detail(b.creditId, ctxOf(c).actor));
  bind(app, deps, api.getCreditChangeLog, (b, c) => credit.changeLog(b, ctxOf(c).actor));
  bind(app, deps, api.saveCredit, (b, c) => credit.save(b, ctxOf(c)));
  bind(app, deps, api.updateCredit, (b, c) => credit.update(b, ctxOf(c)));
  bind(app, deps, api.resetCredit, (b, c) => credit.reset(b, ctxOf(c)));

  bindExport(app, deps, api.exportCreditList, api.getCreditListPage);
  deps.exports.register(api.getCreditListPage, {
    title: { zh: '授信列表', en: 'Credit orders' },
    filters: {
      creditType: { title: { zh: '授信类型', en: 'Type' }, enum: CreditType },
      status: { title: { zh: '状态', en: 'Status' }, enum: CreditStatus },
      range: { title: { zh: '授信范围', en: 'Range' }, enum: api.CreditRange },
      creditNo: { title: { zh: '授信编号', en: 'Credit number' } },
    },
    page: (f, actor) => credit.list(f, actor),
    columns: [
      { key: 'creditNo', title: { zh: '授信编号', en: 'Credit number' } },
      { key: 'custName', title: { zh: '客户', en: 'Customer' } },
      { key: 'creditType', title: { zh: '授信类型', en: 'Type' }, enum: CreditType },
      { key: 'status', title: { zh: '状态', en: 'Status' }, enum: CreditStatus },
      { key: 'amount', title: { zh: '授信金额（元）', en: 'Amount (CNY)' }, type: 'money' },
      { key: 'paymentTerm', title: { zh: '还款期限', en: 'Payment term' }, type: 'number' },
      { key: 'paymentUnit', title: { zh: '期限单位', en: 'Term unit' }, enum: CreditPaymentUnit },
      { key: 'validFrom', title: { zh: '生效日', en: 'Valid from' } },
      { key: 'validTo', title: { zh: '截止日', en: 'Valid to' } },
      { key: 'remark', title: { zh: '备注', en: 'Remark' } },
      { key: 'resetReason', title: { zh: '重置原因', en: 'Reset reason' } },
      { key: 'createdBy', title: { zh: '创建人', en: 'Created by' } },
      { key: 'createdAt', title: { zh: '创建时间', en: 'Created' }, type: 'datetime' },
    ],
  });

  deps.jobs.define(CREDIT_EXPIRY_QUEUE, async () => {
    const r = await refreshCredits(deps.db);
    if (r.customers) app.log.info(r, 'credit projection refreshed');
  }, { retryLimit: 3, expireInSeconds: 30 * 60 });
  // at 00:00 in the business zone (the day a provisional credit expires), and every hour after as a repair for a
  // midnight the server missed
  deps.jobs.schedule(CREDIT_EXPIRY_QUEUE, '0 * * * *');
}
