// Price adjustments of basic plans take effect on their effective date (China time): the plan's sale price
// changes, and so does the price of every customer whose result item succeeded; a failed customer keeps its
// price (its retail plan would otherwise not be above the basic price).
import { and, eq, inArray, lte } from 'drizzle-orm';
import { PriceChangeResult, PriceChangeStatus } from '@lynx/contract';
import type { Executor } from '../../db/client.ts';
import { basicPlans, planPriceChangeItems, planPriceChanges, planReleases } from './plan-tables.ts';

const CHINA_DATE = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Shanghai', year: 'numeric', month: '2-digit', day: '2-digit' });

/** Today's date in China as YYYY-MM-DD (the product's business day). */
export const todayInChina = (now = new Date()) => CHINA_DATE.format(now);

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
      lte(planPriceChanges.effectiveDate, todayInChina()),
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
