import fs from 'node:fs';
import path from 'node:path';
import type { SqlClient } from './client.ts';

const DIR = path.join(import.meta.dirname, 'migrations');

/**
 * Applies the SQL files of db/migrations in name order, each once, each in its own transaction. The files
 * are plain SQL valid on PostgreSQL 15 and PGlite (PostgreSQL 18). An advisory lock keeps two processes
 * starting together from applying the same file twice.
 */
export async function migrate(sql: SqlClient): Promise<string[]> {
  await sql.exec(`create table if not exists schema_migrations (name text primary key, applied_at timestamptz not null default now())`);
  const files = fs.readdirSync(DIR).filter((f) => f.endsWith('.sql')).sort();
  const applied: string[] = [];
  await sql.transaction(async (tx) => {
    await tx.query('select pg_advisory_xact_lock(7310001)');
    const done = new Set((await tx.query<{ name: string }>('select name from schema_migrations')).map((r) => r.name));
    for (const file of files) {
      if (done.has(file)) continue;
      await tx.exec(fs.readFileSync(path.join(DIR, file), 'utf8'));
      await tx.query('insert into schema_migrations (name) values ($1)', [file]);
      applied.push(file);
    }
  });
  return applied;
}
