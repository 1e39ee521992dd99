// The card detail's actions: edit custom fields and labels, renewal, plan change, event pack order, zone and
// network block/permit, and SMS, and what the detail offers now (offers.ts). Every action is first refused exactly
// as its offer says (requireOffer: the engine's gate plus the card's plan, MSISDN and SMS route), then state, plan
// and contract changes go through the lifecycle engine (applyCardAction); this file also finds what the card's
// customer may choose and refuses the rest.
import { and, asc, desc, count, eq, inArray } from 'drizzle-orm';
import {
  BASE_TARIFFS, ErrorCode, NetworkType, PlanStatus, TariffType, carddetail as api, type BodyOf,
} from '@lynx/contract';
import type { Executor } from '../../../db/client.ts';
import { AppError } from '../../../platform/errors.ts';
import { audit } from '../../../platform/audit.ts';
import type { SessionContext } from '../../../platform/context.ts';
import { iso, pageOf } from '../../../platform/paging.ts';
import { operatorAccounts } from '../../network/opconfig/tables.ts';
import { basicPlans, planReleases, planZones } from '../../plan/plan-tables.ts';
import { cards } from '../card-tables.ts';
import { cardSms } from '../detail/tables.ts';
import { applyCardAction, loadCardPlan, snapshotOf, type CardServiceDeps } from './card-service.ts';
import { cardActionOffers, offerOf, offerOut, type CardDetailAction, type OfferFacts } from './offers.ts';
import { isInstalledAdapter } from '../../../operators/registry.ts';
import { apnNamesOf, basicInfo, visibleCard, type CardRow } from '../detail/detail.ts';
import { setCardLabels } from '../labels.ts';
import { SmsService } from '../../sms/service.ts';
import { smsReportKick } from '../../sms/routes.ts';
import type { Jobs } from '../../../platform/jobs.ts';

const { smsMaxLength } = api;

type Who = { kind: 'user'; ctx: SessionContext };
const user = (ctx: SessionContext): Who => ({ kind: 'user', ctx });

/** Plans of the given tariff types released to the card's customer and published, with that customer's price. */
async function releasedPlans(ex: Executor, row: CardRow, tariffs: readonly number[]) {
  if (row.custId == null) return [];
  const rows = await ex
    .select({ p: basicPlans, price: planReleases.salePrice })
    .from(planReleases)
    .innerJoin(basicPlans, eq(basicPlans.goodsReleaseId, planReleases.goodsReleaseId))
    .where(and(
      eq(planReleases.custId, row.custId), inArray(basicPlans.tariffType, [...tariffs]), eq(basicPlans.status, PlanStatus.Published),
    ))
    .orderBy(asc(basicPlans.name));
  // a plan of another operator cannot serve this card
  const usable = rows.filter((r) => r.p.operatorId == null || r.p.operatorId === row.operatorId);
  const names = await apnNamesOf(ex, usable.map((r) => r.p.goodsReleaseId));
  return usable.map((r) => ({
    goodsReleaseId: r.p.goodsReleaseId, name: r.p.name, tariffType: r.p.tariffType, goodsType: r.p.goodsType, price: r.price,
    apns: names.get(r.p.goodsReleaseId) ?? [], quotaMb: r.p.quotaMb, durationMonths: r.p.durationMonths,
  }));
}

const apnKey = (names: string[]) => names.map((n) => n.toLowerCase()).sort().join('\n');

/** Basic plans the card may change to: released to its customer, with the same APN set as its plan, not its plan. */
export async function changePlanOptions(ex: Executor, row: CardRow) {
  if (row.goodsReleaseId == null) return [];
  const current = (await apnNamesOf(ex, [row.goodsReleaseId])).get(row.goodsReleaseId) ?? [];
  const all = await releasedPlans(ex, row, BASE_TARIFFS);
  return all.filter((p) => p.goodsReleaseId !== row.goodsReleaseId && apnKey(p.apns) === apnKey(current));
}

