// Allocation of cards to customers (/card/card-list/numcard, spec §2 simAssign): operator staff transfer cards
// from the platform stock to a customer; a first-level customer (or staff) distributes cards inside one
// customer tree (to a second-level customer and back). Optionally the cards get a basic plan released to the
// target customer and an initial state. The selection is resolved and checked when the user confirms; the
// change itself is a durable job that runs all-or-nothing in one transaction: ownership (and plan) by
// set-based statements, history in one insert, the initial state card by card through the lifecycle engine.
import crypto from 'node:crypto';
import { and, asc, desc, eq, inArray, isNull, ne, or, sql, type SQL } from 'drizzle-orm';
import {
  BASE_TARIFFS, CardActionKind, CardChangeSource, CardState, ErrorCode, Operator, PlanStatus, carddetail as api, errorMessage,
  type BodyOf, type ErrorCode as ErrorCodeT, type Lang,
} from '@lynx/contract';
import type { Executor } from '../../db/client.ts';
import { AppError, FieldError } from '../../platform/errors.ts';
import { audit } from '../../platform/audit.ts';
import { isStaff, isSubCustomer, tenantFilter, type Actor, type SessionContext } from '../../platform/context.ts';
import { iso, pageOf } from '../../platform/paging.ts';
import type { Jobs } from '../../platform/jobs.ts';
import { customers } from '../account/tables.ts';
import { basicPlans, planReleases } from '../plan/plan-tables.ts';
import { cardHistory, cards } from './card-tables.ts';
import { cardAllocations } from './detail/tables.ts';
import { CardListService } from './list/list.ts';
import { applyCardActions, type CardServiceDeps } from './lifecycle/card-service.ts';
import { targetOf, type StateActionType } from './lifecycle/model.ts';
import { apnNamesOf } from './detail/detail.ts';
import { checkPool } from '../pool/pool-usage.ts';
import { rows } from '../usage/usage-write.ts';
import { refreshCardCycles } from '../usage/cycle-columns.ts';

const { AllocationStatus, AllocationInitialState, CARD_SELECTION_MAX } = api;
export const ALLOCATION_QUEUE = 'card-allocation';

type Target = { mode: 'transfer' | 'distribute'; custId: number };
type Selection = BodyOf<typeof api.assignCards>['selection'];
type CustomerRow = typeof customers.$inferSelect;
type AllocationRow = typeof cardAllocations.$inferSelect;

/** The engine's action that puts a card in an initial state. */
const INITIAL_ACTION: Record<number, StateActionType> = {
  [AllocationInitialState.Test]: 'startTest',
  [AllocationInitialState.ActivationReady]: 'toActivationReady',
  [AllocationInitialState.Inventory]: 'toInventory',
  [AllocationInitialState.Activated]: 'activate',
};

const stateParams = (prefix: string, s: number) => ({ [`${prefix}Zh`]: CardState.label(s, 'zh'), [`${prefix}En`]: CardState.label(s, 'en') });

/** The customer the actor may allocate to in this mode, or 20584 (a customer outside the actor's tree answers the same). */
async function targetOf_(ex: Executor, actor: Actor, t: Target): Promise<CustomerRow> {
  if (isSubCustomer(actor)) throw new AppError(ErrorCode.AllocationNotAllowed);
  if (t.mode === 'transfer' && !isStaff(actor)) throw new AppError(ErrorCode.AllocationTargetInvalid, undefined, 200, { field: 'mode' });
  const [c] = await ex.select().from(customers).where(eq(customers.custId, t.custId));
  if (!c || (!isStaff(actor) && c.rootCustId !== actor.rootCustId)) throw new AppError(ErrorCode.AllocationTargetInvalid, undefined, 200, { field: 'custId' });
  return c;
}

/** Cards that may go to the target: stock cards (transfer), or cards of the target's tree it does not own yet (distribute). */
function sourceOf(t: Target, target: CustomerRow): SQL {
  return t.mode === 'transfer'
    ? isNull(cards.custId)
    : and(eq(cards.rootCustId, target.rootCustId), ne(cards.custId, target.custId))!;
}

