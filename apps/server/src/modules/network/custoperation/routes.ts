import type { FastifyInstance } from 'fastify';
import { custoperation as api, type Bilingual } from '@lynx/contract';
import { bind } from '../../../platform/http.ts';
import { usageCounterColumns, voiceMinutes } from '../../../platform/exports.ts';
import type { AppDeps } from '../../../app.ts';
import type { Actor, SessionContext } from '../../../platform/context.ts';
import { BUILT_IN_ACCOUNT_LABEL } from '../../billing/operator/operator-bill-fetch.ts';
import { CustOperationService } from './service.ts';

const b = (zh: string, en: string): Bilingual => ({ zh, en });

/**
 * Shortcuts › China Unicom account operation (6030000): the list with totals, its filter options, a row's pool detail
 * with the pooled-usage alarm messages, the day's cards, and the list's export through the download tasks.
 */
export function custOperationRoutes(app: FastifyInstance, deps: AppDeps) {
  const service = new CustOperationService(deps.db);
  const actorOf = (c: unknown) => (c as SessionContext).actor;

  bind(app, deps, api.getCustOperationPage, (body, c) => service.page(body, actorOf(c)));
  bind(app, deps, api.getCustOperationOptions, (_body, c) => service.options(actorOf(c)));
  bind(app, deps, api.getCustOperationDetail, (body, c) => service.detail(body, actorOf(c)));
  bind(app, deps, api.getCustOperationCardPage, (body, c) => service.cards(body, actorOf(c)));

  deps.exports.register(api.getCustOperationPage, {
    title: b('联通账户运营', 'China Unicom account operation'),
    filters: {
      startDate: { title: b('日期', 'Dates'), kind: 'date' as const, to: 'endDate' },
      zoneName: { title: b('区域', 'Zone') },
    },
    page: async (f, actor: Actor) => {
      const r = await service.page(f as Parameters<CustOperationService['page']>[0], actor);
      return {
        ...r,
        list: r.list.map((x) => ({
          ...x,
          accountName: x.operAccountId === 0 ? BUILT_IN_ACCOUNT_LABEL : b(x.accountName, x.accountName),
          zone: x.zoneName == null ? b('-', '-') : b(x.zoneName, x.zoneNameEn ?? x.zoneName),
          voiceMinutes: voiceMinutes(x.voiceSeconds),
        })),
      };
    },
    columns: [
      { key: 'queryDate', title: b('日期', 'Date') },
      { key: 'accountName', title: b('联通账户', 'Unicom account'), type: 'bilingual' },
      { key: 'ratePlanName', title: b('资费计划', 'Rate plan') },
      { key: 'ratePlanCode', title: b('资费计划编码', 'Rate plan code') },
      { key: 'zone', title: b('区域', 'Zone'), type: 'bilingual' },
      { key: 'cards', title: b('有用量的卡', 'Cards with usage'), type: 'number' },
      ...usageCounterColumns(),
      { key: 'alarms', title: b('流量池告警', 'Pool alarms'), type: 'number' },
    ],
  });
}
