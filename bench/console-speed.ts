/**
 * Speed of the console (issue 12), measured in Chromium against the production build served by the real server.
 *
 *   npm run bench:console
 *
 * Builds the console when its sources changed (`apps/web/scripts/build-if-changed.ts`, as `npm start` does), then
 * starts the server as `npm start` runs it (`node --import tsx apps/server/src/main.ts`, background jobs on, default
 * rate limits and log level) on a fresh DATA_DIR (embedded PGlite, demo data) at 127.0.0.1:BENCH_PORT (default 8096),
 * waits for /api/health, and drives Debian's Chromium (playwright-core, headless). Every run starts from a new browser
 * context, so the HTTP cache is cold. Per language (BENCH_CONSOLE_LANGS, default "zh,en", set as lx_language) and run
 * (BENCH_RUNS, default 7):
 *
 *   1. login page: /login in a new context; first contentful paint (the paint entry), the login form visible, and the
 *      bytes over the wire: the transferSize of the navigation and every resource entry, cross-checked with a CDP
 *      Network listener summing encodedDataLength (Chromium sends Accept-Encoding: br, so the .br files are used);
 *   2. sign in through the form (BENCH_CONSOLE_USER, default admin), then a NEW page in the same context at the card
 *      list deep link (warm cache: what a user who just signed in gets);
 *   3. deep link, cold: a new context holding the session as the console stores it (the lx_* localStorage keys the
 *      sign-in of step 2 wrote), /card/card-list/list: navigation start → first row of the card list visible;
 *   4. from the menu: a new context with the session, /home/index loaded, the "Cards" submenu opened, then a click on
 *      "Card list": click event → first row visible.
 *
 * "Visible" is taken in the page by a requestAnimationFrame loop (an init script) that checks
 * `.lx-page[data-tab^="/card/card-list/list"] .ant-table-row` with checkVisibility(): the time is performance.now() in
 * the animation-frame callback of the first frame that paints a row. Playwright's `.lx-page:visible .ant-table-row` is
 * also awaited, to check the row is really there. Prints p50 / p95 / max (nearest rank: with 7 runs p95 is the slowest
 * run) against the targets and writes bench/results/console-speed.json (git ignores bench/results/). Exits 0 when every
 * target is met, 2 otherwise.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { HOST, gitInfo, machineInfo, posInt, runBench, sleep, writeResults } from './common.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DIST = path.join(ROOT, 'apps/web/dist');
const PORT = posInt('BENCH_PORT', 8096);
const RUNS = posInt('BENCH_RUNS', 7);
const LANGS = (process.env.BENCH_CONSOLE_LANGS ?? 'zh,en').split(',').map((s) => s.trim()).filter((s): s is Lang => s === 'zh' || s === 'en');
const USER = process.env.BENCH_CONSOLE_USER ?? 'admin';
const PASSWORD = 'Bench@2026pass';
const ORIGIN = `http://${HOST}:${PORT}`;
const DEEP_LINK = '/card/card-list/list';
const ROWS = `.lx-page[data-tab^="${DEEP_LINK}"] .ant-table-row`;

type Lang = 'zh' | 'en';
const MENU = { zh: { cards: '卡管理', cardList: '卡列表' }, en: { cards: 'Cards', cardList: 'Card list' } } as const;

const TARGETS = {
  loginFcpMs: { label: 'login page first contentful paint', limit: 1000, unit: 'ms' },
  loginBytes: { label: 'login page bytes over the wire', limit: 150 * 1024, unit: 'bytes' },
  deepLinkRowsMs: { label: 'card list rows from a deep link (cold cache)', limit: 1500, unit: 'ms' },
  menuRowsMs: { label: 'card list rows from the menu', limit: 500, unit: 'ms' },
} as const;
type Metric = keyof typeof TARGETS;

interface ResourceRow {
  name: string;
  initiatorType: string;
  transferSize: number;
  encodedBodySize: number;
  decodedBodySize: number;
  startMs: number;
  endMs: number;
}
interface CdpRow { url: string; status: number; encoding: string; mimeType: string; encodedDataLength: number; fromCache: boolean }

interface Run {
  lang: Lang;
  run: number;
  login: {
    fcpMs: number | null;
    formVisibleMs: number | null;
    domContentLoadedMs: number;
    loadMs: number;
    transferBytes: number;
    cdpBytes: number;
    requests: number;
    cdpRequests: number;
    resources: ResourceRow[];
    cdp: CdpRow[];
  };
  deepLinkWarm: { rowsMs: number | null; fcpMs: number | null };
  deepLinkCold: { rowsMs: number | null; fcpMs: number | null; transferBytes: number; requests: number; waterfall: string[] };
  menu: { rowsMs: number | null; outsideMs: number; requests: string[] };
}

/** The few browser globals the in-page functions use (the bench's tsconfig has no DOM library). */
interface BrowserEl { checkVisibility(): boolean; closest(selector: string): BrowserEl | null }
interface BrowserWindow {
  document: {
    querySelectorAll(selector: string): Iterable<BrowserEl>;
    addEventListener(type: 'click', fn: (e: { target: BrowserEl | null; timeStamp: number }) => void, capture: boolean): void;
  };
  requestAnimationFrame(fn: (t: number) => void): number;
  localStorage: { getItem(k: string): string | null; setItem(k: string, v: string): void; key(i: number): string | null; length: number };
  PerformanceObserver: new (fn: (list: { getEntriesByName(n: string): { startTime: number }[] }) => void) => { observe(o: { type: string; buffered: boolean }): void };
  __lxBench: { marks: Record<string, number>; click: number | null };
}
interface Timing { name: string; initiatorType: string; transferSize: number; encodedBodySize: number; decodedBodySize: number; startTime: number; responseEnd: number; domContentLoadedEventEnd: number; loadEventEnd: number }

