// Data pools (/card/pool/*): the pool list, detail, create / edit / delete, manual block and unblock, a pool's
// cards and its block history. A pool belongs to one customer's tenant: a customer sees and changes the pools of
// its tenant only (a first-level customer its whole tree, a second-level customer its own), operator staff all.
// Cards join and leave through batches (pool-members.ts); the usage rule is pool-usage.ts. Design: docs/pools.md.
import { and, asc, count, desc, eq, gte, ilike, inArray, lt, or, sql, type SQL } from 'drizzle-orm';
import { ErrorCode, formatSize, pool as api, type BodyOf, businessDayStart, businessDayEnd } from '@lynx/contract';
import type { Db, Executor } from '../../db/client.ts';
import { AppError, FieldError, notFound } from '../../platform/errors.ts';
import { audit } from '../../platform/audit.ts';
import { isStaff, tenantFilter, type Actor, type SessionContext } from '../../platform/context.ts';
import { contains, idOf, iso, matchOrder, orderOf, pageOf } from '../../platform/paging.ts';
import { customers, operators } from '../account/tables.ts';
import { uniqueRace } from '../network/unique-race.ts';
import { basicPlans } from '../plan/plan-tables.ts';
import { cards } from '../card/card-tables.ts';
import { iccidSearch } from '../card/list/iccid-prefix.ts';
import { rows as rowsOf } from '../usage/usage-write.ts';
import { cardPoolEvents, cardPools } from './pool-tables.ts';
import { checkPool, cycleDayRange, measurePool, planQuotaBytesSql, recordPoolEvents, snapshotOf, type PoolRow } from './pool-usage.ts';

const { PoolState, PoolExhaustAction, PoolEventType, POOL_OPTIONS_MAX } = api;
type ListQuery = BodyOf<typeof api.getPoolPage>;
type Filters = Omit<ListQuery, 'current' | 'pageSize' | 'sortField' | 'sortOrder'>;

/** Pools the actor may see: its tenant's (staff: all). */
export const visiblePoolFilter = (actor: Actor): SQL => tenantFilter(actor, { custId: cardPools.custId, rootCustId: cardPools.rootCustId });

/** The cards a pool may hold by tenant: a first-level customer's pool its whole tree, a second-level customer's its own cards. */
export function poolFitsCard(pool: Pick<PoolRow, 'custId' | 'rootCustId'>, card: { custId: number | null; rootCustId: number | null }): boolean {
  return pool.custId === pool.rootCustId ? card.rootCustId === pool.rootCustId : card.custId === pool.custId;
}

/** The pool if the actor may see it, else 20005 (a pool of another tenant looks exactly like a missing one). */
export async function visiblePool(ex: Executor, poolId: number, actor: Actor, lock = false): Promise<PoolRow> {
  const q = ex.select().from(cardPools).where(and(eq(cardPools.poolId, poolId), visiblePoolFilter(actor)));
  const [row] = lock ? await q.for('update') : await q;
  if (!row) throw notFound();
  return row;
}

export function toPool(r: PoolRow, custName: string | null) {
  return {
    poolId: r.poolId, name: r.name, custId: r.custId, custName, operatorId: r.operatorId, exhaustAction: r.exhaustAction, alertPercent: r.alertPercent,
    description: r.description, state: r.state, memberCount: r.memberCount, cycleStart: iso(r.cycleStart), cycleEnd: iso(r.cycleEnd),
    quotaBytes: Number(r.quotaBytes), usedBytes: Number(r.usedBytes), usageCheckedAt: iso(r.usageCheckedAt), blockedAt: iso(r.blockedAt),
    createdBy: r.createdBy, createdAt: r.createdAt.toISOString(), updatedAt: r.updatedAt.toISOString(),
  };
}

const trimOrNull = (s: string | null | undefined) => (s?.trim() ? s.trim() : null);
const taken = () => ({ card_pools_cust_name_ux: () => new AppError(ErrorCode.PoolNameTaken, undefined, 200, { field: 'name' }) });

export class PoolService {
  constructor(private db: Db) {}

