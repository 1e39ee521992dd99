import { describe, it, expect } from 'vitest';
import { FirewallAddressType, FirewallProtocol, netconfig } from '@lynx/contract';
import { withoutFieldPrefix } from './useFieldSave.ts';

const { validatePortList, normalizePortList, validateAddressValue, addressText, protocolHasPorts } = netconfig;

describe('firewall rules shared by the forms and the server', () => {
  it.each([
    ['', null],
    ['80', null],
    ['80,443,8000-8080', null],
    [' 22 , 8000-8001 ', null],
    ['abc', 'portInvalid'],
    ['0', 'portInvalid'],
    ['65536', 'portInvalid'],
    ['080', 'portInvalid'],
    ['80,,443', 'portInvalid'],
    ['8080-80', 'portRangeOrder'],
    ['80-80', 'portRangeOrder'],
    ['80-', 'portRangeInvalid'],
    ['80,80', 'listDuplicate'],
  ])('ports %j → %s', (ports, key) => {
    expect(validatePortList(ports)?.key ?? null).toBe(key);
  });

  it('allows at most 32 port items and normalises spacing', () => {
    expect(validatePortList(Array.from({ length: 33 }, (_, i) => String(i + 1)).join(','))).toEqual({ key: 'listTooMany', params: { max: 32 } });
    expect(normalizePortList(' 80 , 443 ')).toBe('80,443');
    expect(normalizePortList('  ')).toBeNull();
  });

  it('names the field of a bad address entry (spec §5: four-part IPs, end after start)', () => {
    expect(validateAddressValue({ addressType: FirewallAddressType.Single, ipAddress: '10.0.0.256' })?.field).toBe('ipAddress');
    expect(validateAddressValue({ addressType: FirewallAddressType.Range, startIp: '10.0.0', endIp: '10.0.0.9' })?.field).toBe('startIp');
    expect(validateAddressValue({ addressType: FirewallAddressType.Range, startIp: '10.0.0.9', endIp: '10.0.0.9' })).toEqual({ field: 'endIp', error: { key: 'ipRangeOrder' } });
    expect(validateAddressValue({ addressType: FirewallAddressType.Cidr, ipAddress: '10.0.0.1/24' })?.error).toEqual({ key: 'cidrNotNetwork', params: { network: '10.0.0.0/24' } });
    expect(validateAddressValue({ addressType: FirewallAddressType.Range, startIp: '9.255.255.255', endIp: '10.0.0.0' })).toBeNull();
    expect(addressText({ addressType: FirewallAddressType.Range, startIp: '10.0.0.1', endIp: '10.0.0.9' })).toBe('10.0.0.1-10.0.0.9');
  });

  it('only TCP and UDP take ports', () => {
    expect(FirewallProtocol.values.filter(protocolHasPorts)).toEqual([FirewallProtocol.Tcp, FirewallProtocol.Udp]);
  });

  it('strips the "Field x:" prefix when a server message is shown under its field', () => {
    expect(withoutFieldPrefix('Field ports: End port must be greater than start port')).toBe('End port must be greater than start port');
    expect(withoutFieldPrefix('字段 ports：端口须为 1-65535 的整数')).toBe('端口须为 1-65535 的整数');
    expect(withoutFieldPrefix('A firewall policy with this name already exists')).toBe('A firewall policy with this name already exists');
  });
});
