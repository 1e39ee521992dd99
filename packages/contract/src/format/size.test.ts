import { describe, expect, it } from 'vitest';
import { formatSize, formatSizeFromMB, parseSize } from './size.ts';

describe('formatSize', () => {
  it.each<[number | string | null | undefined, string]>([
    [0, '0.00 B'],
    [1, '1.00 B'],
    [1023, '1023.00 B'],
    [1024, '1.00 KB'],
    [1536, '1.50 KB'],
    [1024 ** 2, '1.00 MB'],
    [1.5 * 1024 ** 3, '1.50 GB'],
    [1024 ** 4, '1.00 TB'],
    [1024 ** 5, '1.00 PB'],
    // PB is the top unit: larger values stay in PB.
    [2048 * 1024 ** 5, '2048.00 PB'],
    // Would round to '1024.00 KB' without the carry to the next unit.
    [1024 * 1024 - 1, '1.00 MB'],
    [1_536_000, '1.46 MB'],
    ['1536', '1.50 KB'],
    [-1536, '-1.50 KB'],
    [null, '-'],
    [undefined, '-'],
    ['', '-'],
    [NaN, '-'],
    ['big', '-'],
  ])('%j → %s', (input, expected) => {
    expect(formatSize(input)).toBe(expected);
  });
});

describe('formatSizeFromMB', () => {
  it.each<[number | string | null | undefined, string]>([
    [0, '0.00 B'],
    [1, '1.00 MB'],
    [0.5, '512.00 KB'],
    [1536, '1.50 GB'],
    ['2048', '2.00 GB'],
    [null, '-'],
    ['x', '-'],
  ])('%j → %s', (input, expected) => {
    expect(formatSizeFromMB(input)).toBe(expected);
  });
});

describe('parseSize', () => {
  it.each<[string, number]>([
    ['1.5 GB', 1.5 * 1024 ** 3],
    ['1.5GB', 1.5 * 1024 ** 3],
    ['512k', 512 * 1024],
    ['10 MiB', 10 * 1024 ** 2],
    ['2048', 2048],
    ['100 B', 100],
    ['1 tb', 1024 ** 4],
    ['1 PB', 1024 ** 5],
    ['.5 KB', 512],
    ['1.3 B', 1],
  ])('%s → %d', (input, expected) => {
    expect(parseSize(input)).toBe(expected);
  });

  it.each(['', 'GB', '-1 KB', '1 XB', '1.5 G B', '1,5 GB', 'abc'])('rejects %j', (input) => {
    expect(parseSize(input)).toBeNull();
  });

  it('rejects non-strings', () => {
    expect(parseSize(null)).toBeNull();
    expect(parseSize(undefined)).toBeNull();
  });

  it('round-trips formatSize', () => {
    expect(formatSize(parseSize('1.5 GB'))).toBe('1.50 GB');
  });
});
