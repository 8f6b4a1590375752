/**
 * One screen of the spec: refused when the role may not open it, otherwise the component of its
 * kind, loaded on demand. Until its code (and the engine's decisions) are here, the screen's own
 * heading shows where the screen will draw it, so the first paint already says where the user is.
 */
import { mayOpenScreen } from '@ninefold/engine/grants';
import { Center, Loader, Stack } from '@mantine/core';
import { Heading } from '../components/Heading';
import { type Model, type Screen } from '@ninefold/model';
import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { Suspense, startTransition, useEffect, useState } from 'react';
import { useI18n } from '../i18n/I18nProvider';
import { useSearchParams } from 'react-router';
import { type Http } from '../api/http';
import { recordListOptions } from '../api/list-query';
import { useSession } from '../auth/session';
import { ForbiddenPage } from '../pages/ForbiddenPage';
import { decisionsLoaded, loadDecisions } from '../runtime/load-decisions';
import { onDemandComponent } from '../runtime/lazy';
import { useHttp, useModel } from '../runtime/runtime';
import { readListState, toListParams } from './list/list-params';

/** Each screen kind's component, loaded on demand and rendered at once once its code is here. */
const screens = {
  list: onDemandComponent(() => import('./list/ListScreen').then((module) => module.default)),
  detail: onDemandComponent(() => import('./detail/DetailScreen').then((module) => module.default)),
  form: onDemandComponent(() => import('./form/FormScreen').then((module) => module.default)),
  page: onDemandComponent(() => import('./page/PageScreen').then((module) => module.default)),
  dashboard: onDemandComponent(() => import('./dashboard/DashboardScreen').then((module) => module.default)),
} as const;

const ListScreen = screens.list.View;
const DetailScreen = screens.detail.View;
const FormScreen = screens.form.View;
const PageScreen = screens.page.View;
const DashboardScreen = screens.dashboard.View;

/**
 * Starts loading the code of a screen kind before it is needed: at start-up for the address the
 * app opens on, so that the chunk arrives while the session is being asked for, not after.
 */
export function preloadScreen(kind: Screen['kind']): void {
  void codeOf(kind)
    .load()
    .catch(() => undefined); // a failure shows when the screen renders, with a retry
}

/** Loads the code of a screen kind; the promise settles once it is here. */
export function loadScreenCode(kind: Screen['kind']): Promise<unknown> {
  return codeOf(kind).load();
}

const codeOf = (kind: Screen['kind']) =>
  kind === 'create' || kind === 'edit' ? screens.form : screens[kind];

export function ScreenGate({ screen: route }: { screen: Screen }) {
  const model = useModel();
  // the screen as the reader meets it (its title in their language): routes are made once, from
  // the model as the spec wrote it
  const screen = model.screens.find((s) => s.id === route.id) ?? route;
  const { data: session } = useSession();
  // the roles' grants decide it: no need to wait for the engine's decisions on records
  if (!mayOpenScreen(model, session?.context ?? null, screen)) return <ForbiddenPage />;
  return (
    <Suspense fallback={<ScreenPlaceholder screen={screen} />}>
      <OpenScreen screen={screen} />
    </Suspense>
  );
}

function OpenScreen({ screen }: { screen: Screen }) {
  usePrefetchedList(screen);
  if (!useCodeReady(screen.kind)) return <ScreenPlaceholder screen={screen} />;
  switch (screen.kind) {
    case 'list':
      return <ListScreen screen={screen} />;
    case 'detail':
      return <DetailScreen screen={screen} />;
    case 'create':
    case 'edit':
      return <FormScreen key={screen.id} screen={screen} />;
    case 'page':
      return <PageScreen screen={screen} />;
    case 'dashboard':
      return <DashboardScreen screen={screen} />;
  }
}

/**
 * Whether a screen kind's code, the reader's texts and, for the screens that decide on records, the
 * engine's decisions are here. Until they are, the screen's placeholder shows; their arrival renders the screen in a
 * transition, which React renders in slices between frames and shows at once (a Suspense fallback
 * would hold it back for up to 300 ms and render it in one long task). If either fails to load, the
 * screen renders all the same: its lazy component throws, and the error boundary offers a retry.
 */
function useCodeReady(kind: Screen['kind']): boolean {
  const code = codeOf(kind);
  // and the texts of the reader's language past the first ones, which every screen shows
  const i18n = useI18n();
  const [failed, setFailed] = useState(false);
  const [, setArrived] = useState(0);
  // a list and a dashboard decide with the roles' grants alone; details and forms evaluate
  // conditions on records
  const decides = kind !== 'list' && kind !== 'dashboard';
  const ready = code.current() !== null && (!decides || decisionsLoaded()) && i18n.isReady();
  useEffect(() => {
    if (ready || failed) return;
    let live = true;
    Promise.all([code.load(), decides ? loadDecisions() : null, i18n.ready()]).then(
      () => live && startTransition(() => setArrived((n) => n + 1)),
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
  }, [ready, failed, code, decides, i18n]);
  return ready || failed;
}

/**
 * What a screen shows while its code loads: its heading, laid out as the screen lays it out (a
 * list's title above its count line, a form's title), so that nothing moves when the screen comes.
 * A detail screen's heading is its record's title, unknown until the record is here.
 */
function ScreenPlaceholder({ screen }: { screen: Screen }) {
  const loader = (
    <Center py="xl">
      <Loader aria-label="Loading" />
    </Center>
  );
  switch (screen.kind) {
    case 'list':
      return (
        <Stack gap="md">
          <div>
            <Heading order={1}>{screen.title}</Heading>
            <p className="nf-text" data-size="sm" aria-hidden>
              {'\u00a0'}
            </p>
          </div>
          {loader}
        </Stack>
      );
    case 'create':
    case 'edit':
      return (
        <>
          <Heading order={1} className="nf-title-above-form">
            {screen.title}
          </Heading>
          {loader}
        </>
      );
    case 'dashboard':
      return (
        <Stack gap="md">
          <Heading order={1}>{screen.title}</Heading>
          {loader}
        </Stack>
      );
    case 'page':
      return (
        <Stack maw={760} gap="xs">
          <Heading order={1}>{screen.title}</Heading>
          {loader}
        </Stack>
      );
    case 'detail':
      return loader;
  }
}

/**
 * A list's first page, asked for while the list's code loads rather than after: during render, like
 * TanStack Query's own `usePrefetchQuery`, so that the request leaves before the code has arrived.
 */
function usePrefetchedList(screen: Screen): void {
  const model = useModel();
  const http = useHttp();
  const client = useQueryClient();
  const [search] = useSearchParams();
  if (screen.kind === 'list') prefetchList({ client, http, model }, screen, search);
}

/**
 * Puts the first page of the list a URL asks for into the query cache, under the very key and URL
 * the list screen will use, unless it is there already. Start-up calls it for the address the app
 * opens on, beside the session, so that the rows are on their way before any code has rendered.
 */
export function prefetchList(
  { client, http, model }: { client: QueryClient; http: Http; model: Model },
  screen: Screen,
  search: URLSearchParams,
): void {
  const entity = model.entities[screen.entity ?? ''];
  if (entity === undefined) return; // the screen shows that it is not found
  const params = toListParams(screen, readListState(model, entity, screen, search));
  const options = recordListOptions(http, entity, params);
  if (client.getQueryState(options.queryKey) === undefined) void client.prefetchInfiniteQuery(options);
}
