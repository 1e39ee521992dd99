import fs from 'node:fs';
import path from 'node:path';
import os from 'node:os';

export class DataDirLockedError extends Error {}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * PGlite is one process's database: two processes opening the same folder corrupt it silently. We take a
 * lock file holding our pid; a lock left by a dead process on this host is taken over.
 */
export function lockDataDir(dir: string): () => void {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'lynx.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = fs.openSync(file, 'wx');
      fs.writeSync(fd, JSON.stringify({ pid: process.pid, host: os.hostname(), since: new Date().toISOString() }));
      fs.closeSync(fd);
      return () => {
        try {
          const held = JSON.parse(fs.readFileSync(file, 'utf8'));
          if (held.pid === process.pid) fs.unlinkSync(file);
        } catch {
          /* already gone */
        }
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      let held: { pid?: number; host?: string } = {};
      try {
        held = JSON.parse(fs.readFileSync(file, 'utf8'));
      } catch {
        /* half-written lock: treat as stale */
      }
      const sameHost = !held.host || held.host === os.hostname();
      if (held.pid && (!sameHost || alive(held.pid))) {
        throw new DataDirLockedError(
          `The embedded database in ${dir} is already open in another Lynx CMP process (pid ${held.pid} on ${held.host}). ` +
            'Stop that process first, or set DATABASE_URL to a PostgreSQL server to run several processes.',
        );
      }
      fs.rmSync(file, { force: true });
    }
  }
  throw new DataDirLockedError(`Could not lock ${dir}`);
}
