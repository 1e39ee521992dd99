import { describe, expect, it } from 'vitest';
import { groupThousands, parseDecimal, roundHalfAwayFromZero, toFiniteNumber } from './decimal.ts';

describe('parseDecimal', () => {
  it.each([
    [1.005, { negative: false, int: '1', frac: '005' }],
    ['001.2300', { negative: false, int: '1', frac: '23' }],
    ['-0.00', { negative: false, int: '0', frac: '' }],
    [-12.5, { negative: true, int: '12', frac: '5' }],
    [1e21, { negative: false, int: '1000000000000000000000', frac: '' }],
    [1e-7, { negative: false, int: '0', frac: '0000001' }],
    ['1.5e2', { negative: false, int: '150', frac: '' }],
    ['.5', { negative: false, int: '0', frac: '5' }],
    ['+7', { negative: false, int: '7', frac: '' }],
  ])('%s', (input, expected) => {
    expect(parseDecimal(input)).toEqual(expected);
  });

  it.each(['', ' ', '.', 'abc', '1,000', '0x10', '1e999', '--1', '1.2.3'])('rejects %j', (input) => {
    expect(parseDecimal(input)).toBeNull();
  });

  it.each([NaN, Infinity, -Infinity])('rejects %s', (input) => {
    expect(parseDecimal(input)).toBeNull();
  });
});

describe('roundHalfAwayFromZero', () => {
  it.each([
    ['1.005', 2, '1.01'],
    ['1.004', 2, '1.00'],
    ['-1.005', 2, '-1.01'],
    ['9.995', 2, '10.00'],
    ['0.5', 0, '1.'],
    ['-0.004', 2, '0.00'],
    ['2.675', 2, '2.68'],
  ])('%s to %i decimals', (input, decimals, expected) => {
    const r = roundHalfAwayFromZero(parseDecimal(input)!, decimals);
    expect(`${r.negative ? '-' : ''}${r.int}.${r.frac}`).toBe(expected);
  });
});

describe('groupThousands', () => {
  it.each([
    ['0', '0'],
    ['999', '999'],
    ['1000', '1,000'],
    ['1234567', '1,234,567'],
  ])('%s', (input, expected) => {
    expect(groupThousands(input)).toBe(expected);
  });
});

describe('toFiniteNumber', () => {
  it.each([
    [5, 5],
    [' 12.5 ', 12.5],
    ['', null],
    ['0x10', null],
    [NaN, null],
    [null, null],
    [undefined, null],
  ])('%j', (input, expected) => {
    expect(toFiniteNumber(input)).toBe(expected);
  });
});
