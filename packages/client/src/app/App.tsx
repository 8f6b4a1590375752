/**
 * The app of a model: Mantine with the product's theme, TanStack Query, and the router. Everything
 * product-specific comes from the model; `createApp` wires the HTTP client to the session.
 */
import { MantineProvider } from '@mantine/core';
import { type Model } from '@ninefold/model';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useMemo } from 'react';
import { UNSAFE_createBrowserHistory } from 'react-router';
import { createHttp } from '../api/http';
import { SESSION_KEY } from '../auth/session';
import { type OpenEventSource } from '../live/stream';
import { type Runtime, RuntimeProvider } from '../runtime/runtime';
import { AppRouter } from './AppRouter';
import { type GuardedHistory, guardHistory } from './history';
import { AppRoutes } from './routes';
import { productTheme } from './theme';

export interface AppParts {
  readonly runtime: Runtime;
  readonly queryClient: QueryClient;
}

/**
 * The runtime and the query cache of a model. A 401 on any request empties the session, which
 * sends the user to sign-in with the address they were at.
 */
export function createAppParts(
  model: Model,
  options: { fetch?: typeof fetch; now?: () => Date; eventSource?: OpenEventSource } = {},
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
  };
  return { runtime, queryClient };
}

/** The app; `history` is the browser's unless given (tests give a memory history). */
export function App({ parts, history }: { parts: AppParts; history?: GuardedHistory }) {
  const { runtime, queryClient } = parts;
  const model = runtime.model;
  const theme = useMemo(() => productTheme(model.product.theme), [model]);
  const navigation = useMemo(
    () => history ?? guardHistory(UNSAFE_createBrowserHistory({ v5Compat: true })),
    [history],
  );
  return (
    <RuntimeProvider runtime={runtime}>
      <MantineProvider
        theme={theme}
        defaultColorScheme={model.product.theme.colorScheme}
        // jsdom has no layout: in tests, dropdowns must not hide as if their input were scrolled away
        env={import.meta.env.MODE === 'test' ? 'test' : 'default'}
      >
        <QueryClientProvider client={queryClient}>
          <AppRouter history={navigation}>
            <AppRoutes model={model} />
          </AppRouter>
        </QueryClientProvider>
      </MantineProvider>
    </RuntimeProvider>
  );
}
