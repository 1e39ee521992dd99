// Form values of the basic plan form and how they become the request body (pure, tested).
import { SUPPLEMENTARY_TARIFFS, goodsTypeOfTariff, type BodyOf, type plan, type ResponseOf } from '@lynx/contract';
import type { ZoneValue } from './zones.ts';
import { priceText } from '../money.ts';

export type PlanBody = Omit<BodyOf<typeof plan.saveBasicPlan>, 'copiedFrom'>;
type Detail = ResponseOf<typeof plan.getBasicPlanDetail>;

export interface PlanFormValues {
  code: string;
  name: string;
  tariffType: number;
  goodsType: number;
  operatorId: number;
  operationMode: number;
  networkTypes: number[];
  renewalMode: number;
  remark?: string;
  /** prices are decimal text (inputs in string mode), never floats */
  standardPrice: string;
  salePrice: string;
  taxRate: number;
  profitShareRatio: number;
  profitShareMethod: number;
  overageGrade?: number | null;
  overagePrice?: string | null;
  downtimeFee?: string | null;
  downtimeFreeMonths?: number | null;
  cycleUnit: number;
  cycleValue: number;
  durationMonths: number;
  quotaMb: number;
  useUpAction: number;
  terminateByUsage: boolean;
  testPeriodMonths?: number | null;
  silentPeriodMonths?: number | null;
  testQuotaKb?: number | null;
  testPrice?: string | null;
  testValidityDays?: number | null;
  apnIds?: number[];
  zones?: ZoneValue[];
  alternativeIds?: number[];
}

export const isPack = (tariffType: number | undefined) => tariffType !== undefined && SUPPLEMENTARY_TARIFFS.includes(tariffType);

/**
 * The request body: a supplementary pack sends no APN, zones, periods, downtime fee or change targets. Prices go out
 * as decimal text; an emptied optional price is null (overage, zone) or 0 (downtime fee, test price).
 */
export function toBody(v: PlanFormValues): PlanBody {
  const pack = isPack(v.tariffType);
  const zero = '0.00';
  // standard and sale price are required on the form; an empty one ('') would be refused by the contract, never sent as 0
  return {
    code: v.code.trim(), name: v.name.trim(), tariffType: v.tariffType, goodsType: goodsTypeOfTariff(v.tariffType),
    operatorId: v.operatorId, operationMode: v.operationMode, networkTypes: v.networkTypes ?? [], renewalMode: v.renewalMode,
    remark: v.remark?.trim() ?? '', standardPrice: priceText(v.standardPrice) ?? '', salePrice: priceText(v.salePrice) ?? '', taxRate: v.taxRate,
    profitShareRatio: v.profitShareRatio, profitShareMethod: v.profitShareMethod, overageGrade: v.overageGrade ?? null,
    overagePrice: priceText(v.overagePrice), cycleUnit: v.cycleUnit, cycleValue: v.cycleValue, durationMonths: v.durationMonths,
    quotaMb: v.quotaMb, useUpAction: v.useUpAction, terminateByUsage: !!v.terminateByUsage,
    downtimeFee: pack ? zero : (priceText(v.downtimeFee) ?? zero), downtimeFreeMonths: pack ? 0 : (v.downtimeFreeMonths ?? 0),
    testPeriodMonths: pack ? 0 : (v.testPeriodMonths ?? 0), silentPeriodMonths: pack ? 0 : (v.silentPeriodMonths ?? 0),
    testQuotaKb: v.testQuotaKb ?? 100, testPrice: pack ? zero : (priceText(v.testPrice) ?? zero), testValidityDays: pack ? null : (v.testValidityDays ?? null),
    apnIds: pack ? [] : (v.apnIds ?? []),
    zones: pack
      ? []
      : (v.zones ?? []).map((z) => ({
          zoneName: (z.zoneName ?? '').trim(), zoneNameEn: z.zoneNameEn?.trim() || null, regions: (z.regions ?? []).map((r) => r.trim()).filter(Boolean),
          quotaMb: z.quotaMb ?? null, price: priceText(z.price), commservIds: z.commservIds ?? [],
        })),
    alternativeIds: pack ? [] : (v.alternativeIds ?? []),
  };
}

/** Form values from a loaded plan (edit, or copy with a new code and name); its prices stay the server's text. */
export function fromDetail(d: Detail, copy: { code: string; name: string } | null): PlanFormValues {
  return {
    code: copy ? copy.code : d.code, name: copy ? copy.name : d.name, tariffType: d.tariffType, goodsType: d.goodsType,
    operatorId: d.operatorId ?? 0, operationMode: d.operationMode, networkTypes: d.networkTypes, renewalMode: d.renewalMode,
    remark: d.remark ?? '', standardPrice: d.standardPrice, salePrice: d.salePrice, taxRate: d.taxRate, profitShareRatio: d.profitShareRatio,
    profitShareMethod: d.profitShareMethod, overageGrade: d.overageGrade, overagePrice: d.overagePrice, downtimeFee: d.downtimeFee,
    downtimeFreeMonths: d.downtimeFreeMonths, cycleUnit: d.cycleUnit, cycleValue: d.cycleValue, durationMonths: d.durationMonths,
    quotaMb: d.quotaMb, useUpAction: d.useUpAction, terminateByUsage: d.terminateByUsage, testPeriodMonths: d.testPeriodMonths,
    silentPeriodMonths: d.silentPeriodMonths, testQuotaKb: d.testQuotaKb, testPrice: d.testPrice, testValidityDays: d.testValidityDays,
    apnIds: d.apns.map((a) => a.apnId), alternativeIds: d.alternatives.map((a) => a.goodsReleaseId),
    zones: d.zones.map((z) => ({ zoneName: z.zoneName, zoneNameEn: z.zoneNameEn ?? '', regions: z.regions, quotaMb: z.quotaMb, price: z.price, commservIds: z.services.map((s) => s.commservId) })),
  };
}
