/**
 * Console bundle sizes from the Vite manifest: what the login page loads, and one chunk per screen.
 * Run after `npm run build`: `node --import tsx bench/bundle-size.ts`.
 *
 * The login page is counted as `npm run bench:console` counts it in the browser: index.html, the boot (the entry,
 * its static imports and its CSS), and what the boot starts on /login without a session (apps/web/src/app/main.tsx):
 * the light login page (src/login/boot.tsx with its imports and CSS) and that language's login texts
 * (src/locales/<lang>/login.ts), per language. Bytes as the server sends them: the brotli copy (`.br`) where the build
 * wrote one (files over 1 KB), else the file itself; response headers and the favicon are not counted here
 * (bench:console counts them: ~300 bytes a response in `transferSize`). Targets (issue 12): under 150 KB on the wire;
 * the older issue 3 target, JavaScript ≤ 350 KB gzip, is printed too.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const DIST = path.resolve(import.meta.dirname, '../apps/web/dist');
type Chunk = { file: string; imports?: string[]; dynamicImports?: string[]; isEntry?: boolean; css?: string[] };
const manifest: Record<string, Chunk> = JSON.parse(fs.readFileSync(path.join(DIST, '.vite/manifest.json'), 'utf8'));
const gz = (file: string) => zlib.gzipSync(fs.readFileSync(path.join(DIST, file)), { level: 9 }).length;
/** bytes of the body the server sends to a browser that accepts brotli (apps/server serves the .br copy when there is one) */
const sent = (file: string) => {
  const br = path.join(DIST, `${file}.br`);
  return fs.existsSync(br) ? fs.statSync(br).size : fs.statSync(path.join(DIST, file)).size;
};
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

/** the chunks (manifest keys) a set of modules loads: themselves and their static imports, transitively */
function closure(keys: string[]): Set<string> {
  const seen = new Set<string>();
  const walk = (k: string) => {
    if (seen.has(k) || !manifest[k]) return;
    seen.add(k);
    manifest[k].imports?.forEach(walk);
  };
  keys.forEach(walk);
  return seen;
}
const keyOf = (suffix: string) => {
  const k = Object.keys(manifest).find((x) => x.endsWith(suffix));
  if (!k) throw new Error(`${suffix} is not in the build's manifest`);
  return k;
};

const entry = Object.keys(manifest).find((k) => manifest[k].isEntry)!;

// no chunk may import one that imports it back: the boot starts several imports at once (apps/web/src/app/main.tsx),
// and a chunk in a cycle can then run before the other is done ("x is not a function")
const cycles = Object.keys(manifest).filter((start) => {
  const seen = new Set<string>();
  const stack = [...(manifest[start].imports ?? [])];
  while (stack.length) {
    const k = stack.pop()!;
    if (k === start) return true;
    if (seen.has(k)) continue;
    seen.add(k);
    stack.push(...(manifest[k]?.imports ?? []));
  }
  return false;
});
console.log(cycles.length ? `FAIL: chunks importing themselves back: ${cycles.join(', ')}` : 'no chunk import cycles');
const LOGIN_TARGET = 150 * 1024;
let failed = false;
for (const lang of ['zh', 'en']) {
  const chunks = closure([entry, keyOf('src/login/boot.tsx'), keyOf(`src/locales/${lang}/login.ts`)]);
  const files = new Set<string>(['index.html']);
  for (const k of chunks) {
    files.add(manifest[k].file);
    manifest[k].css?.forEach((c) => files.add(c));
  }
  const list = [...files];
  const js = list.filter((f) => f.endsWith('.js'));
  const wire = list.reduce((s, f) => s + sent(f), 0);
  const jsGz = js.reduce((s, f) => s + gz(f), 0);
  const raw = list.reduce((s, f) => s + fs.statSync(path.join(DIST, f)).size, 0);
  console.log(`\n/login (${lang}, no session): ${list.length} files`);
  for (const f of list) console.log(`  ${f.padEnd(48)} ${kb(sent(f)).padStart(10)} sent ${kb(fs.statSync(path.join(DIST, f)).size).padStart(10)} raw`);
  const ok = wire < LOGIN_TARGET && jsGz <= 350 * 1024;
  failed ||= !ok;
  console.log(`  total ${kb(raw)} raw, ${kb(wire)} sent (brotli where the build compressed; target < 150 KB), JavaScript ${kb(jsGz)} gzip (≤ 350 KB) → ${ok ? 'PASS' : 'FAIL'}`);
}

console.log('\nScreen chunks (each screen is its own chunk):');
const screens = Object.keys(manifest).filter((k) => /src\/pages\/.+\/index\.tsx$/.test(k) || k.endsWith('layout/BasicLayout.tsx')).sort();
for (const k of screens) console.log(`  ${k.replace('src/', '').padEnd(48)} ${manifest[k].file.padEnd(44)} ${kb(gz(manifest[k].file)).padStart(10)} gzip`);
const all = fs.readdirSync(path.join(DIST, 'assets')).filter((f) => f.endsWith('.js'));
const allGz = all.reduce((s, f) => s + gz(path.join('assets', f)), 0);
console.log(`\nAll JavaScript: ${all.length} files, ${kb(allGz)} gzip`);
process.exitCode = failed || cycles.length ? 1 : 0;
