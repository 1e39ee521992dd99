/**
 * Console bundle sizes from the Vite manifest: the JavaScript the login page loads (target ≤ 350 KB gzip)
 * and one chunk per screen. Run after `npm run build`: `node --import tsx bench/bundle-size.ts`.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const DIST = path.resolve(import.meta.dirname, '../apps/web/dist');
const manifest: Record<string, { file: string; imports?: string[]; dynamicImports?: string[]; isEntry?: boolean; css?: string[] }> = JSON.parse(
  fs.readFileSync(path.join(DIST, '.vite/manifest.json'), 'utf8'),
);
const gz = (file: string) => zlib.gzipSync(fs.readFileSync(path.join(DIST, file)), { level: 9 }).length;
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

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

const entry = Object.keys(manifest).find((k) => manifest[k].isEntry)!;
const loginKey = Object.keys(manifest).find((k) => k.endsWith('pages/login/index.tsx'))!;
const login = closure([entry, loginKey]);
const loginGz = [...login].reduce((s, k) => s + gz(manifest[k].file), 0);
const loginRaw = [...login].reduce((s, k) => s + fs.statSync(path.join(DIST, manifest[k].file)).size, 0);

console.log('JavaScript loaded by /login:');
for (const k of login) console.log(`  ${manifest[k].file.padEnd(48)} ${kb(gz(manifest[k].file)).padStart(10)} gzip`);
console.log(`  total ${kb(loginRaw)} raw, ${kb(loginGz)} gzip (target ≤ 350 KB) → ${loginGz <= 350 * 1024 ? 'PASS' : 'FAIL'}`);

console.log('\nScreen chunks (each screen is its own chunk):');
const screens = Object.keys(manifest).filter((k) => /src\/pages\/.+\/index\.tsx$/.test(k) || k.endsWith('layout/BasicLayout.tsx')).sort();
for (const k of screens) console.log(`  ${k.replace('src/', '').padEnd(48)} ${manifest[k].file.padEnd(44)} ${kb(gz(manifest[k].file)).padStart(10)} gzip`);
const all = fs.readdirSync(path.join(DIST, 'assets')).filter((f) => f.endsWith('.js'));
const allGz = all.reduce((s, f) => s + gz(path.join('assets', f)), 0);
console.log(`\nAll JavaScript: ${all.length} files, ${kb(allGz)} gzip`);
