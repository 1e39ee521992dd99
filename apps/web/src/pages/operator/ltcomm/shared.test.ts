import { describe, expect, it } from 'vitest';
import type { TFunction } from 'i18next';
import { dataLimitText } from './shared.ts';

const t = ((key: string) => key) as unknown as TFunction;

describe('dataLimitText', () => {
  it.each<[number | null, string]>([
    [1024, '1 GB'],
    [10240, '10 GB'],
    [512, '512 MB'],
    [1536, '1.5 GB'],
    [0, '0 B'],
    [null, 'netconfig.ltcomm.unlimited'],
  ])('%j MB → %s', (mb, expected) => {
    expect(dataLimitText(mb, t)).toBe(expected);
  });
});
