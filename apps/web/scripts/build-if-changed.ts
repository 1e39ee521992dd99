// `npm start`: builds the console only when its sources differ from the ones the build in dist was made from
// (a build takes ~15 s on 2 cores; the stamp is written by the console-dist Vite plugin after every build).
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { builtHash, sourceHash } from './console-dist.ts';

const built = builtHash();
if (built !== null && built === sourceHash()) {
  console.log('console: apps/web/dist is up to date with its sources, not rebuilding');
} else {
  console.log(built === null ? 'console: no finished build in apps/web/dist, building' : 'console: sources changed since the last build, building');
  const web = path.resolve(import.meta.dirname, '..');
  const build = spawnSync('npm', ['run', 'build'], { cwd: web, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
