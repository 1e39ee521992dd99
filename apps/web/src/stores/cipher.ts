import { xchacha20poly1305 } from '@noble/ciphers/chacha.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, hexToBytes, randomBytes, utf8ToBytes } from '@noble/ciphers/utils.js';

/**
 * The permission list is kept encrypted in browser storage (spec §3), bound to the access token: a list
 * copied from another session, or edited by hand, fails to decrypt. The server still checks every call.
 */
const keyOf = (token: string) => sha256(utf8ToBytes(`lynx-cmp:perm:${token}`));

export function encryptCodes(codes: number[], token: string): string {
  const nonce = randomBytes(24);
  const sealed = xchacha20poly1305(keyOf(token), nonce).encrypt(utf8ToBytes(JSON.stringify(codes)));
  return bytesToHex(nonce) + bytesToHex(sealed);
}

export function decryptCodes(stored: string, token: string): number[] | null {
  try {
    const nonce = hexToBytes(stored.slice(0, 48));
    const plain = xchacha20poly1305(keyOf(token), nonce).decrypt(hexToBytes(stored.slice(48)));
    const codes: unknown = JSON.parse(new TextDecoder().decode(plain));
    return Array.isArray(codes) && codes.every((c) => Number.isInteger(c)) ? (codes as number[]) : null;
  } catch {
    return null;
  }
}
