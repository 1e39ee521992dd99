import { describe, expect, it } from 'vitest';
import { REGIONS, regionName } from './regions.ts';

describe('zone regions in the reader\'s language', () => {
  it.each([
    ['全国', 'en', 'Nationwide'],
    ['上海', 'en', 'Shanghai'],
    [' 内蒙古 ', 'en', 'Inner Mongolia'],
    ['Shanghai', 'zh', '上海'],
    ['hong kong', 'zh', '香港'],
    ['上海', 'zh', '上海'],
    // what is not a region of the catalogue shows as typed
    ['长三角', 'en', '长三角'],
    ['Pudong', 'zh', 'Pudong'],
  ] as const)('%s (%s) → %s', (name, lang, shown) => {
    expect(regionName(name, lang)).toBe(shown);
  });
  it('names every region once in each language', () => {
    expect(new Set(REGIONS.map((r) => r.zh)).size).toBe(REGIONS.length);
    expect(new Set(REGIONS.map((r) => r.en.toLowerCase())).size).toBe(REGIONS.length);
  });
});
