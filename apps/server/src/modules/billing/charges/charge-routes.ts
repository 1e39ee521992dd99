import type { FastifyInstance } from 'fastify';
import { BillLineCategory, ChargeEvent, ChargeState, withholding as api, type Bilingual } from '@lynx/contract';
import { bind } from '../../../platform/http.ts';
import { bindExport, type ExportColumn } from '../../../platform/exports.ts';
import type { SessionContext } from '../../../platform/context.ts';
import type { AppDeps } from '../../../app.ts';
import { ChargeService } from './charge-service.ts';

const b = (zh: string, en: string): Bilingual => ({ zh, en });
const money = (key: string, zh: string, en: string): ExportColumn => ({ key, title: b(`${zh}（元）`, `${en} (CNY)`), type: 'money' });
const hidden = { title: b('', ''), hidden: true as const };

/**
 * Charges at the event (issue 14): Reports › Prepaid cost withholding (10020000) with its exports, and Business ›
 * Capital's prepaid detail (8030000). The charges themselves are written by the card changes (charges.ts).
 */
export function chargeRoutes(app: FastifyInstance, deps: AppDeps) {
  const charges = new ChargeService(deps.db);
  const actorOf = (c: unknown) => (c as SessionContext).actor;

  bind(app, deps, api.getChargeListPage, (body, c) => charges.list(body, actorOf(c)));
  bind(app, deps, api.getChargeDetail, (body, c) => charges.detail(body.chargeId, actorOf(c)));
  bind(app, deps, api.getChargeCards, (body, c) => charges.cards(body, actorOf(c)));
  bind(app, deps, api.getPrepayGroups, (body, c) => charges.prepayGroups(body, actorOf(c)));
  bind(app, deps, api.getPrepayCards, (body, c) => charges.prepayCards(body, actorOf(c)));
  bind(app, deps, api.getCardCharges, (body, c) => charges.cardCharges(body, actorOf(c)));

  bindExport(app, deps, api.exportChargeList, api.getChargeListPage);
  deps.exports.register(api.getChargeListPage, {
    title: b('预付费用扣缴记录', 'Prepaid cost withholding records'),
    filters: {
      periodKey: { title: b('账期', 'Billing period') },
      event: { title: b('扣费事件', 'Event'), enum: ChargeEvent },
      state: { title: b('扣缴状态', 'Collection'), enum: ChargeState },
      category: { title: b('费用类别', 'Category'), enum: BillLineCategory },
      from: { title: b('扣费日期', 'Charged on'), kind: 'date', to: 'to' },
      to: hidden,
    },
    page: (f, actor) => charges.list(f, actor),
    columns: [
      { key: 'chargeNo', title: b('扣缴单号', 'Record no.') },
      { key: 'custId', title: b('客户 ID', 'Customer ID'), type: 'number' },
      { key: 'custName', title: b('客户', 'Customer') },
      { key: 'event', title: b('扣费事件', 'Event'), enum: ChargeEvent },
      { key: 'category', title: b('费用类别', 'Category'), enum: BillLineCategory },
      { key: 'goodsName', title: b('套餐/加油包', 'Plan or pack') },
      { key: 'periodKey', title: b('账期', 'Billing period') },
      { key: 'cards', title: b('卡数', 'Cards'), type: 'number' },
      { key: 'quantity', title: b('期数/包数', 'Terms or packs'), type: 'number' },
      money('amount', '金额', 'Amount'),
      money('tax', '税额', 'Tax'),
      { key: 'state', title: b('扣缴状态', 'Collection'), enum: ChargeState },
      { key: 'journalId', title: b('资金流水号', 'Ledger journal'), type: 'number' },
      { key: 'actor', title: b('操作人', 'By') },
      { key: 'createdAt', title: b('扣费时间', 'Charged at'), type: 'datetime' },
    ],
  });

  bindExport(app, deps, api.exportChargeCards, api.getChargeCards);
  deps.exports.register(api.getChargeCards, {
    title: b('扣缴记录的卡', 'Cards of a withholding record'),
    filters: { chargeId: { title: b('扣缴记录', 'Withholding record'), kind: 'shortId' }, after: hidden },
    page: async (f, actor) => {
      const r = await charges.cards(f, actor);
      return { list: r.list, total: r.total };
    },
    columns: [
      { key: 'iccid', title: b('ICCID', 'ICCID') },
      { key: 'msisdn', title: b('MSISDN', 'MSISDN') },
      { key: 'fromDay', title: b('开始日', 'From') },
      { key: 'toDay', title: b('结束日', 'To') },
      { key: 'quantity', title: b('期数/包数', 'Terms or packs'), type: 'number' },
      money('unitPrice', '单价', 'Unit price'),
      money('amount', '金额', 'Amount'),
      money('tax', '税额', 'Tax'),
    ],
  });
}
