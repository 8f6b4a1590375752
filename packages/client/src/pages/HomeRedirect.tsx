import { Navigate } from 'react-router';
import { useSession } from '../auth/session';
import { mayOpenScreen, visibleNav } from '@ninefold/engine/grants';
import { useModel } from '../runtime/runtime';

/**
 * The landing page: the first navigation entry the user may open. A spec that declares no screens
 * lands on the page about what it leaves unspecified — running the seed shows exactly that.
 */
export function HomeRedirect() {
  const model = useModel();
  const { data: session } = useSession();
  const user = session?.context ?? null;
  const declared = model.screens.some((s) => !s.generated);
  if (!declared && Object.values(model.facets).some((f) => !f.specified))
    return <Navigate to="/about" replace />;
  const first =
    visibleNav(model, user)[0]?.screen ??
    model.screens.find((s) => s.kind === 'list' && mayOpenScreen(model, user, s)) ??
    model.screens.find((s) => s.kind === 'page' && mayOpenScreen(model, user, s));
  return <Navigate to={first?.path ?? '/about'} replace />;
}
