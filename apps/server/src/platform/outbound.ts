// Outbound connections to addresses a customer typed (webhook callback addresses, SFTP push servers): the platform
// must not be made to reach its own network on a customer's behalf (server-side request forgery). Such a connection
// resolves the host once, refuses it when any address is loopback, private, link-local, carrier-grade NAT, multicast
// or otherwise not public, and connects to the address it checked, so a DNS answer cannot change in between.
//
// CMP_OUTBOUND_ALLOW_PRIVATE=on allows them (a private deployment whose receivers sit on the same network); it is the
// default outside production, where the tests' receivers and SFTP servers listen on 127.0.0.1.
import dns from 'node:dns';
import net from 'node:net';

/** The error code of a refused address (webhook attempt notes, SFTP push errors). */
export const PRIVATE_ADDRESS = 'EPRIVATEADDR';

export const privateOutboundAllowed = (env: NodeJS.ProcessEnv = process.env): boolean =>
  env.CMP_OUTBOUND_ALLOW_PRIVATE ? env.CMP_OUTBOUND_ALLOW_PRIVATE === 'on' : env.NODE_ENV !== 'production';

const V4_BLOCKS: [string, number][] = [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.88.99.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24],
  ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
];
const V6_BLOCKS: [string, number][] = [
  ['::', 128], ['::1', 128], ['64:ff9b::', 96], ['100::', 64], ['2001:db8::', 32], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8],
];
const blocked = new net.BlockList();
for (const [a, p] of V4_BLOCKS) blocked.addSubnet(a, p, 'ipv4');
for (const [a, p] of V6_BLOCKS) blocked.addSubnet(a, p, 'ipv6');

/** Whether an IP address is one a customer's address must not lead to (an IPv4-mapped IPv6 address as its IPv4). */
export function isNonPublicAddress(ip: string): boolean {
  const family = net.isIP(ip);
  if (family === 0) return true;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return blocked.check(mapped[1], 'ipv4');
  return blocked.check(ip, family === 4 ? 'ipv4' : 'ipv6');
}

const refused = (host: string, ip: string) =>
  Object.assign(new Error(`${host} resolves to ${ip}, which is not a public address`), { code: PRIVATE_ADDRESS, address: ip });

/**
 * Resolves `host` for an outbound connection to a customer's address: every address must be public (unless allowed),
 * answers the first one to connect to. Throws ENOTFOUND-like DNS errors as they are, PRIVATE_ADDRESS when refused.
 */
export async function resolvePublic(host: string, allowPrivate = privateOutboundAllowed()): Promise<string> {
  const bare = host.replace(/^\[(.*)\]$/, '$1');
  const all = net.isIP(bare) ? [{ address: bare }] : await dns.promises.lookup(bare, { all: true, verbatim: true });
  if (!all.length) throw Object.assign(new Error(`${host} has no address`), { code: 'ENOTFOUND' });
  if (!allowPrivate) {
    const bad = all.find((a) => isNonPublicAddress(a.address));
    if (bad) throw refused(host, bad.address);
  }
  return all[0].address;
}
