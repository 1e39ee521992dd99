import crypto from 'node:crypto';
import path from 'node:path/posix';
import { once } from 'node:events';
import ssh2, { type SFTPWrapper, type ConnectConfig, type Stats } from 'ssh2';
import { ErrorCode } from '@lynx/contract';
import { AppError } from '../../../platform/errors.ts';
import { PRIVATE_ADDRESS, resolvePublic } from '../../../platform/outbound.ts';

/** Where and as whom: a task's connection with its opened secret. */
export interface SftpTarget {
  host: string;
  port: number;
  account: string;
  password?: string | null;
  privateKey?: string | null;
  passphrase?: string | null;
  remotePath: string;
  /** the host key fingerprint the task is pinned to: another key is refused (21052); null or absent: any key */
  hostKey?: string | null;
}

/** A host key's fingerprint as OpenSSH prints it: `SHA256:` and the unpadded base64 of the key blob's SHA-256. */
export const hostKeyFingerprint = (key: Buffer): string => `SHA256:${crypto.createHash('sha256').update(key).digest('base64').replace(/=+$/, '')}`;

/** Seconds to wait for the TCP connection and the SSH handshake together. */
const READY_TIMEOUT_MS = 15_000;

/**
 * An SFTP session to a task's server (ssh2). Every failure becomes an AppError whose code and parameters say in
 * words what went wrong (refused, unknown host, timeout, sign-in, path), so "test connection" and a failed run
 * can tell the user what to fix. The server's host key is checked against the task's pinned fingerprint during the
 * handshake (before any secret is sent) and answered as `hostKey` (docs/data-push.md).
 */
export class SftpSession {
  private constructor(
    private conn: InstanceType<typeof ssh2.Client>, readonly sftp: SFTPWrapper, readonly target: SftpTarget,
    /** the fingerprint of the key the server presented */
    readonly hostKey: string,
  ) {}

  /**
   * Connects and opens SFTP. `onHostKey` learns the server's fingerprint as soon as the handshake shows it (also when
   * the sign-in then fails), so "test connection" can show it whatever happens next.
   */
  static async open(t: SftpTarget, timeoutMs = READY_TIMEOUT_MS, onHostKey?: (fingerprint: string) => void): Promise<SftpSession> {
    // the customer's server must be outside the platform's network (platform/outbound.ts): resolved and checked once,
    // then connected to by the address checked
    let address: string;
    try {
      address = await resolvePublic(t.host);
    } catch (e) {
      throw connectError(e, t);
    }
    const conn = new ssh2.Client();
    // set by the verifier (a callback: an object, so the checks below read it as it is then)
    const seen: { key: string | null } = { key: null };
    const cfg: ConnectConfig = {
      host: address, port: t.port, username: t.account, readyTimeout: timeoutMs,
      // checked before the client authenticates: a server with another key never sees the password or a signature
      hostVerifier: (key: Buffer) => {
        seen.key = hostKeyFingerprint(key);
        onHostKey?.(seen.key);
        return !t.hostKey || seen.key === t.hostKey;
      },
      ...(t.privateKey ? { privateKey: t.privateKey, passphrase: t.passphrase || undefined } : { password: t.password ?? '' }),
      // a sign-in that the server keeps asking for is a failed sign-in, not a hang
      tryKeyboard: false,
    };
    // errors after the handshake surface through the SFTP calls; one that has no listener would end the process
    conn.on('error', () => {});
    const ready = new Promise<void>((resolve, reject) => {
      conn.once('ready', resolve);
      conn.once('error', reject);
      // a server that hangs up before the handshake ends says nothing else
      conn.once('close', () => reject(Object.assign(new Error('the server closed the connection'), { code: 'ECONNRESET' })));
    });
    try {
      conn.connect(cfg);
      await ready;
    } catch (e) {
      conn.end();
      if (seen.key && t.hostKey && seen.key !== t.hostKey) {
        throw new AppError(ErrorCode.DataPushHostKeyChanged, { host: t.host, port: t.port, expected: t.hostKey, actual: seen.key });
      }
      throw connectError(e, t);
    }
    try {
      const sftp = await new Promise<SFTPWrapper>((resolve, reject) => conn.sftp((err, s) => (err ? reject(err) : resolve(s))));
      return new SftpSession(conn, sftp, t, seen.key ?? '');
    } catch (e) {
      conn.end();
      throw new AppError(ErrorCode.DataPushFailed, { detail: `the server offers no SFTP (${(e as Error).message})` });
    }
  }

  /** The remote directory exists, is a directory and a file can be created in it (a probe written and removed). */
  async checkWritable(): Promise<void> {
    const dir = this.target.remotePath;
    const stats = await new Promise<Stats>((resolve, reject) => this.sftp.stat(dir, (err, s) => (err ? reject(err) : resolve(s))))
      .catch((e: unknown) => {
        throw sftpError(e, dir);
      });
    if (!stats.isDirectory()) throw new AppError(ErrorCode.DataPushPathMissing, { path: dir });
    const probe = path.join(dir, `.lynx-probe-${crypto.randomBytes(6).toString('hex')}`);
    const handle = await new Promise<Buffer>((resolve, reject) => this.sftp.open(probe, 'w', (err, h) => (err ? reject(err) : resolve(h))))
      .catch((e: unknown) => {
        throw sftpError(e, dir);
      });
    await new Promise<void>((resolve) => this.sftp.close(handle, () => resolve()));
    await this.remove(probe);
  }

