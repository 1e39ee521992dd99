// Card labels (/card/label/*) and the one function that changes the labels on cards (setCardLabels), used by
// the label screens, batch label changes and the card detail. A label belongs to the customer who made it;
// labels made by operator staff are platform-wide. Design note: docs/cards.md "Labels".
import { and, asc, count, eq, ilike, inArray, isNotNull, isNull, or, sql, type SQL } from 'drizzle-orm';
import { ErrorCode, cardcat, type BodyOf } from '@lynx/contract';
import type { Db, Executor } from '../../db/client.ts';
import { AppError, FieldError, notFound } from '../../platform/errors.ts';
import { audit } from '../../platform/audit.ts';
import { canSeeTenant, isStaff, tenantFilter, type Actor, type SessionContext } from '../../platform/context.ts';
import { contains, iso, orderOf, pageOf } from '../../platform/paging.ts';
import { customers } from '../account/tables.ts';
import { uniqueRace } from '../network/unique-race.ts';
import { cards } from './card-tables.ts';
import { cardLabels } from './catalog/tables.ts';
import { iccidSearch } from './list/iccid-prefix.ts';

const { CARD_LABELS_MAX, LABEL_CARDS_PER_CALL_MAX, LABEL_OPTIONS_MAX } = cardcat;
type LabelRow = typeof cardLabels.$inferSelect;

// ---------------------------------------------------------------------------------------------------
// Who may see, edit and use a label
// ---------------------------------------------------------------------------------------------------

/** Labels the actor may see and use: the platform's and those of its own tenant. */
export function visibleLabelFilter(actor: Actor): SQL {
  return or(isNull(cardLabels.custId), tenantFilter(actor, { custId: cardLabels.custId, rootCustId: cardLabels.rootCustId }))!;
}

/** Staff may change every label; a customer only the labels of its own tenant, never platform labels. */
export function canEditLabel(actor: Actor, label: Pick<LabelRow, 'custId' | 'rootCustId'>): boolean {
  if (isStaff(actor)) return true;
  return label.custId !== null && canSeeTenant(actor, label);
}

/** The cards a customer's label may be on: a first-level customer's whole tree, or a second-level customer's own cards. */
function ownerScopeSql(): SQL {
  return sql`case when l.cust = l.root then coalesce(${cards.rootCustId} = l.root, false) else coalesce(${cards.custId} = l.cust, false) end`;
}

// ---------------------------------------------------------------------------------------------------
// Setting labels on cards
// ---------------------------------------------------------------------------------------------------

export type LabelMode = 'add' | 'remove' | 'replace';

export interface CardLabelRefusal {
  iccid: string;
  /** CardLabelOtherOwner (a customer's label on a card outside that customer) or CardLabelTooManyOnCard */
  code: ErrorCode;
  params: Record<string, string | number>;
}

export interface SetCardLabelsResult {
  /** cards whose labels changed (or would change, with dryRun) */
  changed: string[];
  /** cards that already carried exactly the labels asked for */
  unchanged: string[];
  /** ICCIDs that do not exist or are outside the caller's tenant (the two are answered alike) */
  missing: string[];
  /** cards left as they were, with the reason */
  refused: CardLabelRefusal[];
}

export interface SetCardLabelsOptions {
  /** throw on the first missing card (20005) or refused card instead of reporting it (single-card screens) */
  strict?: boolean;
  /** check and classify only; nothing is written and no audit row is added (a batch's validation step) */
  dryRun?: boolean;
}

/**
 * Adds, removes or replaces labels on cards, set-based (three statements however many cards, at most
 * LABEL_CARDS_PER_CALL_MAX). Call it inside your own transaction (pass `tx`) to make it part of a larger write.
 *
 * - Every label id must be visible to the caller (platform labels and its own tenant's), else the whole call is
 *   refused with CardLabelUnavailable naming the ids and nothing changes.
 * - Cards are read under the caller's tenant scope: others are `missing`, exactly like ICCIDs that do not exist.
 * - A customer's label goes only on cards of that customer (a first-level customer: its tree; a second-level
 *   customer: its own cards); other cards are `refused` (CardLabelOtherOwner). A card would carry more than
 *   CARD_LABELS_MAX labels → `refused` (CardLabelTooManyOnCard).
 * - `replace` swaps only the labels the caller can see: labels of another tenant on the card (e.g. a channel
 *   customer's label on its second-level customer's card, replaced by that second-level customer) stay.
 * - One audit row per call lists every changed card with its labels before and after.
 */
