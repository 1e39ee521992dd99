import fs from 'node:fs';
import path from 'node:path';
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import multipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import { Redis } from 'ioredis';
import { ErrorCode, errorMessage, parseLang } from '@lynx/contract';
import type { Config } from './config.ts';
import type { Database, Db } from './db/client.ts';
import { migrate } from './db/migrate.ts';
import { installHttpPlatform } from './platform/http.ts';
import { SessionStore } from './platform/sessions.ts';
import { MemoryCounterStore, RedisCounterStore, type CounterStore } from './platform/ratelimit.ts';
import { ApiLogWriter } from './platform/apilog.ts';
import { Jobs } from './platform/jobs.ts';
import { ExportService } from './platform/exports.ts';
import { FileStore } from './platform/files.ts';
import { docsRoutes } from './platform/openapi.ts';
import { scheduleMaintenance } from './platform/maintenance.ts';
import { authRoutes } from './modules/auth/routes.ts';
import { accountRoutes } from './modules/account/routes.ts';
import { systemRoutes } from './modules/system/routes.ts';
import { noticeRoutes } from './modules/notice/routes.ts';
import { openApiRoutes } from './modules/openapi/routes.ts';
import { networkRoutes } from './modules/network/routes.ts';
import { commservRoutes } from './modules/network/commserv-routes.ts';
import { planRoutes } from './modules/plan/plan-routes.ts';
import { opconfigRoutes } from './modules/network/opconfig-routes.ts';
import { netconfigRoutes } from './modules/network/netconfig-routes.ts';
import { retailRoutes } from './modules/plan/retail-routes.ts';
import { cardDataRoutes } from './modules/card/card-data-routes.ts';
import { cardDetailRoutes } from './modules/card/card-detail-routes.ts';
import { batchRoutes } from './modules/card/batch-routes.ts';
import { cardCatalogRoutes } from './modules/card/catalog-routes.ts';
import { diagnoseRoutes } from './modules/diagnose/diagnose-routes.ts';
import { usageModule } from './modules/usage/usage-routes.ts';
import { poolRoutes } from './modules/pool/pool-routes.ts';
import { scheduleCardLifecycle } from './modules/card/card-scheduler.ts';
import { seedDemo, type SeedResult } from './seed/demo.ts';
import { secretBoxFor } from './modules/network/opconfig-secrets.ts';

export interface AppDeps {
  config: Config;
  database: Database;
  db: Db;
  sessions: SessionStore;
  counters: CounterStore;
  limits: { perToken: number; perIp: number; windowMs: number };
  apiLog: ApiLogWriter;
  jobs: Jobs;
  exports: ExportService;
  files: FileStore;
  strictAudit: boolean;
}

export interface BuiltApp {
  app: FastifyInstance;
  deps: AppDeps;
  seed: SeedResult | null;
  /** starts the job queue (and its workers when config.runWorkers) */
  startJobs(pollingIntervalSeconds?: number): Promise<void>;
  close(): Promise<void>;
}

/** Builds the whole server on an open database: migrations, demo data, platform, modules. Tests use it with inject. */
export async function buildApp(config: Config, database: Database, opts: { jobs?: boolean } = {}): Promise<BuiltApp> {
  const app = Fastify({
    logger: { level: config.logLevel },
    // every API call is already in the API request log table
    logController: new LogController({ disableRequestLogging: true }),
    trustProxy: true,
    bodyLimit: 5 * 1024 * 1024,
    ajv: {
      // unknown fields are refused (additionalProperties: false), never silently dropped; no type coercion
      customOptions: { removeAdditional: false, coerceTypes: false, useDefaults: true, allErrors: false },
    },
  });
  await migrate(database.sql);
  const seed = config.seedDemo ? await seedDemo(database.db, config.demoPassword, { box: config.demoSimulator ? secretBoxFor(config) : undefined }) : null;

  const counters: CounterStore = config.redisUrl
    ? new RedisCounterStore(new Redis(config.redisUrl, { lazyConnect: false, maxRetriesPerRequest: 2, enableOfflineQueue: true }))
    : new MemoryCounterStore();
  const sessions = new SessionStore(database.db, config.sessionTtlHours);
  const apiLog = new ApiLogWriter(database.sql, (err) => app.log.error({ err }, 'api log write failed'));
  const jobs = new Jobs(database, app.log);
  const exports = new ExportService(database.db, jobs, config.dataDir, (id) => sessions.actorOf(id));
  const files = new FileStore(database.db, config.dataDir);
  scheduleMaintenance(database.db, jobs, config.apiLogRetentionDays);
  scheduleCardLifecycle({ db: database.db, config }, jobs, app.log);
  const deps: AppDeps = {
    config, database, db: database.db, sessions, counters, apiLog, jobs, exports, files,
    limits: { perToken: config.rateLimitPerToken, perIp: config.rateLimitPerIp, windowMs: 60_000 },
    strictAudit: process.env.NODE_ENV === 'test',
  };

  // an oversized file is truncated, not thrown, so the upload rule can answer with its own message
  await app.register(multipart, { throwFileSizeLimit: false, limits: { fileSize: 3 * 1024 * 1024, files: 3 } });
  installHttpPlatform(app, deps);
  authRoutes(app, deps);
  accountRoutes(app, deps);
  systemRoutes(app, deps);
  noticeRoutes(app, deps);
  openApiRoutes(app, deps);
  networkRoutes(app, deps);
  commservRoutes(app, deps);
  planRoutes(app, deps);
  opconfigRoutes(app, deps);
  netconfigRoutes(app, deps);
  retailRoutes(app, deps);
  cardDataRoutes(app, deps);
  cardDetailRoutes(app, deps);
  batchRoutes(app, deps);
  cardCatalogRoutes(app, deps);
  poolRoutes(app, deps);
  diagnoseRoutes(app, deps);
  await usageModule(app, deps);
  docsRoutes(app);
  app.get('/api/health', async () => ({ ok: true, database: database.kind }));

  const webIndex = path.join(config.webDist, 'index.html');
  const hasWeb = fs.existsSync(webIndex);
  // files are looked up per request (a new build is served without a restart); hashed assets are cached for good
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: config.webDist,
      wildcard: true,
      index: false,
      setHeaders: (res, file) => {
        if (file.includes(`${path.sep}assets${path.sep}`)) res.setHeader('cache-control', 'public, max-age=31536000, immutable');
      },
    });
  }
  if (hasWeb) app.get('/', (_req, reply) => reply.header('cache-control', 'no-cache').sendFile('index.html'));
  app.setNotFoundHandler((req, reply) => {
    const pathname = req.url.split('?')[0];
    // a console route gets the app; a missing file (an old asset name, a typo) gets a real 404
    const isFile = pathname.startsWith('/assets/') || /\.[a-z0-9]+$/i.test(pathname);
    if (hasWeb && req.method === 'GET' && !pathname.startsWith('/api/') && !isFile) {
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    }
    const lang = parseLang((req.query as Record<string, unknown>)?.lang);
    return reply.status(404).send({ success: false, msg: errorMessage(ErrorCode.NotFound, lang), errorCode: ErrorCode.NotFound, data: null });
  });

  await app.ready();
  let jobsStarted = false;
  const startJobs = async (poll = 1) => {
    if (jobsStarted) return;
    jobsStarted = true;
    await jobs.start(config.runWorkers, poll);
  };
  if (opts.jobs !== false) await startJobs();

  return {
    app, deps, seed, startJobs,
    close: async () => {
      await app.close();
      await jobs.stop();
      await apiLog.close();
      await counters.close();
    },
  };
}
