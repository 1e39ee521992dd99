import { describe, expect, it } from 'vitest';
import { validatePassword, validatePasswordPair } from './password.ts';

const lengthErr = { key: 'passwordLength', params: { min: 8, max: 18 } };

describe('validatePassword', () => {
  it.each([
    'abcdefg1', // exactly 8
    'abcdefghijklmnop12', // exactly 18
    'Demo@2026pass',
    'A1!"#$%&\'()*+,-./',
    'a1:;<=>?@[\\]^_',
    'b2`{|}~xy',
    '1234567a',
  ])('accepts %s', (pw) => {
    expect(validatePassword(pw)).toBeNull();
  });

  it.each([
    ['abcdef1', lengthErr], // 7
    ['abcdefghijklmnopq12', lengthErr], // 19
    ['a1', lengthErr],
    ['abcdefgh', { key: 'passwordWeak' }],
    ['12345678', { key: 'passwordWeak' }],
    ['!@#$%^&*()', { key: 'passwordWeak' }],
    ['abcd 1234', { key: 'passwordChars' }],
    ['abcd1234\t', { key: 'passwordChars' }],
    ['密码abcd1234', { key: 'passwordChars' }],
    ['abcd1234，', { key: 'passwordChars' }], // full-width comma
    ['ａｂｃｄ1234', { key: 'passwordChars' }], // full-width letters
    ['abcd1234é', { key: 'passwordChars' }],
    ['        ', { key: 'passwordChars' }],
    ['', { key: 'required' }],
    [null, { key: 'required' }],
    [undefined, { key: 'required' }],
  ])('%j', (pw, expected) => {
    expect(validatePassword(pw)).toEqual(expected);
  });
});

describe('validatePasswordPair', () => {
  it.each([
    ['abcd1234', 'abcd1234', null],
    ['abcd1234', 'abcd1235', { key: 'passwordMismatch' }],
    ['abcd1234', 'ABCD1234', { key: 'passwordMismatch' }],
    ['abcd1234', '', { key: 'required' }],
    ['abcd1234', null, { key: 'required' }],
    ['short1', 'short1', lengthErr],
    ['', '', { key: 'required' }],
  ])('%j / %j', (pw, confirm, expected) => {
    expect(validatePasswordPair(pw, confirm)).toEqual(expected);
  });
});
