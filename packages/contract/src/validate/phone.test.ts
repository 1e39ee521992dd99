import { describe, expect, it } from 'vitest';
import { validatePhone, validatePhoneList } from './phone.ts';

describe('validatePhone', () => {
  it.each([
    '13800138000',
    '19912345678',
    '15000000000',
    '+8613800138000',
    '+14155552671',
    '+44207946095', // 11 digits
    '+12345678', // 8 digits, the minimum
    '+123456789012345', // 15 digits, the maximum
  ])('accepts %s', (s) => {
    expect(validatePhone(s)).toBeNull();
  });

  it.each([
    '12800138000', // second digit must be 3-9
    '10800138000',
    '1380013800', // 10 digits
    '138001380001', // 12 digits
    '23800138000',
    '+1234567', // 7 digits after +
    '+1234567890123456', // 16 digits after +
    '+0123456789', // country code cannot start with 0
    '8613800138000', // international needs '+'
    '++8613800138000',
    '138-0013-8000',
    '１３８００１３８０００', // full-width digits
    'abc',
  ])('rejects %s', (s) => {
    expect(validatePhone(s)).toEqual({ key: 'phoneInvalid', params: { value: s } });
  });

  it.each(['138 0013 8000', ' 13800138000', '13800138000 ', '+86 13800138000', '13800138000\t', '13800138000\u3000'])(
    'rejects spaces in %j',
    (s) => {
      expect(validatePhone(s)).toEqual({ key: 'noSpaces' });
    },
  );

  it.each(['', '   ', null, undefined])('requires a value (%j)', (s) => {
    expect(validatePhone(s)).toEqual({ key: 'required' });
  });
});

describe('validatePhoneList', () => {
  it.each([
    '13800138000',
    '13800138000;13900139000',
    '13800138000；+14155552671',
    '13800138000;13800138001;13800138002;13800138003;13800138004',
  ])('accepts %s', (s) => {
    expect(validatePhoneList(s)).toBeNull();
  });

  it.each([
    ['', { key: 'required' }],
    ['13800138000; 13900139000', { key: 'noSpaces' }],
    ['13800138000 ;13900139000', { key: 'noSpaces' }],
    ['13800138000;;13900139000', { key: 'listEmptyItem' }],
    ['13800138000;', { key: 'listEmptyItem' }],
    [';13800138000', { key: 'listEmptyItem' }],
    ['13800138000；', { key: 'listEmptyItem' }],
    [
      '13800138000;13800138001;13800138002;13800138003;13800138004;13800138005',
      { key: 'listTooMany', params: { max: 5 } },
    ],
    ['13800138000;13800138000', { key: 'listDuplicate', params: { value: '13800138000' } }],
    ['13800138000；13800138000', { key: 'listDuplicate', params: { value: '13800138000' } }],
    ['13800138000;12345', { key: 'phoneInvalid', params: { value: '12345' } }],
    ['13800138000,13900139000', { key: 'phoneInvalid', params: { value: '13800138000,13900139000' } }],
  ])('%j', (s, expected) => {
    expect(validatePhoneList(s)).toEqual(expected);
  });

  it('honours a custom max', () => {
    expect(validatePhoneList('13800138000;13900139000', { max: 1 })).toEqual({ key: 'listTooMany', params: { max: 1 } });
    expect(validatePhoneList('13800138000', { max: 1 })).toBeNull();
  });
});
