import type { FastifyInstance } from 'fastify';
import { CardState, Operator, cardcat, type Endpoint } from '@lynx/contract';
import { bind } from '../../../platform/http.ts';
import { bindExport, sizeColumns } from '../../../platform/exports.ts';
import type { AppDeps } from '../../../app.ts';
import type { SessionContext } from '../../../platform/context.ts';
import { LabelService } from '../labels.ts';
import { CardTypeService } from './card-types.ts';
import { TestCardService } from '../testcard/test-cards.ts';

/**
 * The card catalogue: labels (every role, scoped to the label owner's tenant), card types (read by anyone with
 * the page code, written by operator staff only) and test cards (the caller's cards in the test state).
 */
export function cardCatalogRoutes(app: FastifyInstance, deps: AppDeps) {
  const labels = new LabelService(deps.db);
  const types = new CardTypeService(deps.db);
  const tests = new TestCardService({ db: deps.db, config: deps.config });

  bind(app, deps, cardcat.getLabelListPage, (b, ctx) => labels.list(b, ctx.actor));
  bind(app, deps, cardcat.getLabelOptions, (_b, ctx) => labels.options(ctx.actor));
  bind(app, deps, cardcat.getLabelDetail, (b, ctx) => labels.detail(b.labelId, ctx.actor));
  bind(app, deps, cardcat.getLabelCardPage, (b, ctx) => labels.cardPage(b, ctx.actor));
  bind(app, deps, cardcat.addLabel, (b, ctx) => labels.add(b, ctx as SessionContext));
  bind(app, deps, cardcat.updateLabel, (b, ctx) => labels.update(b, ctx as SessionContext));
  bind(app, deps, cardcat.deleteLabel, (b, ctx) => labels.remove(b, ctx as SessionContext));

  bind(app, deps, cardcat.getCardTypeListPage, (b) => types.list(b));
  bind(app, deps, cardcat.getCardTypeOptions, () => types.options());
  bind(app, deps, cardcat.addCardType, (b, ctx) => types.add(b, ctx as SessionContext));
  bind(app, deps, cardcat.updateCardType, (b, ctx) => types.update(b, ctx as SessionContext));
  bind(app, deps, cardcat.deleteCardType, (b, ctx) => types.remove(b.cardTypeId, ctx as SessionContext));

  bind(app, deps, cardcat.getTestCardListPage, (b, ctx) => tests.list(b, ctx.actor));
  bind(app, deps, cardcat.getTestCardDetail, (b, ctx) => tests.detail(b.iccid, ctx.actor, ctx.lang));
  bind(app, deps, cardcat.updateTestCard, (b, ctx) => tests.update(b, ctx as SessionContext));

  const exportOf = (wrapper: Endpoint, source: Endpoint) => bindExport(app, deps, wrapper, source);
  exportOf(cardcat.exportLabelList, cardcat.getLabelListPage);
  exportOf(cardcat.exportTestCardList, cardcat.getTestCardListPage);

  deps.exports.register(cardcat.getLabelListPage, {
    title: { zh: '标签列表', en: 'Labels' },
    filters: {
      scope: { title: { zh: '范围', en: 'Scope' }, options: { platform: { zh: '平台标签', en: 'Platform labels' }, own: { zh: '本客户标签', en: 'Own labels' } } },
    },
    page: async (f, actor) => {
      const page = await labels.list(f, actor);
      return { ...page, list: page.list.map((l) => ({ ...l, owner: l.platform ? '平台 / Platform' : l.custName })) };
    },
    columns: [
      { key: 'labelId', title: { zh: '标签 ID', en: 'Label ID' }, type: 'number' },
      { key: 'name', title: { zh: '标签名称', en: 'Name' } },
      { key: 'colour', title: { zh: '颜色', en: 'Colour' } },
      { key: 'description', title: { zh: '描述', en: 'Description' } },
      { key: 'owner', title: { zh: '所属', en: 'Owner' } },
      { key: 'createdBy', title: { zh: '创建人', en: 'Created by' } },
      { key: 'createdAt', title: { zh: '创建时间', en: 'Created' }, type: 'datetime' },
      { key: 'updatedAt', title: { zh: '更新时间', en: 'Updated' }, type: 'datetime' },
    ],
  });
  deps.exports.register(cardcat.getTestCardListPage, {
    title: { zh: '测试卡', en: 'Test cards' },
    page: (f, actor) => tests.list(f, actor),
    columns: [
      { key: 'iccid', title: { zh: 'ICCID', en: 'ICCID' } },
      { key: 'msisdn', title: { zh: 'MSISDN', en: 'MSISDN' } },
      { key: 'imsi', title: { zh: 'IMSI', en: 'IMSI' } },
      { key: 'state', title: { zh: '状态', en: 'State' }, enum: CardState },
      { key: 'operatorId', title: { zh: '运营商', en: 'Operator' }, enum: Operator },
      { key: 'custName', title: { zh: '客户', en: 'Customer' } },
      { key: 'planName', title: { zh: '套餐', en: 'Plan' } },
      { key: 'testStartAt', title: { zh: '测试开始时间', en: 'Test started' }, type: 'datetime' },
      { key: 'testEndAt', title: { zh: '测试到期时间', en: 'Test ends' }, type: 'datetime' },
      ...sizeColumns('testQuotaKb', { zh: '测试流量', en: 'Test data' }, 'KB'),
      ...sizeColumns('testUsedKb', { zh: '已用测试流量', en: 'Test data used' }, 'KB'),
    ],
  });
}
