/**
 * The app of a model: Mantine with the product's theme, TanStack Query, and the router. Everything
 * product-specific comes from the model; `createApp` wires the HTTP client to the session.
 */
import { DirectionProvider, MantineProvider } from '@mantine/core';
import { type Model, localizeModel } from '@ninefold/model';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useMemo, useSyncExternalStore } from 'react';
import { UNSAFE_createBrowserHistory } from 'react-router';
import { createHttp } from '../api/http';
import type { UploadTransport } from '../api/upload';
import { SESSION_KEY } from '../auth/session';
import { type I18n, createI18n } from '../i18n/i18n';
import { FollowDirection, I18nProvider } from '../i18n/I18nProvider';
import { FollowSavedLocale } from '../i18n/FollowSavedLocale';
import { type OpenEventSource } from '../live/stream';
import { type Runtime, RuntimeProvider } from '../runtime/runtime';
import { AppRouter } from './AppRouter';
import { type GuardedHistory, guardHistory } from './history';
import { AppRoutes } from './routes';
import { productTheme } from './theme';

export interface AppParts {
  readonly runtime: Runtime;
  readonly queryClient: QueryClient;
  /** The reader's language and the app's texts in it (decision 0067). */
  readonly i18n: I18n;
}

/**
 * The runtime and the query cache of a model. A 401 on any request empties the session, which
 * sends the user to sign-in with the address they were at.
 */
export function createAppParts(
  model: Model,
  options: {
    fetch?: typeof fetch;
    now?: () => Date;
    eventSource?: OpenEventSource;
    /** The locales the reader wants, most wanted first; the browser's by default. */
    wanted?: readonly string[];
    /** How long a delete is held for its Undo; tests shorten it. */
    undoMs?: number;
    /** How uploads are sent (`XMLHttpRequest` in a browser, over `fetch` when one is given). */
    upload?: UploadTransport;
  } = {},
): AppParts {
  const queryClient = new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 15_000,
        // the HTTP client already retried network failures; a problem from the server is an answer
        retry: false,
        refetchOnWindowFocus: (query) => query.queryKey[0] === SESSION_KEY[0],
      },
      // a write runs offline too: it fails on the network, or waits in the offline queue
      mutations: { retry: false, networkMode: 'always' },
    },
  });
  const http = createHttp({
    calls: model.calls,
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
    ...(options.upload === undefined ? {} : { upload: options.upload }),
    onUnauthenticated: (problem) => {
      // a failed sign-in is a 401 too, but there is no session to end then
      if (problem.code !== 'E_INVALID_CREDENTIALS' && queryClient.getQueryData(SESSION_KEY) != null) {
        queryClient.setQueryData(SESSION_KEY, null);
      }
    },
  });
  const runtime: Runtime = {
    model,
    http,
    now: options.now ?? (() => new Date()),
    ...(options.eventSource === undefined ? {} : { eventSource: options.eventSource }),
    ...(options.undoMs === undefined ? {} : { undoMs: options.undoMs }),
  };
  const i18n = createI18n({
    locales: model.product.locales,
    ...(options.wanted === undefined ? {} : { wanted: options.wanted }),
  });
  return { runtime, queryClient, i18n };
}

/** The app; `history` is the browser's unless given (tests give a memory history). */
export function App({ parts, history }: { parts: AppParts; history?: GuardedHistory }) {
  const { queryClient, i18n } = parts;
  const model = parts.runtime.model;
  // the model as the reader meets it: their locale's formats, the spec's words and the built-in
  // messages in their language
  const version = useSyncExternalStore(i18n.subscribe, i18n.version, i18n.version);
  const runtime = useMemo(
    () => ({ ...parts.runtime, model: localizeModel(model, i18n.locale, i18n.builtinMessages()) }),
    [parts.runtime, model, i18n, version],
  );
  const closeDialog = i18n.t('first.closeDialog');
  // a text of the areas past the first: asked for once they are here, not to suspend the first render
  const showPassword = i18n.isReady() ? i18n.t('identity.showPassword') : undefined;
  const theme = useMemo(
    () => productTheme(model.product.theme, { closeDialog, showPassword }),
    [model, closeDialog, showPassword],
  );
  const navigation = useMemo(
    () => history ?? guardHistory(UNSAFE_createBrowserHistory({ v5Compat: true })),
    [history],
  );
  return (
    <I18nProvider i18n={i18n}>
      <DirectionProvider initialDirection={i18n.dir} detectDirection={false}>
        <FollowDirection dir={i18n.dir} />
        <RuntimeProvider runtime={runtime}>
          <MantineProvider
            theme={theme}
            defaultColorScheme={model.product.theme.colorScheme}
            // jsdom has no layout: in tests, dropdowns must not hide as if their input were scrolled away
            env={import.meta.env.MODE === 'test' ? 'test' : 'default'}
          >
            <QueryClientProvider client={queryClient}>
              <FollowSavedLocale />
              <AppRouter history={navigation}>
                <AppRoutes model={model} />
              </AppRouter>
            </QueryClientProvider>
          </MantineProvider>
        </RuntimeProvider>
      </DirectionProvider>
    </I18nProvider>
  );
}
