import type { ValidationResult } from './messages.ts';

// Each octet 0-255 without leading zeros: '01' is ambiguous (some parsers read it as octal).
const OCTET = '(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
const IPV4_RE = new RegExp(`^${OCTET}(?:\\.${OCTET}){3}$`);

const isBlank = (s: string | null | undefined): boolean => s === null || s === undefined || s.trim() === '';

export function isIpv4(s: string): boolean {
  return IPV4_RE.test(s);
}

export function validateIp(s: string | null | undefined): ValidationResult {
  if (isBlank(s)) return { key: 'required' };
  return isIpv4(s as string) ? null : { key: 'ipInvalid', params: { value: s as string } };
}

/** Unsigned 32-bit value of a dotted IPv4 address, or null when malformed. */
export function ipToNumber(ip: string): number | null {
  if (!isIpv4(ip)) return null;
  // Multiplication instead of `<<` keeps addresses >= 128.0.0.0 positive.
  return ip.split('.').reduce((acc, octet) => acc * 256 + Number(octet), 0);
}

export function numberToIp(n: number): string {
  return [24, 16, 8, 0].map((shift) => Math.floor(n / 2 ** shift) % 256).join('.');
}

/** The end IP must be strictly after the start IP; a one-address range is an error per spec. */
export function validateIpRange(start: string | null | undefined, end: string | null | undefined): ValidationResult {
  const err = validateIp(start) ?? validateIp(end);
  if (err) return err;
  const a = ipToNumber(start as string) as number;
  const b = ipToNumber(end as string) as number;
  return b > a ? null : { key: 'ipRangeOrder' };
}

const CIDR_RE = /^([^/]+)\/(3[0-2]|[12]?\d)$/;

/**
 * 'a.b.c.d/prefix' with prefix 0-32. With `requireNetworkAddress`, host bits must be
 * zero ('10.0.0.1/24' is rejected and the message suggests '10.0.0.0/24').
 */
export function validateCidr(
  s: string | null | undefined,
  { requireNetworkAddress = false }: { requireNetworkAddress?: boolean } = {},
): ValidationResult {
  if (isBlank(s)) return { key: 'required' };
  const m = CIDR_RE.exec(s as string);
  const ipNum = m ? ipToNumber(m[1]) : null;
  if (!m || ipNum === null) return { key: 'cidrInvalid' };
  if (requireNetworkAddress) {
    const block = 2 ** (32 - Number(m[2]));
    const network = Math.floor(ipNum / block) * block;
    if (network !== ipNum) {
      return { key: 'cidrNotNetwork', params: { network: `${numberToIp(network)}/${m[2]}` } };
    }
  }
  return null;
}

const PORT_RE = /^[1-9]\d{0,4}$/;

export function isPort(p: string | number): boolean {
  if (typeof p === 'number') return Number.isInteger(p) && p >= 1 && p <= 65535;
  return PORT_RE.test(p) && Number(p) <= 65535;
}

export function validatePort(p: string | number | null | undefined): ValidationResult {
  if (p === null || p === undefined || (typeof p === 'string' && p.trim() === '')) return { key: 'required' };
  return isPort(p) ? null : { key: 'portInvalid' };
}

/** 'start-end', both valid ports, end strictly greater (mirrors the IP range rule). */
export function validatePortRange(s: string | null | undefined): ValidationResult {
  if (isBlank(s)) return { key: 'required' };
  const m = /^(\d+)-(\d+)$/.exec(s as string);
  if (!m) return { key: 'portRangeInvalid' };
  if (!isPort(m[1]) || !isPort(m[2])) return { key: 'portInvalid' };
  return Number(m[2]) > Number(m[1]) ? null : { key: 'portRangeOrder' };
}

// ---- IP whitelist entries (open API, docs/open-api.md): IPv4 or IPv6, one address, a start-end range or a CIDR block

export type IpFamily = 4 | 6;
export interface IpValue { family: IpFamily; value: bigint }

const HEX_GROUP = /^[0-9a-f]{1,4}$/i;

/** The 128-bit value of an IPv6 address ('2001:db8::1', '::ffff:10.0.0.1'; no zone index), or null when malformed. */
export function ipv6ToBigInt(ip: string): bigint | null {
  if (!/^[0-9a-fA-F:.]{2,45}$/.test(ip)) return null;
  let tail: number[] = [];
  let s = ip;
  // an IPv4 address in the last 32 bits
  const v4 = /^(.*:)(\d+\.\d+\.\d+\.\d+)$/.exec(ip);
  if (v4) {
    const n = ipToNumber(v4[2]);
    if (n === null) return null;
    tail = [Math.floor(n / 65536), n % 65536];
    s = v4[1].endsWith('::') ? v4[1] : v4[1].slice(0, -1);
  }
  const halves = s.split('::');
  if (halves.length > 2) return null;
  const groupsOf = (part: string) => (part === '' ? [] : part.split(':'));
  const head = groupsOf(halves[0]);
  const rest = halves.length === 2 ? groupsOf(halves[1]) : [];
  if (![...head, ...rest].every((g) => HEX_GROUP.test(g))) return null;
  const given = head.length + rest.length + tail.length;
  if (halves.length === 2 ? given > 7 : given !== 8) return null;
  const groups = [...head.map((g) => parseInt(g, 16)), ...Array(8 - given).fill(0), ...rest.map((g) => parseInt(g, 16)), ...tail];
  if (halves.length === 1 && groups.length !== 8) return null;
  return groups.reduce((acc: bigint, g: number) => (acc << 16n) | BigInt(g), 0n);
}

