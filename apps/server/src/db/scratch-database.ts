import crypto from 'node:crypto';
import pg from 'pg';

/**
 * A new, empty database on the PostgreSQL server of `base`, named `<prefix>_<random>`, and the function that drops
 * it (with force: open connections are closed). Used by the tests and the benchmarks, never by the product.
 */
export async function createScratchDatabase(base: string, prefix: string): Promise<{ url: string; drop: () => Promise<void> }> {
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
  await run(`create database ${name}`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => run(`drop database if exists ${name} with (force)`) };
}
