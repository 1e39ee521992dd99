import type { FastifyInstance } from 'fastify';
import { CardState, ChannelCardState, Operator, channelcard as api } from '@lynx/contract';
import type { AppDeps } from '../../app.ts';
import { bind } from '../../platform/http.ts';
import type { SessionContext } from '../../platform/context.ts';
import { ChannelCardService } from './service.ts';
import { ChannelCardImportService } from './import.ts';

/**
 * Channel card (16000000; docs/channel-cards.md): imports (16010000, import 16010001), the cards (16020000, change state
 * 16020001) and the channels' bills for them (16030000, generate and delete 16030001). The buttons are staff's in the
 * demo roles; every read is within the viewer's tenant.
 */
export function channelCardRoutes(app: FastifyInstance, deps: AppDeps) {
  const service = new ChannelCardService(deps.db);
  const imports = new ChannelCardImportService(deps.db);
  const ctxOf = (c: unknown) => c as SessionContext;

  bind(app, deps, api.importChannelCards, (_b, c, req) => imports.import(req, ctxOf(c)));
  bind(app, deps, api.downloadChannelCardTemplate, (b, c, _req, reply) => imports.template(b, ctxOf(c), reply));
  bind(app, deps, api.getChannelCardImportPage, (b, c) => imports.page(b, ctxOf(c).actor));
  bind(app, deps, api.getChannelCardPage, (b, c) => service.page(b, ctxOf(c).actor));
  bind(app, deps, api.getChannelCardDetail, (b, c) => service.detail(b.id, ctxOf(c).actor));
  bind(app, deps, api.changeChannelCardState, (b, c) => service.changeState(b, ctxOf(c)));
  bind(app, deps, api.getChannelNames, (_b, c) => service.channelNames(ctxOf(c).actor));
  bind(app, deps, api.getChannelCardBillPage, (b, c) => service.billPage(b, ctxOf(c).actor));
  bind(app, deps, api.getChannelCardBillDetail, (b, c) => service.bill(b.billId, ctxOf(c).actor));
  bind(app, deps, api.getChannelCardBillLinePage, (b, c) => service.billLines(b, ctxOf(c).actor));
  bind(app, deps, api.generateChannelCardBills, (b, c) => service.generate(b, ctxOf(c)));
  bind(app, deps, api.deleteChannelCardBill, (b, c) => service.deleteBill(b.billId, ctxOf(c)));

  // the card list's export (generic download task): the list's own call with its filters, so the tenant is the screen's
  deps.exports.register(api.getChannelCardPage, {
    title: { zh: '渠道卡列表', en: 'Channel cards' },
    filters: {
      channelName: { title: { zh: '渠道', en: 'Channel' } },
      state: { title: { zh: '渠道卡状态', en: 'Channel card state' }, enum: ChannelCardState },
    },
    page: (f, actor) => service.page(f, actor),
    columns: [
      { key: 'iccid', title: { zh: 'ICCID', en: 'ICCID' } },
      { key: 'msisdn', title: { zh: 'MSISDN', en: 'MSISDN' } },
      { key: 'operatorId', title: { zh: '运营商', en: 'Operator' }, enum: Operator },
      { key: 'channelName', title: { zh: '渠道', en: 'Channel' } },
      { key: 'salesOrder', title: { zh: '销售订单号', en: 'Sales order' } },
      { key: 'monthlyCost', title: { zh: '月成本(元)', en: 'Monthly cost (CNY)' }, type: 'money' },
      { key: 'state', title: { zh: '渠道卡状态', en: 'Channel card state' }, enum: ChannelCardState },
      { key: 'stoppedAt', title: { zh: '停用时间', en: 'Stopped at' }, type: 'datetime' },
      { key: 'cardState', title: { zh: '卡状态', en: 'Card state' }, enum: CardState },
      { key: 'custName', title: { zh: '客户', en: 'Customer' } },
      { key: 'createdAt', title: { zh: '导入时间', en: 'Imported at' }, type: 'datetime' },
    ],
  });
}
