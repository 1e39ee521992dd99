import { describe, it, expect } from 'vitest';
import { PlanCycleUnit, PlanGoodsType, PlanOperationMode, PlanRenewalMode, PlanStatus, PlanUseUpAction, ProfitShareMethod, TariffType, type ResponseOf, type plan } from '@lynx/contract';
import { NEW_PLAN } from './PlanForm.tsx';
import { fromDetail, toBody, type PlanFormValues } from './body.ts';

const values = (over: Partial<PlanFormValues> = {}): PlanFormValues => ({
  ...(NEW_PLAN as PlanFormValues), code: ' P-1 ', name: ' 车载月包 ', operatorId: 3, salePrice: '39.9', apnIds: [7], alternativeIds: [4],
  testPeriodMonths: 3, silentPeriodMonths: 6, testValidityDays: 90, downtimeFee: '2',
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
      testValidityDays: null, downtimeFee: '0.00', testPrice: '0.00',
    });
  });

  it('gives a prepaid tariff goods type 1 and a test plan goods type 10', () => {
    expect(toBody(values({ tariffType: TariffType.PrepaidShared })).goodsType).toBe(PlanGoodsType.Prepaid);
    expect(toBody(values({ tariffType: TariffType.Test })).goodsType).toBe(PlanGoodsType.Test);
  });

  it('sends every price as decimal text with two decimals, never a number', () => {
    const b = toBody(values({ zones: [{ zoneName: 'A', price: '5', quotaMb: 512, commservIds: [1] }], overagePrice: '0.5' }));
    expect(b).toMatchObject({ standardPrice: '0.00', salePrice: '39.90', downtimeFee: '2.00', testPrice: '0.00', overagePrice: '0.50', quotaMb: 1024, taxRate: 6 });
    expect(b.zones[0]).toMatchObject({ price: '5.00', quotaMb: 512 });
  });

  it.each(['0.10', '19.99', '123456789012.34'])('carries the price %s through the body unchanged', (price) => {
    const b = toBody(values({ standardPrice: price, salePrice: price, overagePrice: price, downtimeFee: price, testPrice: price, zones: [{ zoneName: 'A', price, commservIds: [] }] }));
    expect([b.standardPrice, b.salePrice, b.overagePrice, b.downtimeFee, b.testPrice, b.zones[0].price]).toEqual([price, price, price, price, price, price]);
  });

  it('sends an emptied optional price as null (overage, zone) or zero (downtime fee, test price)', () => {
    const b = toBody(values({ overagePrice: null, downtimeFee: null, testPrice: '', zones: [{ zoneName: 'A', price: null, commservIds: [] }] }));
    expect(b).toMatchObject({ overagePrice: null, downtimeFee: '0.00', testPrice: '0.00' });
    expect(b.zones[0].price).toBeNull();
  });

  it('sends more than two decimals unrounded, so the server refuses them with the field message', () => {
    expect(toBody(values({ salePrice: '19.999' })).salePrice).toBe('19.999');
  });

  it.each(['0.10', '19.99', '123456789012.34'])('edits a plan priced %s and saves the same prices', (price) => {
    const b = toBody(fromDetail(detail(price), null));
    expect([b.standardPrice, b.salePrice, b.overagePrice, b.downtimeFee, b.testPrice, b.zones[0].price]).toEqual([price, price, price, price, price, price]);
    expect(b.zones[0].quotaMb).toBe(2048.5);
  });

  it('fills the form of a copy with the source prices as text and the new code and name', () => {
    const v = fromDetail(detail('19.99'), { code: 'P-2', name: 'copy' });
    expect(v).toMatchObject({ code: 'P-2', name: 'copy', standardPrice: '19.99', salePrice: '19.99', testPrice: '19.99', overagePrice: '19.99' });
    expect(v.zones?.[0].price).toBe('19.99');
  });
});

type Detail = ResponseOf<typeof plan.getBasicPlanDetail>;
/** a loaded plan whose every price is `price` (the server's money text) */
function detail(price: string): Detail {
  return {
    goodsReleaseId: 9, code: 'P-1', name: '车载月包', goodsType: PlanGoodsType.Monthly, tariffType: TariffType.MonthlySingle,
    standardPrice: price, salePrice: price, status: PlanStatus.Draft, operatorId: 3, operationMode: PlanOperationMode.Standard,
    cycleUnit: PlanCycleUnit.Month, cycleValue: 1, durationMonths: 12, quotaMb: 1024, zoneCount: 1, releaseCount: 0, pendingPrice: null,
    pendingDate: null, createdBy: 'admin', createdAt: '2025-01-01T00:00:00Z', updatedAt: '2025-01-01T00:00:00Z', overageGrade: 1,
    overagePrice: price, useUpAction: PlanUseUpAction.Overdraw, terminateByUsage: false, testPeriodMonths: 1, testQuotaKb: 100, testPrice: price,
    testValidityDays: 90, silentPeriodMonths: 1, renewalMode: PlanRenewalMode.AutoRenew, downtimeFee: price, downtimeFreeMonths: 0, taxRate: 6,
    currency: 'CNY', profitShareRatio: 10, profitShareMethod: ProfitShareMethod.ByProfit, networkTypes: [4], remark: null, copiedFrom: null,
    apns: [{ apnId: 7, apnName: 'cmiot', operatorId: 3 }],
    zones: [{ zoneId: 1, zoneName: '全国', zoneNameEn: null, regions: ['上海'], quotaMb: 2048.5, price, services: [] }],
    alternatives: [],
  };
}