  private where(q: Filters, actor: Actor): SQL {
    const w: SQL[] = [visiblePoolFilter(actor)];
    if (q.name?.trim()) w.push(ilike(cardPools.name, contains(q.name.trim())));
    if (q.custId !== undefined) w.push(or(eq(cardPools.custId, q.custId), eq(cardPools.rootCustId, q.custId))!);
    if (q.operatorId !== undefined) w.push(eq(cardPools.operatorId, q.operatorId));
    if (q.state !== undefined) w.push(eq(cardPools.state, q.state));
    return and(...w)!;
  }

  private async custNames(ex: Executor, ids: number[]): Promise<Map<number, string>> {
    const uniq = [...new Set(ids)];
    if (!uniq.length) return new Map();
    const rows = await ex.select({ id: customers.custId, name: customers.custName }).from(customers).where(inArray(customers.custId, uniq));
    return new Map(rows.map((r) => [r.id, r.name]));
  }

  private async one(ex: Executor, row: PoolRow) {
    return toPool(row, (await this.custNames(ex, [row.custId])).get(row.custId) ?? null);
  }

  async list(q: ListQuery, actor: Actor) {
    const p = pageOf(q);
    const cond = this.where(q, actor);
    const [rows, [{ n }]] = await Promise.all([
      this.db.select().from(cardPools).where(cond)
        .orderBy(...orderOf(q, {
          name: cardPools.name, createdAt: cardPools.createdAt, updatedAt: cardPools.updatedAt, memberCount: cardPools.memberCount, usedBytes: cardPools.usedBytes,
        }, [asc(cardPools.name), asc(cardPools.poolId)]))
        .limit(p.limit).offset(p.offset),
      this.db.select({ n: count() }).from(cardPools).where(cond),
    ]);
    const names = await this.custNames(this.db, rows.map((r) => r.custId));
    return { list: rows.map((r) => toPool(r, names.get(r.custId) ?? null)), total: Number(n), current: p.current, pageSize: p.pageSize };
  }

  /** The header search: pools of the caller's tenant whose name contains the keyword, or whose id it is. */
  async search(actor: Actor, keyword: string, limit: number) {
    const id = idOf(keyword);
    const named = ilike(cardPools.name, contains(keyword));
    const rows = await this.db
      .select({ poolId: cardPools.poolId, name: cardPools.name, operatorId: cardPools.operatorId, custId: cardPools.custId })
      .from(cardPools)
      .where(and(visiblePoolFilter(actor), id === null ? named : or(named, eq(cardPools.poolId, id))))
      .orderBy(...matchOrder(cardPools.name, keyword))
      .limit(limit);
    const names = await this.custNames(this.db, rows.map((r) => r.custId));
    return rows.map(({ custId, ...r }) => ({ ...r, custName: names.get(custId) ?? null }));
  }

  /** Pools for pickers (the card list's pool filter), by name, at most POOL_OPTIONS_MAX. */
  async options(q: BodyOf<typeof api.getPoolOptions>, actor: Actor) {
    const w: SQL[] = [visiblePoolFilter(actor)];
    if (q.operatorId !== undefined) w.push(eq(cardPools.operatorId, q.operatorId));
    if (q.custId !== undefined) w.push(or(eq(cardPools.custId, q.custId), eq(cardPools.rootCustId, q.custId))!);
    return this.db
      .select({ poolId: cardPools.poolId, name: cardPools.name, operatorId: cardPools.operatorId, custId: cardPools.custId })
      .from(cardPools).where(and(...w)).orderBy(asc(cardPools.name), asc(cardPools.poolId)).limit(POOL_OPTIONS_MAX);
  }

  async detail(poolId: number, actor: Actor) {
    return this.one(this.db, await visiblePool(this.db, poolId, actor));
  }

  /** The pool's customer: staff name one; a customer defaults to itself and may name one of its own tree. */
  private async ownerOf(ex: Executor, custId: number | undefined, actor: Actor): Promise<{ custId: number; rootCustId: number }> {
    const wanted = custId ?? (isStaff(actor) ? undefined : (actor.custId ?? undefined));
    const invalid = () => new AppError(ErrorCode.PoolCustomerInvalid, undefined, 200, { field: 'custId' });
    if (wanted === undefined) throw invalid();
    const [c] = await ex
      .select({ custId: customers.custId, rootCustId: customers.rootCustId })
      .from(customers)
      .where(and(eq(customers.custId, wanted), tenantFilter(actor, { custId: customers.custId, rootCustId: customers.rootCustId })));
    if (!c) throw invalid();
    return c;
  }

