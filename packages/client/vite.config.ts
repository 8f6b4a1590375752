import react from '@vitejs/plugin-react';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

const source = (path: string) => fileURLToPath(new URL(`../${path}`, import.meta.url));

/**
 * React Router 7's package exports name only its development build (warnings, invariant texts and
 * dev-only checks; remix-run/react-router#12532, #14102), whatever the mode. A production build of
 * the client takes the production build the package ships beside it.
 */
const reactRouterProduction = join(
  dirname(createRequire(import.meta.url).resolve('react-router/package.json')),
  'dist/production/index.mjs',
);

// The client is built from the engine's and the model's sources, so no build of them is needed first.
// `vite build --ssr` builds the prerender of a list's first rows (src/prerender/server.tsx), which
// @ninefold/web imports as `@ninefold/client/prerender` (package.json, prerender.d.ts).
export default defineConfig(({ command, isSsrBuild = false }) => ({
  resolve: {
    alias: [
      ...(command === 'build' ? [{ find: /^react-router$/, replacement: reactRouterProduction }] : []),
      { find: /^@ninefold\/model$/, replacement: source('model/src/index.ts') },
      { find: /^@ninefold\/engine$/, replacement: source('engine/src/index.ts') },
      {
        find: /^@ninefold\/engine\/(grants|field-grants|messages|message-text)$/,
        replacement: source('engine/src/$1.ts'),
      },
    ],
  },
  plugins: [
    react(),
    !isSsrBuild &&
      VitePWA({
        // the manifest is the product's, served by the server from the model (see packages/web/src/manifest.ts)
        manifest: false,
        injectRegister: null,
        registerType: 'autoUpdate',
        workbox: {
          // the shell's code and styles are precached; the API is always asked live
          globPatterns: ['**/*.{js,css,svg,png,woff2}'],
          cleanupOutdatedCaches: true,
          // not the built index.html: it lacks the model the server writes into the page
          navigateFallback: null,
          runtimeCaching: [
            {
              // The page is the same for every route of the app (the server writes the model into it),
              // so every navigation shares one cache entry: fresh from the network when there is one,
              // the last page seen when there is none.
              urlPattern: ({ request, url }) =>
                request.mode === 'navigate' &&
                !/^\/(api|docs|openapi\.json|health|ready)(\/|$)/.test(url.pathname),
              handler: 'NetworkFirst',
              options: {
                cacheName: 'ninefold-shell',
                networkTimeoutSeconds: 4,
                plugins: [
                  {
                    cacheKeyWillBeUsed: async () => '/__ninefold-shell',
                    // a page with a prerendered screen carries one user's records (decision 0018)
                    // (the protocol's PRERENDERED_HEADER, spelled out: Workbox copies this function into the worker as text)
                    cacheWillUpdate: async ({ response }) =>
                      response.headers.has('x-ninefold-prerendered') ? null : response,
                  },
                ],
              },
            },
          ],
        },
      }),
  ],
  // the server's build carries its dependencies, so that it runs wherever the built client is put
  // and React's production build in it, whatever NODE_ENV the server runs with
  ...(isSsrBuild
    ? { ssr: { noExternal: true }, define: { 'process.env.NODE_ENV': JSON.stringify('production') } }
    : {}),
  server: {
    proxy: Object.fromEntries(
      ['/api', '/openapi.json', '/docs', '/health', '/manifest.webmanifest', '/icon.svg'].map((path) => [
        path,
        'http://127.0.0.1:3000',
      ]),
    ),
  },
  build: {
    // which chunks and styles each module needs: the page links those of the screens it prerenders
    manifest: !isSsrBuild,
    target: 'es2022',
    sourcemap: true,
    chunkSizeWarningLimit: 800,
  },
}));
