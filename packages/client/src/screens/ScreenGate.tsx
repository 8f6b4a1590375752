/**
 * One screen of the spec: refused when the role may not open it, otherwise the component of its
 * kind, loaded on demand.
 */
import { type Screen } from '@ninefold/spec/model';
import { lazy } from 'react';
import { ForbiddenPage } from '../pages/ForbiddenPage';
import { useAuthorizer } from '../runtime/access';

const ListScreen = lazy(() => import('./list/ListScreen'));
const DetailScreen = lazy(() => import('./detail/DetailScreen'));
const FormScreen = lazy(() => import('./form/FormScreen'));
const PageScreen = lazy(() => import('./page/PageScreen'));

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