  private async operatorExists(ex: Executor, operatorId: number) {
    const [o] = await ex.select({ id: operators.operatorId }).from(operators).where(eq(operators.operatorId, operatorId));
    if (!o) throw new FieldError('operatorId', { zh: '运营商不存在', en: 'no such operator' });
  }

  private async nameFree(ex: Executor, name: string, custId: number, selfId?: number) {
    const [hit] = await ex
      .select({ id: cardPools.poolId })
      .from(cardPools)
      .where(and(eq(cardPools.custId, custId), sql`lower(${cardPools.name}) = lower(${name})`, selfId !== undefined ? sql`${cardPools.poolId} <> ${selfId}` : undefined))
      .limit(1);
    if (hit) throw taken().card_pools_cust_name_ux();
  }

  /** Creates (no poolId) or edits a pool; a pool with members keeps its customer and operator. */
  async save(b: BodyOf<typeof api.savePool>, ctx: SessionContext) {
    const actor = ctx.actor;
    const name = b.name.trim();
    if (!name) throw new FieldError('name', { zh: '必填', en: 'is required' });
    const values = {
      name, operatorId: b.operatorId, exhaustAction: b.exhaustAction, alertPercent: b.alertPercent, description: trimOrNull(b.description),
    };
    const saved = await uniqueRace(taken(), () =>
      this.db.transaction(async (tx) => {
        await this.operatorExists(tx, b.operatorId);
        if (b.poolId === undefined) {
          const owner = await this.ownerOf(tx, b.custId, actor);
          await this.nameFree(tx, name, owner.custId);
          const [row] = await tx.insert(cardPools).values({ ...values, ...owner, createdBy: actor.loginName }).returning();
          await audit(tx, ctx, { entity: 'cardPool', entityId: row.poolId, after: row, custId: row.custId, rootCustId: row.rootCustId });
          return row;
        }
        const before = await visiblePool(tx, b.poolId, actor, true);
        const owner = b.custId === undefined || b.custId === before.custId ? { custId: before.custId, rootCustId: before.rootCustId } : await this.ownerOf(tx, b.custId, actor);
        if (before.memberCount > 0 && (owner.custId !== before.custId || b.operatorId !== before.operatorId)) {
          throw new AppError(ErrorCode.PoolOwnerLocked);
        }
        await this.nameFree(tx, name, owner.custId, before.poolId);
        const [row] = await tx.update(cardPools).set({ ...values, ...owner, updatedAt: new Date() }).where(eq(cardPools.poolId, before.poolId)).returning();
        await audit(tx, ctx, { entity: 'cardPool', entityId: row.poolId, before, after: row, custId: row.custId, rootCustId: row.rootCustId });
        return row;
      }),
    );
    // a changed action or alert share takes effect now (e.g. "keep using" lifts a quota block)
    const checked = b.poolId !== undefined ? await checkPool({ db: this.db }, saved.poolId) : null;
    return this.one(this.db, checked ?? saved);
  }

  /** Deletes an empty pool (its history goes with it). */
  async remove(poolId: number, ctx: SessionContext) {
    await this.db.transaction(async (tx) => {
      const pool = await visiblePool(tx, poolId, ctx.actor, true);
      // member_count is exact, but the cards are the truth: count them under the pool's lock
      const [{ n }] = await tx.select({ n: count() }).from(cards).where(eq(cards.poolId, pool.poolId));
      if (Number(n) > 0) throw new AppError(ErrorCode.PoolHasCards, { count: Number(n) }, 200, { cardCount: Number(n) });
      await tx.delete(cardPools).where(eq(cardPools.poolId, pool.poolId));
      await audit(tx, ctx, { entity: 'cardPool', entityId: pool.poolId, before: pool, after: { deleted: true }, custId: pool.custId, rootCustId: pool.rootCustId });
    });
    return null;
  }

