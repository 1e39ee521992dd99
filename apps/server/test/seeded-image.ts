// A migrated and seeded database, made once and copied for each test app: a PGlite data directory image (a file in
// the temporary directory) and a PostgreSQL template database. Starting a test app from one skips PGlite's initdb,
// the migrations and the demo seed (about 6 s of every PGlite start on this machine, 3 s on PostgreSQL). An image is
// named by the server and contract sources and by a 10-minute window of the clock (the seed dates things from now),
// so a change of code or an old image is never used. Written atomically: parallel workers may both make one; the
// last rename wins and both are the same.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import pg from 'pg';
import { openDatabase } from '../src/db/client.ts';
import { migrate } from '../src/db/migrate.ts';
import { seedDemo } from '../src/seed/demo.ts';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const SOURCES = [path.join(ROOT, 'apps/server/src'), path.join(ROOT, 'packages/contract/src')];
const WINDOW_MS = 10 * 60_000;

let sourceHash: string | null = null;
/** A hash of every source file the migrations and the seed could depend on. */
function sourcesHash(): string {
  if (sourceHash) return sourceHash;
  const h = crypto.createHash('sha1');
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.(ts|sql|json)$/.test(e.name) && !e.name.endsWith('.test.ts')) h.update(p).update(fs.readFileSync(p));
    }
  };
  for (const s of SOURCES) walk(s);
  sourceHash = h.digest('hex').slice(0, 12);
  return sourceHash;
}

const windowOf = (ms: number) => Math.floor(ms / WINDOW_MS);
const imageKey = () => `${sourcesHash()}_${windowOf(Date.now())}`;
/** An image of a window before the last one: nobody can be about to read it. */
const stale = (name: string) => {
  const w = Number(/_(\d+)(\.tar)?$/.exec(name)?.[1]);
  return Number.isFinite(w) && w < windowOf(Date.now()) - 1;
};

/** Migrates and seeds a database as the first start of a test app does. */
async function build(databaseUrl: string | null, password: string): Promise<Blob | null> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lynx-image-'));
  try {
    const d = await openDatabase({ databaseUrl, dataDir: dir, memory: databaseUrl === null });
    try {
      await migrate(d.sql);
      await seedDemo(d.db, password, {});
      if (databaseUrl !== null) return null;
      // flushed first: an image restored from unflushed pages replays its WAL, which moves every sequence 32 values on
      await d.sql.exec('checkpoint');
      return await d.dump!();
    } finally {
      await d.close();
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const images = new Map<string, Promise<Blob>>();
/** The seeded PGlite data directory image of now. */
export function pgliteImage(password: string): Promise<Blob> {
  const key = imageKey();
  let p = images.get(key);
  if (!p) {
    p = (async () => {
      const file = path.join(os.tmpdir(), `lynx-test-image-${key}.tar`);
      if (fs.existsSync(file)) return new Blob([fs.readFileSync(file)]);
      const blob = (await build(null, password))!;
      const tmp = `${file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}`;
      fs.writeFileSync(tmp, Buffer.from(await blob.arrayBuffer()));
      fs.renameSync(tmp, file);
      // older images of this machine go
      for (const f of fs.readdirSync(os.tmpdir())) {
        if (f.startsWith('lynx-test-image-') && f.endsWith('.tar') && stale(f)) fs.rmSync(path.join(os.tmpdir(), f), { force: true });
      }
      return blob;
    })();
    images.set(key, p);
    p.catch(() => images.delete(key));
  }
  return p;
}

async function admin<T>(base: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: base });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

const templates = new Map<string, Promise<string>>();
/** The name of the seeded PostgreSQL template database of now (made on the server of `base` when missing). */
export function postgresTemplate(base: string, password: string): Promise<string> {
  const key = imageKey();
  let p = templates.get(key);
  if (!p) {
    p = (async () => {
      const name = `lynx_tpl_${key}`;
      const exists = async () => admin(base, async (c) => (await c.query('select 1 from pg_database where datname = $1', [name])).rowCount! > 0);
      if (await exists()) return name;
      // built under a name of its own, renamed when complete: a half-built template is never copied
      const building = `lynx_tplb_${crypto.randomBytes(5).toString('hex')}`;
      await admin(base, (c) => c.query(`create database ${building}`));
      const url = new URL(base);
      url.pathname = `/${building}`;
      try {
        await build(url.toString(), password);
        await admin(base, async (c) => {
          try {
            await c.query(`alter database ${building} rename to ${name}`);
          } catch (e) {
            // another worker finished first: use its template
            if (!(await exists())) throw e;
            await c.query(`drop database if exists ${building} with (force)`);
          }
          // templates of windows before the last one go (one being copied right now refuses and is left for next time)
          const old = await c.query<{ datname: string }>(`select datname from pg_database where datname like 'lynx\\_tpl\\_%'`);
          for (const r of old.rows) if (stale(r.datname)) await c.query(`drop database if exists ${r.datname}`).catch(() => {});
        });
      } catch (e) {
        await admin(base, (c) => c.query(`drop database if exists ${building} with (force)`)).catch(() => {});
        throw e;
      }
      return name;
    })();
    templates.set(key, p);
    p.catch(() => templates.delete(key));
  }
  return p;
}
