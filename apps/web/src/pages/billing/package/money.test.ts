import { describe, it, expect } from 'vitest';
import { comparePrices, priceFen, priceText } from './money.ts';

describe('prices on the plan and retail forms', () => {
  it.each([
    ['0.10', '0.10'],
    ['19.99', '19.99'],
    ['123456789012.34', '123456789012.34'],
    ['999999999999.99', '999999999999.99'],
    ['12', '12.00'],
    ['12.5', '12.50'],
    [' 7.1 ', '7.10'],
    ['0', '0.00'],
    [0, '0.00'],
    [0.1, '0.10'],
    ['19.999', '19.999'],
    ['0.125000', '0.125'],
    ['', null],
    ['  ', null],
    [null, null],
    [undefined, null],
  ] as const)('sends %j as %j', (value, expected) => {
    expect(priceText(value)).toBe(expected);
  });

  it('compares in fen, where floats would be wrong', () => {
    // 0.1 + 0.2 !== 0.3 in floats; 9007199254740993 fen is beyond the exact integers of a float
    expect(comparePrices('0.30', '0.3')).toBe(0);
    expect(comparePrices('90071992547409.93', '90071992547409.92')).toBe(1);
    expect(comparePrices('123456789012.33', '123456789012.34')).toBe(-1);
    expect(comparePrices('19.99', 19.99)).toBe(0);
  });

  it('does not compare an empty or invalid price (its own rule says why)', () => {
    expect(comparePrices(null, '1.00')).toBeNull();
    expect(comparePrices('', '1.00')).toBeNull();
    expect(comparePrices('1.001', '1.00')).toBeNull();
    expect(comparePrices('abc', '1.00')).toBeNull();
    expect(priceFen('12.34')).toBe(1234n);
    expect(priceFen(undefined)).toBeNull();
  });
});
