import type { FastifyInstance } from 'fastify';
import { CustomerLevel, ReportPeriod, simreport as api, type Bilingual } from '@lynx/contract';
import { bind } from '../../../platform/http.ts';
import { sizeColumns, usageCounterColumns, voiceMinutes, type ExportColumn } from '../../../platform/exports.ts';
import type { AppDeps } from '../../../app.ts';
import type { Actor, SessionContext } from '../../../platform/context.ts';
import { SimReportService } from './simreport-service.ts';

const b = (zh: string, en: string): Bilingual => ({ zh, en });
const STOCK = b('平台库存', 'Platform stock');
/** a customer's name for an export: the platform's stock has none */
const named = <R extends { custName: string | null }>(r: R) => ({ ...r, custName: r.custName == null ? STOCK : b(r.custName, r.custName) });

/** Report › Monthly SIM report (10010000) and Report › Data usage (10030000), with their exports. */
export function simReportRoutes(app: FastifyInstance, deps: AppDeps) {
  const reports = new SimReportService(deps.db);
  const ctxOf = (c: unknown) => c as SessionContext;

  bind(app, deps, api.getCardReportPage, (body, c) => reports.cardReport(body, ctxOf(c).actor));
  bind(app, deps, api.exportCardReport, (body, c) => {
    const { format, ...filters } = body;
    return deps.exports.create({ source: api.getCardReportPage.name, filters, format }, ctxOf(c));
  });
  deps.exports.register(api.getCardReportPage, {
    title: b('月度卡报表', 'Monthly SIM report'),
    filters: { month: { title: b('月份', 'Month') } },
    page: async (f, actor) => {
      const r = await reports.cardReport(f as Parameters<SimReportService['cardReport']>[0], actor);
      return { ...r, list: r.list.map(named) };
    },
    columns: [
      { key: 'custId', title: b('客户 ID', 'Customer ID'), type: 'number' },
      { key: 'custName', title: b('客户', 'Customer'), type: 'bilingual' },
      { key: 'level', title: b('客户级别', 'Customer level'), enum: CustomerLevel },
      { key: 'parentCustName', title: b('上级客户', 'Parent customer') },
      { key: 'cards', title: b('卡总数', 'Cards'), type: 'number' },
      { key: 'beforeUse', title: b('测试/库存', 'Test / inventory'), type: 'number' },
      { key: 'activated', title: b('已激活', 'Activated'), type: 'number' },
      { key: 'deactivated', title: b('已停机', 'Deactivated'), type: 'number' },
      { key: 'closed', title: b('已失效/销户', 'Invalidated / retired'), type: 'number' },
      { key: 'newCards', title: b('本月新增', 'New this month'), type: 'number' },
      { key: 'activatedInMonth', title: b('本月激活', 'Activated this month'), type: 'number' },
      { key: 'closedInMonth', title: b('本月销户/失效', 'Closed this month'), type: 'number' },
      ...sizeColumns('bytes', b('本月流量', 'Data this month')),
      { key: 'sms', title: b('本月短信（条）', 'SMS this month'), type: 'number' },
      { key: 'fee', title: b('账单费用（元）', 'Bill fees (CNY)'), type: 'money' },
    ],
  });

  bind(app, deps, api.getDayFlow, (body, c) => reports.usage(ReportPeriod.Daily, body, ctxOf(c).actor));
  bind(app, deps, api.getMonthFlow, (body, c) => reports.usage(ReportPeriod.Monthly, body, ctxOf(c).actor));
  bind(app, deps, api.exportFile, (body, c) => {
    const { format, type, ...filters } = body;
    const source = type === ReportPeriod.Monthly ? api.getMonthFlow : api.getDayFlow;
    return deps.exports.create({ source: source.name, filters, format }, ctxOf(c));
  });
  const usageColumns: ExportColumn[] = [
    { key: 'period', title: b('周期', 'Period') },
    { key: 'custId', title: b('客户 ID', 'Customer ID'), type: 'number' },
    { key: 'custName', title: b('客户', 'Customer'), type: 'bilingual' },
    { key: 'operatorName', title: b('运营商', 'Operator'), type: 'bilingual' },
    ...usageCounterColumns(),
    { key: 'cards', title: b('有用量的卡', 'Cards with usage'), type: 'number' },
  ];
  const usageFilters = {
    startDate: { title: b('日期', 'Dates'), kind: 'date' as const, to: 'endDate' },
    apn: { title: b('APN', 'APN') },
  };
  for (const [source, type, title] of [
    [api.getDayFlow, ReportPeriod.Daily, b('流量使用（按日）', 'Data usage by day')],
    [api.getMonthFlow, ReportPeriod.Monthly, b('流量使用（按月）', 'Data usage by month')],
  ] as const) {
    deps.exports.register(source, {
      title, filters: usageFilters, columns: usageColumns,
      page: async (f, actor: Actor) => {
        const r = await reports.usage(type, f as Parameters<SimReportService['usage']>[1], actor);
        return { ...r, list: r.list.map((x) => ({ ...named(x), voiceMinutes: voiceMinutes(x.voiceSeconds) })) };
      },
    });
  }
}