  /** Blocks a pool by hand: none of its cards gets data until someone unblocks it (the usage rule never does). */
  async block(b: BodyOf<typeof api.blockPool>, ctx: SessionContext) {
    const row = await this.db.transaction(async (tx) => {
      const now = new Date();
      const pool = await visiblePool(tx, b.poolId, ctx.actor, true);
      if (pool.state === PoolState.Blocked) throw new AppError(ErrorCode.PoolAlreadyBlocked);
      const m = await measurePool(tx, pool, now);
      await recordPoolEvents(tx, pool.poolId, m, [{ type: PoolEventType.ManualBlocked, actor: ctx.actor.loginName, reason: trimOrNull(b.reason) }], now);
      const [after] = await tx.update(cardPools)
        .set({ ...snapshotOf(m, now), state: PoolState.Blocked, blockedAt: now, blockedBy: ctx.actor.loginName, updatedAt: now })
        .where(eq(cardPools.poolId, pool.poolId)).returning();
      await audit(tx, ctx, { entity: 'cardPool', entityId: pool.poolId, before: { state: pool.state }, after: { state: after.state, action: 'block', reason: trimOrNull(b.reason) }, custId: pool.custId, rootCustId: pool.rootCustId });
      return after;
    });
    return this.one(this.db, row);
  }

  /** Unblocks a pool; refused while this cycle's usage is above the quota and the pool's action is to block. */
  async unblock(b: BodyOf<typeof api.unblockPool>, ctx: SessionContext) {
    const row = await this.db.transaction(async (tx) => {
      const now = new Date();
      const pool = await visiblePool(tx, b.poolId, ctx.actor, true);
      if (pool.state !== PoolState.Blocked) throw new AppError(ErrorCode.PoolNotBlocked);
      const m = await measurePool(tx, pool, now);
      if (pool.exhaustAction === PoolExhaustAction.Block && m.usedBytes > m.quotaBytes) {
        throw new AppError(ErrorCode.PoolUnblockExhausted, { used: formatSize(m.usedBytes), quota: formatSize(m.quotaBytes) });
      }
      await recordPoolEvents(tx, pool.poolId, m, [{ type: PoolEventType.ManualUnblocked, actor: ctx.actor.loginName, reason: trimOrNull(b.reason) }], now);
      const [after] = await tx.update(cardPools)
        .set({ ...snapshotOf(m, now), state: PoolState.Normal, blockedAt: null, blockedBy: null, updatedAt: now })
        .where(eq(cardPools.poolId, pool.poolId)).returning();
      await audit(tx, ctx, { entity: 'cardPool', entityId: pool.poolId, before: { state: pool.state, blockedBy: pool.blockedBy }, after: { state: after.state, action: 'unblock', reason: trimOrNull(b.reason) }, custId: pool.custId, rootCustId: pool.rootCustId });
      return after;
    });
    return this.one(this.db, row);
  }

  /** Counts the pool's quota and usage now and applies its rule. */
  async refresh(poolId: number, ctx: SessionContext) {
    const pool = await visiblePool(this.db, poolId, ctx.actor);
    const row = await checkPool({ db: this.db }, pool.poolId);
    if (!row) throw notFound();
    await audit(this.db, ctx, {
      entity: 'cardPool', entityId: pool.poolId, custId: pool.custId, rootCustId: pool.rootCustId,
      before: { state: pool.state, usedBytes: pool.usedBytes, quotaBytes: pool.quotaBytes },
      after: { action: 'refreshUsage', state: row.state, usedBytes: row.usedBytes, quotaBytes: row.quotaBytes },
    });
    return this.one(this.db, row);
  }

