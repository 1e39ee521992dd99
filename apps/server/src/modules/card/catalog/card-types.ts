// The card type catalogue (/card/cardtype/list, the spec's "card product"): kept by operator staff, read by
// customers holding the page code, referenced by cards.card_type_id (set by the card import). The reference
// is checked here instead of by a foreign key: the import locks the types it uses (FOR KEY SHARE) and a delete
// locks the type (FOR UPDATE) and refuses it while any card still uses it.
import { and, asc, count, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import { CardFormFactor, CardGrade, ErrorCode, cardcat, type BodyOf } from '@lynx/contract';
import type { Db, Executor } from '../../../db/client.ts';
import { AppError, FieldError, notFound } from '../../../platform/errors.ts';
import { audit } from '../../../platform/audit.ts';
import { isStaff, type Actor, type SessionContext } from '../../../platform/context.ts';
import { contains, orderOf, pageOf } from '../../../platform/paging.ts';
import { uniqueRace } from '../../network/unique-race.ts';
import { cards } from '../card-tables.ts';
import { cardTypes } from './tables.ts';

type CardTypeRow = typeof cardTypes.$inferSelect;
type Input = BodyOf<typeof cardcat.addCardType>;

const toCardType = (r: CardTypeRow) => ({
  cardTypeId: r.cardTypeId, nameZh: r.nameZh, nameEn: r.nameEn, formFactor: r.formFactor, grade: r.grade, tempMin: r.tempMin, tempMax: r.tempMax,
  description: r.description, createdBy: r.createdBy, createdAt: r.createdAt.toISOString(), updatedAt: r.updatedAt.toISOString(),
});

/** A name as typed in an import file or a form: compared without case and surrounding spaces. */
export const cardTypeKey = (s: string) => s.trim().toLowerCase();

/** Every card type's names, for matching the card type column of an import file. */
export async function cardTypeNames(ex: Executor): Promise<{ cardTypeId: number; nameZh: string; nameEn: string }[]> {
  return ex.select({ cardTypeId: cardTypes.cardTypeId, nameZh: cardTypes.nameZh, nameEn: cardTypes.nameEn }).from(cardTypes);
}

/**
 * Locks the given card types against deletion until the caller's transaction ends and returns the ids that
 * still exist (an import calls this before it stores cards that reference them).
 */
export async function lockCardTypes(ex: Executor, ids: number[]): Promise<Set<number>> {
  if (!ids.length) return new Set();
  const rows = await ex.select({ id: cardTypes.cardTypeId }).from(cardTypes).where(inArray(cardTypes.cardTypeId, ids)).for('key share');
  return new Set(rows.map((r) => r.id));
}

/** Card type names by id (both languages), for a page of cards. */
export async function cardTypeNamesById(ex: Executor, ids: number[]) {
  if (!ids.length) return new Map<number, { nameZh: string; nameEn: string }>();
  const rows = await ex.select({ id: cardTypes.cardTypeId, nameZh: cardTypes.nameZh, nameEn: cardTypes.nameEn }).from(cardTypes).where(inArray(cardTypes.cardTypeId, ids));
  return new Map(rows.map((r) => [r.id, { nameZh: r.nameZh, nameEn: r.nameEn }]));
}

export class CardTypeService {
  constructor(private db: Db) {}

  async list(q: BodyOf<typeof cardcat.getCardTypeListPage>) {
    const p = pageOf(q);
    const w: SQL[] = [];
    if (q.name?.trim()) w.push(or(ilike(cardTypes.nameZh, contains(q.name.trim())), ilike(cardTypes.nameEn, contains(q.name.trim())))!);
    if (q.formFactor !== undefined) w.push(eq(cardTypes.formFactor, q.formFactor));
    if (q.grade !== undefined) w.push(eq(cardTypes.grade, q.grade));
    const cond = w.length ? and(...w) : undefined;
    const [rows, [{ n }]] = await Promise.all([
      this.db
        .select()
        .from(cardTypes)
        .where(cond)
        .orderBy(...orderOf(q, { nameZh: cardTypes.nameZh, nameEn: cardTypes.nameEn, createdAt: cardTypes.createdAt }, [asc(cardTypes.cardTypeId)]))
        .limit(p.limit)
        .offset(p.offset),
      this.db.select({ n: count() }).from(cardTypes).where(cond),
    ]);
    return { list: rows.map(toCardType), total: Number(n), current: p.current, pageSize: p.pageSize };
  }

  async options() {
    return this.db
      .select({ cardTypeId: cardTypes.cardTypeId, nameZh: cardTypes.nameZh, nameEn: cardTypes.nameEn })
      .from(cardTypes)
      .orderBy(asc(cardTypes.cardTypeId))
      .limit(1000);
  }

  private staffOnly(actor: Actor) {
    if (!isStaff(actor)) throw new AppError(ErrorCode.CardTypeStaffOnly);
  }

  /** Checks a form; returns the cleaned values. */
  private check(b: Input) {
    const nameZh = b.nameZh.trim();
    const nameEn = b.nameEn.trim();
    if (!nameZh) throw new FieldError('nameZh', { zh: '必填', en: 'is required' });
    if (!nameEn) throw new FieldError('nameEn', { zh: '必填', en: 'is required' });
    if (!CardFormFactor.has(b.formFactor)) throw new FieldError('formFactor', { zh: '不是有效的卡形态', en: 'is not a known form factor' });
    if (!CardGrade.has(b.grade)) throw new FieldError('grade', { zh: '不是有效的等级', en: 'is not a known grade' });
    if (b.tempMin >= b.tempMax) throw new AppError(ErrorCode.CardTypeTemperatureRange, undefined, 200, { field: 'tempMin' });
    const description = b.description?.trim() ? b.description.trim() : null;
    return { nameZh, nameEn, formFactor: b.formFactor, grade: b.grade, tempMin: b.tempMin, tempMax: b.tempMax, description };
  }

  /**
   * A name may not be used by another type in either language: the import matches the card type column
   * against both, so "工业级 MFF2" as one type's Chinese name and another's English name would be ambiguous.
   */
  private async namesFree(ex: Executor, v: { nameZh: string; nameEn: string }, selfId?: number) {
    for (const [field, name] of [['nameZh', v.nameZh], ['nameEn', v.nameEn]] as const) {
      const [hit] = await ex
        .select({ id: cardTypes.cardTypeId })
        .from(cardTypes)
        .where(and(
          or(sql`lower(${cardTypes.nameZh}) = lower(${name})`, sql`lower(${cardTypes.nameEn}) = lower(${name})`),
          selfId !== undefined ? sql`${cardTypes.cardTypeId} <> ${selfId}` : undefined,
        ))
        .limit(1);
      if (hit) throw new AppError(ErrorCode.CardTypeNameTaken, { name }, 200, { field });
    }
  }

  private races = (v: { nameZh: string; nameEn: string }) => ({
    card_types_name_zh_ux: () => new AppError(ErrorCode.CardTypeNameTaken, { name: v.nameZh }, 200, { field: 'nameZh' }),
    card_types_name_en_ux: () => new AppError(ErrorCode.CardTypeNameTaken, { name: v.nameEn }, 200, { field: 'nameEn' }),
  });

  async add(b: Input, ctx: SessionContext) {
    this.staffOnly(ctx.actor);
    const v = this.check(b);
    return uniqueRace(this.races(v), () =>
      this.db.transaction(async (tx) => {
        // one writer at a time: the cross-language name check reads two indexes
        await tx.execute(sql`select pg_advisory_xact_lock(7310913)`);
        await this.namesFree(tx, v);
        const [row] = await tx.insert(cardTypes).values({ ...v, createdBy: ctx.actor.loginName }).returning();
        await audit(tx, ctx, { entity: 'cardType', entityId: row.cardTypeId, after: row, custId: null, rootCustId: null });
        return toCardType(row);
      }),
    );
  }

  async update(b: BodyOf<typeof cardcat.updateCardType>, ctx: SessionContext) {
    this.staffOnly(ctx.actor);
    const v = this.check(b);
    return uniqueRace(this.races(v), () =>
      this.db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(7310913)`);
        const [before] = await tx.select().from(cardTypes).where(eq(cardTypes.cardTypeId, b.cardTypeId)).for('update');
        if (!before) throw notFound();
        await this.namesFree(tx, v, before.cardTypeId);
        const [row] = await tx.update(cardTypes).set({ ...v, updatedAt: new Date() }).where(eq(cardTypes.cardTypeId, before.cardTypeId)).returning();
        await audit(tx, ctx, { entity: 'cardType', entityId: row.cardTypeId, before, after: row, custId: null, rootCustId: null });
        return toCardType(row);
      }),
    );
  }

  /** Refused while any card uses the type (one index probe, whatever the fleet size). */
  async remove(cardTypeId: number, ctx: SessionContext) {
    this.staffOnly(ctx.actor);
    return this.db.transaction(async (tx) => {
      const [row] = await tx.select().from(cardTypes).where(eq(cardTypes.cardTypeId, cardTypeId)).for('update');
      if (!row) throw notFound();
      const [used] = await tx.select({ one: sql`1` }).from(cards).where(eq(cards.cardTypeId, cardTypeId)).limit(1);
      if (used) throw new AppError(ErrorCode.CardTypeInUse, { name: row.nameZh === row.nameEn ? row.nameZh : `${row.nameZh} / ${row.nameEn}` });
      await tx.delete(cardTypes).where(eq(cardTypes.cardTypeId, cardTypeId));
      await audit(tx, ctx, { entity: 'cardType', entityId: cardTypeId, before: row, after: { deleted: true }, custId: null, rootCustId: null });
      return { cardTypeId };
    });
  }
}
