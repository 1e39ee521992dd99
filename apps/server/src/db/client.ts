import fs from 'node:fs';
import path from 'node:path';
import { PGlite, type Transaction as PGliteTx } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin';
import pg from 'pg';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { lockDataDir } from './lock.ts';
import * as schema from './schema.ts';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
/** Either the database or a transaction on it: services take this so callers can compose writes. */
export type Executor = Db | Tx;

/** Plain SQL access for migrations, the job queue and benchmarks. */
export interface SqlClient {
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  /** several statements, no parameters */
  exec(text: string): Promise<void>;
  transaction<T>(fn: (tx: Omit<SqlClient, 'transaction' | 'close'>) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export interface Database {
  kind: 'pglite' | 'postgres';
  db: Db;
  sql: SqlClient;
  /** for pg-boss: a connection string on PostgreSQL, an executeSql adapter on PGlite */
  bossDb: { connectionString: string } | { db: { executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }> } };
  describe: string;
  close(): Promise<void>;
  /** PGlite: an image of the data directory (what `loadDataDir` starts from) */
  dump?: () => Promise<Blob>;
}

export interface OpenOptions {
  databaseUrl: string | null;
  dataDir: string;
  /** PGlite in memory (tests) */
  memory?: boolean;
  /**
   * start from this image of a data directory (a test's migrated and seeded database) instead of an empty one: in
   * memory, or in a data directory that holds no database yet
   */
  loadDataDir?: Blob;
}

export async function openDatabase(opts: OpenOptions): Promise<Database> {
  if (opts.databaseUrl) return openPostgres(opts.databaseUrl);
  return openPglite(opts);
}

/**
 * PGlite ships contrib extensions as separate modules that must be handed to the constructor; the migrations create
 * these (0018: the card fragment search index). PostgreSQL has them installed with the server (contrib).
 */
const PGLITE_EXTENSIONS = { pg_trgm, btree_gin };

async function openPglite(opts: OpenOptions): Promise<Database> {
  let unlock = () => {};
  let client: PGlite;
  let describe = 'embedded PGlite (in memory)';
  if (opts.memory) {
    client = new PGlite({ extensions: PGLITE_EXTENSIONS, ...(opts.loadDataDir ? { loadDataDir: opts.loadDataDir } : {}) });
  } else {
    const dir = path.join(opts.dataDir, 'pglite');
    unlock = lockDataDir(opts.dataDir);
    try {
      // an image is loaded only into a new data directory (PGlite refuses one that holds a database)
      const load = opts.loadDataDir && !fs.existsSync(path.join(dir, 'PG_VERSION')) ? { loadDataDir: opts.loadDataDir } : {};
      client = new PGlite(dir, { extensions: PGLITE_EXTENSIONS, ...load });
      await client.waitReady;
    } catch (e) {
      unlock();
      throw e;
    }
    describe = `embedded PGlite in ${dir}`;
  }
  await client.waitReady;
  const wrap = (c: PGlite | PGliteTx): Omit<SqlClient, 'transaction' | 'close'> => ({
    query: async <T,>(text: string, params?: unknown[]) => (await c.query<T>(text, params as any[])).rows,
    exec: async (text: string) => {
      await c.exec(text);
    },
  });
  const sql: SqlClient = {
    ...wrap(client),
    transaction: (fn) => client.transaction((tx) => fn(wrap(tx))),
    close: async () => {},
  };
  return {
    kind: 'pglite',
    db: drizzlePglite({ client, schema }) as unknown as Db,
    sql,
    bossDb: {
      db: {
        // pg-boss sends multi-statement SQL without parameters (its migrations): that needs exec
        executeSql: async (text, values) => {
          if (values && values.length) return client.query(text, values as any[]);
          const results = await client.exec(text);
          return results.at(-1) ?? { rows: [] };
        },
      },
    },
    describe,
    dump: async () => (await client.dumpDataDir('none')) as Blob,
    close: async () => {
      await client.close();
      unlock();
    },
  };
}

async function openPostgres(url: string): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: Number(process.env.PG_POOL_MAX ?? 10) });
  // a broken server connection must not crash the process; the next query reports the error
  pool.on('error', () => {});
  const wrap = (c: pg.Pool | pg.PoolClient): Omit<SqlClient, 'transaction' | 'close'> => ({
    query: async <T,>(text: string, params?: unknown[]) => (await c.query(text, params)).rows as T[],
    exec: async (text: string) => {
      await c.query(text);
    },
  });
  const sql: SqlClient = {
    ...wrap(pool),
    transaction: async (fn) => {
      const conn = await pool.connect();
      try {
        await conn.query('begin');
        const result = await fn(wrap(conn));
        await conn.query('commit');
        return result;
      } catch (e) {
        await conn.query('rollback').catch(() => {});
        throw e;
      } finally {
        conn.release();
      }
    },
    close: () => pool.end(),
  };
  await sql.query('select 1');
  const safeUrl = url.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@');
  return {
    kind: 'postgres',
    db: drizzlePg({ client: pool, schema }) as unknown as Db,
    sql,
    bossDb: { connectionString: url },
    describe: `PostgreSQL at ${safeUrl}`,
    close: () => pool.end(),
  };
}