export function eventPackOptions(ex: Executor, row: CardRow) {
  return releasedPlans(ex, row, [TariffType.EventPack]);
}

export function cardActions(deps: CardServiceDeps) {
  const db = deps.db;

  // whether an SMS has a way out: an access configuration of the card's operator with an installed adapter. Its
  // credentials are opened only when sending (an offer must not fail because a stored secret cannot be opened).
  const factsOf = async (row: CardRow): Promise<OfferFacts> => {
    const [account] = await db.select({ adapter: operatorAccounts.adapter }).from(operatorAccounts)
      .where(eq(operatorAccounts.operatorId, row.operatorId)).orderBy(asc(operatorAccounts.operAccountId)).limit(1);
    return { hasMsisdn: !!row.msisdn, hasSmsGateway: !!account && isInstalledAdapter(account.adapter) };
  };

  /** Refuses the action with its offer's reason when the detail does not offer it now (the same rule, not a copy). */
  const requireOffer = async (row: CardRow, action: CardDetailAction) => {
    const o = offerOf(await snapshotOf(db, row), action, new Date(), await factsOf(row));
    if (o.offer !== 'allowed') throw new AppError(o.refusal.error, o.refusal.params);
  };

  return {
    /** What the card detail offers now, with the reasons for what it does not. */
    async offers(iccid: string, ctx: SessionContext) {
      const row = await visibleCard(db, ctx.actor, iccid);
      const [snapshot, facts] = await Promise.all([snapshotOf(db, row), factsOf(row)]);
      return cardActionOffers(snapshot, new Date(), facts).map(offerOut);
    },

    async edit(b: BodyOf<typeof api.editCard>, ctx: SessionContext) {
      return db.transaction(async (tx) => {
        const row = await visibleCard(tx, ctx.actor, b.iccid, true);
        // labels through the card catalogue (its visibility and owner rules, its own audit row)
        if (b.labelIds !== undefined) await setCardLabels(tx, ctx, [row.iccid], b.labelIds, 'replace', { strict: true });
        const set: Partial<CardRow> = {};
        const clean = (v: string | null | undefined) => (v == null || !v.trim() ? null : v.trim());
        if (b.custom1 !== undefined) set.custom1 = clean(b.custom1);
        if (b.custom2 !== undefined) set.custom2 = clean(b.custom2);
        const [after] = await tx.update(cards).set({ ...set, updatedAt: new Date() }).where(eq(cards.iccid, row.iccid)).returning();
        if (b.custom1 !== undefined || b.custom2 !== undefined || b.labelIds === undefined) {
          await audit(tx, ctx, {
            entity: 'card', entityId: row.iccid, custId: row.custId, rootCustId: row.rootCustId,
            before: { custom1: row.custom1, custom2: row.custom2 }, after: { custom1: after.custom1, custom2: after.custom2 },
          });
        }
        return basicInfo(tx, after, ctx.actor, ctx.lang);
      });
    },

    async renew(b: BodyOf<typeof api.renewCard>, ctx: SessionContext) {
      await requireOffer(await visibleCard(db, ctx.actor, b.iccid), 'renew');
      return applyCardAction(deps, user(ctx), b.iccid, { type: 'renew', periods: b.periods });
    },

    planOptions: async (iccid: string, ctx: SessionContext) => changePlanOptions(db, await visibleCard(db, ctx.actor, iccid)),

    async changePlan(b: BodyOf<typeof api.changeCardPlan>, ctx: SessionContext) {
      const row = await visibleCard(db, ctx.actor, b.iccid);
      await requireOffer(row, 'changePlan');
      if (b.goodsReleaseId !== row.goodsReleaseId) {
        const released = await releasedPlans(db, row, BASE_TARIFFS);
        if (!released.some((p) => p.goodsReleaseId === b.goodsReleaseId)) throw new AppError(ErrorCode.CardPlanNotOffered);
      }
      // the engine refuses a different APN set (the spec's message), the same plan, a second change this month, ...
      const plan = await loadCardPlan(db, b.goodsReleaseId);
      return applyCardAction(deps, user(ctx), b.iccid, { type: 'changePlan', plan });
    },

    packOptions: async (iccid: string, ctx: SessionContext) => eventPackOptions(db, await visibleCard(db, ctx.actor, iccid)),

    async orderPack(b: BodyOf<typeof api.orderEventPack>, ctx: SessionContext) {
      const row = await visibleCard(db, ctx.actor, b.iccid);
      await requireOffer(row, 'orderEventPack');
      const packs = await eventPackOptions(db, row);
      if (!packs.some((p) => p.goodsReleaseId === b.packId)) throw new AppError(ErrorCode.CardEventPackNotOffered);
      return applyCardAction(deps, user(ctx), b.iccid, { type: 'orderEventPack', packId: b.packId });
    },

    async changeZone(b: BodyOf<typeof api.changeCardZone>, ctx: SessionContext) {
      const row = await visibleCard(db, ctx.actor, b.iccid);
      await requireOffer(row, b.op);
      if (b.kind === 'zone') {
        const [z] = row.goodsReleaseId == null
          ? []
          : await db.select({ id: planZones.zoneId }).from(planZones).where(and(eq(planZones.zoneId, b.targetId), eq(planZones.goodsReleaseId, row.goodsReleaseId)));
        if (!z) throw new AppError(ErrorCode.CardZoneNotOnPlan);
      } else if (!NetworkType.values.includes(b.targetId as never)) {
        throw new AppError(ErrorCode.Validation, { field: 'targetId', reason: ctx.lang === 'zh' ? '不是有效的网络类型' : 'is not a network type' }, 400, { field: 'targetId' });
      }
      return applyCardAction(deps, user(ctx), b.iccid, { type: b.op, target: { kind: b.kind, id: b.targetId } });
    },

    async smsPage(b: BodyOf<typeof api.getCardSmsPage>, ctx: SessionContext) {
      const row = await visibleCard(db, ctx.actor, b.iccid);
      const p = pageOf(b);
      const [rows, [{ n }]] = await Promise.all([
        db.select().from(cardSms).where(eq(cardSms.iccid, row.iccid)).orderBy(desc(cardSms.createdAt), desc(cardSms.smsId)).limit(p.limit).offset(p.offset),
        db.select({ n: count() }).from(cardSms).where(eq(cardSms.iccid, row.iccid)),
      ]);
      return { list: rows.map(smsOut), total: Number(n), current: p.current, pageSize: p.pageSize };
    },

    /**
     * Sends an SMS through the SMS centre's one path (modules/sms, docs/sms.md): stored as "sending" first (so a crash
     * leaves a true record), submitted through the card operator's access configuration under the message's own id,
     * then updated with the operator's answer; the delivery report moves it on later.
     */
    async sendSms(b: BodyOf<typeof api.sendCardSms>, ctx: SessionContext) {
      const content = b.content;
      const max = smsMaxLength(content);
      if (content.length > max) throw new AppError(ErrorCode.SmsTooLong, { max }, 200, { field: 'content' });
      const row = await visibleCard(db, ctx.actor, b.iccid);
      // on the network (test or activated), an MSISDN, an access configuration to send through
      await requireOffer(row, 'sendSms');
      const sms = new SmsService(deps, smsReportKick((deps as { jobs?: Jobs }).jobs));
      return smsOut(await sms.sendToCard(b, ctx));
    },
  };
}

const smsOut = (r: typeof cardSms.$inferSelect) => ({
  smsId: r.smsId, iccid: r.iccid, msisdn: r.msisdn, direction: r.direction, content: r.content, status: r.status, messageId: r.messageId,
  failReason: r.failReason, createdBy: r.createdBy, createdAt: r.createdAt.toISOString(), updatedAt: iso(r.updatedAt) ?? r.createdAt.toISOString(),
});
