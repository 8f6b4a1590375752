/**
 * @ninefold/web — Ninefold's web app beside its API: a Fastify plugin that hosts the built client
 * (the page with the model inline, the manifest and icons made from the model's theme, the service
 * worker and static files, the page for every route of the client) and prerenders a list's first
 * rows into the page with the client's own components.
 *
 * @example
 * import { buildApp } from '@ninefold/server';
 * import { webApp } from '@ninefold/web';
 * const app = buildApp({ model, database });
 * await app.register(webApp, { dir: 'packages/client/dist' });
 */
export { type WebAppOptions, PRERENDER_TIMEOUT_MS, installedClient, webApp } from './plugin.js';
export { type PrerenderModule, loadPrerender } from './prerender.js';
export { renderIndex } from './page.js';
export { iconOf, manifestOf } from './manifest.js';