/**
 * Init script: a requestAnimationFrame loop noting (performance.now(), i.e. since navigation start) the first frame in
 * which each watched selector has a visible element (the time its animation-frame callbacks run, just before it is
 * painted), and the time stamp of the last click in the side menu.
 */
function watchScript(watch: [string, string][]) {
  const w = globalThis as unknown as BrowserWindow;
  const bench: BrowserWindow['__lxBench'] = { marks: {}, click: null };
  w.__lxBench = bench;
  w.document.addEventListener('click', (e) => {
    if (e.target?.closest?.('.lx-sider .ant-menu-item')) bench.click = e.timeStamp;
  }, true);
  const until = performance.now() + 120_000;
  // performance.now() in the callback, not the frame's time stamp: that is the frame's start, which comes before the
  // work (a response, a render) a busy main thread does ahead of the callback
  const frame = () => {
    const t = performance.now();
    let open = false;
    for (const [name, selector] of watch) {
      if (bench.marks[name] !== undefined) continue;
      open = true;
      for (const el of w.document.querySelectorAll(selector)) {
        if (el.checkVisibility()) {
          bench.marks[name] = t;
          break;
        }
      }
    }
    if (open && t < until) w.requestAnimationFrame(frame);
  };
  w.requestAnimationFrame(frame);
}

async function newContext(browser: Browser, lang: Lang, watch: [string, string][], session?: Record<string, string>): Promise<BrowserContext> {
  const context = await browser.newContext({
    baseURL: ORIGIN,
    viewport: { width: 1440, height: 900 },
    locale: lang === 'zh' ? 'zh-CN' : 'en-US',
    timezoneId: 'Asia/Shanghai',
  });
  // tsx (esbuild keepNames) wraps named inner functions in __name(): the functions sent to the page need it there
  await context.addInitScript({ content: 'globalThis.__name ??= (f) => f;' });
  await context.addInitScript(
    ({ l, s }) => {
      const { localStorage } = globalThis as unknown as BrowserWindow;
      if (!localStorage.getItem('lx_language')) localStorage.setItem('lx_language', l);
      if (s && !localStorage.getItem('lx_access_token')) for (const [k, v] of Object.entries(s)) localStorage.setItem(k, v);
    },
    { l: lang, s: session ?? null },
  );
  await context.addInitScript(watchScript, watch);
  return context;
}

const marks = (page: Page) => page.evaluate(() => (globalThis as unknown as BrowserWindow).__lxBench);

const fcpOf = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<number | null>((resolve) => {
        const now = performance.getEntriesByName('first-contentful-paint')[0];
        if (now) return resolve(now.startTime);
        new (globalThis as unknown as BrowserWindow).PerformanceObserver((list) => {
          const e = list.getEntriesByName('first-contentful-paint')[0];
          if (e) resolve(e.startTime);
        }).observe({ type: 'paint', buffered: true });
        setTimeout(() => resolve(null), 10_000);
      }),
  );

