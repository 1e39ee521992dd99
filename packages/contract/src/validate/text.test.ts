import { describe, expect, it } from 'vitest';
import { countChars, NOTE_LIMITS, validateCallbackUrl, validateJumpUrl, validateLength, validateRequired } from './text.ts';

describe('NOTE_LIMITS', () => {
  it('matches the spec', () => {
    expect(NOTE_LIMITS).toEqual({ inventoryRemark: 10, short: 20, medium: 40, long: 500 });
  });
});

describe('countChars', () => {
  it.each([
    ['', 0],
    ['abc', 3],
    ['中文备注', 4],
    ['😀', 1], // 2 UTF-16 units
    ['𠮷野家', 3], // CJK extension B, a surrogate pair
  ])('%j → %d', (s, n) => {
    expect(countChars(s)).toBe(n);
  });
});

describe('validateLength', () => {
  const tooLong = (max: number) => ({ key: 'tooLong', params: { max } });
  it.each([
    ['一二三四五六七八九十', NOTE_LIMITS.inventoryRemark, null],
    ['一二三四五六七八九十一', NOTE_LIMITS.inventoryRemark, tooLong(10)],
    // 10 emoji = 20 UTF-16 units but 10 code points.
    ['😀'.repeat(10), NOTE_LIMITS.inventoryRemark, null],
    ['😀'.repeat(11), NOTE_LIMITS.inventoryRemark, tooLong(10)],
    ['a'.repeat(20), NOTE_LIMITS.short, null],
    ['a'.repeat(21), NOTE_LIMITS.short, tooLong(20)],
    ['字'.repeat(40), NOTE_LIMITS.medium, null],
    ['字'.repeat(41), NOTE_LIMITS.medium, tooLong(40)],
    ['x'.repeat(500), NOTE_LIMITS.long, null],
    ['x'.repeat(501), NOTE_LIMITS.long, tooLong(500)],
    ['', 10, null],
    [null, 10, null],
    [undefined, 10, null],
  ])('%j max %d', (s, max, expected) => {
    expect(validateLength(s, max)).toEqual(expected);
  });
});

describe('validateRequired', () => {
  it.each<[unknown]>([[''], ['   '], ['\u3000'], [null], [undefined], [[]], [NaN]])('%j is empty', (v) => {
    expect(validateRequired(v)).toEqual({ key: 'required' });
  });

  it.each<[unknown]>([['a'], [' a '], [0], [false], [[0]], [{}], [new Date()]])('%j is present', (v) => {
    expect(validateRequired(v)).toBeNull();
  });
});

describe('validateJumpUrl', () => {
  it.each([
    'http://example.com',
    'https://example.com/path?q=1#x',
    'HTTPS://EXAMPLE.COM',
    'https://10.0.0.1:8080/portal',
    '{host}',
    '{host}/portal/index.html',
  ])('accepts %s', (s) => {
    expect(validateJumpUrl(s)).toBeNull();
  });

  it.each([
    'example.com',
    'www.example.com',
    'ftp://example.com',
    'http://',
    'https://',
    'http:///path',
    'http:/example.com',
    'javascript:alert(1)',
    '//example.com',
    '{HOST}/portal',
    '{ host }',
    'x{host}',
    'https://exa mple.com',
    ' https://example.com',
  ])('rejects %j', (s) => {
    expect(validateJumpUrl(s)).toEqual({ key: 'jumpUrlInvalid' });
  });

  it.each(['', '  ', null, undefined])('requires a value (%j)', (s) => {
    expect(validateJumpUrl(s)).toEqual({ key: 'required' });
  });
});

describe('validateCallbackUrl (spec §9: one API address)', () => {
  it.each([
    'https://hooks.example.com/cmp',
    'http://10.0.0.1:8080/notify?a=1,b=2',
    'https://hooks.example.com/cmp?next=https://other.example.com',
  ])('accepts one address: %s', (s) => {
    expect(validateCallbackUrl(s)).toBeNull();
  });

  it.each([
    'https://a.example.com/cb;https://b.example.com/cb',
    'https://a.example.com/cb;',
    'https://a.example.com/cb；https://b.example.com/cb',
    'https://a.example.com/cb,https://b.example.com/cb',
    'https://a.example.com/cb, http://b.example.com/cb',
  ])('refuses a list: %s', (s) => {
    expect(validateCallbackUrl(s)).toEqual({ key: 'callbackOneAddress' });
  });

  it('otherwise checks it as an address', () => {
    expect(validateCallbackUrl('ftp://x')).toEqual({ key: 'jumpUrlInvalid' });
    expect(validateCallbackUrl('')).toEqual({ key: 'required' });
  });
});
