import { configDefaults, defineConfig } from 'vitest/config';

const SERVER_TESTS = ['packages/*/src/**/*.test.ts', 'apps/server/src/**/*.test.ts', 'apps/server/test/**/*.test.ts'];
/** server tests that measure their own process: isolated from the files run before them */
const PROCESS_TESTS = ['apps/server/src/platform/spreadsheet.test.ts', 'apps/server/test/upload-bomb.test.ts'];

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 180_000,
    pool: 'forks',
    maxWorkers: 2,
    env: { CMP_DEMO_PASSWORD: 'Demo@2026pass', NODE_ENV: 'test' },
    projects: [
      {
        extends: true,
        test: {
          name: 'server',
          environment: 'node',
          include: SERVER_TESTS,
          exclude: [...configDefaults.exclude, ...PROCESS_TESTS],
          // one process per worker runs file after file: the server's modules, PGlite's WebAssembly and the JIT are
          // loaded once per worker instead of once per file (docs/performance.md "Test suite time"). What modules keep
          // between calls (caches, the simulators' injected faults) is reset before each file by the setup file.
          isolate: false,
          setupFiles: ['apps/server/test/setup-shared-process.ts'],
        },
      },
      {
        extends: true,
        test: {
          // tests that measure the process itself (heap kept, event-loop gaps, memory growth) need a process of their own
          name: 'server-process',
          environment: 'node',
          include: PROCESS_TESTS,
        },
      },
      {
        extends: true,
        test: {
          name: 'web',
          environment: 'jsdom',
          include: ['apps/web/src/**/*.test.{ts,tsx}'],
          setupFiles: ['apps/web/src/test/setup.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['apps/web/e2e/**/*.e2e.ts'],
          globalSetup: ['apps/web/e2e/global-setup.ts'],
          testTimeout: 120_000,
          // a browser step can lose a race on a busy 2-core machine; a real failure fails twice
          retry: 1,
          maxWorkers: 1,
          fileParallelism: false,
        },
      },
    ],
  },
});
