import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const root = fileURLToPath(new URL('..', import.meta.url));
const src = (pkg: string) => fileURLToPath(new URL(`../packages/${pkg}/src/index.ts`, import.meta.url));

// the same aliases as the root config: the server runs from its sources, the built client from dist
const alias = [
  { find: /^@ninefold\/model$/, replacement: src('model') },
  { find: /^@ninefold\/language$/, replacement: src('language') },
  { find: /^@ninefold\/engine$/, replacement: src('engine') },
  { find: /^@ninefold\/server$/, replacement: src('server') },
  { find: /^@ninefold\/web$/, replacement: src('web') },
  { find: /^@ninefold\/demo$/, replacement: src('demo') },
  { find: /^@ninefold\/cli$/, replacement: src('cli') },
];

export default defineConfig({
  root,
  resolve: { alias },
  test: {
    name: 'e2e',
    // the client's prerender is its build (dist-ssr, `@ninefold/client/prerender`), run by Node as
    // `ninefold start` runs it: not transformed again, module by module, on the first navigation
    server: { deps: { external: [/\/packages\/client\/dist-ssr\//] } },
    // the screenshots for the docs are taken on demand only: SCREENSHOTS=1
    include: process.env['SCREENSHOTS'] === '1' ? ['e2e/screenshots.ts'] : ['e2e/**/*.e2e.ts'],
    environment: 'node',
    pool: 'forks',
    fileParallelism: false,
    testTimeout: 180_000,
    hookTimeout: 120_000,
  },
});
