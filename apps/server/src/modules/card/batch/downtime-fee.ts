// What deactivating a batch's cards costs: the downtime maintenance fee (停机保号费) per plan, as rating charges it
// (docs/billing.md, category 5; docs/decisions.md "Issue 14: rating"): the plan's own downtime fee for each month a
// card stays deactivated, months counted from the deactivation, the plan's first free months not charged.
import { and, asc, desc, eq, ne, sql } from 'drizzle-orm';
import { batch } from '@lynx/contract';
import type { Executor } from '../../../db/client.ts';
import { tenantFilter, type Actor } from '../../../platform/context.ts';
import { basicPlans } from '../../plan/plan-tables.ts';
import { cards } from '../card-tables.ts';
import { cardBatchItems } from './tables.ts';

const { BatchVerdict, BatchItemStatus } = batch;

/**
 * Per plan among the batch's cards that are (or were) deactivated by it: valid cards, less those whose change failed
 * while the batch ran (they stayed up, so nothing is charged). One statement, grouped in the database; money is
 * numeric there and leaves as text, the totals over every plan come from a window over the same groups. Cards are
 * read in the caller's tenant too, so a card that changed hands since the batch was validated is not counted.
 */
export async function downtimeFeeOf(ex: Executor, batchId: string, actor: Actor) {
  const fee = sql`coalesce(${basicPlans.downtimeFee}, 0)`;
  const monthly = sql`count(*) * ${fee}`;
  const rows = await ex
    .select({
      goodsReleaseId: basicPlans.goodsReleaseId,
      planName: basicPlans.name,
      cards: sql<number>`count(*)::int`,
      downtimeFee: sql<string>`${fee}::numeric(14, 2)::text`,
      freeMonths: sql<number>`coalesce(${basicPlans.downtimeFreeMonths}, 0)::int`,
      monthlyTotal: sql<string>`(${monthly})::numeric(16, 2)::text`,
      allCards: sql<number>`(sum(count(*)) over ())::int`,
      allMonthly: sql<string>`(sum(${monthly}) over ())::numeric(16, 2)::text`,
    })
    .from(cardBatchItems)
    .innerJoin(cards, eq(cards.iccid, cardBatchItems.iccid))
    .leftJoin(basicPlans, eq(basicPlans.goodsReleaseId, cards.goodsReleaseId))
    .where(and(
      eq(cardBatchItems.batchId, batchId),
      eq(cardBatchItems.verdict, BatchVerdict.Valid),
      ne(cardBatchItems.status, BatchItemStatus.Failed),
      tenantFilter(actor, { custId: cards.custId, rootCustId: cards.rootCustId }),
    ))
    .groupBy(basicPlans.goodsReleaseId)
    // the plans that cost most first; cards without a plan last
    .orderBy(desc(sql`${monthly}`), asc(basicPlans.name), asc(basicPlans.goodsReleaseId));
  return {
    list: rows.map(({ allCards: _c, allMonthly: _m, ...r }) => r),
    cards: rows[0]?.allCards ?? 0,
    monthlyTotal: rows[0]?.allMonthly ?? '0.00',
  };
}