const rangeError = () => new AppError(ErrorCode.CardRangeInvalid, undefined, 400, { field: 'selection.ranges' });

export class CardAllocationService {
  private list: CardListService;

  constructor(private deps: CardServiceDeps & { jobs: Jobs; actorOf: (accountId: number) => Promise<Actor | null> }) {
    this.list = new CardListService(deps.db);
    deps.jobs.define(ALLOCATION_QUEUE, (data: { allocationId: string }) => this.run(data.allocationId), { retryLimit: 2, expireInSeconds: 3600 });
  }

  private selectionWhere(actor: Actor, s: Selection): SQL {
    if (s.by === 'list') {
      if (!s.iccids?.length) throw new FieldError('selection.iccids', { zh: '请选择卡', en: 'choose at least one card' });
      return inArray(cards.iccid, [...new Set(s.iccids)]);
    }
    if (s.by === 'range') {
      if (!s.ranges?.length) throw new FieldError('selection.ranges', { zh: '请填写 ICCID 号段', en: 'enter at least one ICCID range' });
      const parts = s.ranges.map((r) => {
        if (r.start.length !== r.end.length || r.start > r.end) throw rangeError();
        return sql`(${cards.iccid} >= ${r.start} and ${cards.iccid} <= ${r.end} and length(${cards.iccid}) = ${r.start.length})`;
      });
      return or(...parts)!;
    }
    // the card list's own search, with its tenant rule
    return this.list.where({ ...(s.filters ?? {}) }, actor);
  }

  /** The selection as a condition (tenant, source and selection), and for a list how many chosen cards fall outside. */
  private async resolve(ex: Executor, actor: Actor, t: Target, s: Selection) {
    const target = await targetOf_(ex, actor, t);
    const cond = and(tenantFilter(actor, { custId: cards.custId, rootCustId: cards.rootCustId }), sourceOf(t, target), this.selectionWhere(actor, s))!;
    // counting stops past the limit, so a huge selection costs no more than the limit
    const [{ n }] = await ex.select({ n: sql<number>`count(*)`.mapWith(Number) }).from(
      ex.select({ one: sql`1` }).from(cards).where(cond).limit(CARD_SELECTION_MAX + 1).as('sel'),
    );
    const ineligible = s.by === 'list' ? Math.max(0, new Set(s.iccids).size - n) : 0;
    return { target, cond, count: n, ineligible };
  }

  async params(actor: Actor) {
    if (isSubCustomer(actor)) throw new AppError(ErrorCode.AllocationNotAllowed);
    const rows = await ex_customers(this.deps.db, actor);
    return {
      modes: isStaff(actor) ? (['transfer', 'distribute'] as const).slice() : (['distribute'] as const).slice(),
      customers: rows.map((c) => ({ custId: c.custId, custName: c.custName, level: c.level, parentCustId: c.parentCustId, rootCustId: c.rootCustId })),
      max: CARD_SELECTION_MAX,
    };
  }

  /** Basic plans released to the customer (published), which the allocation may give the cards. */
  async plans(actor: Actor, custId: number) {
    const target = await targetOf_(this.deps.db, actor, { mode: isStaff(actor) ? 'transfer' : 'distribute', custId });
    const rows = await this.deps.db
      .select({ p: basicPlans, price: planReleases.salePrice })
      .from(planReleases)
      .innerJoin(basicPlans, eq(basicPlans.goodsReleaseId, planReleases.goodsReleaseId))
      .where(and(eq(planReleases.custId, target.custId), inArray(basicPlans.tariffType, [...BASE_TARIFFS]), eq(basicPlans.status, PlanStatus.Published)))
      .orderBy(asc(basicPlans.name));
    const names = await apnNamesOf(this.deps.db, rows.map((r) => r.p.goodsReleaseId));
    return rows.map((r) => ({
      goodsReleaseId: r.p.goodsReleaseId, name: r.p.name, tariffType: r.p.tariffType, goodsType: r.p.goodsType, price: r.price,
      apns: names.get(r.p.goodsReleaseId) ?? [], quotaMb: r.p.quotaMb, durationMonths: r.p.durationMonths, operatorId: r.p.operatorId,
    }));
  }

