import { describe, expect, it } from 'vitest';
import dayjs from 'dayjs';
import { ReportPeriod, simreport } from '@lynx/contract';
import { beyondLimit, cardReportFilters, usageEndpoint, usageFilters, voiceMinutes } from './shared.tsx';

describe('SIM report helpers', () => {
  it.each([
    [0, '0'], [60, '1'], [90, '1.5'], [61, '1'], [63, '1.1'], [3599, '60'], [3600 * 24, '1440'],
  ])('shows %i voice seconds as %s minutes', (s, m) => expect(voiceMinutes(s)).toBe(m));

  it('sends the picked month as YYYY-MM and nothing when none is picked', () => {
    expect(cardReportFilters({ month: dayjs('2026-02-15'), custId: 3 })).toEqual({ month: '2026-02', custId: 3 });
    expect(cardReportFilters({ month: null })).toEqual({});
  });

  it('sends the picked days, a trimmed APN, and drops an empty one', () => {
    expect(usageFilters({ range: [dayjs('2026-02-01'), dayjs('2026-02-28')], apn: ' cmiot ', operatorId: 1 }))
      .toEqual({ startDate: '2026-02-01', endDate: '2026-02-28', apn: 'cmiot', operatorId: 1 });
    expect(usageFilters({ range: [dayjs('2026-02-01'), null], apn: '  ' })).toEqual({});
  });

  it('greys out days and months past the 31-day and 12-month limits, both ways from the first pick', () => {
    const from = dayjs('2026-02-01');
    expect(beyondLimit(dayjs('2026-03-03'), from, ReportPeriod.Daily)).toBe(false);
    expect(beyondLimit(dayjs('2026-03-04'), from, ReportPeriod.Daily)).toBe(true);
    expect(beyondLimit(dayjs('2026-01-02'), from, ReportPeriod.Daily)).toBe(false);
    expect(beyondLimit(dayjs('2026-01-01'), from, ReportPeriod.Daily)).toBe(true);
    expect(beyondLimit(dayjs('2027-01-31'), from, ReportPeriod.Monthly)).toBe(false);
    expect(beyondLimit(dayjs('2027-02-01'), from, ReportPeriod.Monthly)).toBe(true);
    expect(beyondLimit(dayjs('2030-01-01'), undefined, ReportPeriod.Monthly)).toBe(false);
  });

  it('reads by day or by month from the matching endpoint', () => {
    expect(usageEndpoint(ReportPeriod.Daily)).toBe(simreport.getDayFlow);
    expect(usageEndpoint(ReportPeriod.Monthly)).toBe(simreport.getMonthFlow);
  });
});
