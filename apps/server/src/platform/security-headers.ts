import type { FastifyHelmetOptions } from '@fastify/helmet';

/**
 * The Content-Security-Policy of every answer, written for the console (a Vite build served from the same origin):
 * - scripts only from the own origin: the build has no inline script and nothing calls eval or new Function;
 * - styles also inline: antd's CSS-in-JS writes <style> elements at run time;
 * - images also from data: and blob: URLs (antd and ECharts draw some that way; a saved chart is a blob);
 * - calls only to the own origin (the dev server on :5173 proxies /api, so it is the page's origin too);
 * - no plugins, no <base> elsewhere, forms only to the own origin, and no page may frame this one.
 * No upgrade-insecure-requests: the server speaks plain HTTP and is often reached at http://<host>:8080, where
 * upgrading every request to https would break the console.
 */
export const CONTENT_SECURITY_POLICY: Record<string, string[]> = {
  'default-src': ["'self'"],
  'base-uri': ["'self'"],
  'connect-src': ["'self'"],
  'font-src': ["'self'", 'data:'],
  'form-action': ["'self'"],
  'frame-ancestors': ["'none'"],
  'img-src': ["'self'", 'data:', 'blob:'],
  'object-src': ["'none'"],
  'script-src': ["'self'"],
  'script-src-attr': ["'none'"],
  'style-src': ["'self'", "'unsafe-inline'"],
};

/** The policy of an uploaded file's answer: nothing in it may run or load anything, even opened on its own. */
export const FILE_CONTENT_SECURITY_POLICY = "default-src 'none'; frame-ancestors 'none'; sandbox";

/**
 * The security headers of an answer the server writes straight to the socket (a request Node's parser refused, so
 * no hook runs): the same as helmet's, with the nothing-runs policy of a JSON body.
 */
export const RAW_ANSWER_HEADERS = [
  `content-security-policy: ${FILE_CONTENT_SECURITY_POLICY}`,
  'x-content-type-options: nosniff',
  'x-frame-options: DENY',
  'referrer-policy: no-referrer',
  'cross-origin-opener-policy: same-origin',
  'cross-origin-resource-policy: same-origin',
].map((h) => `${h}\r\n`).join('');

/**
 * @fastify/helmet options: the headers go on every answer (API, errors, 404s, static files), set in an onRequest
 * hook before anything else can answer. HSTS is left to the TLS-terminating proxy: this server speaks plain HTTP,
 * and a year-long HSTS pin is a decision for whoever owns the domain. Cross-Origin-Embedder-Policy stays off: the
 * console needs no cross-origin isolation, and require-corp would only break embedding of future resources.
 */
export const helmetOptions: FastifyHelmetOptions = {
  global: true,
  contentSecurityPolicy: { useDefaults: false, directives: CONTENT_SECURITY_POLICY },
  crossOriginEmbedderPolicy: false,
  xFrameOptions: { action: 'deny' },
  referrerPolicy: { policy: 'no-referrer' },
  strictTransportSecurity: false,
};
