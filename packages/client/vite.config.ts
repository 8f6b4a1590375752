import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

const source = (path: string) => fileURLToPath(new URL(`../${path}`, import.meta.url));

// The client is built from the engine's and the model's sources, so no build of them is needed first.
export default defineConfig({
  resolve: {
    alias: [
      { find: /^@ninefold\/spec\/model$/, replacement: source('spec/src/model.ts') },
      { find: /^@ninefold\/engine$/, replacement: source('engine/src/index.ts') },
    ],
  },
  plugins: [
    react(),
    VitePWA({
      // the manifest is the product's, served by the server from the model (see server/src/http/client.ts)
      manifest: false,
      injectRegister: null,
      registerType: 'autoUpdate',
      workbox: {
        // the shell: the app's own files; the API is always asked live
        globPatterns: ['**/*.{js,css,html,svg,png,woff2}'],
        navigateFallback: '/index.html',
        navigateFallbackDenylist: [/^\/api\//, /^\/docs/, /^\/openapi\.json/, /^\/health/, /^\/ready/],
        cleanupOutdatedCaches: true,
      },
    }),
  ],
  server: {
    proxy: Object.fromEntries(
      ['/api', '/openapi.json', '/docs', '/health', '/manifest.webmanifest', '/icon.svg'].map((path) => [
        path,
        'http://127.0.0.1:3000',
      ]),
    ),
  },
  build: {
    target: 'es2022',
    sourcemap: true,
    chunkSizeWarningLimit: 800,
  },
});
