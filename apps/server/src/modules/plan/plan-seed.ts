// Demo basic plans for an empty database (called from seed/demo.ts inside its transaction, after the
// communication services): two basic plans on China Telecom (one with two zones) and an event pack, all
// published to the demo enterprise customer.
import { inArray, eq, and } from 'drizzle-orm';
import {
  ApnStatus, ApnType, IpAllocation, NetworkType, Operator, OverageGrade, PlanCycleUnit, PlanGoodsType, PlanOperationMode, PlanRenewalMode,
  PlanStatus, PlanUseUpAction, ProfitShareMethod, TariffType,
} from '@lynx/contract';
import type { Executor } from '../../db/client.ts';
import { apns } from '../network/tables.ts';
import { commServices } from '../network/commserv/tables.ts';
import { basicPlans, planAlternatives, planApns, planReleases, planZoneServices, planZones } from './plan-tables.ts';

const BY = 'admin';

export async function seedPlans(tx: Executor, customer: { custId: number; rootCustId: number }): Promise<void> {
  await tx
    .insert(apns)
    .values([
      { apnName: 'zhixing.ctm2m', operatorId: Operator.ChinaTelecom, apnType: ApnType.Private, ipAllocation: IpAllocation.Static, status: ApnStatus.Enabled, remark: '智行物流车队专网', createdBy: BY },
      { apnName: 'ctnet', operatorId: Operator.ChinaTelecom, apnType: ApnType.Public, ipAllocation: IpAllocation.Dynamic, status: ApnStatus.Enabled, remark: '中国电信物联网公网 APN', createdBy: BY },
    ])
    .onConflictDoNothing();
  const apnRows = await tx.select({ apnId: apns.apnId, apnName: apns.apnName }).from(apns)
    .where(and(eq(apns.operatorId, Operator.ChinaTelecom), inArray(apns.apnName, ['zhixing.ctm2m', 'ctnet'])));
  const apnId = (name: string) => apnRows.find((a) => a.apnName === name)!.apnId;
  const services = await tx.select({ id: commServices.commservId, name: commServices.commservName }).from(commServices);
  const serviceId = (name: string) => services.find((s) => s.name === name)?.id;

  const common = {
    operatorId: Operator.ChinaTelecom, operationMode: PlanOperationMode.Standard, status: PlanStatus.Published, currency: 'CNY',
    renewalMode: PlanRenewalMode.AutoRenew, taxRate: 6, profitShareMethod: ProfitShareMethod.ByTurnover, createdBy: BY,
  };
  const [monthly, annual, pack] = await tx
    .insert(basicPlans)
    .values([
      {
        ...common, code: 'CTCC-M10G', name: '车载 4G 月付 10GB', goodsType: PlanGoodsType.Monthly, tariffType: TariffType.MonthlySingle,
        standardPrice: '48', salePrice: '39.9', cycleUnit: PlanCycleUnit.Month, cycleValue: 1, durationMonths: 12, quotaMb: 10240,
        useUpAction: PlanUseUpAction.Overdraw, overageGrade: OverageGrade.PerMb, overagePrice: '0.29', testPeriodMonths: 3, testQuotaKb: 100,
        testPrice: '0', silentPeriodMonths: 6, downtimeFee: '3', downtimeFreeMonths: 1, profitShareRatio: 12.5,
        networkTypes: [NetworkType.G4, NetworkType.G5Nsa], remark: '冷链车队车载终端：全国公网加企业专网两个区域',
      },
      {
        // professional version: the platform runs access, authentication and billing itself (and can diagnose the cards)
        ...common, operationMode: PlanOperationMode.Professional, code: 'CTCC-P2G12', name: '冷链监控预付年包 2GB/月', goodsType: PlanGoodsType.Prepaid, tariffType: TariffType.PrepaidSingle,
        standardPrice: '240', salePrice: '199', cycleUnit: PlanCycleUnit.Month, cycleValue: 1, durationMonths: 12, quotaMb: 2048,
        useUpAction: PlanUseUpAction.BlockUntilCycleEnd, testPeriodMonths: 1, testQuotaKb: 100, silentPeriodMonths: 3, profitShareRatio: 10,
        networkTypes: [NetworkType.G4, NetworkType.NbIot], remark: '温湿度传感器，流量用尽停机至周期结束',
      },
      {
        ...common, code: 'CTCC-EV5G', name: '加油包 5GB（当月有效）', goodsType: PlanGoodsType.Supplementary, tariffType: TariffType.EventPack,
        standardPrice: '20', salePrice: '15', cycleUnit: PlanCycleUnit.Month, cycleValue: 1, durationMonths: 0, quotaMb: 5120,
        useUpAction: PlanUseUpAction.NextStatus, profitShareRatio: 0, networkTypes: [NetworkType.G4], remark: '仅激活卡可订购，随基础套餐周期结束',
      },
    ])
    .returning({ id: basicPlans.goodsReleaseId, salePrice: basicPlans.salePrice });

  const fleet = [apnId('zhixing.ctm2m'), apnId('ctnet')];
  await tx.insert(planApns).values([...fleet.map((a) => ({ goodsReleaseId: monthly.id, apnId: a })), ...fleet.map((a) => ({ goodsReleaseId: annual.id, apnId: a }))]);
  const zones = [
    { plan: monthly.id, name: '全国公网', nameEn: 'Nationwide public network', regions: ['全国'], services: ['通用互联网数据', '点对点短信'], quotaMb: 8192, price: null },
    { plan: monthly.id, name: '企业专网', nameEn: 'Enterprise private network', regions: ['上海', '江苏', '浙江'], services: ['企业云定向数据', '语音通话'], quotaMb: 2048, price: '5' },
    { plan: annual.id, name: '全国公网', nameEn: 'Nationwide public network', regions: ['全国'], services: ['通用互联网数据'], quotaMb: null, price: null },
  ];
  for (const [i, z] of zones.entries()) {
    const [zone] = await tx.insert(planZones)
      .values({ goodsReleaseId: z.plan, zoneName: z.name, zoneNameEn: z.nameEn, regions: z.regions, quotaMb: z.quotaMb, price: z.price, sort: i })
      .returning({ zoneId: planZones.zoneId });
    const ids = z.services.map(serviceId).filter((id): id is number => id !== undefined);
    if (ids.length) await tx.insert(planZoneServices).values(ids.map((commservId) => ({ goodsReleaseId: z.plan, zoneId: zone.zoneId, commservId })));
  }
  // both base plans share the same APN set, so cards may change between them
  await tx.insert(planAlternatives).values([
    { goodsReleaseId: monthly.id, altGoodsReleaseId: annual.id },
    { goodsReleaseId: annual.id, altGoodsReleaseId: monthly.id },
  ]);
  await tx.insert(planReleases).values(
    [monthly, annual, pack].map((p) => ({ goodsReleaseId: p.id, custId: customer.custId, rootCustId: customer.rootCustId, salePrice: p.salePrice, releasedBy: BY })),
  );
}
