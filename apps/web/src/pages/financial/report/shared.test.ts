import { describe, expect, it } from 'vitest';
import dayjs from 'dayjs';
import { ReportPeriod } from '@lynx/contract';
import { AMOUNT_KEYS, balances, inAndOut, periodOf, reportDetailPath, reportFilters, shownKeys, type Amounts } from './shared.tsx';

const zero = Object.fromEntries(AMOUNT_KEYS.map((k) => [k, '0.00'])) as Amounts;
const row = (o: Partial<Amounts>): Amounts => ({ ...zero, ...o });

describe('accounting report helpers', () => {
  it('adds money in and money out exactly, in fen (no float: 0.1 + 0.2 is 0.30)', () => {
    expect(inAndOut(row({ recharge: '0.10', grant: '0.20', spend: '-200.10', refund: '-0.01', refundReversal: '0.01', adjust: '-5.00' })))
      .toEqual({ in: '0.31', out: '-205.11' });
    // opening and closing are no movements
    expect(inAndOut(row({ opening: '100.00', closing: '100.00' }))).toEqual({ in: '0.00', out: '0.00' });
  });

  it('checks opening + movements = closing', () => {
    expect(balances(row({ opening: '50000.00', recharge: '1000.01', spend: '-200.10', grant: '50.00', closing: '50849.91' }))).toBe(true);
    expect(balances(row({ opening: '50000.00', recharge: '1000.01', closing: '51000.00' }))).toBe(false);
    expect(balances(row({ opening: '-10.00', writeOff: '-5.00', other: '1.00', closing: '-14.00' }))).toBe(true);
  });

  it('shows the "other" column only when something is in it', () => {
    expect(shownKeys(row({}))).not.toContain('other');
    expect(shownKeys(null)).toEqual(AMOUNT_KEYS.filter((k) => k !== 'other'));
    expect(shownKeys(row({ other: '-0.01' }))).toContain('other');
  });

  it('turns the picked range into business days and reads the route', () => {
    expect(reportFilters({ range: [dayjs('2026-11-01'), dayjs('2026-11-25')], custId: 3 })).toEqual({ startDate: '2026-11-01', endDate: '2026-11-25', custId: 3 });
    expect(reportFilters({ range: undefined })).toEqual({});
    expect(reportDetailPath('2026-11', ReportPeriod.Monthly)).toBe('/financial/report/detail/2026-11/2');
    expect(periodOf('1')).toBe(ReportPeriod.Daily);
    expect(periodOf('2')).toBe(ReportPeriod.Monthly);
    expect(periodOf('3')).toBeNull();
    expect(periodOf(undefined)).toBeNull();
  });
});