export async function setCardLabels(
  ex: Executor, ctx: SessionContext, iccids: readonly string[], labelIds: readonly number[], mode: LabelMode, opts: SetCardLabelsOptions = {},
): Promise<SetCardLabelsResult> {
  const wanted = [...new Set(iccids)];
  const ids = [...new Set(labelIds)].sort((a, b) => a - b);
  if (wanted.length > LABEL_CARDS_PER_CALL_MAX) throw new AppError(ErrorCode.CardLabelTooManyCards, { max: LABEL_CARDS_PER_CALL_MAX });
  if (ids.length > CARD_LABELS_MAX) throw new AppError(ErrorCode.CardLabelTooManyOnCard, { iccid: wanted[0] ?? '-', max: CARD_LABELS_MAX });
  const result: SetCardLabelsResult = { changed: [], unchanged: [], missing: [], refused: [] };
  if (wanted.length === 0) return result;
  const actor = ctx.actor;

  return ex.transaction(async (tx) => {
    // the labels, locked against a concurrent delete until this change commits
    const labels = ids.length
      ? await tx.select().from(cardLabels).where(and(inArray(cardLabels.labelId, ids), visibleLabelFilter(actor))).for('key share')
      : [];
    if (labels.length !== ids.length) {
      const found = new Set(labels.map((l) => l.labelId));
      throw new AppError(ErrorCode.CardLabelUnavailable, { ids: ids.filter((id) => !found.has(id)).join(', ') }, 200, { field: 'labelIds' });
    }
    const owned = mode === 'remove' ? [] : labels.filter((l) => l.custId !== null);
    const idArr = sql`${sql.param(ids)}::int[]`;
    const next = nextLabelsSql(mode, idArr, actor);
    const wrongLabel = owned.length
      ? sql`(select min(l.id) from unnest(${sql.param(owned.map((l) => l.labelId))}::int[], ${sql.param(owned.map((l) => l.custId))}::int[],
          ${sql.param(owned.map((l) => l.rootCustId))}::int[]) as l (id, cust, root) where not (${ownerScopeSql()}))`
      : sql`null::int`;
    const tenant = tenantFilter(actor, { custId: cards.custId, rootCustId: cards.rootCustId });
    const res = (await tx.execute(sql`
      select ${cards.iccid} as iccid, ${cards.labelIds} as before, ${next} as after, ${wrongLabel} as wrong_label
      from ${cards}
      where ${cards.iccid} = any(${sql.param(wanted)}::text[]) and ${tenant}
      for update`)) as unknown as { rows: { iccid: string; before: number[]; after: number[]; wrong_label: number | null }[] };

    const byIccid = new Map(res.rows.map((r) => [r.iccid, r]));
    const nameOf = new Map(labels.map((l) => [l.labelId, l.name]));
    const changes: { iccid: string; before: number[]; after: number[] }[] = [];
    for (const iccid of wanted) {
      const r = byIccid.get(iccid);
      if (!r) {
        result.missing.push(iccid);
        continue;
      }
      if (r.wrong_label !== null) {
        result.refused.push({ iccid, code: ErrorCode.CardLabelOtherOwner, params: { name: nameOf.get(r.wrong_label) ?? String(r.wrong_label), iccid } });
      } else if (r.after.length > CARD_LABELS_MAX && r.after.length > r.before.length) {
        result.refused.push({ iccid, code: ErrorCode.CardLabelTooManyOnCard, params: { iccid, max: CARD_LABELS_MAX } });
      } else if (sameSet(r.before, r.after)) {
        result.unchanged.push(iccid);
      } else {
        result.changed.push(iccid);
        changes.push({ iccid, before: r.before, after: r.after });
      }
    }
    if (opts.strict) {
      if (result.missing.length) throw notFound();
      const first = result.refused[0];
      if (first) throw new AppError(first.code, first.params);
    }
    if (opts.dryRun || changes.length === 0) return result;

    await tx.execute(sql`
      update ${cards} set label_ids = ${next}, updated_at = now()
      where ${cards.iccid} = any(${sql.param(result.changed)}::text[])`);
    await audit(tx, ctx, {
      entity: 'cardLabels', entityId: changes.length === 1 ? changes[0].iccid : `${changes.length} cards`,
      // a change may span tenants (staff); the rows themselves carry the card tenants
      custId: actor.custId, rootCustId: actor.rootCustId,
      before: { cards: changes.map((c) => ({ iccid: c.iccid, labelIds: c.before })) },
      after: { mode, labelIds: ids, cards: changes.map((c) => ({ iccid: c.iccid, labelIds: c.after })) },
    });
    return result;
  });
}

