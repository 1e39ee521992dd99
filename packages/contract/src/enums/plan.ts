// Enums of the plan area (issue 4): basic (enterprise) plans and supplementary packs, spec §3 and §4.
import { defineEnum } from './define.ts';
import { Operator } from './system.ts';

/** Goods type of a rate plan (spec §3). */
export const PlanGoodsType = defineEnum({
  Prepaid: { value: 1, zh: '预付费', en: 'Prepaid' },
  Monthly: { value: 2, zh: '月付费', en: 'Monthly' },
  Supplementary: { value: 3, zh: '补充包', en: 'Supplementary' },
  Test: { value: 10, zh: '测试期', en: 'Test' },
});

/** Tariff type of a rate plan (spec §3). */
export const TariffType = defineEnum({
  MonthlySingle: { value: 0, zh: '月付单卡', en: 'Monthly single' },
  PrepaidSingle: { value: 1, zh: '预付单卡', en: 'Prepaid single' },
  PrepaidShared: { value: 2, zh: '预付共享', en: 'Prepaid shared' },
  MonthlyShared: { value: 6, zh: '月付共享', en: 'Monthly shared' },
  EventPack: { value: 8, zh: '加油包', en: 'Event pack' },
  AddOn: { value: 9, zh: '叠加包', en: 'Add-on pack' },
  Test: { value: 10, zh: '测试期套餐', en: 'Test plan' },
  Overage: { value: 11, zh: '超量包', en: 'Overage pack' },
  ValueAdded: { value: 14, zh: '增值包', en: 'Value-added pack' },
});

/** Tariff types that are supplementary packs: goods type 3, no zones, no test or silent period. */
export const SUPPLEMENTARY_TARIFFS: readonly number[] = [TariffType.EventPack, TariffType.AddOn, TariffType.Overage, TariffType.ValueAdded];
/** Tariff types of basic (base) plans. */
export const BASE_TARIFFS: readonly number[] = [
  TariffType.MonthlySingle, TariffType.PrepaidSingle, TariffType.PrepaidShared, TariffType.MonthlyShared, TariffType.Test,
];

/** The goods type a tariff type belongs to. */
export function goodsTypeOfTariff(tariffType: number): number {
  if (SUPPLEMENTARY_TARIFFS.includes(tariffType)) return PlanGoodsType.Supplementary;
  if (tariffType === TariffType.Test) return PlanGoodsType.Test;
  if (tariffType === TariffType.MonthlySingle || tariffType === TariffType.MonthlyShared) return PlanGoodsType.Monthly;
  return PlanGoodsType.Prepaid;
}

export const PlanStatus = defineEnum({
  Draft: { value: 1, zh: '未发布', en: 'Not published' },
  Published: { value: 2, zh: '已发布', en: 'Published' },
  Unpublished: { value: 3, zh: '已下架', en: 'Unpublished' },
});

export const PlanCycleUnit = defineEnum({
  Month: { value: 1, zh: '自然月', en: 'Natural month' },
  Day: { value: 2, zh: '天', en: 'Day' },
});

/** What happens when the plan's data is used up (spec §4, out-of-plan action). */
export const PlanUseUpAction = defineEnum({
  Overdraw: { value: 1, zh: '透支', en: 'Overdraw' },
  NextStatus: { value: 2, zh: '立即进入下一状态', en: 'Enter next status immediately' },
  BlockUntilCycleEnd: { value: 3, zh: '停机至周期结束', en: 'Block until cycle end' },
});

export const PlanOperationMode = defineEnum({
  Standard: { value: 1, zh: '标准版', en: 'Standard' },
  Professional: { value: 2, zh: '专业版', en: 'Professional' },
});

/** Billing step for usage beyond the plan. */
export const OverageGrade = defineEnum({
  PerMb: { value: 1, zh: '每 1 MB', en: 'Per 1 MB' },
  Per10Mb: { value: 2, zh: '每 10 MB', en: 'Per 10 MB' },
  Per100Mb: { value: 3, zh: '每 100 MB', en: 'Per 100 MB' },
  PerGb: { value: 4, zh: '每 1 GB', en: 'Per 1 GB' },
});

export const PlanRenewalMode = defineEnum({
  AutoRenew: { value: 1, zh: '自动续订', en: 'Auto renew' },
  NoRenew: { value: 2, zh: '不续订', en: 'No renewal' },
});

export const ProfitShareMethod = defineEnum({
  ByProfit: { value: 1, zh: '按利润', en: 'By profit' },
  ByTurnover: { value: 2, zh: '按流水', en: 'By turnover' },
});

export const NetworkType = defineEnum({
  G2G3: { value: 1, zh: '2/3G', en: '2/3G' },
  G4: { value: 2, zh: '4G', en: '4G' },
  G5Nsa: { value: 3, zh: '5G_NSA', en: '5G_NSA' },
  G5Sa: { value: 4, zh: '5G_SA', en: '5G_SA' },
  NbIot: { value: 5, zh: 'NB_IOT', en: 'NB_IOT' },
});

export const PriceChangeStatus = defineEnum({
  Pending: { value: 1, zh: '待生效', en: 'Pending' },
  Effective: { value: 2, zh: '已生效', en: 'Effective' },
});

export const PriceChangeResult = defineEnum({
  Success: { value: 1, zh: '成功', en: 'Succeeded' },
  Failed: { value: 2, zh: '失败', en: 'Failed' },
});

/** Why a price adjustment did not apply to one customer. */
export const PriceChangeFailure = defineEnum({
  RetailNotAbove: { value: 1, zh: '零售套餐价格不高于新的基础套餐价格', en: 'A retail plan price is not above the new basic plan price' },
});

/** What an entry of a plan's operation history did. */
export const PlanChangeKind = defineEnum({
  Created: { value: 1, zh: '新增', en: 'Created' },
  Edited: { value: 2, zh: '编辑', en: 'Edited' },
  Published: { value: 3, zh: '发布', en: 'Published' },
  Unpublished: { value: 4, zh: '下架', en: 'Unpublished' },
  PriceAdjusted: { value: 5, zh: '调价', en: 'Price adjusted' },
  Deleted: { value: 6, zh: '删除', en: 'Deleted' },
});

/** Spec §9 limits of a basic plan. */
export const PLAN_APN_MAX = 4;
export const PLAN_ZONE_MAX = 10;
export const PLAN_ZONE_SERVICE_MAX = 40;
export const PLAN_SERVICE_ADDRESS_MAX = 32;
export const PLAN_TEST_SILENT_MONTHS_MAX = 12;
export const TEST_VALIDITY_DAYS: readonly number[] = [30, 60, 90, 180, 360];
export const PLAN_TEST_QUOTA_KB_DEFAULT = 100;
/** Spec §9: a standard-version China Unicom plan allows at most 1024 KB of test data. */
export const UNICOM_STANDARD_TEST_QUOTA_KB_MAX = 1024;

/** The most test data (KB) a plan of this operator and operation mode may allow; null where the spec sets no limit. */
export function testQuotaMaxKb(operatorId: number | null | undefined, operationMode: number | null | undefined): number | null {
  return operatorId === Operator.ChinaUnicom && operationMode === PlanOperationMode.Standard ? UNICOM_STANDARD_TEST_QUOTA_KB_MAX : null;
}
