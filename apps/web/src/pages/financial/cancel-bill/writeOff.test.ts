import { describe, expect, it } from 'vitest';
import { ErrorCode, errorMessage } from '@lynx/contract';
import { defaultWriteOffAmount, writeOffAmountError } from './writeOff.ts';

const limits = { arrears: '1200.50', payable: '800.00' };

describe('the amount a write-off proposes', () => {
  it.each([
    [{ arrears: '1200.50', payable: '800.00' }, '800.00'],
    [{ arrears: '300.10', payable: '800.00' }, '300.10'],
    [{ arrears: '300.10', payable: '300.10' }, '300.10'],
    [{ arrears: '300.10', payable: '0.00' }, '0.00'],
    // a pre-deposit below zero is not payable: the server sends 0 or more, never a negative proposal
    [{ arrears: '300.10', payable: '-5.00' }, '0.00'],
  ])('%o → %s', (l, amount) => expect(defaultWriteOffAmount(l)).toBe(amount));
});

describe('what the dialog refuses, in the server\'s words (spec §5)', () => {
  it.each(['zh', 'en'] as const)('%s', (lang) => {
    const invalid = 'INVALID';
    expect(writeOffAmountError('0', limits, lang, invalid)).toBe(errorMessage(ErrorCode.WriteOffZero, lang));
    expect(writeOffAmountError('0.00', limits, lang, invalid)).toBe(errorMessage(ErrorCode.WriteOffZero, lang));
    expect(writeOffAmountError('1200.51', limits, lang, invalid)).toBe(errorMessage(ErrorCode.WriteOffAboveDue, lang, { due: '1,200.50' }));
    expect(writeOffAmountError('800.01', limits, lang, invalid)).toBe(errorMessage(ErrorCode.WriteOffAboveBalance, lang, { payable: '800.00' }));
    // above both: the amount due is named first, as the server checks it first
    expect(writeOffAmountError('5000', limits, lang, invalid)).toBe(errorMessage(ErrorCode.WriteOffAboveDue, lang, { due: '1,200.50' }));
    for (const ok of ['800', '800.00', '0.01', ' 12.5 ']) expect(writeOffAmountError(ok, limits, lang, invalid)).toBeNull();
    for (const bad of ['', 'abc', '-1', '1.234', '1e3', undefined]) expect(writeOffAmountError(bad, limits, lang, invalid)).toBe(invalid);
  });

  it('names the limits in the message (zh)', () => {
    expect(writeOffAmountError('1300', limits, 'zh', 'x')).toBe('核销金额不能超过待核销金额 1,200.50 元');
    expect(writeOffAmountError('900', limits, 'en', 'x')).toBe('The write-off amount cannot exceed pre-deposit plus grants, 800.00 CNY');
  });
});
