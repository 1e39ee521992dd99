import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { describe, it, expect } from 'vitest';
import { lockDataDir, DataDirLockedError } from '../src/db/lock.ts';

const MAIN = path.resolve(import.meta.dirname, '../src/main.ts');

describe('embedded database lock', () => {
  it('refuses a second opener of the same PGlite folder while the first lives', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lynx-lock-'));
    const unlock = lockDataDir(dir);
    expect(() => lockDataDir(dir)).toThrow(DataDirLockedError);
    unlock();
    const again = lockDataDir(dir);
    again();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('takes over a lock left by a dead process', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lynx-lock-'));
    fs.writeFileSync(path.join(dir, 'lynx.lock'), JSON.stringify({ pid: 2 ** 22 + 12345, host: os.hostname() }));
    const unlock = lockDataDir(dir);
    unlock();
    expect(fs.existsSync(path.join(dir, 'lynx.lock'))).toBe(false);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('a second server process on the same folder exits with a clear message', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lynx-lock-'));
    const unlock = lockDataDir(dir); // this test process plays the first server
    try {
      const r = spawnSync(process.execPath, ['--import', 'tsx', MAIN], {
        env: { ...process.env, DATA_DIR: dir, PORT: '0', DATABASE_URL: '' },
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(r.status).toBe(2);
      expect(r.stderr).toContain('already open in another Lynx CMP process');
      expect(r.stderr).toContain(`pid ${process.pid}`);
      expect(r.stderr).toContain('DATABASE_URL');
    } finally {
      unlock();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
