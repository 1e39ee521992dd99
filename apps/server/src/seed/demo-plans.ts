// The demo enterprise's standard basic plans on China Mobile and China Unicom (its China Telecom plans come from
// modules/plan/plan-seed.ts). Seeded before the demo cards, so every card of 智行物流's tree on these operators gets
// a plan (and, once activated, a contract) the same way its China Telecom cards do. Overdraw on use-up: the
// simulator's usage shows quota and overage but never moves a demo card to another state.
import { eq, inArray } from 'drizzle-orm';
import {
  ApnStatus, ApnType, IpAllocation, NetworkType, Operator, OverageGrade, PlanCycleUnit, PlanGoodsType, PlanOperationMode, PlanRenewalMode,
  PlanStatus, PlanUseUpAction, ProfitShareMethod, TariffType,
} from '@lynx/contract';
import type { Executor } from '../db/client.ts';
import { apns } from '../modules/network/tables.ts';
import { commServices } from '../modules/network/commserv/tables.ts';
import { basicPlans, planApns, planReleases, planZoneServices, planZones } from '../modules/plan/plan-tables.ts';

const BY = 'admin';

/** The public IoT APN each plan runs on (China Unicom's `scuiot` comes with the network configuration seed). */
const OPERATOR_APNS = [
  { apnName: 'cmiot', operatorId: Operator.ChinaMobile, remark: '中国移动物联网公网 APN' },
  { apnName: 'scuiot', operatorId: Operator.ChinaUnicom, remark: '中国联通物联网公网 APN' },
];

const common = {
  operationMode: PlanOperationMode.Standard, status: PlanStatus.Published, currency: 'CNY', renewalMode: PlanRenewalMode.AutoRenew,
  goodsType: PlanGoodsType.Monthly, tariffType: TariffType.MonthlySingle, cycleUnit: PlanCycleUnit.Month, cycleValue: 1, durationMonths: 12,
  useUpAction: PlanUseUpAction.Overdraw, overageGrade: OverageGrade.PerMb, taxRate: 6, profitShareMethod: ProfitShareMethod.ByTurnover,
  testQuotaKb: 100, testPrice: '0', createdBy: BY,
};

const PLANS = [
  {
    ...common, operatorId: Operator.ChinaMobile, apnName: 'cmiot', code: 'CMCC-M5G', name: '移动车载 4G 月付 5GB',
    standardPrice: '30', salePrice: '25', quotaMb: 5120, overagePrice: '0.3', testPeriodMonths: 3, silentPeriodMonths: 6, downtimeFee: '2',
    downtimeFreeMonths: 1, profitShareRatio: 10, networkTypes: [NetworkType.G4, NetworkType.G5Nsa], remark: '干线车辆车载终端：全国公网',
  },
  {
    ...common, operatorId: Operator.ChinaUnicom, apnName: 'scuiot', code: 'CUCC-M3G', name: '联通物联网月付 3GB',
    standardPrice: '22', salePrice: '18', quotaMb: 3072, overagePrice: '0.25', testPeriodMonths: 1, silentPeriodMonths: 3, downtimeFee: '2',
    downtimeFreeMonths: 1, profitShareRatio: 8, networkTypes: [NetworkType.G4, NetworkType.NbIot], remark: '冷链网点终端，账期每月 26 日起',
  },
];

/** Runs in seedDemo's transaction, after the network configuration and before the cards. */
export async function seedOperatorPlans(tx: Executor, customer: { custId: number; rootCustId: number }): Promise<void> {
  await tx
    .insert(apns)
    .values(OPERATOR_APNS.map((a) => ({ ...a, apnType: ApnType.Public, ipAllocation: IpAllocation.Dynamic, status: ApnStatus.Enabled, createdBy: BY })))
    .onConflictDoNothing();
  const apnRows = await tx.select({ apnId: apns.apnId, apnName: apns.apnName, operatorId: apns.operatorId }).from(apns)
    .where(inArray(apns.apnName, OPERATOR_APNS.map((a) => a.apnName)));
  const [service] = await tx.select({ id: commServices.commservId }).from(commServices).where(eq(commServices.commservName, '通用互联网数据'));

  for (const { apnName, ...plan } of PLANS) {
    const [row] = await tx.insert(basicPlans).values(plan).returning({ id: basicPlans.goodsReleaseId, salePrice: basicPlans.salePrice });
    const apn = apnRows.find((a) => a.apnName === apnName && a.operatorId === plan.operatorId)!;
    await tx.insert(planApns).values({ goodsReleaseId: row.id, apnId: apn.apnId });
    const [zone] = await tx.insert(planZones)
      .values({ goodsReleaseId: row.id, zoneName: '全国公网', zoneNameEn: 'Nationwide public network', regions: ['全国'], quotaMb: null, price: null, sort: 0 })
      .returning({ zoneId: planZones.zoneId });
    if (service) await tx.insert(planZoneServices).values({ goodsReleaseId: row.id, zoneId: zone.zoneId, commservId: service.id });
    await tx.insert(planReleases)
      .values({ goodsReleaseId: row.id, custId: customer.custId, rootCustId: customer.rootCustId, salePrice: row.salePrice, releasedBy: BY });
  }
}

/** The codes of the plans above, for tests and docs. */
export const OPERATOR_PLAN_CODES = PLANS.map((p) => p.code);

