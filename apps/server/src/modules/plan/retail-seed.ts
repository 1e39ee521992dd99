// Demo retail plans (called from seed/demo.ts inside its transaction, after the demo basic plans).
import { eq, inArray } from 'drizzle-orm';
import { ProfitShareMethod, retail } from '@lynx/contract';
import type { Executor } from '../../db/client.ts';
import { customers } from '../account/tables.ts';
import { basicPlans } from './plan-tables.ts';
import { retailPlanRecords, retailPlans } from './retail-tables.ts';
import { RECORDED, type Recorded } from './retail-service.ts';

const { RetailStatus, RetailRecordAction } = retail;

/**
 * Demo retail plans for an empty database (called from seed/demo.ts inside its transaction, after the demo
 * basic plans): the demo enterprise sells the monthly fleet plan with an event pack to its drivers, and the
 * prepaid cold-chain plan (off sale). Skipped when the demo basic plans are absent.
 */
export async function seedRetailPlans(tx: Executor, customer: { custId: number; rootCustId: number }): Promise<void> {
  const plans = await tx
    .select({ id: basicPlans.goodsReleaseId, code: basicPlans.code, name: basicPlans.name })
    .from(basicPlans)
    .where(inArray(basicPlans.code, ['CTCC-M10G', 'CTCC-P2G12', 'CTCC-EV5G']));
  const id = (code: string) => plans.find((p) => p.code === code)?.id;
  const monthly = id('CTCC-M10G');
  const annual = id('CTCC-P2G12');
  if (monthly === undefined || annual === undefined) return;
  const by = { createdBy: 'admin', updatedBy: 'admin', custId: customer.custId, rootCustId: customer.rootCustId };
  const rows = await tx
    .insert(retailPlans)
    .values([
      {
        ...by, retailName: '车主畅享 10GB 月包', goodsReleaseId: monthly, price: '59', crossedPrice: '79', taxRate: 6,
        dividendMethod: ProfitShareMethod.ByTurnover, dividendProportion: 20, eventGoodsReleaseId: id('CTCC-EV5G') ?? null,
        description: '面向车主的车载 Wi-Fi 月包，全国通用 10GB，流量不足可加购 5GB 加油包', status: RetailStatus.OnSale,
      },
      {
        ...by, retailName: '冷链监控年包（终端版）', goodsReleaseId: annual, price: '239', crossedPrice: null, taxRate: 6,
        dividendMethod: ProfitShareMethod.ByProfit, dividendProportion: 30, eventGoodsReleaseId: null,
        description: '冷链箱温湿度监控终端年费，每月 2GB', status: RetailStatus.OffSale,
      },
    ])
    .returning();
  for (const row of rows) {
    const [c] = await tx.select({ name: customers.custName }).from(customers).where(eq(customers.custId, row.custId));
    const planName = (gid: number | null) => (gid === null ? null : { id: gid, name: plans.find((p) => p.id === gid)?.name ?? '' });
    const shown: Partial<Record<Recorded, unknown>> = {
      custId: { id: row.custId, name: c?.name ?? '' }, goodsReleaseId: planName(row.goodsReleaseId), eventGoodsReleaseId: planName(row.eventGoodsReleaseId),
    };
    const changes = RECORDED.filter((f) => row[f] != null).map((f) => ({ field: f, before: null, after: f in shown ? shown[f] : row[f] }));
    await tx.insert(retailPlanRecords).values({
      retailId: row.retailId, custId: row.custId, rootCustId: row.rootCustId, action: RetailRecordAction.Create, changes,
      loginName: 'admin', userName: '系统管理员',
    });
  }
}
