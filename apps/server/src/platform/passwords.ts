import crypto from 'node:crypto';
import argon2 from 'argon2';

// OWASP's argon2id baseline (19 MiB, 2 passes): safe, and fast enough for a login burst on 2 cores.
const OPTIONS = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const hashPassword = (pw: string) => argon2.hash(pw, OPTIONS);

let dummy: Promise<string> | null = null;
/** Verifies; with no stored hash it still spends the same time, so timing does not reveal login names. */
export async function verifyPassword(hash: string | null, pw: string): Promise<boolean> {
  if (!hash) {
    dummy ??= argon2.hash(crypto.randomBytes(16).toString('hex'), OPTIONS);
    await argon2.verify(await dummy, pw).catch(() => false);
    return false;
  }
  return argon2.verify(hash, pw).catch(() => false);
}

const LOWER = 'abcdefghijkmnpqrstuvwxyz';
const UPPER = 'ABCDEFGHJKLMNPQRSTUVWXYZ';
const DIGITS = '23456789';
const PUNCT = '@#%+=!';

/** A random password that passes the spec's rule (8-18 letters, digits, punctuation): 14 characters. */
export function generatePassword(): string {
  const pick = (set: string) => set[crypto.randomInt(set.length)];
  const all = LOWER + UPPER + DIGITS + PUNCT;
  const chars = [pick(LOWER), pick(UPPER), pick(DIGITS), pick(PUNCT), ...Array.from({ length: 10 }, () => pick(all))];
  for (let i = chars.length - 1; i > 0; i--) {
    const j = crypto.randomInt(i + 1);
    [chars[i], chars[j]] = [chars[j], chars[i]];
  }
  return chars.join('');
}
