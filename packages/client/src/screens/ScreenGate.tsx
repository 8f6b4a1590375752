/**
 * One screen of the spec: refused when the role may not open it, otherwise the component of its
 * kind, loaded on demand.
 */
import { type Screen } from '@ninefold/spec/model';
import { lazy } from 'react';
import { ForbiddenPage } from '../pages/ForbiddenPage';
import { useAuthorizer } from '../runtime/access';

const loaders = {
  list: () => import('./list/ListScreen'),
  detail: () => import('./detail/DetailScreen'),
  form: () => import('./form/FormScreen'),
  page: () => import('./page/PageScreen'),
} as const;

const ListScreen = lazy(loaders.list);
const DetailScreen = lazy(loaders.detail);
const FormScreen = lazy(loaders.form);
const PageScreen = lazy(loaders.page);

/**
 * Starts loading the code of a screen kind before it is needed: at start-up for the address the
 * app opens on, so that the chunk arrives while the session is being asked for, not after.
 */
export function preloadScreen(kind: Screen['kind']): void {
  const load = kind === 'create' || kind === 'edit' ? loaders.form : loaders[kind];
  void load().catch(() => undefined); // a failure shows when the screen renders, with a retry
}

export function ScreenGate({ screen }: { screen: Screen }) {
  const access = useAuthorizer();
  if (!access.mayOpen(screen)) return <ForbiddenPage />;
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
  }
}
