import { describe, expect, it } from 'vitest';
import { formatDuration, formatDurationBetween } from './duration.ts';

describe('formatDuration', () => {
  it.each<[number | string | null | undefined, string, string]>([
    // the brief's example: two units, the larger first
    [2 * 3600 + 43 * 60, '2 h 43 min', '2小时43分'],
    // truncated, never rounded up: 2 h 43 min 59 s has not lasted 2 h 44 min
    [2 * 3600 + 43 * 60 + 59, '2 h 43 min', '2小时43分'],
    // a zero smaller unit is left out
    [7200, '2 h', '2小时'],
    [7200 + 59, '2 h', '2小时'],
    // minutes alone read 分钟 in Chinese; with seconds 分
    [43 * 60, '43 min', '43分钟'],
    [125, '2 min 5 s', '2分5秒'],
    [60, '1 min', '1分钟'],
    [59, '59 s', '59秒'],
    [1, '1 s', '1秒'],
    [0.4, '0 s', '0秒'],
    [0, '0 s', '0秒'],
    // days and hours; minutes beyond two units are dropped
    [86_400 + 2 * 3600 + 5 * 60, '1 d 2 h', '1天2小时'],
    [3 * 86_400, '3 d', '3天'],
    [3 * 86_400 + 59 * 60, '3 d', '3天'],
    [40 * 86_400, '40 d', '40天'],
    // an hour and a few seconds: the second unit is minutes (zero), so only the hour shows
    [3600 + 7, '1 h', '1小时'],
    ['9780', '2 h 43 min', '2小时43分'],
    [-1, '-', '-'],
    [Number.NaN, '-', '-'],
    [Number.POSITIVE_INFINITY, '-', '-'],
    [null, '-', '-'],
    [undefined, '-', '-'],
    ['', '-', '-'],
    ['abc', '-', '-'],
  ])('%s s → %s / %s', (seconds, en, zh) => {
    expect(formatDuration(seconds, 'en')).toBe(en);
    expect(formatDuration(seconds, 'zh')).toBe(zh);
  });

  it('English has no CJK and Chinese has no Latin unit letters', () => {
    for (const s of [1, 59, 61, 3600, 3661, 86_400, 90_061, 1_000_000]) {
      expect(formatDuration(s, 'en')).not.toMatch(/[\u4e00-\u9fff]/);
      expect(formatDuration(s, 'zh')).not.toMatch(/[a-z]/i);
    }
  });
});

describe('formatDurationBetween', () => {
  it('measures from one instant to another', () => {
    expect(formatDurationBetween('2026-11-20T08:00:00Z', '2026-11-20T10:43:30Z', 'en')).toBe('2 h 43 min');
    expect(formatDurationBetween(new Date('2026-11-20T08:00:00Z'), new Date('2026-11-21T09:00:00Z'), 'zh')).toBe('1天1小时');
  });
  it('a missing end or start is a dash; an end before the start counts as zero', () => {
    expect(formatDurationBetween(null, '2026-11-20T10:00:00Z', 'en')).toBe('-');
    expect(formatDurationBetween('2026-11-20T10:00:00Z', undefined, 'en')).toBe('-');
    expect(formatDurationBetween('2026-11-20T10:00:00Z', '2026-11-20T09:00:00Z', 'en')).toBe('0 s');
    expect(formatDurationBetween('not a date', '2026-11-20T09:00:00Z', 'en')).toBe('-');
  });
});
