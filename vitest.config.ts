import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { SOURCE_ALIASES as alias } from './vitest.aliases.js';

// Tests run against the sources (vitest.aliases.ts). A file's setup (a fresh database of each
// dialect, a compiled spec) may take a while on a loaded two-core machine: hooks get a minute.
// One test file a core: the files wait on databases, child processes and clocks about as much as
// they compute, so Vitest's default (a core left to its own process) left CI's second core idle
// (decision 0070).
// The AWS SDK's notice that its 2027 releases need Node 22 (README: Node 20.19+ and 22+ are
// supported, and the lockfile pins the SDK): told once per worker, it buried the test report.
process.env['AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED'] ??= 'true';

export default defineConfig({
  resolve: { alias },
  test: {
    maxWorkers: availableParallelism(),
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      {
        resolve: { alias },
        test: {
          name: 'node',
          include: ['packages/*/test/**/*.test.ts', 'test/**/*.test.ts', 'deploy/**/*.test.ts'],
          exclude: ['packages/client/**', '**/node_modules/**'],
          pool: 'threads',
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        // the client's components and hooks, in jsdom, against the real server in-process
        resolve: { alias },
        test: {
          name: 'client',
          include: ['packages/client/test/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: ['packages/client/test/setup.ts'],
          pool: 'threads',
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