const sameSet = (a: number[], b: number[]) => {
  const sa = new Set(a);
  const sb = new Set(b);
  return sa.size === sb.size && [...sa].every((x) => sb.has(x));
};

/** The card's label ids after the change, as SQL over the current row of `cards` (sorted, no repeats). */
function nextLabelsSql(mode: LabelMode, ids: SQL, actor: Actor): SQL {
  if (mode === 'add') return sql`array(select distinct x from unnest(${cards.labelIds} || ${ids}) as x order by x)`;
  if (mode === 'remove') return sql`array(select distinct x from unnest(${cards.labelIds}) as x where x <> all(${ids}) order by x)`;
  // replace: keep what the caller cannot see, swap the rest
  return sql`array(select distinct x from unnest(array(
    select y from unnest(${cards.labelIds}) as y
    where not exists (select 1 from ${cardLabels} where ${cardLabels.labelId} = y and ${visibleLabelFilter(actor)})
  ) || ${ids}) as x order by x)`;
}

// ---------------------------------------------------------------------------------------------------
// Label screens
// ---------------------------------------------------------------------------------------------------

type ListQuery = BodyOf<typeof cardcat.getLabelListPage>;

const trimOrNull = (s: string | null | undefined) => (s?.trim() ? s.trim() : null);

export class LabelService {
  constructor(private db: Db) {}

  private toLabel(actor: Actor, r: LabelRow, custName: string | null) {
    return {
      labelId: r.labelId, name: r.name, colour: r.colour.toLowerCase(), description: r.description, custId: r.custId, custName,
      platform: r.custId === null, editable: canEditLabel(actor, r), createdBy: r.createdBy, createdAt: r.createdAt.toISOString(),
      updatedAt: r.updatedAt.toISOString(),
    };
  }

  private where(q: Omit<ListQuery, 'current' | 'pageSize' | 'sortField' | 'sortOrder'>, actor: Actor): SQL {
    const w: SQL[] = [visibleLabelFilter(actor)];
    if (q.name?.trim()) w.push(ilike(cardLabels.name, contains(q.name.trim())));
    if (q.scope === 'platform') w.push(isNull(cardLabels.custId));
    if (q.scope === 'own') w.push(isNotNull(cardLabels.custId));
    if (q.custId !== undefined && isStaff(actor)) w.push(or(eq(cardLabels.custId, q.custId), eq(cardLabels.rootCustId, q.custId))!);
    return and(...w)!;
  }

  async list(q: ListQuery, actor: Actor) {
    const p = pageOf(q);
    const cond = this.where(q, actor);
    const [rows, [{ n }]] = await Promise.all([
      this.db
        .select({ label: cardLabels, custName: customers.custName })
        .from(cardLabels)
        .leftJoin(customers, eq(customers.custId, cardLabels.custId))
        .where(cond)
        .orderBy(...orderOf(q, { name: cardLabels.name, createdAt: cardLabels.createdAt, updatedAt: cardLabels.updatedAt }, [asc(cardLabels.name), asc(cardLabels.labelId)]))
        .limit(p.limit)
        .offset(p.offset),
      this.db.select({ n: count() }).from(cardLabels).where(cond),
    ]);
    return { list: rows.map((r) => this.toLabel(actor, r.label, r.custName)), total: Number(n), current: p.current, pageSize: p.pageSize };
  }

