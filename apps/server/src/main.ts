import { loadConfig } from './config.ts';
import { openDatabase } from './db/client.ts';
import { DataDirLockedError } from './db/lock.ts';
import { buildApp } from './app.ts';

async function main() {
  const workerOnly = process.argv.includes('--worker-only');
  const config = loadConfig();
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

  if (workerOnly) {
    console.log(`Lynx CMP worker running on ${database.describe}`);
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
  if (seed) {
    lines.push('', 'Demo data created. Demo logins (shown only this once; keep them):');
    for (const l of seed.logins) lines.push(`  ${l.loginName.padEnd(12)} role ${l.roleId}  password ${l.password}`);
  }
  console.log(lines.join('\n') + '\n');
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
