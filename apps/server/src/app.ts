import fs from 'node:fs';
import path from 'node:path';
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import helmet from '@fastify/helmet';
import multipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import { Redis } from 'ioredis';
import { ErrorCode, errorMessage, parseLang, setBusinessTimeZone } from '@lynx/contract';
import type { Config } from './config.ts';
import type { Database, Db } from './db/client.ts';
import { migrate } from './db/migrate.ts';
import { installHttpPlatform } from './platform/http.ts';
import { helmetOptions } from './platform/security-headers.ts';
import { clientErrorHandler } from './platform/request-shape.ts';
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
import { OpenApiGate, installOpenApiGate } from './modules/openapi/signed-calls.ts';
import { networkRoutes } from './modules/network/routes.ts';
import { commservRoutes } from './modules/network/commserv/routes.ts';
import { planRoutes } from './modules/plan/plan-routes.ts';
import { opconfigRoutes } from './modules/network/opconfig/routes.ts';
import { netconfigRoutes } from './modules/network/netconfig/routes.ts';
import { custOperationRoutes } from './modules/network/custoperation/routes.ts';
import { simTrafficRoutes } from './modules/network/simtraffic/routes.ts';
import { dsimRoutes } from './modules/dsim/routes.ts';
import { channelCardRoutes } from './modules/channelcard/routes.ts';
import { resellRoutes } from './modules/resell/routes.ts';
import { stockRoutes } from './modules/stock/routes.ts';
import { retailRoutes } from './modules/plan/retail-routes.ts';
import { cardDataRoutes } from './modules/card/list/routes.ts';
import { cardDetailRoutes } from './modules/card/detail/routes.ts';
import { batchRoutes } from './modules/card/batch/routes.ts';
import { cardCatalogRoutes } from './modules/card/catalog/routes.ts';
import { diagnoseRoutes } from './modules/diagnose/diagnose-routes.ts';
import { usageModule } from './modules/usage/usage-routes.ts';
import { homeRoutes } from './modules/home/routes.ts';
import { poolRoutes } from './modules/pool/pool-routes.ts';
import { searchRoutes } from './modules/search/search-routes.ts';
import { capitalRoutes } from './modules/money/capital-routes.ts';
import { rechargeRoutes } from './modules/money/recharge/recharge-routes.ts';
import { withdrawRoutes } from './modules/money/withdraw/withdraw-routes.ts';
import { creditRoutes } from './modules/money/credit/credit-routes.ts';
import { reportRoutes } from './modules/money/reports/report-routes.ts';
import { simReportRoutes } from './modules/usage/reports/simreport-routes.ts';
import { billRoutes } from './modules/billing/bills/bill-routes.ts';
import { chargeRoutes } from './modules/billing/charges/charge-routes.ts';
import { operatorBillRoutes } from './modules/billing/operator/operator-bill-routes.ts';
import { channelBillRoutes } from './modules/billing/channel/channel-bill-routes.ts';
import { billAutomateRoutes } from './modules/billing/automate/automate-routes.ts';
import { autoRuleRoutes } from './modules/automation/routes.ts';
import { smsRoutes } from './modules/sms/routes.ts';
import { euiccRoutes } from './modules/euicc/routes.ts';
import { dataPushRoutes } from './modules/delivery/datapush/datapush-routes.ts';
import { webhookRoutes } from './modules/delivery/webhook/routes.ts';
import { scheduleCardLifecycle } from './modules/card/lifecycle/scheduler.ts';
import { seedDemo, type SeedResult } from './seed/demo.ts';
import { seedDemoMoney } from './seed/demo-money.ts';
import { secretBoxFor } from './modules/network/opconfig/secrets.ts';

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
  /** the open API's signed calls (modules/openapi/signed-calls.ts) */
  signedCalls: OpenApiGate;
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
  // one business zone per process: every calendar helper and formatter reads it
  setBusinessTimeZone(config.timeZone);
  const app = Fastify({
    logger: { level: config.logLevel },
    // every API call is already in the API request log table
    logController: new LogController({ disableRequestLogging: true }),
    // only the configured proxies may name the client in X-Forwarded-For; without them the peer is the client
    trustProxy: config.trustedProxies.length ? config.trustedProxies : false,
    bodyLimit: 5 * 1024 * 1024,
    // what Node's HTTP parser refuses (a request line over 16 KB) is answered in the envelope too
    clientErrorHandler,
    ajv: {
      // unknown fields are refused (additionalProperties: false), never silently dropped; no type coercion
      customOptions: { removeAdditional: false, coerceTypes: false, useDefaults: true, allErrors: false },
    },
  });
  await migrate(database.sql);
  const seed = config.seedDemo
    ? await seedDemo(database.db, config.demoPassword, { box: config.demoSimulator ? secretBoxFor(config) : undefined, dataDir: config.dataDir })
    : null;

  const counters: CounterStore = config.redisUrl
    ? new RedisCounterStore(new Redis(config.redisUrl, { lazyConnect: false, maxRetriesPerRequest: 2, enableOfflineQueue: true }))
    : new MemoryCounterStore();
  const sessions = new SessionStore(database.db, config.sessionTtlHours);
  const apiLog = new ApiLogWriter(database.sql, (err) => app.log.error({ err }, 'api log write failed'));
  const jobs = new Jobs(database, app.log, config.timeZone);
  const exports = new ExportService(database.db, jobs, config.dataDir, (id) => sessions.actorOf(id));
  const files = new FileStore(database.db, config.dataDir);
  scheduleMaintenance(database.db, jobs, config.apiLogRetentionDays);
  scheduleCardLifecycle({ db: database.db, config }, jobs, app.log);
  const deps: AppDeps = {
    config, database, db: database.db, sessions, counters, apiLog, jobs, exports, files,
    limits: { perToken: config.rateLimitPerToken, perIp: config.rateLimitPerIp, windowMs: 60_000 },
    strictAudit: process.env.NODE_ENV === 'test',
    signedCalls: new OpenApiGate(database.db, () => secretBoxFor(config), app.log, { counters, perMinute: config.rateLimitPerToken }),
  };

  // security headers first, so every answer carries them: API, errors, 404s, static files
  await app.register(helmet, helmetOptions);
  // an oversized file is truncated, not thrown, so the upload rule can answer with its own message
  await app.register(multipart, { throwFileSizeLimit: false, limits: { fileSize: 3 * 1024 * 1024, files: 3 } });
  installHttpPlatform(app, deps);
  installOpenApiGate(app, deps.signedCalls);
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
  custOperationRoutes(app, deps);
  simTrafficRoutes(app, deps);
  stockRoutes(app, deps);
  retailRoutes(app, deps);
  cardDataRoutes(app, deps);
  cardDetailRoutes(app, deps);
  batchRoutes(app, deps);
  cardCatalogRoutes(app, deps);
  dsimRoutes(app, deps);
  channelCardRoutes(app, deps);
  resellRoutes(app, deps);
  poolRoutes(app, deps);
  searchRoutes(app, deps);
  capitalRoutes(app, deps);
  rechargeRoutes(app, deps);
  withdrawRoutes(app, deps);
  creditRoutes(app, deps);
  reportRoutes(app, deps);
  simReportRoutes(app, deps);
  billRoutes(app, deps);
  chargeRoutes(app, deps);
  operatorBillRoutes(app, deps);
  channelBillRoutes(app, deps);
  billAutomateRoutes(app, deps);
  autoRuleRoutes(app, deps);
  smsRoutes(app, deps);
  euiccRoutes(app, deps);
  dataPushRoutes(app, deps);
  const webhookWorker = webhookRoutes(app, deps);
  diagnoseRoutes(app, deps);
  await usageModule(app, deps);
  homeRoutes(app, deps);
  docsRoutes(app);
  app.get('/api/health', async () => ({ ok: true, database: database.kind }));

  const webIndex = path.join(config.webDist, 'index.html');
  const hasWeb = fs.existsSync(webIndex);
  // files are looked up per request (a new build is served without a restart)
  if (hasWeb) {
    const assetsDir = path.join(config.webDist, 'assets') + path.sep;
    await app.register(fastifyStatic, {
      root: config.webDist,
      wildcard: true,
      index: false,
      // the build writes <file>.br and <file>.gz (apps/web/scripts/console-dist.ts); the browser's Accept-Encoding picks one
      preCompressed: true,
      // the build's stamp and manifest stay private
      dotfiles: 'ignore',
      // the plugin writes its own cache-control after setHeaders: switched off, so setHeaders alone decides.
      // Hashed assets never change under their name; everything else (index.html, favicon) is revalidated by ETag.
      cacheControl: false,
      setHeaders: (res, file) => {
        res.setHeader('cache-control', file.startsWith(assetsDir) ? 'public, max-age=31536000, immutable' : 'no-cache');
        res.setHeader('vary', 'accept-encoding');
      },
    });
    app.get('/', (_req, reply) => reply.sendFile('index.html'));
  }
  app.setNotFoundHandler((req, reply) => {
    const pathname = req.url.split('?')[0];
    // a console route gets the app; a missing file (an old asset name, a typo) gets a real 404
    const isFile = pathname.startsWith('/assets/') || /\.[a-z0-9]+$/i.test(pathname) || pathname.includes('/.');
    if (hasWeb && (req.method === 'GET' || req.method === 'HEAD') && !pathname.startsWith('/api/') && !isFile) {
      return reply.sendFile('index.html');
    }
    const lang = parseLang((req.query as Record<string, unknown>)?.lang);
    return reply.status(404).send({ success: false, msg: errorMessage(ErrorCode.NotFound, lang), errorCode: ErrorCode.NotFound, data: null });
  });

  await app.ready();
  // demo money goes through the services and the simulator's notification call, so it needs the routes in place
  // (examples, not data: a failure is logged and the server starts; every movement made is whole, as in use)
  if (seed && config.demoMoney) {
    await seedDemoMoney(app, deps).catch((err: unknown) => app.log.error({ err }, 'demo money could not be made; the rest of the demo data is complete'));
  }
  let jobsStarted = false;
  const startJobs = async (poll = 1) => {
    if (jobsStarted) return;
    jobsStarted = true;
    await jobs.start(config.runWorkers, poll);
    // signed webhook delivery (docs/webhooks.md): its worker runs where the background jobs run
    if (config.runWorkers) webhookWorker.start();
  };
  if (opts.jobs !== false) await startJobs();

  return {
    app, deps, seed, startJobs,
    close: async () => {
      await app.close();
      await webhookWorker.stop();
      await jobs.stop();
      await apiLog.close();
      await counters.close();
    },
  };
}
