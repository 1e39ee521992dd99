import { describe, expect, it } from 'vitest';
import { validateAmount, validateProportion, type AmountOptions } from './number.ts';

describe('validateAmount', () => {
  it.each<[number | string, AmountOptions | undefined]>([
    [1, undefined],
    ['1', undefined],
    ['0.01', undefined],
    [0.01, undefined],
    ['12.5', undefined],
    ['1234567.89', undefined],
    [' 3.14 ', undefined],
    ['1.500', undefined], // trailing zeros do not add precision
    [0, { allowZero: true }],
    ['0.00', { allowZero: true }],
    ['5', { min: 5, max: 5 }],
    ['1.234', { maxDecimals: 3 }],
    [1e21, undefined],
  ])('accepts %j %j', (v, opts) => {
    expect(validateAmount(v, opts)).toBeNull();
  });

  it.each<[number | string | null | undefined, AmountOptions | undefined, object]>([
    ['', undefined, { key: 'required' }],
    ['  ', undefined, { key: 'required' }],
    [null, undefined, { key: 'required' }],
    [undefined, undefined, { key: 'required' }],
    [NaN, undefined, { key: 'amountInvalid' }],
    [Infinity, undefined, { key: 'amountInvalid' }],
    ['abc', undefined, { key: 'amountInvalid' }],
    ['1e3', undefined, { key: 'amountInvalid' }],
    ['.5', undefined, { key: 'amountInvalid' }],
    ['5.', undefined, { key: 'amountInvalid' }],
    ['1,000', undefined, { key: 'amountInvalid' }],
    ['+1', undefined, { key: 'amountInvalid' }],
    ['0x10', undefined, { key: 'amountInvalid' }],
    ['¥10', undefined, { key: 'amountInvalid' }],
    ['-1', undefined, { key: 'amountNegative' }],
    [-0.01, undefined, { key: 'amountNegative' }],
    ['1.234', undefined, { key: 'amountDecimals', params: { max: 2 } }],
    [1.005, undefined, { key: 'amountDecimals', params: { max: 2 } }],
    [0.1 + 0.2, undefined, { key: 'amountDecimals', params: { max: 2 } }],
    ['1.5', { maxDecimals: 0 }, { key: 'amountDecimals', params: { max: 0 } }],
    [0, undefined, { key: 'amountZero' }],
    ['0', undefined, { key: 'amountZero' }],
    ['0.00', undefined, { key: 'amountZero' }],
    ['-0', undefined, { key: 'amountZero' }],
    ['0.99', { min: 1 }, { key: 'amountMin', params: { min: 1 } }],
    ['100.01', { max: 100 }, { key: 'amountMax', params: { max: 100 } }],
    [0, { allowZero: true, min: 0.01 }, { key: 'amountMin', params: { min: 0.01 } }],
  ])('%j %j', (v, opts, expected) => {
    expect(validateAmount(v, opts)).toEqual(expected);
  });
});

describe('validateProportion', () => {
  it.each<number | string>([0, '0', 100, '100', '100.00', 50.5, '33.33', '0.01', '99.99'])('accepts %j', (v) => {
    expect(validateProportion(v)).toBeNull();
  });

  it.each<number | string>(['100.01', 101, '-1', -0.01, '33.333', 'abc', NaN, '50%'])('rejects %j', (v) => {
    expect(validateProportion(v)).toEqual({ key: 'proportionInvalid' });
  });

  it.each(['', null, undefined])('requires a value (%j)', (v) => {
    expect(validateProportion(v)).toEqual({ key: 'required' });
  });
});
