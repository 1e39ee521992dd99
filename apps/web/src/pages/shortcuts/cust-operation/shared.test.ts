import { describe, expect, it } from 'vitest';
import dayjs from 'dayjs';
import { accountLabel, beyondSpan, custOperationFilters, detailPath, zoneLabelOf, type CustOperationRow } from './shared.tsx';

describe('China Unicom account operation helpers', () => {
  it('sends the picked days and a trimmed zone, and drops an empty one', () => {
    expect(custOperationFilters({ range: [dayjs('2026-10-26'), dayjs('2026-11-25')], zoneName: ' 全国 ', goodsReleaseId: 4 }))
      .toEqual({ startDate: '2026-10-26', endDate: '2026-11-25', zoneName: '全国', goodsReleaseId: 4 });
    expect(custOperationFilters({ range: [dayjs('2026-10-26'), null], zoneName: '  ' })).toEqual({});
  });

  it('greys out days past the 31-day limit both ways from the first pick', () => {
    const from = dayjs('2026-10-26');
    expect(beyondSpan(dayjs('2026-11-25'), from)).toBe(false);
    expect(beyondSpan(dayjs('2026-11-26'), from)).toBe(true);
    expect(beyondSpan(dayjs('2026-09-26'), from)).toBe(false);
    expect(beyondSpan(dayjs('2026-09-25'), from)).toBe(true);
    expect(beyondSpan(dayjs('2030-01-01'), undefined)).toBe(false);
  });

  it('names a row\'s pool detail by its names, encoded, then the day', () => {
    const row = { accountName: 'CU 账户/1', ratePlanName: '联通 3GB', zoneName: '全国公网', queryDate: '2026-11-26' } as CustOperationRow;
    expect(detailPath(row)).toBe(`/shortcuts/cust-operation/detail/CU%20%E8%B4%A6%E6%88%B7%2F1/${encodeURIComponent('联通 3GB')}/${encodeURIComponent('全国公网')}/2026-11-26`);
  });

  it('shows the built-in network and zones in the reader\'s language', () => {
    expect(accountLabel({ operAccountId: 0, accountName: 'built-in network simulator' }, 'zh')).toBe('内置网络模拟器');
    expect(accountLabel({ operAccountId: 3, accountName: 'CU-A' }, 'en')).toBe('CU-A');
    expect(zoneLabelOf({ zoneName: '全国公网', zoneNameEn: 'Nationwide' }, 'en')).toBe('Nationwide');
    expect(zoneLabelOf({ zoneName: '全国公网', zoneNameEn: null }, 'en')).toBe('全国公网');
    expect(zoneLabelOf({ zoneName: null, zoneNameEn: null }, 'zh')).toBe('-');
  });
});