  /**
   * Writes `lines` to `<dir>/<fileName>` through a temporary name (`.<fileName>.part`), renamed when complete, so a
   * reader never sees half a file. Streams with backpressure (one chunk in memory). Answers the bytes written, which
   * the server's size of the file is checked against.
   */
  async upload(fileName: string, lines: AsyncIterable<string>, onProgress?: () => Promise<void>): Promise<number> {
    const dir = this.target.remotePath;
    const finalPath = path.join(dir, fileName);
    const partPath = path.join(dir, `.${fileName}.part`);
    await this.remove(partPath);
    const out = this.sftp.createWriteStream(partPath, { flags: 'w', mode: 0o644 });
    // settles once, whenever it happens: ssh2's stream emits 'close' after the handle is closed (also after an
    // error, which comes first), possibly before this code waits for it (an open refused while rows are being read)
    const done = new Promise<void>((resolve, reject) => {
      out.once('error', reject);
      out.once('close', () => resolve());
    });
    let failed: unknown = null;
    done.catch((e: unknown) => {
      failed = e;
    });
    let bytes = 0;
    let chunk = '';
    const flush = async () => {
      if (!chunk) return;
      const buf = Buffer.from(chunk, 'utf8');
      chunk = '';
      bytes += buf.length;
      if (failed) throw failed;
      if (!out.write(buf)) await Promise.race([once(out, 'drain'), done]);
    };
    try {
      let n = 0;
      for await (const line of lines) {
        chunk += line;
        if (chunk.length >= 64 * 1024) await flush();
        if (++n % 5000 === 0 && onProgress) await onProgress();
      }
      await flush();
      out.end();
      await done;
      const size = await new Promise<number>((resolve, reject) => this.sftp.stat(partPath, (err, s) => (err ? reject(err) : resolve(s.size))));
      if (size !== bytes) throw new AppError(ErrorCode.DataPushFailed, { detail: `the server holds ${size} of ${bytes} bytes` });
      await this.rename(partPath, finalPath);
      return bytes;
    } catch (e) {
      out.destroy();
      await this.remove(partPath);
      throw e instanceof AppError ? e : sftpError(e, dir);
    }
  }

  /** Renames over an existing file (SFTP v3 rename refuses an existing target: remove it first, then rename). */
  private async rename(from: string, to: string): Promise<void> {
    const mv = () => new Promise<void>((resolve, reject) => this.sftp.rename(from, to, (err) => (err ? reject(err) : resolve())));
    try {
      await mv();
    } catch {
      await this.remove(to);
      await mv();
    }
  }

  private remove(file: string): Promise<void> {
    return new Promise<void>((resolve) => this.sftp.unlink(file, () => resolve()));
  }

  async readFile(file: string): Promise<Buffer> {
    return new Promise<Buffer>((resolve, reject) => this.sftp.readFile(file, (err, b) => (err ? reject(err) : resolve(b))));
  }

  close(): void {
    this.conn.end();
  }
}

/** A failure before the session was ready, in words. */
export function connectError(e: unknown, t: Pick<SftpTarget, 'host' | 'port' | 'account'>): AppError {
  if (e instanceof AppError) return e;
  const err = e as { code?: string; level?: string; message?: string };
  const at = { host: t.host, port: t.port };
  if (err.code === PRIVATE_ADDRESS) return new AppError(ErrorCode.DataPushAddressPrivate, { host: t.host, address: (e as { address?: string }).address ?? '' });
  if (err.level === 'client-authentication') return new AppError(ErrorCode.DataPushAuthFailed, { account: t.account });
  if (err.level === 'client-timeout' || err.code === 'ETIMEDOUT') return new AppError(ErrorCode.DataPushTimeout, at);
  if (err.code === 'ECONNREFUSED' || err.code === 'ECONNRESET') return new AppError(ErrorCode.DataPushConnectRefused, at);
  if (err.code === 'ENOTFOUND' || err.code === 'EAI_AGAIN' || err.code === 'EAI_FAIL') return new AppError(ErrorCode.DataPushHostUnknown, { host: t.host });
  if (err.code === 'EHOSTUNREACH' || err.code === 'ENETUNREACH') return new AppError(ErrorCode.DataPushTimeout, at);
  if (/privateKey|private key|passphrase|Unsupported key format|Encrypted private/i.test(err.message ?? '')) return new AppError(ErrorCode.DataPushKeyInvalid);
  return new AppError(ErrorCode.DataPushFailed, { detail: (err.message ?? String(e)).slice(0, 200) });
}

/** SFTP status codes (draft-ietf-secsh-filexfer-02): 2 no such file, 3 permission denied. */
export function sftpError(e: unknown, dir: string): AppError {
  if (e instanceof AppError) return e;
  const err = e as { code?: number | string; message?: string };
  if (err.code === 2) return new AppError(ErrorCode.DataPushPathMissing, { path: dir });
  if (err.code === 3) return new AppError(ErrorCode.DataPushPathNotWritable, { path: dir });
  if (err.code === 'ECONNRESET' || /No response from server|Not connected/i.test(err.message ?? '')) {
    return new AppError(ErrorCode.DataPushFailed, { detail: 'the server closed the connection' });
  }
  return new AppError(ErrorCode.DataPushFailed, { detail: (err.message ?? String(e)).slice(0, 200) });
}
