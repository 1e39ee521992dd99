// Price adjustments of basic plans take effect on their effective date (a business day): the plan's sale price
// changes, and so does the price of every customer whose result item succeeded; a failed customer keeps its
// price (its retail plan would otherwise not be above the basic price).
import { and, eq, inArray, lte } from 'drizzle-orm';
import { PriceChangeResult, PriceChangeStatus, businessToday } from '@lynx/contract';
import type { Executor } from '../../db/client.ts';
import { basicPlans, planPriceChangeItems, planPriceChanges, planReleases } from './plan-tables.ts';

/** Today's business day as YYYY-MM-DD (in CMP_TIME_ZONE). */
export const businessTodayOf = (now = new Date()) => businessToday(now.getTime());

/**
 * The plans among `planIds` with a price change waiting to take effect (status pending, spec §4: no renewal
 * meanwhile). One query for a whole set of cards' plans.
 */
export async function plansWithPendingPriceChange(ex: Executor, planIds: readonly (number | null)[]): Promise<Set<number>> {
  const ids = [...new Set(planIds.filter((id): id is number => id != null))];
  if (!ids.length) return new Set();
  const rows = await ex
    .selectDistinct({ id: planPriceChanges.goodsReleaseId })
    .from(planPriceChanges)
    .where(and(inArray(planPriceChanges.goodsReleaseId, ids), eq(planPriceChanges.status, PriceChangeStatus.Pending)));
  return new Set(rows.map((r) => r.id));
}

/**
 * Applies pending changes whose effective date has come (or only `changeId`, when it is due). Idempotent:
 * a change is applied once, when its status moves from pending to effective. Returns how many were applied.
 */
export async function applyDuePriceChanges(ex: Executor, changeId?: number): Promise<number> {
  const due = await ex
    .select()
    .from(planPriceChanges)
    .where(and(
      eq(planPriceChanges.status, PriceChangeStatus.Pending),
      lte(planPriceChanges.effectiveDate, businessTodayOf()),
      changeId !== undefined ? eq(planPriceChanges.changeId, changeId) : undefined,
    ))
    .orderBy(planPriceChanges.changeId)
    .for('update', { skipLocked: true });
  for (const change of due) {
    const ok = await ex
      .select({ custId: planPriceChangeItems.custId })
      .from(planPriceChangeItems)
      .where(and(eq(planPriceChangeItems.changeId, change.changeId), eq(planPriceChangeItems.result, PriceChangeResult.Success)));
    await ex.update(basicPlans).set({ salePrice: change.newPrice, updatedAt: new Date() }).where(eq(basicPlans.goodsReleaseId, change.goodsReleaseId));
    if (ok.length) {
      await ex
        .update(planReleases)
        .set({ salePrice: change.newPrice })
        .where(and(eq(planReleases.goodsReleaseId, change.goodsReleaseId), inArray(planReleases.custId, ok.map((o) => o.custId))));
    }
    await ex.update(planPriceChanges).set({ status: PriceChangeStatus.Effective }).where(eq(planPriceChanges.changeId, change.changeId));
  }
  return due.length;
}
