/**
 * The first rows drawn by the server (decision 0018): for a signed-in navigation to a list screen,
 * the app itself — the same components, the same requests through the same HTTP client — renders
 * once on the server, and the page arrives with the list already drawn. The browser shows it before
 * a byte of the app's code has run; the app, once started, renders the same screen from the same
 * data, which the page carries too, and takes the place of the drawing (`./client.ts`).
 *
 * Built by Vite as a module of its own (`vite build --ssr`, see vite.config.ts) that the server
 * imports; nothing here runs in the browser.
 */
import { type Model } from '@ninefold/model';
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { prerenderToNodeStream } from 'react-dom/static';
import { UNSAFE_createMemoryHistory, matchRoutes } from 'react-router';
import { recordListOptions } from '../api/list-query';
import { App, createAppParts } from '../app/App';
import { guardHistory } from '../app/history';
import { SESSION_KEY, fetchSession } from '../auth/session';
import { type DrawnQueries } from './client';
import { mayOpenScreen } from '@ninefold/engine/grants';
import { loadScreenCode } from '../screens/ScreenGate';
import { readListState, toListParams } from '../screens/list/list-params';

/** What `renderToString` writes where a part of the tree is still waiting (its fallback follows). */
const SUSPENDED = '<!--$!-->';

/** The list screen's module and its rows' transition buttons', as the build manifest keys them. */
const LIST_MODULE = 'src/screens/list/ListScreen.tsx';
const ACTIONS_MODULE = 'src/screens/detail/TransitionActions.tsx';

export interface PrepaintRequest {
  readonly model: Model;
  /** The address navigated to: path and query string. */
  readonly url: string;
  /** Answers the app's API requests as the user who navigated (the server's own routes, in process). */
  readonly fetch: typeof fetch;
  /** Gives up after this long: the page is then sent without the drawing. */
  readonly timeoutMs?: number;
}

export interface Prepaint {
  /** The screen as the app draws it: the markup of its root element's children. */
  readonly html: string;
  /**
   * The modules whose code and styles the drawing is made of beyond the app's first chunk, as the
   * client's build manifest names them: the page links their styles, without which the drawing
   * would show unstyled, and preloads their code, which the app is about to ask for.
   */
  readonly modules: readonly string[];
  /** The queries the drawing was made from, for the app to start with. */
  readonly state: DrawnQueries;
}

/**
 * Draws the list screen `url` names, or answers null when there is nothing to draw before the app
 * starts: not a list screen, nobody signed in, a query string (filters and searches are drawn by
 * the app), or an API request that did not succeed.
 *
 * @example const drawn = await prepaint({ model, url: '/claims', fetch: asUser(request) });
 */
export async function prepaint(request: PrepaintRequest): Promise<Prepaint | null> {
  const { model, url } = request;
  const address = new URL(url, 'http://app.invalid');
  if (address.search !== '') return null;
  const routes = model.screens.map((screen) => ({ path: screen.path, screen }));
  const screen = matchRoutes(routes, address.pathname)?.at(-1)?.route.screen;
  const entity = model.entities[screen?.entity ?? ''];
  if (screen === undefined || screen.kind !== 'list' || entity === undefined) return null;

  const parts = createAppParts(model, { fetch: request.fetch });
  const { queryClient, runtime } = parts;
  const [session] = await Promise.all([
    queryClient.fetchQuery({ queryKey: SESSION_KEY, queryFn: () => fetchSession(runtime.http) }),
    // the very request the app makes for this address (ScreenGate's prefetchList)
    queryClient.prefetchInfiniteQuery(
      recordListOptions(
        runtime.http,
        entity,
        toListParams(screen, readListState(model, entity, screen, address.searchParams)),
      ),
    ),
    loadScreenCode('list'),
  ]).catch(() => [null]);
  // drawn only where the app will show the list's rows (or its empty or error state) in its place
  if (session === null || session === undefined || !mayOpenScreen(model, session.context, screen))
    return null;
  if (
    queryClient
      .getQueryCache()
      .getAll()
      .some((query) => query.state.status !== 'success')
  )
    return null;

  const app = (
    <StrictMode>
      <App
        parts={parts}
        history={guardHistory(UNSAFE_createMemoryHistory({ initialEntries: [url], v5Compat: true }))}
      />
    </StrictMode>
  );
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), request.timeoutMs ?? 2000);
  try {
    let html = renderToString(app);
    if (html.includes(SUSPENDED)) {
      // code this process has not loaded yet (React.lazy): rendering the app until nothing waits
      // loads it; the drawing is then rendered at once, as the app's first frames draw it
      const { prelude } = await prerenderToNodeStream(app, { signal: abort.signal });
      for await (const chunk of prelude) void chunk;
      html = renderToString(app);
      if (html.includes(SUSPENDED)) return null;
    }
    const actions = screen.actions.some((name) => model.states[entity.name]?.transitions[name] !== undefined);
    return {
      html,
      state: queryClient
        .getQueryCache()
        .getAll()
        .map((query) => ({ key: query.queryKey, data: query.state.data, at: query.state.dataUpdatedAt })),
      modules: [LIST_MODULE, ...(actions ? [ACTIONS_MODULE] : [])],
    };
  } catch {
    return null;
  } finally {
    clearTimeout(timer);
    queryClient.clear();
  }
}
