import { describe, expect, it } from 'vitest';
import {
  bigIntToIpv6,
  canonicalWhitelistIp,
  ipInWhitelist,
  ipToNumber,
  ipv6ToBigInt,
  parseIp,
  validateWhitelistEnd,
  validateWhitelistStart,
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

describe('IP whitelist entries (IPv4 and IPv6)', () => {
  it.each([
    ['::', 0n],
    ['::1', 1n],
    ['2001:db8::1', 0x20010db8000000000000000000000001n],
    ['2001:DB8:0:0:0:0:0:1', 0x20010db8000000000000000000000001n],
    ['fe80::1:2', 0xfe800000000000000000000000010002n],
    ['::ffff:10.0.0.1', 0xffff0a000001n],
    ['1:2:3:4:5:6:1.2.3.4', 0x00010002000300040005000601020304n],
    ['ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', (1n << 128n) - 1n],
  ])('reads the IPv6 address %s', (text, value) => {
    expect(ipv6ToBigInt(text)).toBe(value);
  });

  it.each(['', ':', '1::2::3', '1:2:3:4:5:6:7:8:9', '12345::1', '2001:db8::g', ':1:2:3:4:5:6:7', '1:2:3:4:5:6:7:', '::1.2.3', '::256.0.0.1', 'fe80::1%eth0', '1:2:3:4:5:6:7'])(
    'refuses the IPv6 text %j',
    (text) => {
      expect(ipv6ToBigInt(text)).toBeNull();
    },
  );

  it('writes IPv6 in canonical form (RFC 5952)', () => {
    expect(bigIntToIpv6(0n)).toBe('::');
    expect(bigIntToIpv6(1n)).toBe('::1');
    expect(bigIntToIpv6(ipv6ToBigInt('2001:0DB8:0000:0000:0001:0000:0000:0001')!)).toBe('2001:db8::1:0:0:1');
    expect(bigIntToIpv6(ipv6ToBigInt('2001:db8:0:1:1:1:1:1')!)).toBe('2001:db8:0:1:1:1:1:1');
    expect(canonicalWhitelistIp(' 2001:DB8::0:7 ')).toBe('2001:db8::7');
    expect(canonicalWhitelistIp('2001:db8:aa::/48')).toBe('2001:db8:aa::/48');
    expect(canonicalWhitelistIp('10.0.0.0/8')).toBe('10.0.0.0/8');
  });

  it('an IPv4-mapped IPv6 address is the IPv4 address', () => {
    expect(parseIp('::ffff:192.0.2.1')).toEqual({ family: 4, value: BigInt(ipToNumber('192.0.2.1')!) });
    expect(parseIp('::FFFF:c000:0201')).toEqual({ family: 4, value: BigInt(ipToNumber('192.0.2.1')!) });
    expect(parseIp('2001:db8::1')).toMatchObject({ family: 6 });
  });

  it.each([
    ['10.0.0.1', false, null],
    ['2001:db8::1', false, null],
    ['10.0.0.0/24', false, null],
    ['0.0.0.0/0', false, null],
    ['2001:db8::/32', false, null],
    ['::/0', false, null],
    ['2001:db8::1/128', false, null],
    ['10.0.0.1/24', false, { key: 'cidrNotNetwork', params: { network: '10.0.0.0/24' } }],
    ['2001:db8::1/32', false, { key: 'cidrNotNetwork', params: { network: '2001:db8::/32' } }],
    ['10.0.0.0/33', false, { key: 'whitelistIpInvalid', params: { value: '10.0.0.0/33' } }],
    ['2001:db8::/129', false, { key: 'whitelistIpInvalid', params: { value: '2001:db8::/129' } }],
    ['10.0.0.0/024', false, { key: 'whitelistIpInvalid', params: { value: '10.0.0.0/024' } }],
    ['10.0.0.0/24', true, { key: 'whitelistCidrWithEnd' }],
    ['host.example', false, { key: 'whitelistIpInvalid', params: { value: 'host.example' } }],
    ['', false, { key: 'required' }],
  ])('start %j (with an end: %s)', (start, hasEnd, result) => {
    expect(validateWhitelistStart(start, hasEnd)).toEqual(result);
  });

  it.each([
    ['10.0.0.1', '10.0.0.9', null],
    ['fd00::1', 'fd00::ff', null],
    ['10.0.0.9', '10.0.0.1', { key: 'ipRangeOrder' }],
    ['fd00::1', 'fd00::1', { key: 'ipRangeOrder' }],
    ['10.0.0.1', 'fd00::1', { key: 'ipFamilyMismatch' }],
    ['10.0.0.1', '10.0.0.0/24', { key: 'whitelistIpInvalid', params: { value: '10.0.0.0/24' } }],
  ])('range %s - %s', (start, end, result) => {
    expect(validateWhitelistEnd(start, end)).toEqual(result);
  });

  it('matches clients against addresses, ranges and blocks of their own family', () => {
    const entries = [
      { startIp: '10.1.0.1', endIp: '10.1.0.9' },
      { startIp: '203.0.113.0/24', endIp: null },
      { startIp: '2001:db8:aa::/48', endIp: null },
      { startIp: 'fd00::10', endIp: 'fd00::1f' },
    ];
    for (const ip of ['10.1.0.1', '10.1.0.9', '::ffff:10.1.0.5', '203.0.113.255', '::ffff:203.0.113.0', '2001:db8:aa::', '2001:db8:aa:ffff:ffff:ffff:ffff:ffff', 'fd00::1f']) {
      expect(ipInWhitelist(ip, entries), ip).toBe(true);
    }
    for (const ip of ['10.1.0.10', '203.0.114.0', '2001:db8:ab::', 'fd00::20', '::a01:5', 'nonsense']) {
      expect(ipInWhitelist(ip, entries), ip).toBe(false);
    }
  });
});
