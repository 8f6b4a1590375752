import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { SOURCE_ALIASES as alias } from '../vitest.aliases.js';

/**
 * The standing fault suite (`npm run test:faults`, docs/reliability.md): processes killed during
 * writes, database connections cut under load, races on one record and one Idempotency-Key, and a
 * fuzz of every write of every example — on SQLite and on the real PostgreSQL server. Slower than
 * the unit tests and bounded to a few minutes; one file at a time, so that a file's load is its own.
 */
export default defineConfig({
  root: fileURLToPath(new URL('..', import.meta.url)),
  resolve: { alias },
  test: {
    name: 'faults',
    include: ['faults/**/*.faults.ts'],
    environment: 'node',
    pool: 'forks',
    fileParallelism: false,
    testTimeout: 240_000,
    hookTimeout: 120_000,
  },
});
