import type { FastifyInstance } from 'fastify';
import { ErrorCode, ExportFormat, errorMessage, cardactions, carddetail as api } from '@lynx/contract';
import { bind } from '../../../platform/http.ts';
import { AppError } from '../../../platform/errors.ts';
import type { SessionContext } from '../../../platform/context.ts';
import type { AppDeps } from '../../../app.ts';
import { apnOnline, basicInfo, billingInfo, cycleInfo, historyPage, policyInfo, visibleCard } from './detail.ts';
import { cardActions } from '../lifecycle/actions.ts';
import { CardAllocationService } from '../card-allocation.ts';
import { qrCards, qrZipFile } from '../list/qr.ts';

/**
 * The card detail page (/card/card-list/detail/:iccid), its actions, the card's SMS, allocation (numcard) and
 * QR code downloads. Session, permission code (contract) and tenant (every service call) are checked on the
 * server for each call.
 */
export function cardDetailRoutes(app: FastifyInstance, deps: AppDeps) {
  const db = deps.db;
  const actions = cardActions(deps);
  const allocation = new CardAllocationService({ ...deps, actorOf: (id) => deps.sessions.actorOf(id) });
  const s = (ctx: unknown) => ctx as SessionContext;

  bind(app, deps, api.getCardDetail, async (b, ctx) => basicInfo(db, await visibleCard(db, ctx.actor, b.iccid), ctx.actor, ctx.lang));
  bind(app, deps, api.getCardHistoryPage, async (b, ctx) => historyPage(db, await visibleCard(db, ctx.actor, b.iccid), b, ctx.lang));
  bind(app, deps, api.getCardCycle, async (b, ctx) => cycleInfo(db, await visibleCard(db, ctx.actor, b.iccid)));
  bind(app, deps, api.getCardPolicy, async (b, ctx) => policyInfo(db, await visibleCard(db, ctx.actor, b.iccid), ctx.lang));
  bind(app, deps, api.getCardApnOnline, async (b, ctx) => apnOnline(db, await visibleCard(db, ctx.actor, b.iccid)));
  bind(app, deps, api.getCardBilling, async (b, ctx) => billingInfo(db, await visibleCard(db, ctx.actor, b.iccid)));

  bind(app, deps, cardactions.getCardActions, (b, ctx) => actions.offers(b.iccid, s(ctx)));
  bind(app, deps, api.editCard, (b, ctx) => actions.edit(b, s(ctx)));
  bind(app, deps, api.renewCard, (b, ctx) => actions.renew(b, s(ctx)));
  bind(app, deps, api.getChangePlanOptions, (b, ctx) => actions.planOptions(b.iccid, s(ctx)));
  bind(app, deps, api.changeCardPlan, (b, ctx) => actions.changePlan(b, s(ctx)));
  bind(app, deps, api.getEventPackOptions, (b, ctx) => actions.packOptions(b.iccid, s(ctx)));
  bind(app, deps, api.orderEventPack, (b, ctx) => actions.orderPack(b, s(ctx)));
  bind(app, deps, api.changeCardZone, (b, ctx) => actions.changeZone(b, s(ctx)));
  bind(app, deps, api.sendCardSms, (b, ctx) => actions.sendSms(b, s(ctx)));
  bind(app, deps, api.getCardSmsPage, (b, ctx) => actions.smsPage(b, s(ctx)));

  bind(app, deps, api.getAssignParams, (_b, ctx) => allocation.params(ctx.actor));
  bind(app, deps, api.getAssignPlans, (b, ctx) => allocation.plans(ctx.actor, b.custId));
  bind(app, deps, api.getAssignSelectNum, (b, ctx) => allocation.selectNum(b, ctx.actor));
  bind(app, deps, api.assignCards, (b, ctx) => allocation.assign(b, s(ctx)));
  bind(app, deps, api.getAssignResult, (b, ctx) => allocation.result(b.allocationId, ctx.actor, ctx.lang));
  bind(app, deps, api.getAssignPage, (b, ctx) => allocation.page(b, ctx.actor, ctx.lang));

  bind(app, deps, api.getQrCodeCards, (b, ctx) => qrCards(db, b, ctx.actor, ctx.lang));
  bind(app, deps, api.exportQrCodes, async (b, ctx) => {
    const all = await qrCards(db, { iccids: b.iccids, current: 1, pageSize: api.CARD_SELECTION_MAX }, ctx.actor, ctx.lang);
    const reasons = new Set(all.list.filter((r) => !r.included).map((r) => r.reasonCode));
    // nothing to draw: refused with the reason (the spec's message when invalidated, retired or frozen cards are among them)
    if (all.included === 0) {
      throw new AppError(reasons.has(ErrorCode.CardQrNotDownloadable) ? ErrorCode.CardQrNotDownloadable
        : reasons.has(ErrorCode.CardStartStateUnsupported) ? ErrorCode.CardStartStateUnsupported : ErrorCode.NotFound);
    }
    const { taskId } = await deps.exports.create({ source: api.getQrCodeCards.name, filters: { iccids: b.iccids }, format: ExportFormat.Zip }, s(ctx));
    const notes = [...reasons].filter((c): c is ErrorCode => c != null).map((c) => errorMessage(c, ctx.lang));
    return { taskId, included: all.included, skipped: all.skipped, skippedMessage: notes.length ? notes.join(ctx.lang === 'zh' ? '；' : '; ') : null };
  });
  deps.exports.register(api.getQrCodeCards, {
    title: { zh: '卡二维码', en: 'Card QR codes' },
    file: qrZipFile,
    // drawing up to 10,000 images takes too long for one call: always a download task
    directMaxRows: 0,
    page: (f, actor) => qrCards(db, f, actor, 'zh'),
    columns: [{ key: 'iccid', title: { zh: 'ICCID', en: 'ICCID' } }],
  });
}
