import { describe, expect, it } from 'vitest';
import { splitList, validateDelimitedList } from './list.ts';

describe('splitList', () => {
  it.each<[string, string[]]>([
    ['', []],
    ['a', ['a']],
    ['a;b', ['a', 'b']],
    ['a；b;c', ['a', 'b', 'c']],
    ['a;;b', ['a', '', 'b']],
    ['a;', ['a', '']],
    [';', ['', '']],
  ])('%j', (input, expected) => {
    expect(splitList(input)).toEqual(expected);
  });
});

describe('validateDelimitedList', () => {
  const rule = {
    max: 3,
    validateItem: (s: string) => (/^[a-z]+$/.test(s) ? null : { key: 'phoneInvalid' as const, params: { value: s } }),
    identity: (s: string) => s.slice(0, 2),
  };

  it.each([
    ['ab;cd', null],
    ['ab', null],
    ['', { key: 'required' }],
    [null, { key: 'required' }],
    ['ab; cd', { key: 'noSpaces' }],
    ['ab;;cd', { key: 'listEmptyItem' }],
    ['a;b;c;d', { key: 'listTooMany', params: { max: 3 } }],
    ['ab;X', { key: 'phoneInvalid', params: { value: 'X' } }],
    // identity() decides what counts as a duplicate.
    ['abc;abd', { key: 'listDuplicate', params: { value: 'abd' } }],
  ])('%j', (input, expected) => {
    expect(validateDelimitedList(input, rule)).toEqual(expected);
  });
});