/** An IPv6 value in its canonical text (RFC 5952: lower case, the longest run of two or more zero groups as '::'). */
export function bigIntToIpv6(v: bigint): string {
  const groups = Array.from({ length: 8 }, (_, i) => Number((v >> BigInt((7 - i) * 16)) & 0xffffn));
  let best = -1;
  let bestLen = 1;
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLen) {
      best = i;
      bestLen = j - i;
    }
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (best < 0) return hex.join(':');
  return `${hex.slice(0, best).join(':')}::${hex.slice(best + bestLen).join(':')}`;
}

/** An IPv4 or IPv6 address as a family and value; an IPv4-mapped IPv6 address (::ffff:a.b.c.d) is the IPv4 address. */
export function parseIp(ip: string): IpValue | null {
  const n = ipToNumber(ip);
  if (n !== null) return { family: 4, value: BigInt(n) };
  const v = ipv6ToBigInt(ip);
  if (v === null) return null;
  if (v >> 32n === 0xffffn) return { family: 4, value: v & 0xffffffffn };
  return { family: 6, value: v };
}

const bitsOf = (f: IpFamily) => (f === 4 ? 32 : 128);
const textOf = (f: IpFamily, v: bigint) => (f === 4 ? numberToIp(Number(v)) : bigIntToIpv6(v));

/** 'address/prefix' of either family, with the block's first and last address; null when it is not a CIDR block. */
export function parseCidrBlock(s: string): { family: IpFamily; prefix: number; from: bigint; to: bigint; network: string } | null {
  const m = /^([^/\s]+)\/(\d{1,3})$/.exec(s);
  if (!m) return null;
  const family: IpFamily = ipToNumber(m[1]) !== null ? 4 : 6;
  const value = addressOf(m[1], family);
  const ip = value === null ? null : { family, value };
  const prefix = Number(m[2]);
  if (!ip || (m[2].length > 1 && m[2].startsWith('0')) || prefix > bitsOf(ip.family)) return null;
  const hostBits = BigInt(bitsOf(ip.family) - prefix);
  const from = (ip.value >> hostBits) << hostBits;
  const to = from + (1n << hostBits) - 1n;
  return { family: ip.family, prefix, from, to, network: `${textOf(ip.family, from)}/${prefix}` };
}

/**
 * A whitelist entry's start: an IPv4 or IPv6 address, or a CIDR block of either family written with its network
 * address (with an end IP, only an address).
 */
export function validateWhitelistStart(start: string | null | undefined, hasEnd = false): ValidationResult {
  if (isBlank(start)) return { key: 'required' };
  const s = (start as string).trim();
  if (s.includes('/')) {
    if (hasEnd) return { key: 'whitelistCidrWithEnd' };
    const block = parseCidrBlock(s);
    if (!block) return { key: 'whitelistIpInvalid', params: { value: s } };
    // host bits set ('10.0.0.1/24') are most likely a typo for the block or for one address: say which block it is
    return addressOf(s.split('/')[0], block.family) === block.from ? null : { key: 'cidrNotNetwork', params: { network: block.network } };
  }
  return parseIp(s) ? null : { key: 'whitelistIpInvalid', params: { value: s } };
}

function addressOf(ip: string, family: IpFamily): bigint | null {
  if (family === 6) return ipv6ToBigInt(ip);
  const n = ipToNumber(ip);
  return n === null ? null : BigInt(n);
}

/** A whitelist entry's end IP: an address of the start's family, after the start. */
export function validateWhitelistEnd(start: string | null | undefined, end: string | null | undefined): ValidationResult {
  if (isBlank(end)) return { key: 'required' };
  const e = parseIp((end as string).trim());
  if (!e || (end as string).includes('/')) return { key: 'whitelistIpInvalid', params: { value: (end as string).trim() } };
  const s = isBlank(start) ? null : parseIp((start as string).trim());
  if (!s) return null;
  if (s.family !== e.family) return { key: 'ipFamilyMismatch' };
  return e.value > s.value ? null : { key: 'ipRangeOrder' };
}

/** The addresses a stored whitelist entry opens (an address, a start-end range or a CIDR block), or null when malformed. */
export function whitelistRange(entry: { startIp: string; endIp: string | null }): { family: IpFamily; from: bigint; to: bigint } | null {
  const start = entry.startIp.trim();
  if (start.includes('/')) {
    const b = parseCidrBlock(start);
    return b && { family: b.family, from: b.from, to: b.to };
  }
  const a = parseIp(start);
  const z = entry.endIp ? parseIp(entry.endIp.trim()) : a;
  if (!a || !z || a.family !== z.family) return null;
  return { family: a.family, from: a.value, to: z.value };
}

/** Whether a client address (IPv4, IPv6 or IPv4-mapped IPv6) lies in one of the entries. */
export function ipInWhitelist(ip: string, entries: { startIp: string; endIp: string | null }[]): boolean {
  const c = parseIp(ip);
  if (!c) return false;
  return entries.some((e) => {
    const r = whitelistRange(e);
    return r !== null && r.family === c.family && c.value >= r.from && c.value <= r.to;
  });
}

/** A valid whitelist address or CIDR block in its canonical text (IPv6 in RFC 5952 form); anything else as given. */
export function canonicalWhitelistIp(s: string): string {
  const t = s.trim();
  if (t.includes('/')) {
    const b = parseCidrBlock(t);
    return b ? b.network : t;
  }
  if (ipToNumber(t) !== null) return t;
  const v = ipv6ToBigInt(t);
  return v === null ? t : bigIntToIpv6(v);
}