const entriesOf = (page: Page) =>
  page.evaluate(() => {
    const perf = performance as unknown as { getEntriesByType(type: string): Timing[] };
    const nav = perf.getEntriesByType('navigation')[0];
    const row = (e: Timing) => ({
      name: e.name,
      initiatorType: e.initiatorType,
      transferSize: e.transferSize,
      encodedBodySize: e.encodedBodySize,
      decodedBodySize: e.decodedBodySize,
      startMs: Math.round(e.startTime * 10) / 10,
      endMs: Math.round(e.responseEnd * 10) / 10,
    });
    return {
      nav: row(nav),
      domContentLoadedMs: nav.domContentLoadedEventEnd,
      loadMs: nav.loadEventEnd,
      resources: perf.getEntriesByType('resource').map(row),
    };
  });

/** Every response the page's network saw, from CDP: body plus headers as they came over the connection. */
async function cdpListener(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  const byId = new Map<string, CdpRow>();
  cdp.on('Network.responseReceived', (e) => {
    const h = Object.fromEntries(Object.entries(e.response.headers).map(([k, v]) => [k.toLowerCase(), String(v)]));
    byId.set(e.requestId, { url: e.response.url, status: e.response.status, encoding: h['content-encoding'] ?? 'identity', mimeType: e.response.mimeType, encodedDataLength: 0, fromCache: !!e.response.fromDiskCache });
  });
  cdp.on('Network.loadingFinished', (e) => {
    const r = byId.get(e.requestId);
    if (r) r.encodedDataLength = e.encodedDataLength;
  });
  await cdp.send('Network.enable');
  return () => [...byId.values()];
}

const idle = (page: Page) => page.waitForLoadState('networkidle', { timeout: 15_000 }).catch(() => undefined);
const visibleRows = (page: Page) => page.locator('.lx-page:visible .ant-table-row').first().waitFor({ state: 'visible', timeout: 30_000 });

