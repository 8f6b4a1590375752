/**
 * The prerender of a list's first rows (decision 0018): for a signed-in navigation to a list screen,
 * the app itself — the same components, the same requests through the same HTTP client — renders
 * once on the server, and the page arrives with the list already rendered. The browser shows it
 * before a byte of the app's code has run; the app, once started, renders the same screen from the
 * same data, which the page carries too, and takes the place of the prerender (`./client.ts`).
 *
 * Built by Vite as a module of its own (`vite build --ssr`, see vite.config.ts) that `@ninefold/web`
 * imports as `@ninefold/client/prerender`; nothing here runs in the browser.
 */
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { prerenderToNodeStream } from 'react-dom/static';
import { UNSAFE_createMemoryHistory, matchRoutes } from 'react-router';
import { recordListOptions } from '../api/list-query';
import { App, createAppParts } from '../app/App';
import { guardHistory } from '../app/history';
import { SESSION_KEY, fetchSession } from '../auth/session';
import type { Prerender, PrerenderRequest } from '../../prerender';
import { mayOpenScreen } from '@ninefold/engine/grants';
import { loadScreenCode } from '../screens/ScreenGate';
import { readListState, toListParams } from '../screens/list/list-params';

/** What `renderToString` writes where a part of the tree is still waiting (its fallback follows). */
const SUSPENDED = '<!--$!-->';

/**
 * How long rendering may wait for code to load when the caller sets no limit: a safety net only
 * (the caller, `@ninefold/web`, gives its own, shorter limit), so that a render never hangs.
 */
const RENDER_TIMEOUT_MS = 2000;

/** The list screen's module and its rows' transition buttons', as the build manifest keys them. */
const LIST_MODULE = 'src/screens/list/ListScreen.tsx';
const ACTIONS_MODULE = 'src/screens/detail/TransitionActions.tsx';

/**
 * Renders the list screen `url` names, or answers null when there is nothing to prerender before
 * the app starts: not a list screen, nobody signed in, a query string (filters and searches are
 * the app's), or an API request that did not succeed. Its types are the package's contract
 * (`../../prerender.d.ts`), which the build is imported by.
 *
 * @example const prerendered = await prerender({ model, url: '/claims', fetch: asUser(request) });
 */
export async function prerender(request: PrerenderRequest): Promise<Prerender | null> {
  const { model, url } = request;
  const address = new URL(url, 'http://app.invalid');
  if (address.search !== '') return null;
  const routes = model.screens.map((screen) => ({ path: screen.path, screen }));
  const screen = matchRoutes(routes, address.pathname)?.at(-1)?.route.screen;
  const entity = model.entities[screen?.entity ?? ''];
  if (screen === undefined || screen.kind !== 'list' || entity === undefined) return null;

  // the browser's languages (or the spec's default); the account's saved one, once the session says it
  const parts = createAppParts(model, { fetch: request.fetch, wanted: [...(request.languages ?? [])] });
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
    // every text of the page's language: a prerender never suspends on one
    parts.i18n.ready(),
  ]).catch(() => [null]);
  // prerendered only where the app will show the list's rows (or its empty or error state) in its place
  if (session === null || session === undefined || !mayOpenScreen(model, session.context, screen))
    return null;
  // in the language saved on the account, as the app will start in it
  if (session.locale !== null) await parts.i18n.setLocale(session.locale);
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
  const timer = setTimeout(() => abort.abort(), request.timeoutMs ?? RENDER_TIMEOUT_MS);
  try {
    let html = renderToString(app);
    if (html.includes(SUSPENDED)) {
      // code this process has not loaded yet (React.lazy): rendering the app until nothing waits
      // loads it; the prerender is then rendered at once, as the app's first frames render it
      const { prelude } = await prerenderToNodeStream(app, {
        signal: abort.signal,
        // a prerender that took too long was given up on purpose: the page goes without it, and
        // the abort is not an error to print (React's default would print its stack)
        onError: (error) => {
          if (!abort.signal.aborted) console.error(error);
        },
      });
      for await (const chunk of prelude) void chunk;
      html = renderToString(app);
      if (html.includes(SUSPENDED)) return null;
    }
    const actions = screen.actions.some((name) => model.states[entity.name]?.transitions[name] !== undefined);
    return {
      html,
      locale: parts.i18n.locale,
      state: queryClient
        .getQueryCache()
        .getAll()
        .map((query) => ({ key: query.queryKey, data: query.state.data, at: query.state.dataUpdatedAt })),
      modules: [LIST_MODULE, ...(actions ? [ACTIONS_MODULE] : [])],
      eventCursor: runtime.http.eventCursors.take(),
    };
  } catch {
    return null;
  } finally {
    clearTimeout(timer);
    queryClient.clear();
  }
}
