/**
 * The service worker's installation, loaded after the page's own loading (main.tsx): nothing of it
 * is needed for the first render, so it stays out of the first chunk.
 */

/** The worker's cache of the page (see vite.config.ts): every route of the app is this one page. */
const SHELL_CACHE = 'ninefold-shell';
const SHELL_KEY = '/__ninefold-shell';

/**
 * Stores the page as the server sends it (with the model inside), so that the shell opens offline
 * from the first visit on: the navigation that installed the worker did not pass through it.
 */
async function keepShell(): Promise<void> {
  // the page of `/`, which is never prerendered (a prerender is one user's records)
  const response = await fetch('/', { headers: { accept: 'text/html' } });
  if (response.ok && (response.headers.get('content-type') ?? '').startsWith('text/html')) {
    await (await caches.open(SHELL_CACHE)).put(SHELL_KEY, response);
  }
}

/**
 * Registers the service worker and keeps the page for offline use; a failure only means no offline
 * use, and says so in the console.
 *
 * @example if ('serviceWorker' in navigator) void (await import('./app/offline-shell')).installWorker();
 */
export async function installWorker(): Promise<void> {
  try {
    await navigator.serviceWorker.register('/sw.js');
    await navigator.serviceWorker.ready;
    await keepShell();
  } catch (error) {
    console.warn('Offline use is not available:', error);
  }
}
