import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import ssh2, { type Connection, type SFTPWrapper } from 'ssh2';

const { OPEN_MODE, STATUS_CODE, flagsToString } = ssh2.utils.sftp;

/**
 * A real SFTP server for tests (ssh2's Server with an SFTP subsystem), listening on 127.0.0.1 on a free port and
 * serving a temporary directory as "/". Password or public-key sign-in for one account; directories listed in
 * `readOnly` refuse new files with "permission denied" (tests run as root, where file modes do not stop writes).
 */
export interface TestSftpServer {
  port: number;
  root: string;
  user: string;
  password: string;
  /** an OpenSSH private key the server accepts */
  clientKey: string;
  /** remote directories (e.g. /readonly) where creating a file is refused */
  readOnly: Set<string>;
  local(remote: string): string;
  close(): Promise<void>;
}

export async function startTestSftpServer(opts: { user?: string; password?: string } = {}): Promise<TestSftpServer> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'lynx-sftp-'));
  const user = opts.user ?? 'pusher';
  const password = opts.password ?? 'Sftp-Pass-2026';
  const host = ssh2.utils.generateKeyPairSync('ed25519');
  const client = ssh2.utils.generateKeyPairSync('ed25519');
  const allowed = ssh2.utils.parseKey(client.public);
  if (allowed instanceof Error) throw allowed;
  const allowedKey = Array.isArray(allowed) ? allowed[0] : allowed;
  const readOnly = new Set<string>();
  const local = (remote: string) => path.join(root, path.posix.normalize(`/${remote}`));

  const server = new ssh2.Server({ hostKeys: [host.private] }, (conn: Connection) => {
    conn.on('authentication', (ctx) => {
      if (ctx.username === user && ctx.method === 'password' && ctx.password === password) return ctx.accept();
      if (ctx.username === user && ctx.method === 'publickey' && ctx.key.algo === allowedKey.type && ctx.key.data.equals(allowedKey.getPublicSSH())) {
        if (!ctx.signature) return ctx.accept();
        if (allowedKey.verify(ctx.blob!, ctx.signature, ctx.hashAlgo) === true) return ctx.accept();
      }
      ctx.reject(['password', 'publickey']);
    });
    conn.on('ready', () => {
      conn.on('session', (accept) => {
        const session = accept();
        session.on('sftp', (acceptSftp) => serveSftp(acceptSftp(), local, readOnly));
      });
    });
    conn.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port, root, user, password, clientKey: client.private, readOnly, local,
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      fs.rmSync(root, { recursive: true, force: true });
    }),
  };
}

function serveSftp(sftp: SFTPWrapper, local: (remote: string) => string, readOnly: Set<string>) {
  const fds = new Map<number, number>();
  let next = 1;
  const handleOf = (id: number) => {
    const b = Buffer.alloc(4);
    b.writeUInt32BE(id);
    return b;
  };
  const fdOf = (h: Buffer) => (h.length === 4 ? fds.get(h.readUInt32BE(0)) : undefined);
  const statusOf = (e: unknown) => ((e as NodeJS.ErrnoException).code === 'ENOENT' ? STATUS_CODE.NO_SUCH_FILE
    : (e as NodeJS.ErrnoException).code === 'EACCES' ? STATUS_CODE.PERMISSION_DENIED : STATUS_CODE.FAILURE);
  const attrsOf = (s: fs.Stats) => ({ mode: s.mode, uid: s.uid, gid: s.gid, size: s.size, atime: Math.floor(s.atimeMs / 1000), mtime: Math.floor(s.mtimeMs / 1000) });

  sftp.on('OPEN', (reqid, filename, flags) => {
    const writes = (flags & (OPEN_MODE.WRITE | OPEN_MODE.CREAT | OPEN_MODE.APPEND)) !== 0;
    if (writes && readOnly.has(path.posix.dirname(path.posix.normalize(filename)))) return sftp.status(reqid, STATUS_CODE.PERMISSION_DENIED);
    try {
      const fd = fs.openSync(local(filename), flagsToString(flags) ?? 'r');
      const id = next++;
      fds.set(id, fd);
      sftp.handle(reqid, handleOf(id));
    } catch (e) {
      sftp.status(reqid, statusOf(e));
    }
  });
  sftp.on('WRITE', (reqid, handle, offset, data) => {
    const fd = fdOf(handle);
    if (fd === undefined) return sftp.status(reqid, STATUS_CODE.FAILURE);
    fs.writeSync(fd, data, 0, data.length, offset);
    sftp.status(reqid, STATUS_CODE.OK);
  });
  sftp.on('READ', (reqid, handle, offset, length) => {
    const fd = fdOf(handle);
    if (fd === undefined) return sftp.status(reqid, STATUS_CODE.FAILURE);
    const buf = Buffer.alloc(length);
    const n = fs.readSync(fd, buf, 0, length, offset);
    if (!n) return sftp.status(reqid, STATUS_CODE.EOF);
    sftp.data(reqid, buf.subarray(0, n));
  });
  sftp.on('CLOSE', (reqid, handle) => {
    const id = handle.length === 4 ? handle.readUInt32BE(0) : -1;
    const fd = fds.get(id);
    if (fd === undefined) return sftp.status(reqid, STATUS_CODE.FAILURE);
    fs.closeSync(fd);
    fds.delete(id);
    sftp.status(reqid, STATUS_CODE.OK);
  });
  sftp.on('FSTAT', (reqid, handle) => {
    const fd = fdOf(handle);
    if (fd === undefined) return sftp.status(reqid, STATUS_CODE.FAILURE);
    sftp.attrs(reqid, attrsOf(fs.fstatSync(fd)));
  });
  const stat = (reqid: number, p: string) => {
    try {
      sftp.attrs(reqid, attrsOf(fs.statSync(local(p))));
    } catch (e) {
      sftp.status(reqid, statusOf(e));
    }
  };
  sftp.on('STAT', stat);
  sftp.on('LSTAT', stat);
  sftp.on('REMOVE', (reqid, p) => {
    try {
      fs.unlinkSync(local(p));
      sftp.status(reqid, STATUS_CODE.OK);
    } catch (e) {
      sftp.status(reqid, statusOf(e));
    }
  });
  sftp.on('RENAME', (reqid, from, to) => {
    // SFTP v3: a rename onto an existing file fails
    if (fs.existsSync(local(to))) return sftp.status(reqid, STATUS_CODE.FAILURE);
    try {
      fs.renameSync(local(from), local(to));
      sftp.status(reqid, STATUS_CODE.OK);
    } catch (e) {
      sftp.status(reqid, statusOf(e));
    }
  });
  sftp.on('REALPATH', (reqid, p) => {
    const name = path.posix.normalize(`/${p}`);
    sftp.name(reqid, [{ filename: name, longname: name, attrs: {} as never }]);
  });
}
