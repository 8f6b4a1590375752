/**
 * The entry point: the model comes inline in the page the server sends (one round trip less), or
 * from `/api/model` under Vite's dev server; then the app renders and the service worker installs.
 */
import './styles/shell';
import './styles.css';
import { simpleMessage } from '@ninefold/engine/message-text';
import {
  API_PATHS,
  APP_PATHS,
  MODEL_SCRIPT_ID,
  type Model,
  type SessionUser,
  UI_LANGUAGES,
  directionOf,
  pickLocale,
} from '@ninefold/model';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { matchRoutes } from 'react-router';
import { createHttp } from './api/http';
import { App, createAppParts } from './app/App';
import { preloadSignIn } from './app/routes';
import { SESSION_KEY, fetchSession } from './auth/session';
import { loadDecisions } from './runtime/load-decisions';
import {
  releasePrerender,
  releasePrerenderUnlessIn,
  startFromPrerender,
  syncDeviceSettings,
} from './prerender/client';
import { loadMessageFormat } from './runtime/messages';
import { ENGLISH_FIRST, type Messages, loadFirst } from './i18n/catalogue';
import { browserWanted } from './i18n/i18n';
import { prefetchList, preloadScreen } from './screens/ScreenGate';

/** The model, and the session when finding the model needed it (see {@link wholeModel}). */
interface Start {
  readonly model: Model;
  readonly session?: SessionUser | null;
}

async function loadModel(): Promise<Start> {
  const inline = document.getElementById(MODEL_SCRIPT_ID);
  if (inline?.textContent != null && inline.textContent !== '')
    return wholeModel(JSON.parse(inline.textContent) as Model);
  return wholeModel(await fetchModel());
}

/** The model as the server gives it to this browser's session (decision 0027: signed out, a part). */
async function fetchModel(): Promise<Model> {
  const response = await fetch(`/api/${API_PATHS.model}`, { headers: { accept: 'application/json' } });
  if (!response.ok) throw new Error(`The model could not be loaded (HTTP ${response.status}).`);
  return (await response.json()) as Model;
}

/**
 * The signed-out model (decision 0027) is the whole one's part for the pages before sign-in: the
 * session, which start-up asks for anyway, then says whether the whole model is needed (a page the
 * offline worker kept from before sign-in, say), and is kept for the app's start.
 */
async function wholeModel(model: Model): Promise<Start> {
  if (model.signedOut !== true) return { model };
  // most likely nobody is signed in: the sign-in page's code loads meanwhile
  void preloadSignIn();
  // once, without retries: offline, the sign-in page must not wait for a network that is not there
  const http = createHttp({ calls: { ...model.calls, retries: 0 } });
  const session = navigator.onLine ? await fetchSession(http).catch(() => undefined) : undefined;
  if (session == null) return session === null ? { model, session } : { model };
  const whole = await fetchModel();
  if (whole.signedOut === true) throw new Error('The server did not send the model of a signed-in user.');
  return { model: whole, session };
}

/**
 * The first number and date formatters of a page load ICU's data for the locale (~50 ms, ~200 ms on a
 * slow phone): made while the app waits for the network, rather than inside the first list's render.
 */
function warmFormats(locale: string): void {
  const warm = () => {
    try {
      new Intl.NumberFormat(locale).format(1.5);
      new Intl.DateTimeFormat(locale).format(0);
    } catch {
      // a locale Intl refuses: the values' own formatters say so where they are used
    }
  };
  if ('requestIdleCallback' in window) window.requestIdleCallback(warm, { timeout: 2000 });
  else setTimeout(warm, 0);
}

function fail(error: unknown): void {
  releasePrerender();
  const root = document.getElementById('root');
  if (root === null) return;
  const box = document.createElement('div');
  box.setAttribute('role', 'alert');
  box.className = 'nf-boot-error';
  const reason = error instanceof Error ? error.message : String(error);
  const say = (messages: Messages) =>
    (box.textContent =
      simpleMessage(messages['first.bootFailed'] ?? ENGLISH_FIRST['first.bootFailed']!, {
        reason,
      }) ?? reason);
  say(ENGLISH_FIRST);
  root.replaceChildren(box);
  // without a model there is no store: the browser's own language, when the app ships it
  const language = pickLocale(browserWanted(), UI_LANGUAGES);
  if (language !== 'en') {
    void loadFirst(language)
      .then((messages) => {
        say(messages);
        box.lang = language;
        box.dir = directionOf(language);
      })
      .catch(() => undefined);
  }
}

