import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import net from 'node:net';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import type { TestProject } from 'vitest/node';
import { startReceivers } from './receivers.ts';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const WEB = path.join(ROOT, 'apps/web');
export const DEMO_PASSWORD = 'Demo@2026pass';

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });

declare module 'vitest' {
  export interface ProvidedContext {
    baseURL: string;
    /** the webhook receiver and SMTP server's window (receivers.ts) */
    receivers: string;
  }
}

let server: ChildProcess | null = null;
let dataDir = '';
let receivers: Awaited<ReturnType<typeof startReceivers>> | null = null;

/** Builds the console, starts the real server on a fresh embedded database, and hands its URL to the specs. */
export async function setup(project: TestProject) {
  if (!process.env.E2E_SKIP_BUILD) {
    // the test runner sets NODE_ENV=test; the console under test is the production build
    const build = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], { cwd: WEB, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } });
    if (build.status !== 0) throw new Error('vite build failed');
  }
  fs.mkdirSync(path.join(WEB, 'e2e/artifacts'), { recursive: true });
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lynx-e2e-'));
  const port = await freePort();
  // where the server's e-mail and webhooks go (delivery.e2e.ts): its SMTP settings are read once, at start
  receivers = await startReceivers();
  server = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'apps/server/src/main.ts')], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      REDIS_URL: '',
      CMP_DEMO_PASSWORD: DEMO_PASSWORD,
      CMP_WEB_DIST: path.join(WEB, 'dist'),
      CMP_RATE_LIMIT: '100000',
      CMP_RATE_LIMIT_IP: '100000',
      // the usage feed as often as it goes (every minute): the card journey watches usage arrive
      CMP_USAGE_FEED_MINUTES: '1',
      // e-mail to the SMTP server above (no sign-in, no TLS)
      CMP_SMTP_HOST: '127.0.0.1',
      CMP_SMTP_PORT: String(receivers.smtpPort),
      CMP_SMTP_FROM: 'Lynx CMP <noreply@lynx.e2e>',
      // customers' callback addresses must be public in production (platform/outbound.ts); the test receiver is on loopback
      CMP_OUTBOUND_ALLOW_PRIVATE: 'on',
      // a failed webhook is tried once more after 1 s, then dead-lettered (instead of 8 attempts over 43 hours)
      CMP_WEBHOOK_RETRY_SECONDS: '1',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const baseURL = `http://127.0.0.1:${port}`;
  // a fresh embedded database with the demo data takes 80-90 s to start when the 2-core machine is busy
  const until = Date.now() + 240_000;
  for (;;) {
    try {
      const r = await fetch(`${baseURL}/api/health`);
      if (r.ok) break;
    } catch {
      /* not up yet */
    }
    if (Date.now() > until) {
      server.kill('SIGTERM');
      throw new Error('the server did not start');
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  project.provide('baseURL', baseURL);
  project.provide('receivers', receivers.url);
}

export async function teardown() {
  if (server) {
    server.kill('SIGTERM');
    await new Promise((r) => server!.once('exit', r));
  }
  await receivers?.close();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
}
