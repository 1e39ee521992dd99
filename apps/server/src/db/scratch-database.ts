import crypto from 'node:crypto';
import pg from 'pg';

/**
 * A new database on the PostgreSQL server of `base`, named `<prefix>_<random>`: empty, or a copy of `template` (a
 * database on the same server nobody is connected to), and the function that drops it (with force: open connections
 * are closed). Used by the tests and the benchmarks, never by the product.
 */
export async function createScratchDatabase(base: string, prefix: string, template?: string): Promise<{ url: string; drop: () => Promise<void> }> {
  if (template !== undefined && !/^[a-z_][a-z0-9_]{0,62}$/.test(template)) throw new Error(`not a database name: ${template}`);
  const name = `${prefix}_${crypto.randomBytes(5).toString('hex')}`;
  const run = async (statement: string) => {
    const c = new pg.Client({ connectionString: base });
    await c.connect();
    try {
      await c.query(statement);
    } finally {
      await c.end();
    }
  };
  await run(template ? `create database ${name} template ${template}` : `create database ${name}`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => run(`drop database if exists ${name} with (force)`) };
}
