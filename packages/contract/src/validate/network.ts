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
