/**
 * The entry point: the model comes inline in the page the server sends (one round trip less), or
 * from `/api/model` under Vite's dev server; then the app renders and the service worker installs.
 */
import '@mantine/core/styles.css';
import './styles.css';
import { type Model } from '@ninefold/spec/model';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App, createAppParts } from './app/App';

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
  createRoot(root).render(
    <StrictMode>
      <App parts={createAppParts(model)} />
    </StrictMode>,
  );
  if (import.meta.env.PROD && 'serviceWorker' in navigator) {
    window.addEventListener(
      'load',
      () => void navigator.serviceWorker.register('/sw.js').catch(() => undefined),
    );
  }
}, fail);