  /** Every label the caller may use, platform labels first, for pickers. */
  async options(actor: Actor) {
    const rows = await this.db
      .select({ labelId: cardLabels.labelId, name: cardLabels.name, colour: cardLabels.colour, custId: cardLabels.custId })
      .from(cardLabels)
      .where(visibleLabelFilter(actor))
      .orderBy(sql`${cardLabels.custId} is not null`, asc(cardLabels.name))
      .limit(LABEL_OPTIONS_MAX);
    return rows.map((r) => ({ labelId: r.labelId, name: r.name, colour: r.colour.toLowerCase(), platform: r.custId === null }));
  }

  private async visible(ex: Executor, labelId: number, actor: Actor, lock = false): Promise<LabelRow> {
    const q = ex.select().from(cardLabels).where(and(eq(cardLabels.labelId, labelId), visibleLabelFilter(actor)));
    const [row] = lock ? await q.for('update') : await q;
    if (!row) throw notFound();
    return row;
  }

  async detail(labelId: number, actor: Actor) {
    const row = await this.visible(this.db, labelId, actor);
    return this.toLabel(actor, row, await this.custName(this.db, row.custId));
  }

  private async custName(ex: Executor, custId: number | null) {
    if (custId === null) return null;
    const [c] = await ex.select({ name: customers.custName }).from(customers).where(eq(customers.custId, custId));
    return c?.name ?? null;
  }

  /** The cards carrying the label that the caller may see, by ICCID (GIN index on label_ids + tenant). */
  async cardPage(q: BodyOf<typeof cardcat.getLabelCardPage>, actor: Actor) {
    await this.visible(this.db, q.labelId, actor);
    const p = pageOf(q);
    const w: SQL[] = [sql`${cards.labelIds} @> array[${q.labelId}]::int[]`, tenantFilter(actor, { custId: cards.custId, rootCustId: cards.rootCustId })];
    if (q.iccid) w.push(iccidSearch(cards.iccid, q.iccid));
    const cond = and(...w)!;
    const [rows, [{ n }]] = await Promise.all([
      this.db
        .select({
          iccid: cards.iccid, msisdn: cards.msisdn, state: cards.state, operatorId: cards.operatorId, custId: cards.custId, activatedAt: cards.activatedAt,
        })
        .from(cards)
        .where(cond)
        .orderBy(asc(cards.iccid))
        .limit(p.limit)
        .offset(p.offset),
      this.db.select({ n: count() }).from(cards).where(cond),
    ]);
    const custIds = [...new Set(rows.map((r) => r.custId).filter((v): v is number => v !== null))];
    const names = custIds.length ? await this.db.select({ id: customers.custId, name: customers.custName }).from(customers).where(inArray(customers.custId, custIds)) : [];
    const nameOf = new Map(names.map((c) => [c.id, c.name]));
    return {
      list: rows.map((r) => ({ ...r, custName: r.custId !== null ? (nameOf.get(r.custId) ?? null) : null, activatedAt: iso(r.activatedAt) })),
      total: Number(n), current: p.current, pageSize: p.pageSize,
    };
  }

  private async nameFree(ex: Executor, name: string, ownerCustId: number | null, selfId?: number) {
    const [hit] = await ex
      .select({ id: cardLabels.labelId })
      .from(cardLabels)
      .where(and(
        sql`coalesce(${cardLabels.custId}, 0) = ${ownerCustId ?? 0}`,
        sql`lower(${cardLabels.name}) = lower(${name})`,
        selfId !== undefined ? sql`${cardLabels.labelId} <> ${selfId}` : undefined,
      ))
      .limit(1);
    if (hit) throw new AppError(ErrorCode.CardLabelNameTaken, { name }, 200, { field: 'name' });
  }

  private taken = (name: string) => ({ card_labels_owner_name_ux: () => new AppError(ErrorCode.CardLabelNameTaken, { name }, 200, { field: 'name' }) });

