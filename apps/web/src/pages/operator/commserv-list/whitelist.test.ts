import { describe, it, expect } from 'vitest';
import { addWhitelistEntries, splitWhitelistInput } from './whitelist.ts';

const ips = (n: number) => Array.from({ length: n }, (_, i) => `10.0.${Math.floor(i / 200)}.${(i % 200) + 1}`);

describe('whitelist editor input', () => {
  it.each([
    ['a.example.com', ['a.example.com']],
    [' a.example.com ;b.example.com；10.0.0.1,  10.0.0.0/8\n*.x.example.cn、8.8.8.8', ['a.example.com', 'b.example.com', '10.0.0.1', '10.0.0.0/8', '*.x.example.cn', '8.8.8.8']],
    ['  \n ;; ', []],
  ])('splits %j', (text, want) => {
    expect(splitWhitelistInput(text)).toEqual(want);
  });

  it('adds valid domain names, addresses and CIDRs', () => {
    expect(addWhitelistEntries(['a.example.com'], '10.1.2.3 192.168.0.0/16 api.iot.example.cn')).toEqual({
      next: ['a.example.com', '10.1.2.3', '192.168.0.0/16', 'api.iot.example.cn'], error: null,
    });
  });

  it.each(['256.0.0.1', '10.0.0.0/33', 'http://a.example.com', 'localhost', '1.2.3', 'a_b.example.com', '-a.example.com'])('refuses %s and adds nothing', (bad) => {
    expect(addWhitelistEntries(['a.example.com'], `b.example.com ${bad}`)).toEqual({ next: ['a.example.com'], error: { kind: 'invalid', value: bad } });
  });

  it('refuses duplicates against the list and within the input, case-insensitively', () => {
    expect(addWhitelistEntries(['API.example.com'], 'api.example.COM').error).toEqual({ kind: 'duplicate', value: 'api.example.COM' });
    expect(addWhitelistEntries([], '10.0.0.1 10.0.0.1').error).toEqual({ kind: 'duplicate', value: '10.0.0.1' });
  });

  it('holds 32 entries and refuses the 33rd', () => {
    const full = addWhitelistEntries(ips(31), '172.16.0.1');
    expect(full.error).toBeNull();
    expect(full.next).toHaveLength(32);
    expect(addWhitelistEntries(full.next, '172.16.0.2')).toEqual({ next: full.next, error: { kind: 'tooMany', max: 32, count: 33 } });
    expect(addWhitelistEntries(ips(30), '172.16.0.1 172.16.0.2 172.16.0.3').error).toEqual({ kind: 'tooMany', max: 32, count: 33 });
  });
});
