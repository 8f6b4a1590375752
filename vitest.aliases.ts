import { fileURLToPath } from 'node:url';

const src = (pkg: string) => fileURLToPath(new URL(`./packages/${pkg}/src/index.ts`, import.meta.url));

/**
 * The packages of ours by their sources, so that a test needs no build step between an edit and a
 * run: the unit tests (`vitest.config.ts`) and the fault suite (`faults/vitest.config.ts`) share it.
 */
export const SOURCE_ALIASES = [
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
