import { describe, expect, it } from 'vitest';
import dayjs from 'dayjs';
import { bill } from '@lynx/contract';
import { billFilters, daysInclusive, keysetNext, keysetPrev, keysetStart, writeOffTabOf } from './shared.tsx';
import { usageText } from './detail/CardLines.tsx';

describe('keyset paging of card lines', () => {
  it('goes forward by the page\'s next key and back through the keys seen, without offsets', () => {
    const p2 = keysetNext(keysetStart, 'k1');
    const p3 = keysetNext(p2, 'k2');
    expect(p2).toEqual({ stack: [undefined], after: 'k1' });
    expect(p3).toEqual({ stack: [undefined, 'k1'], after: 'k2' });
    expect(keysetPrev(p3)).toEqual(p2);
    expect(keysetPrev(p2)).toEqual(keysetStart);
    // the first page has nothing before it; the last page has no next
    expect(keysetPrev(keysetStart)).toBe(keysetStart);
    expect(keysetNext(p3, null)).toBe(p3);
  });
});

describe('the write-off screen\'s tab in the path', () => {
  it.each([
    ['pending', 'pending'], ['done', 'done'], ['overdue', 'overdue'],
    // the numbers the contract uses, as an old link would carry them
    ['1', 'pending'], ['2', 'done'], ['3', 'overdue'],
    [undefined, 'pending'], ['fenrun', 'pending'], ['4', 'pending'],
  ])('%s → %s', (param, name) => expect(writeOffTabOf(param)).toBe(name));

  it('maps the names to the contract\'s tab numbers', () => {
    expect(bill.WriteOffTab.ToWriteOff).toBe(1);
    expect(bill.WriteOffTab.Overdue).toBe(3);
  });
});

describe('bill helpers', () => {
  it.each([
    ['2026-10-01', '2026-10-31', 31],
    ['2026-09-26', '2026-10-25', 30],
    ['2026-02-01', '2026-02-28', 28],
    ['2026-10-05', '2026-10-05', 1],
  ])('%s … %s is %i days, both ends included', (from, to, n) => expect(daysInclusive(from, to)).toBe(n));

  it('turns the picked month into the period key and drops an empty one', () => {
    expect(billFilters({ period: dayjs('2026-10-15'), status: 2 })).toEqual({ periodKey: '2026-10', status: 2 });
    expect(billFilters({ period: null, billNo: 'B1' })).toEqual({ billNo: 'B1' });
  });

  it.each([
    [null, null, '-'],
    [0, null, '0 B'],
    [1_610_612_736, 2_147_483_648, '1.5 GB / 2 GB'],
    [5_242_880, 0, '5 MB'],
  ])('usage %s of quota %s reads %s', (used, quota, text) => expect(usageText(used, quota)).toBe(text));
});
