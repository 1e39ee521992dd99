import { describe, it, expect } from 'vitest';
import { parseIccids, parseInRows } from './OpModal.tsx';

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
