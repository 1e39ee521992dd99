import { describe, expect, it } from 'vitest';
import { formatSize, formatSizeFromMB, formatSizeIn, parseSize, type SizeUnit } from './size.ts';

describe('formatSize', () => {
  it.each<[number | string | null | undefined, string]>([
    [0, '0 B'],
    [1, '1 B'],
    [1023, '1,023 B'],
    [1000, '1,000 B'],
    [999, '999 B'],
    [1024, '1 KB'],
    [1536, '1.5 KB'],
    [1024 ** 2, '1 MB'],
    [512 * 1024 ** 2, '512 MB'],
    [1.5 * 1024 ** 3, '1.5 GB'],
    [10 * 1024 ** 3, '10 GB'],
    [1.25 * 1024 ** 3, '1.25 GB'],
    // two decimals at most, rounded half away from zero
    [1.005 * 1024 ** 3, '1.01 GB'],
    [1_536_000, '1.46 MB'],
    // 1.1 rounds to 1.10, the trailing zero goes
    [1.1 * 1024 ** 2, '1.1 MB'],
    [1024 ** 4, '1 TB'],
    [1024 ** 5, '1 PB'],
    // PB is the top unit: larger values stay in PB, grouped.
    [2048 * 1024 ** 5, '2,048 PB'],
    // Would round to '1024 KB' without the carry to the next unit.
    [1024 * 1024 - 1, '1 MB'],
    ['1536', '1.5 KB'],
    [-1536, '-1.5 KB'],
    [-0.001, '0 B'],
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
    [0, '0 B'],
    [1, '1 MB'],
    [0.5, '512 KB'],
    [512, '512 MB'],
    [1000, '1,000 MB'],
    [1536, '1.5 GB'],
    [10240, '10 GB'],
    ['2048', '2 GB'],
    [1024 * 1024, '1 TB'],
    [null, '-'],
    ['x', '-'],
  ])('%j → %s', (input, expected) => {
    expect(formatSizeFromMB(input)).toBe(expected);
  });
});

describe('formatSizeIn', () => {
  it.each<[number | string | null | undefined, SizeUnit, string]>([
    [2048, 'B', '2 KB'],
    [100, 'KB', '100 KB'],
    [2048, 'KB', '2 MB'],
    [10240, 'MB', '10 GB'],
    [2, 'GB', '2 GB'],
    [0.5, 'TB', '512 GB'],
    [0, 'KB', '0 B'],
    [null, 'KB', '-'],
  ])('%j %s → %s', (input, unit, expected) => {
    expect(formatSizeIn(input, unit)).toBe(expected);
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

  it.each(['1.5 GB', '10 GB', '512 MB', '1 KB'])('round-trips %s through formatSize', (s) => {
    expect(formatSize(parseSize(s))).toBe(s);
  });
});
