import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { ErrorCode } from '@lynx/contract';
import { startTestApp, type TestApp } from './harness.ts';

// The built console as the server delivers it (issue 12). Static files do not touch the database: PGlite only.

const IMMUTABLE = 'public, max-age=31536000, immutable';
const INDEX = `<!doctype html><html><head><script type="module" src="/assets/app-C0ffee12.js"></script></head><body><div id="root"></div>${' '.repeat(1200)}</body></html>`;
const APP_JS = `export const words = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => `word number ${i}`))};\n`;
const SMALL_JS = 'export const one = 1;\n';

type Headers = Record<string, string | string[] | number | undefined>;

/** The helmet headers (perimeter.test.ts checks every one on every kind of answer); static answers must keep them. */
function expectSecurityHeaders(h: Headers) {
  expect(h['content-security-policy']).toMatch(/^default-src 'self';/);
  expect(h['x-content-type-options']).toBe('nosniff');
  expect(h['x-frame-options']).toBe('DENY');
  expect(h['referrer-policy']).toBe('no-referrer');
  expect(h['cross-origin-resource-policy']).toBe('same-origin');
}

const unbrotli = (b: Buffer) => zlib.brotliDecompressSync(b).toString();
const ungzip = (b: Buffer) => zlib.gunzipSync(b).toString();

describe('the built console: precompressed files, cache headers, HEAD, 404', () => {
  let t: TestApp;
  let webDist: string;
  const write = (file: string, content: string | Buffer) => fs.writeFileSync(path.join(webDist, file), content);

  beforeAll(async () => {
    // what the console build leaves in dist (apps/web/scripts/console-dist.ts), in miniature
    webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'lynx-static-'));
    fs.mkdirSync(path.join(webDist, 'assets'));
    write('index.html', INDEX);
    write('index.html.br', zlib.brotliCompressSync(INDEX));
    write('index.html.gz', zlib.gzipSync(INDEX));
    write('assets/app-C0ffee12.js', APP_JS);
    write('assets/app-C0ffee12.js.br', zlib.brotliCompressSync(APP_JS));
    write('assets/app-C0ffee12.js.gz', zlib.gzipSync(APP_JS));
    // under 1 KB: the build writes no compressed copies
    write('assets/small-Ab12Cd34.js', SMALL_JS);
    write('favicon.svg', '<svg xmlns="http://www.w3.org/2000/svg"/>');
    write('.source-hash', 'f00d\n');
    t = await startTestApp('pglite', { webDist }, { jobs: false });
  });
  afterAll(async () => {
    await t?.stop();
    fs.rmSync(webDist, { recursive: true, force: true });
  });

  const get = (url: string, acceptEncoding?: string, method: 'GET' | 'HEAD' = 'GET') =>
    t.app.inject({ method, url, headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding } });

  it.each([
    { acceptEncoding: 'br, gzip', encoding: 'br', decode: unbrotli },
    { acceptEncoding: 'gzip, deflate, br, zstd', encoding: 'br', decode: unbrotli },
    { acceptEncoding: 'gzip', encoding: 'gzip', decode: ungzip },
    { acceptEncoding: 'br;q=0.5, gzip', encoding: 'gzip', decode: ungzip },
    { acceptEncoding: 'identity', encoding: undefined, decode: (b: Buffer) => b.toString() },
    { acceptEncoding: undefined, encoding: undefined, decode: (b: Buffer) => b.toString() },
  ])('Accept-Encoding $acceptEncoding: a hashed asset goes out as $encoding, cached for good', async ({ acceptEncoding, encoding, decode }) => {
    const r = await get('/assets/app-C0ffee12.js', acceptEncoding);
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-encoding']).toBe(encoding);
    expect(r.headers['content-type']).toBe('application/javascript; charset=utf-8');
    expect(r.headers['cache-control']).toBe(IMMUTABLE);
    expect(r.headers.vary).toBe('accept-encoding');
    expect(Number(r.headers['content-length'])).toBe(r.rawPayload.length);
    expect(decode(r.rawPayload)).toBe(APP_JS);
    if (encoding) expect(r.rawPayload.length).toBeLessThan(APP_JS.length);
    expectSecurityHeaders(r.headers);
  });

  it('a file without compressed copies goes out as it is, whatever the browser accepts', async () => {
    const r = await get('/assets/small-Ab12Cd34.js', 'br, gzip');
    expect([r.statusCode, r.headers['content-encoding'], r.body]).toEqual([200, undefined, SMALL_JS]);
    expect(r.headers['cache-control']).toBe(IMMUTABLE);
    const icon = await get('/favicon.svg', 'br, gzip');
    expect([icon.statusCode, icon.headers['content-type'], icon.headers['cache-control']]).toEqual([200, 'image/svg+xml', 'no-cache']);
    expectSecurityHeaders(icon.headers);
  });

  it.each(['/', '/index.html', '/card/card-list/list', '/login?redirect=%2Fcard'])('%s is the console page: no-cache, brotli when accepted', async (url) => {
    const br = await get(url, 'br, gzip');
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['cache-control']).toBe('no-cache');
    expect(br.headers.etag).toBeTruthy();
    expect(unbrotli(br.rawPayload)).toBe(INDEX);
    expectSecurityHeaders(br.headers);
    const plain = await get(url);
    expect([plain.statusCode, plain.headers['content-encoding'], plain.headers['cache-control'], plain.body]).toEqual([200, undefined, 'no-cache', INDEX]);
    expectSecurityHeaders(plain.headers);
  });

  it.each([
    { url: '/card/card-list/list', cache: 'no-cache', type: 'text/html; charset=utf-8', file: 'index.html.br' },
    { url: '/', cache: 'no-cache', type: 'text/html; charset=utf-8', file: 'index.html.br' },
    { url: '/assets/app-C0ffee12.js', cache: IMMUTABLE, type: 'application/javascript; charset=utf-8', file: 'assets/app-C0ffee12.js.br' },
  ])('HEAD $url answers like GET, without a body', async ({ url, cache, type, file }) => {
    const r = await get(url, 'br, gzip', 'HEAD');
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toBe(type);
    expect(r.headers['content-encoding']).toBe('br');
    expect(r.headers['cache-control']).toBe(cache);
    expect(Number(r.headers['content-length'])).toBe(fs.statSync(path.join(webDist, file)).size);
    expect(r.rawPayload.length).toBe(0);
    expectSecurityHeaders(r.headers);
  });

  it.each([
    { url: '/assets/app-0ld0ld00.js', method: 'GET' as const },
    { url: '/assets/app-0ld0ld00.js', method: 'HEAD' as const },
    { url: '/assets/app-C0ffee12.js.map', method: 'GET' as const },
    { url: '/robots.txt', method: 'GET' as const },
    // the build's stamp and manifest are not served
    { url: '/.source-hash', method: 'GET' as const },
    { url: '/.vite/manifest.json', method: 'GET' as const },
  ])('$method $url is a 404, not the console page', async ({ url, method }) => {
    const r = await get(url, 'br, gzip', method);
    expect(r.statusCode).toBe(404);
    expect(r.headers['content-encoding']).toBeUndefined();
    if (method === 'GET') expect(r.json()).toMatchObject({ success: false, errorCode: ErrorCode.NotFound });
    expectSecurityHeaders(r.headers);
  });
});