  /** The pool's cards with their quota contribution and usage in the pool's current cycle (usage read for the page's cards only). */
  async cardPage(q: BodyOf<typeof api.getPoolCardPage>, actor: Actor) {
    const pool = await visiblePool(this.db, q.poolId, actor);
    const p = pageOf(q);
    // only cards of the pool's tenant (allocation takes a card out of a pool its new customer may not have it in)
    const w: SQL[] = [eq(cards.poolId, pool.poolId), pool.custId === pool.rootCustId ? eq(cards.rootCustId, pool.rootCustId) : eq(cards.custId, pool.custId)];
    if (q.iccid) w.push(iccidSearch(cards.iccid, q.iccid));
    if (q.state !== undefined) w.push(eq(cards.state, q.state));
    const cond = and(...w)!;
    const [page, [{ n }]] = await Promise.all([
      this.db
        .select({
          iccid: cards.iccid, msisdn: cards.msisdn, state: cards.state, custId: cards.custId, goodsReleaseId: cards.goodsReleaseId, online: cards.online,
          joinedAt: cards.poolJoinedAt, planName: basicPlans.name, quotaBytes: sql<string | null>`${planQuotaBytesSql(basicPlans.quotaMb)}`,
        })
        .from(cards)
        .leftJoin(basicPlans, eq(basicPlans.goodsReleaseId, cards.goodsReleaseId))
        .where(cond)
        .orderBy(asc(cards.iccid))
        .limit(p.limit)
        .offset(p.offset),
      this.db.select({ n: count() }).from(cards).where(cond),
    ]);
    const cycle = pool.cycleStart && pool.cycleEnd ? { start: pool.cycleStart, end: pool.cycleEnd } : null;
    const used = new Map<string, number>();
    if (cycle && page.length) {
      const days = cycleDayRange(cycle);
      const res = rowsOf<{ iccid: string; bytes: string | number }>(await this.db.execute(sql`
        select iccid, sum(bytes) as bytes from card_usage_daily
        where iccid = any(${sql.param(page.map((r) => r.iccid))}::text[]) and day >= ${days.from}::date and day <= ${days.to}::date
        group by iccid`));
      for (const r of res) used.set(r.iccid, Number(r.bytes));
    }
    const names = await this.custNames(this.db, page.map((r) => r.custId).filter((v): v is number => v != null));
    return {
      list: page.map((r) => ({
        iccid: r.iccid, msisdn: r.msisdn, state: r.state, custId: r.custId, custName: r.custId != null ? (names.get(r.custId) ?? null) : null,
        goodsReleaseId: r.goodsReleaseId, planName: r.planName, quotaBytes: r.quotaBytes == null ? null : Number(r.quotaBytes),
        usedBytes: used.get(r.iccid) ?? 0, online: r.online, joinedAt: iso(r.joinedAt),
      })),
      total: Number(n), current: p.current, pageSize: p.pageSize,
    };
  }

  /** The pool's block history, newest first; days are China days. */
  async eventPage(q: BodyOf<typeof api.getPoolEventPage>, actor: Actor) {
    const pool = await visiblePool(this.db, q.poolId, actor);
    const p = pageOf(q);
    const w: SQL[] = [eq(cardPoolEvents.poolId, pool.poolId)];
    if (q.types?.length) w.push(inArray(cardPoolEvents.type, q.types));
    if (q.from) w.push(gte(cardPoolEvents.at, businessDayStart(q.from)));
    if (q.to) w.push(lt(cardPoolEvents.at, businessDayEnd(q.to)));
    const cond = and(...w);
    const [rows, [{ n }]] = await Promise.all([
      this.db.select().from(cardPoolEvents).where(cond).orderBy(desc(cardPoolEvents.at), desc(cardPoolEvents.eventId)).limit(p.limit).offset(p.offset),
      this.db.select({ n: count() }).from(cardPoolEvents).where(cond),
    ]);
    return {
      list: rows.map((r) => ({
        eventId: Number(r.eventId), type: r.type, usedBytes: r.usedBytes == null ? null : Number(r.usedBytes),
        quotaBytes: r.quotaBytes == null ? null : Number(r.quotaBytes), memberCount: r.memberCount, reason: r.reason, actor: r.actor, at: r.at.toISOString(),
      })),
      total: Number(n), current: p.current, pageSize: p.pageSize,
    };
  }

  /**
   * Name and state of the pools among `ids` the actor may see, for a page of cards (the card list, the card detail): a
   * second-level customer's card in its parent's pool shows no pool it could not open.
   */
  static async namesFor(ex: Executor, actor: Actor, ids: number[]): Promise<Map<number, { name: string; state: number }>> {
    const uniq = [...new Set(ids)];
    if (!uniq.length) return new Map();
    const rows = await ex.select({ id: cardPools.poolId, name: cardPools.name, state: cardPools.state }).from(cardPools)
      .where(and(inArray(cardPools.poolId, uniq), visiblePoolFilter(actor)));
    return new Map(rows.map((r) => [r.id, { name: r.name, state: r.state }]));
  }
}