async function oneRun(browser: Browser, lang: Lang, run: number): Promise<Run> {
  // 1. the login page, cold cache
  const ctxA = await newContext(browser, lang, [['loginForm', '#loginName'], ['sider', '.lx-sider'], ['rows', ROWS]]);
  const page = await ctxA.newPage();
  const cdpRows = await cdpListener(page);
  await page.goto('/login', { waitUntil: 'load' });
  await page.locator('#loginName').waitFor({ state: 'visible' });
  await idle(page);
  const fcpMs = await fcpOf(page);
  const entries = await entriesOf(page);
  const loginMarks = await marks(page);
  const resources = [entries.nav, ...entries.resources];
  const cdp = cdpRows();
  const login: Run['login'] = {
    fcpMs,
    formVisibleMs: loginMarks.marks.loginForm ?? null,
    domContentLoadedMs: entries.domContentLoadedMs,
    loadMs: entries.loadMs,
    transferBytes: resources.reduce((s, r) => s + r.transferSize, 0),
    cdpBytes: cdp.reduce((s, r) => s + r.encodedDataLength, 0),
    requests: resources.length,
    cdpRequests: cdp.length,
    resources,
    cdp,
  };

  // 2. sign in through the form, then a new page at the deep link in the same (now warm) context
  await page.locator('#loginName').fill(USER);
  await page.locator('#password').fill(PASSWORD);
  await page.locator('button[type=submit]').click();
  await page.waitForURL((u) => !u.pathname.startsWith('/login'), { timeout: 30_000 });
  await page.locator('.lx-sider').waitFor({ timeout: 30_000 });
  await idle(page);
  const session = await page.evaluate(() => {
    const { localStorage } = globalThis as unknown as BrowserWindow;
    const keys = Array.from({ length: localStorage.length }, (_, i) => localStorage.key(i)!);
    return Object.fromEntries(keys.filter((k) => k.startsWith('lx_') && k !== 'lx_language').map((k) => [k, localStorage.getItem(k)!]));
  });
  if (!session.lx_access_token) throw new Error('no lx_access_token in localStorage after signing in');
  const warm = await ctxA.newPage();
  await warm.goto(DEEP_LINK);
  await visibleRows(warm);
  const deepLinkWarm = { rowsMs: (await marks(warm)).marks.rows ?? null, fcpMs: await fcpOf(warm) };
  await ctxA.close();

  // 3. the deep link in a new context (cold cache) holding the session
  const ctxB = await newContext(browser, lang, [['rows', ROWS]], session);
  const deep = await ctxB.newPage();
  await deep.goto(DEEP_LINK);
  await visibleRows(deep);
  await idle(deep);
  const deepEntries = await entriesOf(deep);
  const deepRes = [deepEntries.nav, ...deepEntries.resources];
  const deepLinkCold = {
    rowsMs: (await marks(deep)).marks.rows ?? null,
    fcpMs: await fcpOf(deep),
    transferBytes: deepRes.reduce((s, r) => s + r.transferSize, 0),
    requests: deepRes.length,
    waterfall: deepRes.map((r) => `${new URL(r.name).pathname} ${r.transferSize} B ${Math.round(r.startMs)}→${Math.round(r.endMs)} ms`),
  };
  await ctxB.close();

  // 4. from the menu once the console is loaded
  const ctxC = await newContext(browser, lang, [['sider', '.lx-sider'], ['rows', ROWS]], session);
  const home = await ctxC.newPage();
  await home.goto('/home/index');
  await home.locator('.lx-sider').waitFor();
  await home.locator('.lx-page:visible').first().waitFor();
  await idle(home);
  const exact = (s: string) => new RegExp(`^\\s*${s}\\s*$`);
  const item = home.locator('.lx-sider li.ant-menu-item').filter({ has: home.locator('.ant-menu-title-content', { hasText: exact(MENU[lang].cardList) }) });
  if (!(await item.isVisible())) {
    await home.locator('.lx-sider .ant-menu-submenu-title').filter({ has: home.locator('.ant-menu-title-content', { hasText: exact(MENU[lang].cards) }) }).click();
    await item.waitFor({ state: 'visible' });
  }
  await sleep(600); // the submenu's opening animation
  const before = (await entriesOf(home)).resources.length;
  const t0 = performance.now();
  await item.click();
  await visibleRows(home);
  const outsideMs = performance.now() - t0;
  const m = await marks(home);
  const after = (await entriesOf(home)).resources.slice(before);
  const menu = {
    rowsMs: m.marks.rows !== undefined && m.click !== null ? m.marks.rows - m.click : null,
    outsideMs: Math.round(outsideMs),
    // each request after the click: path, bytes, start → end in ms since the click
    requests: after.map((r) => `${new URL(r.name).pathname} ${r.transferSize} B ${Math.round(r.startMs - (m.click ?? 0))}→${Math.round(r.endMs - (m.click ?? 0))} ms`),
  };
  await ctxC.close();
  return { lang, run, login, deepLinkWarm, deepLinkCold, menu };
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
};
const stats = (xs: (number | null)[]) => {
  const v = xs.filter((x): x is number => x !== null && Number.isFinite(x));
  if (v.length === 0) return null;
  return { n: v.length, missing: xs.length - v.length, p50: Math.round(pct(v, 50)), p95: Math.round(pct(v, 95)), max: Math.round(Math.max(...v)), min: Math.round(Math.min(...v)) };
};

function manifestNames(): Map<string, string> {
  try {
    const manifest: Record<string, { file: string; css?: string[] }> = JSON.parse(fs.readFileSync(path.join(DIST, '.vite/manifest.json'), 'utf8'));
    const m = new Map<string, string>();
    for (const [k, v] of Object.entries(manifest)) {
      m.set(`/${v.file}`, k);
      for (const c of v.css ?? []) if (!m.has(`/${c}`)) m.set(`/${c}`, `${k} (css)`);
    }
    return m;
  } catch {
    return new Map();
  }
}

