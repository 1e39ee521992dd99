import { and, asc, eq, isNotNull, notInArray, sql } from 'drizzle-orm';
import { CardState, Operator, pool as api } from '@lynx/contract';
import type { Executor } from '../../db/client.ts';
import type { customers } from '../account/tables.ts';
import { cards } from '../card/card-tables.ts';
import { cardPools } from './pool-tables.ts';
import { POOL_JOIN_REFUSED_STATES } from './pool-members.ts';

type Customer = typeof customers.$inferSelect;

/** Cards of the demo pool. */
const DEMO_POOL_CARDS = 8;

/**
 * One demo pool: 智行物流's China Telecom pool (the operator its demo plans are on) with a few of its tree's
 * China Telecom cards that have a basic plan, active ones first. member_count is exact; the usage rule fills the
 * cycle's quota and usage on its first run after the usage feed.
 */
export async function seedPools(ex: Executor, who: { zhixing: Customer }) {
  const { zhixing } = who;
  const members = await ex
    .select({ iccid: cards.iccid })
    .from(cards)
    .where(and(
      eq(cards.rootCustId, zhixing.rootCustId), eq(cards.operatorId, Operator.ChinaTelecom), isNotNull(cards.goodsReleaseId),
      notInArray(cards.state, [...POOL_JOIN_REFUSED_STATES]),
    ))
    .orderBy(sql`${cards.state} <> ${CardState.Activated}`, asc(cards.iccid))
    .limit(DEMO_POOL_CARDS);
  const [pool] = await ex
    .insert(cardPools)
    .values({
      name: '电信车载共享池', custId: zhixing.custId, rootCustId: zhixing.rootCustId, operatorId: Operator.ChinaTelecom,
      exhaustAction: api.PoolExhaustAction.Block, alertPercent: api.POOL_ALERT_DEFAULT, description: '冷链车载终端共享流量',
      memberCount: members.length, createdBy: 'enterprise',
    })
    .returning();
  if (members.length) {
    await ex.execute(sql`update cards set pool_id = ${pool.poolId}, pool_joined_at = now() where iccid = any(${sql.param(members.map((m) => m.iccid))}::text[])`);
  }
}
