// Enums, limits and whitelist rules of communication services (issue 4; spec §3, §5, §9), shared by server and console.
import { defineEnum } from './define.ts';

/** Communication service type (spec §3). */
export const CommServType = defineEnum({
  Data: { value: 1, zh: '数据', en: 'Data' },
  Voice: { value: 2, zh: '语音', en: 'Voice' },
  Sms: { value: 3, zh: '短信', en: 'SMS' },
});

export const CommServStatus = defineEnum({
  Enabled: { value: 1, zh: '启用', en: 'Enabled' },
  Disabled: { value: 2, zh: '停用', en: 'Disabled' },
});

/** Directional flag: a directional service only reaches the addresses of its whitelist. */
export const CommServDirectional = defineEnum({
  No: { value: 0, zh: '非定向', en: 'Non-directional' },
  Yes: { value: 1, zh: '定向', en: 'Directional' },
});

/** Spec §9: at most 32 domain names / addresses per service; priority levels 1-10. */
export const COMMSERV_WHITELIST_MAX = 32;
export const COMMSERV_PRIORITY_MIN = 1;
export const COMMSERV_PRIORITY_MAX = 10;
/** QoS value ranges: QCI 1-9 (3GPP TS 23.203 standardised QCIs), ARP priority level 1-15. */
export const QOS_QCI_MIN = 1;
export const QOS_QCI_MAX = 9;
export const QOS_ARP_MIN = 1;
export const QOS_ARP_MAX = 15;
/** Bit rates in kbps: up to 10 Gbit/s. */
export const QOS_KBPS_MAX = 10_000_000;

const OCTET = '(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
const IPV4 = `${OCTET}(?:\\.${OCTET}){3}`;
const IPV4_RE = new RegExp(`^${IPV4}$`);
const CIDR_RE = new RegExp(`^${IPV4}/(?:3[0-2]|[12]?\\d)$`);
// RFC 1123 host names: labels of letters, digits and inner hyphens, at least two labels, a letter TLD;
// a leading '*.' allows a wildcard for every sub-domain.
const LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';
const DOMAIN_RE = new RegExp(`^(?:\\*\\.)?(?:${LABEL}\\.)+[A-Za-z][A-Za-z0-9-]{0,61}[A-Za-z0-9]$`);

export type WhitelistEntryKind = 'domain' | 'ipv4' | 'cidr';

/** What a whitelist entry is, or null when it is neither a domain name, an IPv4 address nor an IPv4 CIDR. */
export function whitelistEntryKind(raw: string): WhitelistEntryKind | null {
  const s = raw.trim();
  if (IPV4_RE.test(s)) return 'ipv4';
  if (CIDR_RE.test(s)) return 'cidr';
  // all-numeric dotted strings such as 300.1.1.1 are broken addresses, not domain names
  if (/^[\d.]+$/.test(s)) return null;
  if (s.length <= 253 && DOMAIN_RE.test(s)) return 'domain';
  return null;
}

/** Entries compare case-insensitively (domain names are case-insensitive). */
export const whitelistIdentity = (s: string) => s.trim().toLowerCase();

export type WhitelistProblem =
  | { reason: 'invalid'; index: number; value: string }
  | { reason: 'duplicate'; index: number; value: string }
  | { reason: 'tooMany'; index: number; value: string; max: number };

/** The first problem of a whitelist (entries in order), or null when it is valid. */
export function whitelistProblem(entries: readonly string[]): WhitelistProblem | null {
  const seen = new Set<string>();
  for (let i = 0; i < entries.length; i++) {
    const value = entries[i];
    if (i >= COMMSERV_WHITELIST_MAX) return { reason: 'tooMany', index: i, value, max: COMMSERV_WHITELIST_MAX };
    if (!whitelistEntryKind(value)) return { reason: 'invalid', index: i, value };
    const id = whitelistIdentity(value);
    if (seen.has(id)) return { reason: 'duplicate', index: i, value };
    seen.add(id);
  }
  return null;
}

/** An http:// or https:// URL with a host (redirection addresses). */
export function isHttpUrl(s: string): boolean {
  if (!/^https?:\/\//i.test(s) || /\s/.test(s)) return false;
  try {
    const u = new URL(s);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname.length > 0;
  } catch {
    return false;
  }
}