async function startServer(cleanup: { add(fn: () => Promise<void>): void }) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lynx-bench-console-'));
  cleanup.add(async () => fs.rmSync(dataDir, { recursive: true, force: true }));
  const logFile = path.join(dataDir, 'server.log');
  const log = fs.openSync(logFile, 'a');
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(PORT), HOST, DATA_DIR: path.join(dataDir, 'data'), CMP_DEMO_PASSWORD: PASSWORD, DATABASE_URL: '', REDIS_URL: '' };
  if (env.NODE_ENV === 'test') delete env.NODE_ENV; // npm start runs without it
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'apps/server/src/main.ts')], { cwd: ROOT, env, stdio: ['ignore', log, log] });
  cleanup.add(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await Promise.race([once(child, 'exit'), sleep(10_000)]);
    }
    fs.closeSync(log);
  });
  const t0 = performance.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}):\n${fs.readFileSync(logFile, 'utf8').slice(-3000)}`);
    try {
      if ((await fetch(`${ORIGIN}/api/health`)).ok) break;
    } catch {
      /* not listening yet */
    }
    if (performance.now() - t0 > 180_000) throw new Error('the server did not answer /api/health within 180 s');
    await sleep(200);
  }
  return { startMs: Math.round(performance.now() - t0) };
}

runBench(30 * 60_000, async (cleanup) => {
  if (LANGS.length === 0) throw new Error('BENCH_CONSOLE_LANGS must list zh and/or en');
  console.log(`load average ${os.loadavg().map((x) => x.toFixed(2)).join(' ')} on ${os.cpus().length} cores`);

  // the production build, as npm start gets it
  const b0 = performance.now();
  const build = spawnSync(process.execPath, ['--import', 'tsx', path.join(ROOT, 'apps/web/scripts/build-if-changed.ts')], { cwd: ROOT, stdio: 'inherit', env: { ...process.env, NODE_ENV: process.env.NODE_ENV === 'test' ? '' : process.env.NODE_ENV } });
  if (build.status !== 0) throw new Error('the console build failed');
  const buildCheckMs = Math.round(performance.now() - b0);

  const server = await startServer(cleanup);
  console.log(`server answering on ${ORIGIN} after ${(server.startMs / 1000).toFixed(1)} s (fresh DATA_DIR, demo data, jobs on)`);

  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  cleanup.add(() => browser.close());

  // one untimed run per language first: the server's first answers (JIT, caches of the session and static files)
  for (const lang of LANGS) await oneRun(browser, lang, 0);

  const runs: Run[] = [];
  for (let i = 1; i <= RUNS; i++) {
    for (const lang of LANGS) {
      const r = await oneRun(browser, lang, i);
      runs.push(r);
      console.log(
        `run ${i} ${lang}: login FCP ${r.login.fcpMs?.toFixed(0)} ms, form ${r.login.formVisibleMs?.toFixed(0)} ms, ${r.login.transferBytes} B (CDP ${r.login.cdpBytes} B, ${r.login.requests} requests); ` +
          `deep link rows ${r.deepLinkCold.rowsMs?.toFixed(0)} ms cold / ${r.deepLinkWarm.rowsMs?.toFixed(0)} ms warm; menu rows ${r.menu.rowsMs?.toFixed(0)} ms (${r.menu.outsideMs} ms seen from the driver)`,
      );
    }
  }

  const names = manifestNames();
  const byLang = Object.fromEntries(
    LANGS.map((lang) => {
      const rs = runs.filter((r) => r.lang === lang);
      const metrics = {
        loginFcpMs: stats(rs.map((r) => r.login.fcpMs)),
        loginFormVisibleMs: stats(rs.map((r) => r.login.formVisibleMs)),
        loginBytes: stats(rs.map((r) => r.login.transferBytes)),
        loginBytesCdp: stats(rs.map((r) => r.login.cdpBytes)),
        loginRequests: stats(rs.map((r) => r.login.requests)),
        deepLinkRowsMs: stats(rs.map((r) => r.deepLinkCold.rowsMs)),
        deepLinkFcpMs: stats(rs.map((r) => r.deepLinkCold.fcpMs)),
        deepLinkBytes: stats(rs.map((r) => r.deepLinkCold.transferBytes)),
        deepLinkWarmRowsMs: stats(rs.map((r) => r.deepLinkWarm.rowsMs)),
        menuRowsMs: stats(rs.map((r) => r.menu.rowsMs)),
        menuRowsDriverMs: stats(rs.map((r) => r.menu.outsideMs)),
      };
      // what the login page loads (the last run; the files are the same in every run)
      const last = rs[rs.length - 1];
      const enc = new Map(last.login.cdp.map((c) => [c.url, c]));
      const loads = last.login.resources.map((r) => {
        const p = new URL(r.name).pathname;
        return { path: p, source: names.get(p) ?? null, initiatorType: r.initiatorType, transferSize: r.transferSize, encodedBodySize: r.encodedBodySize, decodedBodySize: r.decodedBodySize, encoding: enc.get(r.name)?.encoding ?? null, startMs: r.startMs, endMs: r.endMs };
      });
      const cdpOnly = last.login.cdp.filter((c) => !last.login.resources.some((r) => r.name === c.url)).map((c) => ({ url: new URL(c.url).pathname, encodedDataLength: c.encodedDataLength, encoding: c.encoding }));
      const loginCdp = last.login.cdp.map((c) => ({ path: new URL(c.url).pathname, status: c.status, encoding: c.encoding, encodedDataLength: c.encodedDataLength }));
      return [lang, { metrics, loginLoads: loads, loginCdpOnly: cdpOnly, loginCdp, deepLinkWaterfall: last.deepLinkCold.waterfall, menuRequests: last.menu.requests }];
    }),
  );

  // the report
  const fmt = (m: Metric, v: number) => (TARGETS[m].unit === 'ms' ? `${v} ms` : `${(v / 1024).toFixed(1)} KB`);
  const verdicts: { lang: Lang; metric: Metric; met: boolean }[] = [];
  console.log(`\nIssue 12 console speed: ${RUNS} runs per language, cold cache (new context) each; p95 by nearest rank\n`);
  console.log(`${'lang'.padEnd(5)}${'metric'.padEnd(46)}${'p50'.padStart(11)}${'p95'.padStart(11)}${'max'.padStart(11)}   target        met`);
  for (const lang of LANGS) {
    for (const m of Object.keys(TARGETS) as Metric[]) {
      const s = byLang[lang].metrics[m];
      const met = s !== null && s.missing === 0 && s.p95 < TARGETS[m].limit;
      verdicts.push({ lang, metric: m, met });
      const target = `< ${fmt(m, TARGETS[m].limit)}`;
      console.log(`${lang.padEnd(5)}${TARGETS[m].label.padEnd(46)}${(s ? fmt(m, s.p50) : '-').padStart(11)}${(s ? fmt(m, s.p95) : '-').padStart(11)}${(s ? fmt(m, s.max) : '-').padStart(11)}   ${target.padEnd(14)}${met ? 'yes' : 'NO'}`);
    }
    const x = byLang[lang].metrics;
    console.log(
      `${''.padEnd(5)}also: login form visible p50 ${x.loginFormVisibleMs?.p50} ms; CDP bytes p50 ${x.loginBytesCdp?.p50} B; deep link FCP p50 ${x.deepLinkFcpMs?.p50} ms, ` +
        `${((x.deepLinkBytes?.p50 ?? 0) / 1024).toFixed(1)} KB; deep link after sign-in (warm cache) p50 ${x.deepLinkWarmRowsMs?.p50} ms; menu seen from the driver p50 ${x.menuRowsDriverMs?.p50} ms`,
    );
  }
  for (const lang of LANGS) {
    console.log(`\nWhat /login loads (${lang}, one run): transferSize / body on the wire / decoded bytes, encoding`);
    for (const l of byLang[lang].loginLoads) {
      console.log(`  ${l.path.padEnd(44)} ${String(l.transferSize).padStart(8)} ${String(l.encodedBodySize).padStart(8)} ${String(l.decodedBodySize).padStart(9)}  ${(l.encoding ?? '?').padEnd(8)} ${l.initiatorType.padEnd(15)} ${l.source ?? ''}`);
    }
    for (const c of byLang[lang].loginCdpOnly) console.log(`  (CDP only) ${c.url} ${c.encodedDataLength} B ${c.encoding}`);
  }

  const result = {
    when: new Date().toISOString(),
    git: gitInfo(),
    machine: { ...machineInfo(), loadAverage: os.loadavg() },
    chromium: browser.version(),
    setup: { origin: ORIGIN, user: USER, runs: RUNS, languages: LANGS, serverStartMs: server.startMs, buildCheckMs, viewport: '1440x900' },
    targets: TARGETS,
    verdicts,
    byLang,
    runs: runs.map((r) => ({ ...r, login: { ...r.login, resources: undefined, cdp: undefined }, deepLinkCold: { ...r.deepLinkCold, waterfall: undefined } })),
  };
  console.log(`\nresults: ${writeResults('console-speed', result)}`);
  return verdicts.every((v) => v.met) ? 0 : 2;
});
