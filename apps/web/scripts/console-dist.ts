// What the console build puts into dist next to the bundle: brotli and gzip copies of the text files (the server
// sends them by the browser's Accept-Encoding, @fastify/static `preCompressed`) and a stamp of the sources the build
// came from (scripts/build-if-changed.ts skips the build while it matches). Both come from one Vite plugin, so every
// `vite build` (npm run build, npm start, the e2e global setup) leaves the same dist.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Plugin } from 'vite';

const WEB = path.resolve(import.meta.dirname, '..');
const ROOT = path.resolve(WEB, '../..');
export const DIST = path.join(WEB, 'dist');
/** A dotfile: the server does not serve it. */
export const STAMP_FILE = '.source-hash';

/** Everything a console build reads, relative to the repository root (folders are read whole). */
const SOURCES = [
  'apps/web/src', 'apps/web/public', 'apps/web/scripts', 'apps/web/index.html', 'apps/web/vite.config.ts',
  'apps/web/tsconfig.json', 'apps/web/package.json', 'packages/contract/src', 'packages/contract/package.json',
  // dependency versions
  'package-lock.json',
];

function filesUnder(abs: string): string[] {
  if (!fs.existsSync(abs)) return [];
  if (!fs.statSync(abs).isDirectory()) return [abs];
  return fs.readdirSync(abs, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name));
}

/** sha256 over the sources' paths and contents (not their times: a checkout or a copy does not force a build). */
export function sourceHash(): string {
  const hash = crypto.createHash('sha256');
  const files = SOURCES.flatMap((s) => filesUnder(path.join(ROOT, s))).sort();
  for (const file of files) {
    hash.update(path.relative(ROOT, file).split(path.sep).join('/'));
    hash.update('\0');
    hash.update(fs.readFileSync(file));
    hash.update('\0');
  }
  return hash.digest('hex');
}

/** The stamp of the last finished build in dist, or null (no build, or one without its index.html). */
export function builtHash(dist = DIST): string | null {
  if (!fs.existsSync(path.join(dist, 'index.html'))) return null;
  try {
    return fs.readFileSync(path.join(dist, STAMP_FILE), 'utf8').trim();
  } catch {
    return null;
  }
}

const COMPRESSIBLE = /\.(js|css|html|svg|json)$/;
/** Below this the saving is a few hundred bytes and the response is one packet anyway. */
const MIN_BYTES = 1024;
const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/**
 * Writes `<file>.br` (quality 11) and `<file>.gz` (level 9) next to each text file over 1 KB in dist, skipping a
 * copy that is not smaller. The files go to the libuv pool together (about 3 s for the console on 2 cores).
 */
export async function precompressDir(dir: string): Promise<{ files: number; bytes: number; br: number; gz: number }> {
  const files = fs.readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && COMPRESSIBLE.test(e.name) && !path.relative(dir, e.parentPath).startsWith('.'))
    .map((e) => path.join(e.parentPath, e.name));
  const totals = { files: 0, bytes: 0, br: 0, gz: 0 };
  await Promise.all(files.map(async (file) => {
    const data = await fs.promises.readFile(file);
    if (data.length < MIN_BYTES) return;
    const [br, gz] = await Promise.all([
      brotli(data, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY, [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length } }),
      gzip(data, { level: zlib.constants.Z_BEST_COMPRESSION }),
    ]);
    totals.files += 1;
    totals.bytes += data.length;
    if (br.length < data.length) await fs.promises.writeFile(`${file}.br`, br);
    if (gz.length < data.length) await fs.promises.writeFile(`${file}.gz`, gz);
    totals.br += Math.min(br.length, data.length);
    totals.gz += Math.min(gz.length, data.length);
  }));
  return totals;
}

/** The Vite plugin: after the bundle is written, precompress it, then stamp dist with the sources it was built from. */
export function consoleDist(): Plugin {
  let hash = '';
  return {
    name: 'lynx:console-dist',
    apply: 'build',
    // taken before the sources are read: a file changed during the build leaves a stale stamp, so the next start builds
    buildStart() {
      hash = sourceHash();
    },
    async writeBundle(output) {
      const dir = output.dir ?? DIST;
      const t = await precompressDir(dir);
      const kb = (n: number) => `${(n / 1024).toFixed(0)} KB`;
      this.info(`precompressed ${t.files} files: ${kb(t.bytes)} -> brotli ${kb(t.br)}, gzip ${kb(t.gz)}`);
      fs.writeFileSync(path.join(dir, STAMP_FILE), `${hash}\n`);
    },
  };
}
