// `npm run seed [-- --cards N [--seed S] [--usage-days D]]`: migrates the database (DATABASE_URL, else PGlite in
// DATA_DIR), creates the demo data when the database is empty (printing the demo logins once), and with --cards
// adds a fleet of N cards with a month of daily usage (seed/fleet.ts). For a million cards use PostgreSQL.
import { parseArgs } from 'node:util';
import { setBusinessTimeZone, formatCount } from '@lynx/contract';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/client.ts';
import { DataDirLockedError } from '../db/lock.ts';
import { migrate } from '../db/migrate.ts';
import { seedDemo } from './demo.ts';
import { demoLoginBlock } from './demo-logins.ts';
import { secretBoxFor } from '../modules/network/opconfig/secrets.ts';
import { FLEET_MAX_CARDS, seedFleet } from './fleet.ts';

const USAGE = `usage: npm run seed -- [--cards N] [--seed S] [--usage-days D]
  --cards N       add N fleet cards (1 to ${formatCount(FLEET_MAX_CARDS)}) to the demo customers
  --seed S        random seed (default 20261122): the same seed gives the same cards
  --usage-days D  days of daily usage ending yesterday (default 30, 0 for none)
Database: DATABASE_URL (PostgreSQL), else PGlite in DATA_DIR (default ./data). The server must not be running on a PGlite folder.`;

function intArg(name: string, raw: string | undefined, fallback: number, min: number, max: number): number {
  if (raw === undefined) return fallback;
  const v = Number(raw);
  if (!Number.isInteger(v) || v < min || v > max) {
    console.error(`--${name} must be a whole number from ${min} to ${max} (got ${raw})\n\n${USAGE}`);
    process.exit(2);
  }
  return v;
}

async function main() {
  let args;
  try {
    args = parseArgs({ options: { cards: { type: 'string' }, seed: { type: 'string' }, 'usage-days': { type: 'string' }, help: { type: 'boolean' } } }).values;
  } catch (e) {
    console.error(`${(e as Error).message}\n\n${USAGE}`);
    process.exit(2);
  }
  if (args.help) {
    console.log(USAGE);
    return;
  }
  const cards = intArg('cards', args.cards, 0, 1, FLEET_MAX_CARDS);
  const seed = intArg('seed', args.seed, 20261122, 0, 2 ** 31 - 1);
  const usageDays = intArg('usage-days', args['usage-days'], 30, 0, 366);

  const config = loadConfig();
  setBusinessTimeZone(config.timeZone);
  let database;
  try {
    database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  } catch (e) {
    if (e instanceof DataDirLockedError) {
      console.error(`\n${e.message}\n`);
      process.exit(2);
    }
    throw e;
  }
  let demoBlock: string[] = [];
  try {
    console.log(`database: ${database.describe}`);
    const applied = await migrate(database.sql);
    if (applied.length) console.log(`migrations applied: ${applied.join(', ')}`);
    const demo = await seedDemo(database.db, config.demoPassword, { box: config.demoSimulator ? secretBoxFor(config) : undefined, dataDir: config.dataDir });
    if (demo) demoBlock = ['', ...demoLoginBlock(demo)];
    else console.log('demo data: already present');
    if (cards > 0) await seedFleet(database.sql, { cards, seed, usageDays, log: (line) => console.log(line) });
  } finally {
    await database.close();
    // the demo logins end the output, even when the fleet failed (the data is there)
    if (demoBlock.length) console.log(demoBlock.join('\n'));
  }
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
