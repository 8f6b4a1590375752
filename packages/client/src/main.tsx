/**
 * The entry point: the model comes inline in the page the server sends (one round trip less), or
 * from `/api/model` under Vite's dev server; then the app renders and the service worker installs.
 */
import '@mantine/core/styles.css';
import './styles.css';
import { type Model } from '@ninefold/spec/model';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { matchRoutes } from 'react-router';
import { App, createAppParts } from './app/App';
import { SESSION_KEY, fetchSession } from './auth/session';
import { preloadScreen } from './screens/ScreenGate';

async function loadModel(): Promise<Model> {
  const inline = document.getElementById('ninefold-model');
  if (inline?.textContent != null && inline.textContent !== '')
    return JSON.parse(inline.textContent) as Model;
  const response = await fetch('/api/model', { headers: { accept: 'application/json' } });
  if (!response.ok) throw new Error(`The model could not be loaded (HTTP ${response.status}).`);
  return (await response.json()) as Model;
}

function fail(error: unknown): void {
  const root = document.getElementById('root');
  if (root === null) return;
  const box = document.createElement('div');
  box.setAttribute('role', 'alert');
  box.className = 'nf-boot-error';
  box.textContent = `The app could not start: ${error instanceof Error ? error.message : String(error)} Reload the page to try again.`;
  root.replaceChildren(box);
}

loadModel().then((model) => {
  const root = document.getElementById('root');
  if (root === null) return;
  const parts = createAppParts(model);
  // the session and the first screen's code load side by side, not one after the other
  void parts.queryClient.prefetchQuery({
    queryKey: SESSION_KEY,
    queryFn: ({ signal }) => fetchSession(parts.runtime.http, signal),
  });
  const routes = model.screens.map((screen) => ({ path: screen.path, screen }));
  const initial = matchRoutes(routes, window.location.pathname)?.at(-1)?.route.screen;
  if (initial !== undefined) preloadScreen(initial.kind);
  createRoot(root).render(
    <StrictMode>
      <App parts={parts} />
    </StrictMode>,
  );
  if (import.meta.env.PROD && 'serviceWorker' in navigator) {
    window.addEventListener(
      'load',
      () => void navigator.serviceWorker.register('/sw.js').catch(() => undefined),
    );
  }
}, fail);
