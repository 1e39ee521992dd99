import { describe, expect, it } from 'vitest';
import type { TFunction } from 'i18next';
import { CreditPaymentUnit, CreditStatus, CreditType } from '@lynx/contract';
import { isCreditAmount, snapshotLines, termText, validityText } from './shared.tsx';
import { isNegative } from '../../business/capital/shared.tsx';
import { ledgerFilters } from '../../business/capital/detail/index.tsx';
import dayjs from 'dayjs';

// a t() that shows its key and parameters, so the tests read what the screen is asked to say
const t = ((key: string, o?: Record<string, unknown>) => (o ? `${key}${JSON.stringify(o)}` : key)) as unknown as TFunction;

describe('credit form and change-log helpers', () => {
  it('accepts an amount only as the server does: positive, at most two decimals, not zero', () => {
    for (const ok of ['1', '0.01', '3000', '3500.5', '999999999999.99', ' 10 ']) expect(isCreditAmount(ok), ok).toBe(true);
    for (const bad of ['0', '0.00', '-1', '1.005', '1e3', 'abc', '', '1,000', undefined, 12]) expect(isCreditAmount(bad), String(bad)).toBe(false);
  });

  it('writes the payment term and the validity', () => {
    expect(termText(t, 'en', 30, CreditPaymentUnit.Day)).toBe('credit.term{"n":30,"unit":"days"}');
    expect(termText(t, 'zh', 2, CreditPaymentUnit.Month)).toBe('credit.term{"n":2,"unit":"个月"}');
    expect(termText(t, 'en', 1, CreditPaymentUnit.Month)).toBe('credit.term{"n":1,"unit":"credit.unitOne.month"}');
    expect(termText(t, 'en', null, null)).toBe('-');
    expect(validityText(t, '2026-11-26', '2026-12-31')).toBe('2026-11-26 ~ 2026-12-31');
    expect(validityText(t, '2026-11-26', null)).toBe('2026-11-26 ~ credit.f.longTerm');
  });

  it('shows only what changed between two snapshots, all of a created one', () => {
    const before = { creditType: CreditType.Fixed, amount: '3000.00', paymentTerm: 30, paymentUnit: 1, validFrom: '2026-11-26', validTo: null, remark: null, status: CreditStatus.Valid };
    const after = { ...before, amount: '3500.50' };
    expect(snapshotLines(t, 'en', before, after)).toEqual([{ label: 'credit.f.amount', value: '3,000.00' }]);
    expect(snapshotLines(t, 'en', after, before)).toEqual([{ label: 'credit.f.amount', value: '3,500.50' }]);
    expect(snapshotLines(t, 'en', after, null).map((l) => l.label)).toEqual([
      'credit.f.creditType', 'credit.f.amount', 'credit.f.paymentTerm', 'credit.f.validity', 'credit.f.remark', 'credit.f.status',
    ]);
    expect(snapshotLines(t, 'en', null, after)).toEqual([]);
    const reset = { ...before, status: CreditStatus.Reset };
    expect(snapshotLines(t, 'zh', reset, before)).toEqual([{ label: 'credit.f.status', value: '已重置' }]);
  });
});

describe('money display helpers', () => {
  it('tells a negative amount from its text, zero is not negative', () => {
    expect(isNegative('-0.01')).toBe(true);
    expect(isNegative('-1000.00')).toBe(true);
    expect(isNegative('-0.00')).toBe(false);
    expect(isNegative('0.00')).toBe(false);
    expect(isNegative('12.50')).toBe(false);
    expect(isNegative(null)).toBe(false);
  });

  it('turns the picked days of the ledger filter into business days', () => {
    expect(ledgerFilters({ kind: 2, range: [dayjs('2026-11-01'), dayjs('2026-11-30')] })).toEqual({ kind: 2, startDate: '2026-11-01', endDate: '2026-11-30' });
    expect(ledgerFilters({ kind: 2, range: null })).toEqual({ kind: 2 });
  });
});
