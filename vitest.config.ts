import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const src = (pkg: string) => fileURLToPath(new URL(`./packages/${pkg}/src/index.ts`, import.meta.url));

// Tests run against the sources, so `npm test` needs no build step between an edit and a test.
const alias = [
  { find: /^@ninefold\/model$/, replacement: src('model') },
  { find: /^@ninefold\/language$/, replacement: src('language') },
  { find: /^@ninefold\/engine$/, replacement: src('engine') },
  {
    find: /^@ninefold\/engine\/(grants|field-grants|messages|message-text)$/,
    replacement: fileURLToPath(new URL('./packages/engine/src/$1.ts', import.meta.url)),
  },
  { find: /^@ninefold\/server$/, replacement: src('server') },
  { find: /^@ninefold\/web$/, replacement: src('web') },
  { find: /^@ninefold\/demo$/, replacement: src('demo') },
  // the client's prerender from its sources, as the browser tests run the client's (the e2e tests
  // run its build)
  {
    find: /^@ninefold\/client\/prerender$/,
    replacement: fileURLToPath(new URL('./packages/client/src/prerender/server.tsx', import.meta.url)),
  },
  { find: /^@ninefold\/cli$/, replacement: src('cli') },
  { find: /^@ninefold\/testkit$/, replacement: src('testkit') },
];

export default defineConfig({
  resolve: { alias },
  test: {
    testTimeout: 30_000,
    projects: [
      {
        resolve: { alias },
        test: {
          name: 'node',
          include: ['packages/*/test/**/*.test.ts', 'test/**/*.test.ts'],
          exclude: ['packages/client/**', '**/node_modules/**'],
          pool: 'threads',
          testTimeout: 30_000,
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
        },
      },
    ],
  },
});
