import { describe, expect, it } from 'vitest';
import { ProfitShareMethod, retail } from '@lynx/contract';
import { formatRecordValue } from './format.ts';

describe('formatRecordValue', () => {
  it.each([
    ['price', '1234.50', 'zh', '1,234.50'],
    ['price', '0.10', 'en', '0.10'],
    ['price', '123456789012.34', 'en', '123,456,789,012.34'],
    ['price', 1234.5, 'zh', '1,234.50'],
    ['crossedPrice', '19.99', 'en', '19.99'],
    ['price', 'abc', 'en', '-'],
    ['crossedPrice', null, 'en', '-'],
    ['taxRate', 6, 'en', '6'],
    ['dividendProportion', 15.5, 'en', '15.5'],
    ['status', retail.RetailStatus.OffSale, 'zh', '下架'],
    ['status', retail.RetailStatus.OnSale, 'en', 'On sale'],
    ['dividendMethod', ProfitShareMethod.ByTurnover, 'en', 'By turnover'],
    ['custId', { id: 100001, name: '智行物流' }, 'zh', '智行物流 (ID 100001)'],
    ['description', '', 'en', '-'],
    ['retailName', 'Fleet 10G', 'en', 'Fleet 10G'],
  ] as const)('%s %j (%s) → %s', (field, value, lang, expected) => {
    expect(formatRecordValue(field, value, lang)).toBe(expected);
  });
});
