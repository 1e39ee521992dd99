import type { FastifyInstance } from 'fastify';
import { CustomerLevel, ReportPeriod, report as api, type Bilingual } from '@lynx/contract';
import { bind } from '../../../platform/http.ts';
import { bindExport, type ExportColumn } from '../../../platform/exports.ts';
import type { AppDeps } from '../../../app.ts';
import type { SessionContext } from '../../../platform/context.ts';
import { ReportService } from './report-service.ts';
import { ACCOUNTING_REPORT_QUEUE, buildAccountingReports } from './report-builder.ts';

const b = (zh: string, en: string): Bilingual => ({ zh, en });
/** The amount columns of every report export, in the screen's order (signed: in +, out -). */
const amountColumns: ExportColumn[] = [
  { key: 'opening', title: b('期初余额（元）', 'Opening (CNY)'), type: 'money' },
  { key: 'carriedIn', title: b('余额导入（元）', 'Balances brought in (CNY)'), type: 'money' },
  { key: 'recharge', title: b('充值（元）', 'Top-ups (CNY)'), type: 'money' },
  { key: 'grant', title: b('赠送（元）', 'Grants (CNY)'), type: 'money' },
  { key: 'refund', title: b('退款（元）', 'Refunds (CNY)'), type: 'money' },
  { key: 'refundReversal', title: b('退款撤销（元）', 'Refunds reversed (CNY)'), type: 'money' },
  { key: 'spend', title: b('消费（元）', 'Charges (CNY)'), type: 'money' },
  { key: 'writeOff', title: b('核销（元）', 'Write-offs (CNY)'), type: 'money' },
  { key: 'withdrawPaid', title: b('提现打款（元）', 'Withdrawals paid (CNY)'), type: 'money' },
  { key: 'adjust', title: b('调账（元）', 'Adjustments (CNY)'), type: 'money' },
  { key: 'other', title: b('其他（元）', 'Other (CNY)'), type: 'money' },
  { key: 'closing', title: b('期末余额（元）', 'Closing (CNY)'), type: 'money' },
];

/**
 * Financial › Accounting reports (issue 14): daily and monthly statements of the customers' money with each customer's
 * rows and their exports, and the job that builds each closed business day (hourly at :20 in the business zone, so
 * the first run after 00:15 builds yesterday, the others repair a night the server missed; and once at start).
 */
export function reportRoutes(app: FastifyInstance, deps: AppDeps) {
  const reports = new ReportService(deps.db);
  const ctxOf = (c: unknown) => c as SessionContext;

  bind(app, deps, api.getAccountingReportListPage, (body, c) => reports.list(body, ctxOf(c).actor));
  bind(app, deps, api.getAccountingReportDetail, (body, c) => reports.detail(body, ctxOf(c).actor));

  const type = { title: b('报表类型', 'Report type'), enum: ReportPeriod };
  bindExport(app, deps, api.exportAccountingReportList, api.getAccountingReportListPage);
  deps.exports.register(api.getAccountingReportListPage, {
    title: b('对账报表', 'Accounting reports'),
    filters: { type, startDate: { title: b('报表日期', 'Report dates'), kind: 'date', to: 'endDate' } },
    page: (f, actor) => reports.list(f, actor),
    columns: [
      { key: 'id', title: b('报表（日/月）', 'Report (day / month)') },
      { key: 'periodStart', title: b('起始日', 'First day') },
      { key: 'periodEnd', title: b('截止日', 'Last day') },
      ...amountColumns,
      { key: 'customers', title: b('客户数', 'Customers'), type: 'number' },
    ],
  });

  bindExport(app, deps, api.exportAccountingReportDetail, api.getAccountingReportDetail);
  deps.exports.register(api.getAccountingReportDetail, {
    title: b('对账报表明细', 'Accounting report statements'),
    filters: { type, id: { title: b('报表', 'Report') } },
    page: (f, actor) => reports.detail(f, actor),
    columns: [
      { key: 'custId', title: b('客户 ID', 'Customer ID'), type: 'number' },
      { key: 'custName', title: b('客户', 'Customer') },
      { key: 'level', title: b('客户级别', 'Customer level'), enum: CustomerLevel },
      { key: 'parentCustName', title: b('上级客户', 'Parent customer') },
      ...amountColumns,
    ],
  });

  deps.jobs.define(ACCOUNTING_REPORT_QUEUE, async () => {
    const done = await buildAccountingReports(deps.db);
    if (done.length) app.log.info({ days: done.map((d) => d.day), ms: done.reduce((s, d) => s + d.ms, 0) }, 'accounting reports built');
  }, { retryLimit: 3, expireInSeconds: 60 * 60 });
  deps.jobs.schedule(ACCOUNTING_REPORT_QUEUE, '20 * * * *');
  deps.jobs.runAtStart(ACCOUNTING_REPORT_QUEUE);
}