  /** Staff make platform labels; a customer's label belongs to that customer. */
  async add(b: BodyOf<typeof cardcat.addLabel>, ctx: SessionContext) {
    const actor = ctx.actor;
    const name = b.name.trim();
    if (!name) throw new FieldError('name', { zh: '必填', en: 'is required' });
    const owner = isStaff(actor) ? { custId: null, rootCustId: null } : { custId: actor.custId, rootCustId: actor.rootCustId };
    if (!isStaff(actor) && (owner.custId === null || owner.rootCustId === null)) throw notFound();
    return uniqueRace(this.taken(name), () =>
      this.db.transaction(async (tx) => {
        await this.nameFree(tx, name, owner.custId);
        const [row] = await tx
          .insert(cardLabels)
          .values({ name, colour: b.colour.toLowerCase(), description: trimOrNull(b.description), ...owner, createdBy: actor.loginName })
          .returning();
        await audit(tx, ctx, { entity: 'cardLabel', entityId: row.labelId, after: row, custId: row.custId, rootCustId: row.rootCustId });
        return this.toLabel(actor, row, await this.custName(tx, row.custId));
      }),
    );
  }

  async update(b: BodyOf<typeof cardcat.updateLabel>, ctx: SessionContext) {
    const actor = ctx.actor;
    const name = b.name.trim();
    if (!name) throw new FieldError('name', { zh: '必填', en: 'is required' });
    return uniqueRace(this.taken(name), () =>
      this.db.transaction(async (tx) => {
        const before = await this.visible(tx, b.labelId, actor, true);
        if (!canEditLabel(actor, before)) throw new AppError(ErrorCode.CardLabelPlatformStaffOnly);
        await this.nameFree(tx, name, before.custId, before.labelId);
        const [row] = await tx
          .update(cardLabels)
          .set({ name, colour: b.colour.toLowerCase(), description: trimOrNull(b.description), updatedAt: new Date() })
          .where(eq(cardLabels.labelId, before.labelId))
          .returning();
        await audit(tx, ctx, { entity: 'cardLabel', entityId: row.labelId, before, after: row, custId: row.custId, rootCustId: row.rootCustId });
        return this.toLabel(actor, row, await this.custName(tx, row.custId));
      }),
    );
  }

  /**
   * Deletes a label. A label still on cards is refused with CardLabelInUse (data.cardCount) unless the caller
   * confirms; then it is taken off those cards and deleted in one transaction (all or nothing).
   */
  async remove(b: BodyOf<typeof cardcat.deleteLabel>, ctx: SessionContext) {
    const actor = ctx.actor;
    return this.db.transaction(async (tx) => {
      const label = await this.visible(tx, b.labelId, actor, true);
      if (!canEditLabel(actor, label)) throw new AppError(ErrorCode.CardLabelPlatformStaffOnly);
      const onCards = sql`${cards.labelIds} @> array[${label.labelId}]::int[]`;
      const [{ n }] = await tx.select({ n: count() }).from(cards).where(onCards);
      const inUse = Number(n);
      if (inUse > 0 && !b.confirmInUse) throw new AppError(ErrorCode.CardLabelInUse, { name: label.name, count: inUse }, 200, { cardCount: inUse });
      let removed = 0;
      if (inUse > 0) {
        const res = (await tx.execute(sql`
          with u as (
            update ${cards} set label_ids = array_remove(${cards.labelIds}, ${label.labelId}::int), updated_at = now()
            where ${onCards} returning 1
          ) select count(*)::int as n from u`)) as unknown as { rows: { n: number }[] };
        removed = Number(res.rows[0].n);
      }
      await tx.delete(cardLabels).where(eq(cardLabels.labelId, label.labelId));
      await audit(tx, ctx, {
        entity: 'cardLabel', entityId: label.labelId, before: label, after: { deleted: true, removedFromCards: removed },
        custId: label.custId, rootCustId: label.rootCustId,
      });
      return { labelId: label.labelId, removedFromCards: removed };
    });
  }

  /** Labels by id for a page of cards: only those visible to the caller (the card list shows them). */
  static async namesFor(ex: Executor, actor: Actor, ids: number[]) {
    if (!ids.length) return new Map<number, { labelId: number; name: string; colour: string }>();
    const rows = await ex
      .select({ labelId: cardLabels.labelId, name: cardLabels.name, colour: cardLabels.colour })
      .from(cardLabels)
      .where(and(inArray(cardLabels.labelId, ids), visibleLabelFilter(actor)));
    return new Map(rows.map((r) => [r.labelId, { ...r, colour: r.colour.toLowerCase() }]));
  }
}

