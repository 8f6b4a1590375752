/**
 * One screen of the spec: refused when the role may not open it, otherwise the component of its
 * kind, loaded on demand.
 */
import { type Screen } from '@ninefold/spec/model';
import { useQueryClient } from '@tanstack/react-query';
import { type ComponentType, lazy } from 'react';
import { useSearchParams } from 'react-router';
import { recordListOptions } from '../api/list-query';
import { ForbiddenPage } from '../pages/ForbiddenPage';
import { useAuthorizer } from '../runtime/access';
import { useHttp, useModel } from '../runtime/runtime';
import { readListState, toListParams } from './list/list-params';

/**
 * A screen kind's component, loaded on demand. Once its code is here it renders at once: a lazy
 * component suspends on its first render even when its module has loaded, and the fallback's frame
 * and React's throttling of revealed content delay the first screen by as much as a few hundred ms.
 */
function onDemand(load: () => Promise<{ default: ComponentType<{ screen: Screen }> }>) {
  let loaded: ComponentType<{ screen: Screen }> | null = null;
  const track = () =>
    load().then((module) => {
      loaded = module.default;
      return module;
    });
  const Lazy = lazy(track);
  return {
    load: track,
    View({ screen }: { screen: Screen }) {
      const Component = loaded ?? Lazy;
      return <Component screen={screen} />;
    },
  };
}

const screens = {
  list: onDemand(() => import('./list/ListScreen')),
  detail: onDemand(() => import('./detail/DetailScreen')),
  form: onDemand(() => import('./form/FormScreen')),
  page: onDemand(() => import('./page/PageScreen')),
} as const;

const ListScreen = screens.list.View;
const DetailScreen = screens.detail.View;
const FormScreen = screens.form.View;
const PageScreen = screens.page.View;

/**
 * Starts loading the code of a screen kind before it is needed: at start-up for the address the
 * app opens on, so that the chunk arrives while the session is being asked for, not after.
 */
export function preloadScreen(kind: Screen['kind']): void {
  const screen = kind === 'create' || kind === 'edit' ? screens.form : screens[kind];
  void screen.load().catch(() => undefined); // a failure shows when the screen renders, with a retry
}

export function ScreenGate({ screen }: { screen: Screen }) {
  const access = useAuthorizer();
  if (!access.mayOpen(screen)) return <ForbiddenPage />;
  switch (screen.kind) {
    case 'list':
      return <ListGate screen={screen} />;
    case 'detail':
      return <DetailScreen screen={screen} />;
    case 'create':
    case 'edit':
      return <FormScreen key={screen.id} screen={screen} />;
    case 'page':
      return <PageScreen screen={screen} />;
  }
}

/** A list screen, whose first page is asked for while its code loads rather than after. */
function ListGate({ screen }: { screen: Screen }) {
  usePrefetchedList(screen);
  return <ListScreen screen={screen} />;
}

/**
 * Puts the first page of the list the URL asks for into the query cache, under the very key and
 * URL the list screen will use, unless it is there already. Asked during render, like TanStack
 * Query's own `usePrefetchQuery`: the request must leave before the list's code has arrived.
 */
function usePrefetchedList(screen: Screen): void {
  const model = useModel();
  const http = useHttp();
  const client = useQueryClient();
  const [search] = useSearchParams();
  const entity = model.entities[screen.entity ?? ''];
  if (entity === undefined) return; // the screen shows that it is not found
  const params = toListParams(screen, readListState(model, entity, screen, search));
  const options = recordListOptions(http, entity, params);
  if (client.getQueryState(options.queryKey) === undefined) void client.prefetchInfiniteQuery(options);
}
