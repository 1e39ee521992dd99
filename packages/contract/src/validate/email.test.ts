import { describe, expect, it } from 'vitest';
import { validateEmail, validateEmailList } from './email.ts';

describe('validateEmail', () => {
  it.each([
    'a@b.co',
    'user.name+tag@example.com',
    'USER@EXAMPLE.COM',
    'o\'brien@mail.example.cn',
    'x_y-z@sub-domain.example.org',
    '12345@qq.com',
  ])('accepts %s', (s) => {
    expect(validateEmail(s)).toBeNull();
  });

  it.each([
    'plain',
    '@example.com',
    'user@',
    'user@example', // no TLD
    'user@example.c', // 1-letter TLD
    'user@@example.com',
    'user@exa_mple.com',
    'user@-example.com',
    'user@example-.com',
    'user@example..com',
    '.user@example.com',
    'user.@example.com',
    'us..er@example.com',
    'user@example.123',
    '用户@example.com',
    'user@例子.com',
    `${'a'.repeat(65)}@example.com`, // local part over 64
    `a@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}.${'e'.repeat(60)}.com`, // over 254
    'a@b.com;c@d.com',
  ])('rejects %s', (s) => {
    expect(validateEmail(s)).toEqual({ key: 'emailInvalid', params: { value: s } });
  });

  it.each(['a @b.co', 'a@b.co ', ' a@b.co'])('rejects spaces in %j', (s) => {
    expect(validateEmail(s)).toEqual({ key: 'noSpaces' });
  });

  it.each(['', ' ', null, undefined])('requires a value (%j)', (s) => {
    expect(validateEmail(s)).toEqual({ key: 'required' });
  });
});

describe('validateEmailList', () => {
  it.each(['a@b.co', 'a@b.co;c@d.co', 'a@b.co；c@d.co', 'a@b.co;b@b.co;c@b.co;d@b.co;e@b.co'])('accepts %s', (s) => {
    expect(validateEmailList(s)).toBeNull();
  });

  it.each([
    ['', { key: 'required' }],
    ['a@b.co; c@d.co', { key: 'noSpaces' }],
    ['a@b.co;;c@d.co', { key: 'listEmptyItem' }],
    ['a@b.co;', { key: 'listEmptyItem' }],
    ['a@b.co;b@b.co;c@b.co;d@b.co;e@b.co;f@b.co', { key: 'listTooMany', params: { max: 5 } }],
    ['a@b.co;A@B.CO', { key: 'listDuplicate', params: { value: 'A@B.CO' } }],
    ['a@b.co;nope', { key: 'emailInvalid', params: { value: 'nope' } }],
  ])('%j', (s, expected) => {
    expect(validateEmailList(s)).toEqual(expected);
  });

  it('honours a custom max', () => {
    expect(validateEmailList('a@b.co;c@d.co', { max: 1 })).toEqual({ key: 'listTooMany', params: { max: 1 } });
  });
});
