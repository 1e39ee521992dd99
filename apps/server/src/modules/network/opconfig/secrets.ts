import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { ErrorCode } from '@lynx/contract';
import { AppError } from '../../../platform/errors.ts';

const KEY_FILE = 'secret.key';
const VERSION = 'v1';

/** Parses a configured key: 64 hex characters or base64 of exactly 32 bytes. */
export function parseKey(text: string): Buffer {
  const t = text.trim();
  const key = /^[0-9a-fA-F]{64}$/.test(t) ? Buffer.from(t, 'hex') : Buffer.from(t, 'base64');
  if (key.length !== 32) throw new Error('CMP_SECRET_KEY must be 32 bytes: 64 hex characters or base64 (openssl rand -hex 32)');
  return key;
}

/**
 * The key file in DATA_DIR: created once with mode 0600 (exclusive create, so two processes starting
 * together agree on one key), read on every later start.
 */
export function keyFromDataDir(dataDir: string): Buffer {
  const file = path.join(dataDir, KEY_FILE);
  fs.mkdirSync(dataDir, { recursive: true });
  try {
    fs.writeFileSync(file, crypto.randomBytes(32).toString('hex') + '\n', { mode: 0o600, flag: 'wx' });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  }
  return parseKey(fs.readFileSync(file, 'utf8'));
}

/**
 * Encrypts secrets at rest with AES-256-GCM. A stored value is `v1:<key id>:<iv>:<tag>:<ciphertext>`
 * (base64url parts). The key id (a hash prefix of the key) tells a changed key apart from tampering, and
 * the purpose string is bound as associated data, so a value cannot be moved to another column or row.
 */
export class SecretBox {
  readonly keyId: string;
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('secret key must be 32 bytes');
    this.keyId = crypto.createHash('sha256').update(key).digest('base64url').slice(0, 8);
  }

  seal(plain: string, purpose: string): string {
    const iv = crypto.randomBytes(12);
    const cipher = crypto.createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(purpose));
    const ct = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return [VERSION, this.keyId, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), ct.toString('base64url')].join(':');
  }

  open(sealed: string, purpose: string): string {
    const [version, keyId, iv, tag, ct] = sealed.split(':');
    if (version !== VERSION || keyId !== this.keyId || !iv || !tag || ct === undefined) throw new AppError(ErrorCode.SecretUndecryptable);
    try {
      const decipher = crypto.createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
      decipher.setAAD(Buffer.from(purpose));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(ct, 'base64url')), decipher.final()]).toString('utf8');
    } catch {
      throw new AppError(ErrorCode.SecretUndecryptable);
    }
  }

  /** A JSON object of secrets, sealed as one value. */
  sealJson(value: Record<string, string>, purpose: string): string {
    return this.seal(JSON.stringify(value), purpose);
  }

  openJson(sealed: string | null, purpose: string): Record<string, string> {
    if (!sealed) return {};
    return JSON.parse(this.open(sealed, purpose)) as Record<string, string>;
  }
}

const boxes = new Map<string, SecretBox>();

/** The box of this installation: CMP_SECRET_KEY when set, else the key file in DATA_DIR. */
export function secretBoxFor(config: { secretKey: string | null; dataDir: string }): SecretBox {
  const id = config.secretKey ? `env:${config.secretKey}` : `dir:${config.dataDir}`;
  let box = boxes.get(id);
  if (!box) {
    box = new SecretBox(config.secretKey ? parseKey(config.secretKey) : keyFromDataDir(config.dataDir));
    boxes.set(id, box);
  }
  return box;
}

/** What leaves the server instead of a secret: whether one is stored, and its last four characters when long enough. */
export function maskSecret(value: string | undefined | null): { hasSecret: boolean; mask: string | null } {
  if (!value) return { hasSecret: false, mask: null };
  const chars = [...value];
  return { hasSecret: true, mask: chars.length >= 12 ? `••••${chars.slice(-4).join('')}` : '••••••' };
}
