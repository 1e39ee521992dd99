import './platform/v8-flags.ts';
import { loadConfig } from './config.ts';
import { openDatabase } from './db/client.ts';
import { DataDirLockedError } from './db/lock.ts';
import type { FastifyBaseLogger } from 'fastify';
import { buildApp } from './app.ts';
import { demoLoginBlock } from './seed/demo-logins.ts';

/**
 * Resolves once the log lines written so far are out: the logger writes asynchronously, and the start-up block
 * printed after it (the demo logins) must be the last thing on the screen, after "Server listening".
 */
function logsWritten(log: FastifyBaseLogger): Promise<void> {
  const flush = (log as FastifyBaseLogger & { flush?: (cb?: (err?: Error) => void) => void }).flush;
  if (typeof flush !== 'function') return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, 2000);
    flush.call(log, () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

async function main() {
  const workerOnly = process.argv.includes('--worker-only');
  let config;
  try {
    config = loadConfig();
  } catch (e) {
    // a wrong setting (CMP_TIME_ZONE, CMP_TRUSTED_PROXIES, …) stops the start with its own message, not a stack trace
    console.error(`\nLynx CMP cannot start: ${(e as Error).message}\n`);
    process.exit(2);
  }
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
  const built = await buildApp(config, database);
  const { app, seed } = built;
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info(`${signal}: shutting down`);
    await built.close().catch(() => {});
    await database.close().catch(() => {});
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));

  // a worker can be the process that finds the database empty and creates the demo data
  const demoLines = seed ? ['', ...demoLoginBlock(seed)] : [];
  if (workerOnly) {
    await logsWritten(app.log);
    console.log([`Lynx CMP worker running on ${database.describe}`, ...demoLines].join('\n') + '\n');
    return;
  }
  await app.listen({ port: config.port, host: config.host });
  const url = `http://localhost:${config.port}`;
  const lines = [
    '',
    `Lynx CMP is running at ${url}`,
    `  database: ${database.describe}`,
    `  API reference: ${url}/api/docs`,
  ];
  await logsWritten(app.log);
  console.log([...lines, ...demoLines].join('\n') + '\n');
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
