import { describe, it, expect } from 'vitest';
import { PlanGoodsType, TariffType } from '@lynx/contract';
import { NEW_PLAN } from './PlanForm.tsx';
import { toBody, type PlanFormValues } from './body.ts';

const values = (over: Partial<PlanFormValues> = {}): PlanFormValues => ({
  ...(NEW_PLAN as PlanFormValues), code: ' P-1 ', name: ' 车载月包 ', operatorId: 3, salePrice: 39.9, apnIds: [7], alternativeIds: [4],
  testPeriodMonths: 3, silentPeriodMonths: 6, testValidityDays: 90, downtimeFee: 2,
  zones: [{ zoneName: ' 全国 ', regions: [' 上海 ', ''], commservIds: [1, 2] }],
  ...over,
});

describe('basic plan form body', () => {
  it('trims texts, derives the goods type from the tariff and keeps the network of a base plan', () => {
    const b = toBody(values());
    expect(b).toMatchObject({ code: 'P-1', name: '车载月包', goodsType: PlanGoodsType.Monthly, apnIds: [7], alternativeIds: [4], testValidityDays: 90 });
    expect(b.zones).toEqual([{ zoneName: '全国', zoneNameEn: null, regions: ['上海'], quotaMb: null, price: null, commservIds: [1, 2] }]);
  });

  it('sends a supplementary pack with goods type 3 and without APN, zones, periods or change targets', () => {
    const b = toBody(values({ tariffType: TariffType.EventPack }));
    expect(b).toMatchObject({
      goodsType: PlanGoodsType.Supplementary, apnIds: [], zones: [], alternativeIds: [], testPeriodMonths: 0, silentPeriodMonths: 0,
      testValidityDays: null, downtimeFee: 0,
    });
  });

  it('gives a prepaid tariff goods type 1 and a test plan goods type 10', () => {
    expect(toBody(values({ tariffType: TariffType.PrepaidShared })).goodsType).toBe(PlanGoodsType.Prepaid);
    expect(toBody(values({ tariffType: TariffType.Test })).goodsType).toBe(PlanGoodsType.Test);
  });
});