/**
 * How long the first render waits for the session. What it buys: with the session, the first paint
 * is the screen the address names (its heading at least) rather than a loader that the session's
 * answer replaces a moment later. The session is usually back before the app's code has finished
 * starting, so the wait is rarely spent; when the API is slow, the first paint comes at most this
 * much later, with a loader.
 */
const SESSION_WAIT_MS = 300;
/** How long the prerender may stand at most, should the app never show the screen itself. */
const PRERENDER_MAX_MS = 10_000;
/**
 * How long the first render waits for the sign-in page's code when that is the page to show. What
 * it buys: the first paint is the sign-in form, not a loader (React holds content back for up to
 * 300 ms after showing a fallback, so a loader would cost more than the code's arrival); on a
 * connection too slow for the code to come in this time, the app renders its loader anyway.
 */
const SIGN_IN_WAIT_MS = 1000;

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

loadModel().then(async ({ model, session: known }) => {
  const root = document.getElementById('root');
  if (root === null) return;
  const parts = createAppParts(model);
  syncDeviceSettings(model.product.name, model.product.theme.colorScheme);
  // the page came with its screen prerendered: the app starts from the session and rows it was made from
  if (startFromPrerender(parts.queryClient, parts.runtime.http.eventCursors))
    setTimeout(releasePrerender, PRERENDER_MAX_MS);
  if (known !== undefined) parts.queryClient.setQueryData(SESSION_KEY, known);
  // the session, the first screen's code and a list's rows load side by side, not one after another
  const session = parts.queryClient.prefetchQuery({
    queryKey: SESSION_KEY,
    queryFn: ({ signal }) => fetchSession(parts.runtime.http, signal),
  });
  const routes = model.screens.map((screen) => ({ path: screen.path, screen }));
  const initial = matchRoutes(routes, window.location.pathname)?.at(-1)?.route.screen;
  if (initial !== undefined) {
    preloadScreen(initial.kind);
    // a list's first page too: without a session it is refused, and signing in clears the cache
    if (initial.kind === 'list') {
      const search = new URLSearchParams(window.location.search);
      prefetchList({ client: parts.queryClient, http: parts.runtime.http, model }, initial, search);
    }
    // a failure shows when the screen asks for the decisions, with a retry; a list decides without
    // them (its rows' transitions ask for them beside the rows), and evaluating CEL's start-up on
    // the way to its first rows would only delay them
    if (initial.kind !== 'list') void loadDecisions().catch(() => undefined);
  }
  let signIn = window.location.pathname === APP_PATHS.signIn ? preloadSignIn() : null;
  await Promise.race([session, wait(SESSION_WAIT_MS)]);
  // nobody signed in: unless the page is one of those readable before signing in (help, about), the
  // app is about to send them to the sign-in page
  const path = window.location.pathname;
  const open =
    (path === APP_PATHS.help || path === APP_PATHS.about) && !model.screens.some((s) => s.path === path);
  if (parts.queryClient.getQueryData(SESSION_KEY) === null) {
    if (open) void preloadSignIn();
    else signIn ??= preloadSignIn();
  }
  // the sign-in page is all there is to paint then: rendered before its code, it would show a loader
  // first, and React holds content back for up to 300 ms after showing a fallback
  if (signIn !== null) await Promise.race([signIn, wait(SIGN_IN_WAIT_MS)]);
  // the first render's texts, in the language saved on the account when the session says one:
  // English's are in this chunk, another language's load now
  const saved = parts.queryClient.getQueryData<SessionUser | null>(SESSION_KEY)?.locale;
  if (saved != null) await parts.i18n.setLocale(saved, 'first').catch(() => undefined);
  await parts.i18n.firstReady();
  releasePrerenderUnlessIn(parts.i18n.locale);
  createRoot(root).render(
    <StrictMode>
      <App parts={parts} />
    </StrictMode>,
  );
  // messages with plurals or number formats need the ICU compiler; simple ones render without it
  void loadMessageFormat().catch(() => undefined);
  // every other text of the reader's language (the screens' lazy chunks wait for them)
  void parts.i18n.ready().catch(() => undefined);
  // only for a screen of the spec, signed in: the sign-in page, help and about format no values
  if (initial !== undefined && parts.queryClient.getQueryData(SESSION_KEY) != null)
    warmFormats(model.product.locale);
  if (import.meta.env.PROD && 'serviceWorker' in navigator) {
    const install = () =>
      import('./app/offline-shell')
        .then(({ installWorker }) => installWorker())
        .catch((error: unknown) => console.warn('Offline use is not available:', error));
    // after the page's own loading, which the worker's precaching would otherwise slow down
    if (document.readyState === 'complete') void install();
    else window.addEventListener('load', () => void install(), { once: true });
  }
}, fail);