  async selectNum(b: BodyOf<typeof api.getAssignSelectNum>, actor: Actor) {
    const r = await this.resolve(this.deps.db, actor, b, b.selection);
    if (r.count > CARD_SELECTION_MAX) throw new AppError(ErrorCode.CardSelectionTooLarge, { max: CARD_SELECTION_MAX });
    return { selectNum: r.count, ineligible: r.ineligible, max: CARD_SELECTION_MAX };
  }

  /** Checks everything that can be checked now, records the allocation with its cards and queues the job. */
  async assign(b: BodyOf<typeof api.assignCards>, ctx: SessionContext) {
    const db = this.deps.db;
    const actor = ctx.actor;
    const r = await this.resolve(db, actor, b, b.selection);
    if (r.count > CARD_SELECTION_MAX) throw new AppError(ErrorCode.CardSelectionTooLarge, { max: CARD_SELECTION_MAX });
    if (r.count === 0) throw new AppError(ErrorCode.CardSelectionEmpty);
    if (r.ineligible > 0) throw new AppError(ErrorCode.CardSelectionIneligible, { count: r.ineligible });
    if (r.count !== b.expectedNum) throw new AppError(ErrorCode.CardSelectionChanged, { count: r.count });

    let plan: typeof basicPlans.$inferSelect | null = null;
    if (b.goodsReleaseId !== undefined) {
      const [row] = await db
        .select({ p: basicPlans })
        .from(planReleases)
        .innerJoin(basicPlans, eq(basicPlans.goodsReleaseId, planReleases.goodsReleaseId))
        .where(and(eq(planReleases.goodsReleaseId, b.goodsReleaseId), eq(planReleases.custId, r.target.custId)));
      if (!row || !BASE_TARIFFS.includes(row.p.tariffType) || row.p.status !== PlanStatus.Published) {
        throw new AppError(ErrorCode.AllocationPlanNotReleased, undefined, 200, { field: 'goodsReleaseId' });
      }
      plan = row.p;
      if (plan.operatorId != null) {
        const other = await countWhere(db, and(r.cond, ne(cards.operatorId, plan.operatorId))!);
        if (other > 0) {
          throw new AppError(ErrorCode.AllocationPlanOperatorMismatch, {
            count: other, operatorZh: Operator.label(plan.operatorId, 'zh'), operatorEn: Operator.label(plan.operatorId, 'en'),
          });
        }
      }
      const started = await countWhere(db, and(r.cond, ne(cards.state, CardState.Start))!);
      if (started > 0) throw new AppError(ErrorCode.AllocationCardsHavePlan, { count: started });
    }

    if (b.initialState !== undefined) {
      const action = INITIAL_ACTION[b.initialState];
      if (!action) throw new AppError(ErrorCode.AllocationInitialStateInvalid, undefined, 200, { field: 'initialState' });
      // one check per (state, operation mode) group: the engine's transition table decides
      const groups = await db
        .select({ state: cards.state, mode: cards.operationMode, n: sql<number>`count(*)`.mapWith(Number) })
        .from(cards)
        .where(r.cond)
        .groupBy(cards.state, cards.operationMode);
      for (const g of groups) {
        if (g.state === b.initialState) continue;
        const mode = plan ? plan.operationMode : (g.mode ?? 1);
        if (targetOf(g.state, action, mode) !== b.initialState) {
          throw new AppError(ErrorCode.AllocationStateIllegal, { count: g.n, ...stateParams('state', g.state), ...stateParams('to', b.initialState) });
        }
      }
    }

    const picked = await db.select({ iccid: cards.iccid }).from(cards).where(r.cond).orderBy(asc(cards.iccid)).limit(CARD_SELECTION_MAX);
    const iccids = picked.map((p) => p.iccid);
    const allocationId = crypto.randomUUID();
    await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(cardAllocations)
        .values({
          allocationId, mode: b.mode, targetCustId: r.target.custId, targetRootCustId: r.target.rootCustId, goodsReleaseId: plan?.goodsReleaseId ?? null,
          initialState: b.initialState ?? null, iccids, cardCount: iccids.length, status: AllocationStatus.Queued, remark: b.remark?.trim() || null,
          accountId: actor.accountId, createdBy: actor.loginName, lang: ctx.lang, custId: actor.custId, rootCustId: actor.rootCustId,
        })
        .returning();
      await audit(tx, ctx, { entity: 'cardAllocation', entityId: allocationId, after: { ...row, selection: b.selection } });
    });
    await this.deps.jobs.send(ALLOCATION_QUEUE, { allocationId }, { singletonKey: allocationId });
    return { allocationId, cardCount: iccids.length };
  }

  /** The job. Idempotent: a finished allocation is left alone; a crash rolls the whole change back and it runs again. */
  async run(allocationId: string): Promise<void> {
    const db = this.deps.db;
    const [a] = await db.select().from(cardAllocations).where(eq(cardAllocations.allocationId, allocationId));
    if (!a || (a.status !== AllocationStatus.Queued && a.status !== AllocationStatus.Running)) return;
    await db.update(cardAllocations).set({ status: AllocationStatus.Running }).where(eq(cardAllocations.allocationId, allocationId));
    let failedIccid: string | null = null;
    let leftPools: number[] = [];
    try {
      const actor = await this.deps.actorOf(a.accountId);
      if (!actor || !actor.permissions.has(api.CardDetailPerm.Allocate)) throw new AppError(ErrorCode.PermissionDenied);
      const ctx: SessionContext = {
        actor, lang: a.lang === 'zh' ? 'zh' : 'en', ip: '127.0.0.1', endpoint: api.assignCards.name, tokenHash: null, audited: false,
      };
      await db.transaction(async (tx) => {
        const [again] = await tx.select({ status: cardAllocations.status }).from(cardAllocations).where(eq(cardAllocations.allocationId, allocationId)).for('update');
        if (again?.status !== AllocationStatus.Running) return;
        const target = await targetOf_(tx, actor, { mode: a.mode, custId: a.targetCustId });
        const locked = await tx
          .select({ iccid: cards.iccid, state: cards.state })
          .from(cards)
          .where(and(inArray(cards.iccid, a.iccids), sourceOf({ mode: a.mode, custId: a.targetCustId }, target), tenantFilter(actor, { custId: cards.custId, rootCustId: cards.rootCustId })))
          .orderBy(asc(cards.iccid))
          .for('update');
        // a card that changed owner since the user confirmed: nothing is done
        if (locked.length !== a.iccids.length) throw new AppError(ErrorCode.CardSelectionChanged, { count: locked.length });

        let plan: typeof basicPlans.$inferSelect | null = null;
        if (a.goodsReleaseId != null) {
          const started = locked.filter((c) => c.state !== CardState.Start).length;
          if (started > 0) throw new AppError(ErrorCode.AllocationCardsHavePlan, { count: started });
          [plan] = await tx.select().from(basicPlans).where(eq(basicPlans.goodsReleaseId, a.goodsReleaseId));
          if (!plan) throw new AppError(ErrorCode.AllocationPlanNotReleased);
        }
        const now = new Date();
        await tx
          .update(cards)
          .set({
            custId: target.custId, rootCustId: target.rootCustId, updatedAt: now,
            ...(plan ? { goodsReleaseId: plan.goodsReleaseId, operationMode: plan.operationMode, renewalMode: plan.renewalMode } : {}),
          })
          .where(inArray(cards.iccid, a.iccids));
        // a plan given with the cards sets their quota (usage/cycle-columns.ts)
        if (plan) await refreshCardCycles(tx, a.iccids, now);
        // a pool belongs to a tenant (docs/pools.md): a card leaves a pool its new customer may not have it in. The
        // pools' member counts are put right by their usage rule after this commits (locking a pool row here, after the
        // cards, would take the locks in the opposite order to a pool batch)
        const left = rows<{ pool_id: number }>(await tx.execute(sql`
          update cards c set pool_id = null, pool_joined_at = null
          from card_pools p
          where c.iccid = any(${sql.param(a.iccids)}::text[]) and p.pool_id = c.pool_id
            and not (case when p.cust_id = p.root_cust_id then p.root_cust_id = ${target.rootCustId} else p.cust_id = ${target.custId} end)
          returning p.pool_id`));
        leftPools = [...new Set(left.map((r) => Number(r.pool_id)))];
        const note = a.mode === 'transfer'
          ? { zh: `划拨给 ${target.custName}`, en: `transferred to ${target.custName}` }
          : { zh: `分配给 ${target.custName}`, en: `distributed to ${target.custName}` };
        await tx.insert(cardHistory).select(
          tx.select({
            iccid: cards.iccid, historyId: sql`gen_random_uuid()`.as('history_id'), fromState: cards.state, toState: cards.state,
            action: sql`${CardActionKind.Allocated}::smallint`.as('action'), source: sql`${CardChangeSource.User}::smallint`.as('source'),
            actor: sql`${actor.loginName}::text`.as('actor'), reason: sql`${a.remark?.trim() || null}::text`.as('reason'),
            noteZh: sql`${note.zh}::text`.as('note_zh'), noteEn: sql`${note.en}::text`.as('note_en'),
            planId: sql`${plan?.goodsReleaseId ?? null}::integer`.as('plan_id'), at: sql`${now.toISOString()}::timestamptz`.as('at'),
          }).from(cards).where(inArray(cards.iccid, a.iccids)),
        );
        await audit(tx, ctx, {
          entity: 'cardAllocation', entityId: allocationId, custId: target.custId, rootCustId: target.rootCustId,
          after: { allocationId, mode: a.mode, custId: target.custId, goodsReleaseId: plan?.goodsReleaseId ?? null, initialState: a.initialState, iccids: a.iccids },
        });

        if (a.initialState != null) {
          const action = INITIAL_ACTION[a.initialState];
          // recorded just after the allocation, so the card's history reads in the order things happened
          const after = new Date(now.getTime() + 1);
          // set-based: all cards in one pass of the card service; the first refusal fails the whole allocation
          const todo = locked.filter((c) => c.state !== a.initialState).map((c) => c.iccid);
          for (let i = 0; i < todo.length; i += 500) {
            const part = todo.slice(i, i + 500);
            const outcomes = await applyCardActions(this.deps, { kind: 'user', ctx }, part, { type: action }, {
              tx, note: a.mode === 'transfer' ? { zh: '划拨', en: 'transfer' } : { zh: '分配', en: 'distribution' }, now: after,
            });
            const refused = part.find((iccid) => !outcomes.get(iccid)!.ok);
            if (refused) {
              failedIccid = refused;
              throw (outcomes.get(refused) as { ok: false; error: AppError }).error;
            }
          }
          failedIccid = null;
        }
        await tx.update(cardAllocations).set({ status: AllocationStatus.Succeeded, finishedAt: new Date(), failedIccid: null }).where(eq(cardAllocations.allocationId, allocationId));
      });
      for (const poolId of leftPools) await checkPool(this.deps, poolId).catch((err) => console.error('pool usage check after an allocation failed', err));
    } catch (err) {
      const e = err instanceof AppError ? err : null;
      if (!e) console.error('card allocation failed', err);
      const code = e ? e.code : ErrorCode.ServerError;
      await db
        .update(cardAllocations)
        .set({ status: AllocationStatus.Failed, errorCode: code, errorParams: e?.params ?? null, failedIccid, finishedAt: new Date() })
        .where(eq(cardAllocations.allocationId, allocationId));
    }
  }

  private out(rows: AllocationRow[], names: Map<number, string>, plans: Map<number, string>, lang: Lang) {
    return rows.map((a) => ({
      allocationId: a.allocationId, mode: a.mode, custId: a.targetCustId, custName: names.get(a.targetCustId) ?? null, goodsReleaseId: a.goodsReleaseId,
      planName: a.goodsReleaseId != null ? (plans.get(a.goodsReleaseId) ?? null) : null, initialState: a.initialState, cardCount: a.cardCount,
      status: a.status, error: a.errorCode != null ? failureText(a.errorCode as ErrorCodeT, a.errorParams, a.failedIccid, lang) : null,
      failedIccid: a.failedIccid, remark: a.remark, createdBy: a.createdBy, createdAt: a.createdAt.toISOString(), finishedAt: iso(a.finishedAt),
    }));
  }

  private async decorate(rows: AllocationRow[], lang: Lang) {
    const custIds = [...new Set(rows.map((r) => r.targetCustId))];
    const planIds = [...new Set(rows.map((r) => r.goodsReleaseId).filter((v): v is number => v != null))];
    const [cs, ps] = await Promise.all([
      custIds.length ? this.deps.db.select({ id: customers.custId, name: customers.custName }).from(customers).where(inArray(customers.custId, custIds)) : [],
      planIds.length ? this.deps.db.select({ id: basicPlans.goodsReleaseId, name: basicPlans.name }).from(basicPlans).where(inArray(basicPlans.goodsReleaseId, planIds)) : [],
    ]);
    return this.out(rows, new Map(cs.map((c) => [c.id, c.name])), new Map(ps.map((p) => [p.id, p.name])), lang);
  }

  async result(allocationId: string, actor: Actor, lang: Lang) {
    const [a] = await this.deps.db
      .select()
      .from(cardAllocations)
      .where(and(eq(cardAllocations.allocationId, allocationId), tenantFilter(actor, cardAllocations)));
    if (!a) throw new AppError(ErrorCode.NotFound);
    return (await this.decorate([a], lang))[0];
  }

  async page(q: BodyOf<typeof api.getAssignPage>, actor: Actor, lang: Lang) {
    const p = pageOf(q);
    const cond = tenantFilter(actor, cardAllocations);
    const [rows, [{ n }]] = await Promise.all([
      this.deps.db.select().from(cardAllocations).where(cond).orderBy(desc(cardAllocations.createdAt)).limit(p.limit).offset(p.offset),
      this.deps.db.select({ n: sql<number>`count(*)`.mapWith(Number) }).from(cardAllocations).where(cond),
    ]);
    return { list: await this.decorate(rows, lang), total: n, current: p.current, pageSize: p.pageSize };
  }
}

async function countWhere(ex: Executor, cond: SQL): Promise<number> {
  const [{ n }] = await ex.select({ n: sql<number>`count(*)`.mapWith(Number) }).from(cards).where(cond);
  return n;
}

/** The customers an actor may allocate to: staff every customer, a first-level customer its own tree. */
async function ex_customers(ex: Executor, actor: Actor) {
  const cond = isStaff(actor) ? undefined : actor.rootCustId == null ? sql`false` : eq(customers.rootCustId, actor.rootCustId);
  return ex.select().from(customers).where(cond).orderBy(asc(customers.level), asc(customers.custName)).limit(2000);
}

/** Why an allocation failed, in the reader's language (with the card the engine or the operator refused). */
function failureText(code: ErrorCodeT, params: Record<string, string | number> | null, iccid: string | null, lang: Lang): string {
  const reason = errorMessage(code, lang, params ?? undefined);
  const full = iccid ? (lang === 'zh' ? `卡 ${iccid}：${reason}` : `card ${iccid}: ${reason}`) : reason;
  return errorMessage(ErrorCode.AllocationAborted, lang, { reasonZh: full, reasonEn: full });
}
