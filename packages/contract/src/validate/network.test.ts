import { describe, expect, it } from 'vitest';
import {
  ipToNumber,
  numberToIp,
  validateCidr,
  validateIp,
  validateIpRange,
  validatePort,
  validatePortRange,
} from './network.ts';

describe('validateIp', () => {
  it.each(['0.0.0.0', '255.255.255.255', '10.0.0.1', '192.168.1.100', '1.2.3.4', '100.99.200.249'])(
    'accepts %s',
    (ip) => {
      expect(validateIp(ip)).toBeNull();
    },
  );

  it.each([
    '256.0.0.1',
    '1.2.3',
    '1.2.3.4.5',
    '01.2.3.4',
    '1.2.3.00',
    '1.2.3.010',
    '1.2.3.-1',
    '1..2.3',
    '1.2.3.4.',
    'a.b.c.d',
    '1.2.3.4 ',
    ' 1.2.3.4',
    '1.2.3.4/24',
    '::1',
    '１.2.3.4',
  ])('rejects %j', (ip) => {
    expect(validateIp(ip)).toEqual({ key: 'ipInvalid', params: { value: ip } });
  });

  it.each(['', ' ', null, undefined])('requires a value (%j)', (ip) => {
    expect(validateIp(ip)).toEqual({ key: 'required' });
  });
});

describe('ipToNumber / numberToIp', () => {
  it.each<[string, number]>([
    ['0.0.0.0', 0],
    ['0.0.0.1', 1],
    ['0.0.1.0', 256],
    ['10.0.0.1', 167772161],
    ['128.0.0.0', 2147483648], // must stay positive
    ['255.255.255.255', 4294967295],
  ])('%s ↔ %d', (ip, n) => {
    expect(ipToNumber(ip)).toBe(n);
    expect(numberToIp(n)).toBe(ip);
  });

  it('returns null for malformed input', () => {
    expect(ipToNumber('1.2.3.256')).toBeNull();
  });
});

describe('validateIpRange', () => {
  it.each([
    ['10.0.0.1', '10.0.0.2', null],
    ['10.0.0.255', '10.0.1.0', null],
    ['9.255.255.255', '10.0.0.0', null],
    ['127.255.255.255', '128.0.0.0', null],
    // numeric, not string, comparison: '10.0.0.9' > '10.0.0.10' as strings
    ['10.0.0.9', '10.0.0.10', null],
    ['10.0.0.1', '10.0.0.1', { key: 'ipRangeOrder' }],
    ['10.0.0.2', '10.0.0.1', { key: 'ipRangeOrder' }],
    ['10.0.0.10', '10.0.0.9', { key: 'ipRangeOrder' }],
    ['10.0.0.x', '10.0.0.1', { key: 'ipInvalid', params: { value: '10.0.0.x' } }],
    ['10.0.0.1', '10.0.0.256', { key: 'ipInvalid', params: { value: '10.0.0.256' } }],
    ['', '10.0.0.1', { key: 'required' }],
    ['10.0.0.1', null, { key: 'required' }],
  ])('%s → %s', (start, end, expected) => {
    expect(validateIpRange(start, end)).toEqual(expected);
  });
});

describe('validateCidr', () => {
  it.each(['10.0.0.0/24', '0.0.0.0/0', '192.168.1.1/32', '172.16.0.0/12', '10.0.0.1/24', '10.0.0.0/8'])(
    'accepts %s',
    (s) => {
      expect(validateCidr(s)).toBeNull();
    },
  );

  it.each(['10.0.0.0', '10.0.0.0/33', '10.0.0.0/-1', '10.0.0.0/08', '10.0.0.0/', '/24', '10.0.0.256/24', '10.0.0.0/24/1', '10.0.0.0 /24'])(
    'rejects %j',
    (s) => {
      expect(validateCidr(s)).toEqual({ key: 'cidrInvalid' });
    },
  );

  it('requires a value', () => {
    expect(validateCidr('')).toEqual({ key: 'required' });
  });

  it.each([
    ['10.0.0.0/24', null],
    ['10.0.0.1/32', null],
    ['0.0.0.0/0', null],
    ['10.0.0.1/24', { key: 'cidrNotNetwork', params: { network: '10.0.0.0/24' } }],
    ['172.31.255.255/12', { key: 'cidrNotNetwork', params: { network: '172.16.0.0/12' } }],
    ['255.255.255.255/1', { key: 'cidrNotNetwork', params: { network: '128.0.0.0/1' } }],
  ])('requireNetworkAddress: %s', (s, expected) => {
    expect(validateCidr(s, { requireNetworkAddress: true })).toEqual(expected);
  });
});

describe('validatePort', () => {
  it.each<string | number>([1, 80, 65535, '1', '443', '65535'])('accepts %j', (p) => {
    expect(validatePort(p)).toBeNull();
  });

  it.each<string | number>([0, 65536, -1, 80.5, NaN, Infinity, '0', '65536', '080', '80a', '8 0', '-1', '1e3', '80.0', '１'])(
    'rejects %j',
    (p) => {
      expect(validatePort(p)).toEqual({ key: 'portInvalid' });
    },
  );

  it.each(['', ' ', null, undefined])('requires a value (%j)', (p) => {
    expect(validatePort(p)).toEqual({ key: 'required' });
  });
});

describe('validatePortRange', () => {
  it.each([
    ['1000-2000', null],
    ['1-65535', null],
    ['80-81', null],
    ['80-80', { key: 'portRangeOrder' }],
    ['2000-1000', { key: 'portRangeOrder' }],
    ['0-100', { key: 'portInvalid' }],
    ['100-65536', { key: 'portInvalid' }],
    ['080-100', { key: 'portInvalid' }],
    ['1000', { key: 'portRangeInvalid' }],
    ['1000 - 2000', { key: 'portRangeInvalid' }],
    ['1000~2000', { key: 'portRangeInvalid' }],
    ['-1000', { key: 'portRangeInvalid' }],
    ['1000-', { key: 'portRangeInvalid' }],
    ['', { key: 'required' }],
  ])('%j', (s, expected) => {
    expect(validatePortRange(s)).toEqual(expected);
  });
});
