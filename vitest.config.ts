import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const src = (pkg: string) => fileURLToPath(new URL(`./packages/${pkg}/src/index.ts`, import.meta.url));

// Tests run against the sources, so `npm test` needs no build step between an edit and a test.
export default defineConfig({
  resolve: {
    alias: [
      {
        find: /^@ninefold\/spec\/model$/,
        replacement: fileURLToPath(new URL('./packages/spec/src/model.ts', import.meta.url)),
      },
      { find: /^@ninefold\/spec$/, replacement: src('spec') },
      { find: /^@ninefold\/engine$/, replacement: src('engine') },
      { find: /^@ninefold\/server$/, replacement: src('server') },
      { find: /^@ninefold\/cli$/, replacement: src('cli') },
    ],
  },
  test: {
    include: ['packages/*/test/**/*.test.ts', 'test/**/*.test.ts'],
    pool: 'threads',
    testTimeout: 30_000,
  },
});
