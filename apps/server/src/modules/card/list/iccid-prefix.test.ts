import { describe, it, expect } from 'vitest';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { SQL } from 'drizzle-orm';
import { cards } from '../card-tables.ts';
import { digitPrefix, iccidSearch, nextDigitPrefix } from './iccid-prefix.ts';

const dialect = new PgDialect();
const render = (s: SQL) => dialect.sqlToQuery(s);
const RANGE = '("cards"."iccid" >= $1 and "cards"."iccid" < $2 and "cards"."iccid" ~>=~ $3 and "cards"."iccid" ~<~ $4)';

describe('ICCID prefix as a key range (pure)', () => {
  it.each([
    // prefix, next(prefix) (null: no upper bound)
    ['', null],
    ['8', '9'],
    ['89', '9'],
    ['8986', '8987'],
    ['8989', '899'],
    ['8999', '9'],
    ['1999', '2'],
    ['0', '1'],
    ['09', '1'],
    ['9', null],
    ['99', null],
    ['9999999999999999999', null],
    ['898600', '898601'],
    ['8986039000000019', '898603900000002'],
    // full ICCIDs as prefixes (19 and 20 digits)
    ['8986001234567890123', '8986001234567890124'],
    ['89860012345678901239', '8986001234567890124'],
    ['89860099999999999999', '898601'],
  ] as const)('next(%j) = %j', (p, next) => {
    expect(nextDigitPrefix(p)).toBe(next);
  });

  it('refuses a prefix that is not digits', () => {
    expect(() => nextDigitPrefix('89a')).toThrow();
  });

  it('selects exactly the digit strings that start with the prefix', () => {
    // every digit string of length 0-4 plus long ones around the boundaries, against every prefix of length 0-3;
    // JavaScript compares strings by code unit, as PostgreSQL does for digit strings in any collation
    const values: string[] = [''];
    for (let len = 1; len <= 4; len++) for (let i = 0; i < 10 ** len; i++) values.push(String(i).padStart(len, '0'));
    values.push('89860789999999999999', '8986079000000000000', '89860790000000000000', '89860799999999999999', '89860800000000000000', '99999999999999999999');
    const prefixes = values.filter((v) => v.length <= 3).concat(['8986079', '89860790000000000000', '8986079999999999999']);
    for (const p of prefixes) {
      const next = nextDigitPrefix(p);
      const inRange = values.filter((v) => v >= p && (next === null || v < next));
      expect(inRange, `prefix ${JSON.stringify(p)}`).toEqual(values.filter((v) => v.startsWith(p)));
    }
  });

  it.each([
    // the range twice: default operators (primary key and (x, iccid) b-trees), pattern operators (text_pattern_ops)
    ['8986', RANGE, ['8986', '8987', '8986', '8987']],
    ['8989', RANGE, ['8989', '899', '8989', '899']],
    ['8', RANGE, ['8', '9', '8', '9']],
    ['99', '("cards"."iccid" >= $1 and "cards"."iccid" ~>=~ $2)', ['99', '99']],
    ['', 'true', []],
    // not digits: LIKE with the wildcards taken literally
    ['89%_\\', '"cards"."iccid" like $1', ['89\\%\\_\\\\%']],
    ['abc', '"cards"."iccid" like $1', ['abc%']],
  ] as const)('digitPrefix(%j) is %s', (p, text, params) => {
    const q = render(digitPrefix(cards.iccid, p));
    expect(q.sql).toBe(text);
    expect(q.params).toEqual(params);
  });

  it('searches a full ICCID exactly and anything shorter (or a forced prefix) by range', () => {
    expect(render(iccidSearch(cards.iccid, '8986001234567890123')).params).toEqual(['8986001234567890123']);
    expect(render(iccidSearch(cards.iccid, '8986001234567890123')).sql).toMatch(/^"cards"\."iccid" = \$1$/);
    expect(render(iccidSearch(cards.iccid, '89860012345678901239')).sql).toMatch(/^"cards"\."iccid" = \$1$/);
    expect(render(iccidSearch(cards.iccid, '898600123456789012')).params).toEqual(['898600123456789012', '898600123456789013', '898600123456789012', '898600123456789013']);
    expect(render(iccidSearch(cards.iccid, '8986001234567890123', true)).params).toEqual(['8986001234567890123', '8986001234567890124', '8986001234567890123', '8986001234567890124']);
    expect(render(iccidSearch(cards.iccid, '8986001234567890123', true)).sql).not.toMatch(/like/i);
  });
});
