import { describe, expect, it } from 'vitest';
import { formatMoney, toMoneyText } from './money.ts';

describe('formatMoney', () => {
  it.each<[number | string | null | undefined, string]>([
    [1234567.891, '1,234,567.89'],
    [0, '0.00'],
    [-0, '0.00'],
    [null, '-'],
    [undefined, '-'],
    ['', '-'],
    ['  ', '-'],
    [NaN, '-'],
    [Infinity, '-'],
    ['abc', '-'],
    [-1234.5, '-1,234.50'],
    ['-1234.5', '-1,234.50'],
    ['1234567.891', '1,234,567.89'],
    // float trap: (1.005).toFixed(2) === '1.00'
    [1.005, '1.01'],
    ['1.005', '1.01'],
    [-1.005, '-1.01'],
    [1.004, '1.00'],
    [999.995, '1,000.00'],
    [-0.001, '0.00'],
    [100, '100.00'],
    [1000, '1,000.00'],
    [0.1 + 0.2, '0.30'],
    ['12345678901234567890.125', '12,345,678,901,234,567,890.13'],
    [1e21, '1,000,000,000,000,000,000,000.00'],
  ])('%j → %s', (input, expected) => {
    expect(formatMoney(input)).toBe(expected);
  });
});

describe('toMoneyText', () => {
  it.each<[number | string | null | undefined, string | null]>([
    ['12.5', '12.50'],
    ['12.50', '12.50'],
    ['0', '0.00'],
    ['007.10', '7.10'],
    ['123456789012.34', '123456789012.34'],
    // an old record's JSON number is read as the amount that was typed
    [12.5, '12.50'],
    [0.1, '0.10'],
    ['-3', '-3.00'],
    // more than two decimals is refused, never rounded
    ['1.005', null],
    ['1.500', '1.50'],
    ['abc', null],
    ['', null],
    [null, null],
    [undefined, null],
  ])('%j → %j', (input, expected) => {
    expect(toMoneyText(input)).toBe(expected);
  });
});
