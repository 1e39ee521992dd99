import { describe, expect, it } from 'vitest';
import { QuotaUnit } from '@lynx/contract';
import { quotaText } from './GoodsList.tsx';

describe('quotaText', () => {
  it.each<[number, number, 'zh' | 'en', string]>([
    // data quotas scale like every size shown in the console
    [10240, QuotaUnit.Mb, 'en', '10 GB'],
    [512, QuotaUnit.Mb, 'zh', '512 MB'],
    [1536, QuotaUnit.Mb, 'en', '1.5 GB'],
    [2, QuotaUnit.Gb, 'en', '2 GB'],
    [0.5, QuotaUnit.Gb, 'zh', '512 MB'],
    [2048, QuotaUnit.Gb, 'en', '2 TB'],
    // counts keep their own unit
    [100, QuotaUnit.Items, 'zh', '100 条'],
    [60, QuotaUnit.Minutes, 'en', '60 minutes'],
  ])('%d of unit %d (%s) → %s', (quota, unit, lang, expected) => {
    expect(quotaText(quota, unit, lang)).toBe(expected);
  });
});
