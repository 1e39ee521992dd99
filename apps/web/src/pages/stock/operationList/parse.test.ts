import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import i18n, { ensureLanguage } from '../../../locales/i18n.ts';
import { operationText } from '../../card/batchoperate/scope.ts';
import { parseIccids, parseInRows } from './OpModal.tsx';
import { stockBatchPath } from './shared.tsx';

describe('stock operation input', () => {
  it('reads received rows: ICCID,IMSI,MSISDN,SN with commas, tabs, spaces or full-width commas; blank lines skipped', () => {
    expect(parseInRows('89860000000000000001,460001234567890,1064912345678,SN-1\n\n 89860000000000000002\t460001234567891 \n89860000000000000003，，1064900000000')).toEqual([
      { iccid: '89860000000000000001', imsi: '460001234567890', msisdn: '1064912345678', sn: 'SN-1' },
      { iccid: '89860000000000000002', imsi: '460001234567891' },
      { iccid: '89860000000000000003', msisdn: '1064900000000' },
    ]);
  });
  it('reads ICCIDs one per line or separated', () => {
    expect(parseIccids('1\n2, 3;4  5')).toEqual(['1', '2', '3', '4', '5']);
    expect(parseIccids('  \n ')).toEqual([]);
  });
});

describe('stock batches on the card batch screens', () => {
  beforeAll(async () => {
    await ensureLanguage('zh');
    await ensureLanguage('en');
  });
  afterAll(async () => {
    await i18n.changeLanguage('zh');
  });
  it('names the operation of types 20-23 in both languages, with the stock-in operator', async () => {
    const b = (type: number, params: Record<string, unknown> = {}) => ({ type, params } as Parameters<typeof operationText>[0]);
    await i18n.changeLanguage('zh');
    expect(operationText(b(20, { operatorId: 1 }), i18n.t)).toBe('入库（中国移动）');
    expect(operationText(b(21), i18n.t)).toBe('库存配卡');
    await i18n.changeLanguage('en');
    expect(operationText(b(20, { operatorId: 1 }), i18n.t)).toBe('Stock in (China Mobile)');
    expect([22, 23].map((t) => operationText(b(t), i18n.t))).toEqual(['Stock out', 'Stock scrap']);
  });
  it('opens a stock batch on the stock operations screen, any other on its own', () => {
    expect(stockBatchPath({ type: 21, batchId: 'b1' })).toBe('/stock/operationList/detail/b1');
    expect(stockBatchPath({ type: 1, batchId: 'b1' })).toBeNull();
  });
});
