import { Navigate } from 'react-router';
import { useSession } from '../auth/session';
import { mayOpenScreen, visibleNav } from '@ninefold/engine/grants';
import { type Model, type Screen } from '@ninefold/model';
import { useModel } from '../runtime/runtime';

/**
 * The landing page: the first navigation entry the user may open — or, when the product asks for
 * dashboards (`dashboard: true`), the first dashboard the user may open (decision 0049). Never the
 * page about unspecified facets, which is the spec's author's concern (decision 0066): a user
 * whom no screen is open to lands on the help, which says what the product is for.
 */
export function HomeRedirect() {
  const model = useModel();
  const { data: session } = useSession();
  return <Navigate to={landingScreen(model, session?.context ?? null)?.path ?? '/help'} replace />;
}

type Viewer = Parameters<typeof mayOpenScreen>[1];

/**
 * The screen a signed-in user lands on: with `product.dashboard`, the first dashboard they may open
 * (in the navigation's order, then the spec's); otherwise the first navigation entry they may open
 * (a dashboard when the spec puts one first), then the first list, then the first page. A generated
 * dashboard is never a landing screen unless the product asks for it.
 *
 * @example landingScreen(model, session.context)?.path // '/overview'
 */
export function landingScreen(model: Model, user: Viewer): Screen | undefined {
  const allowed = (s: Screen) => !(s.kind === 'dashboard' && s.generated && !model.product.dashboard);
  const nav = visibleNav(model, user)
    .map(({ screen }) => screen)
    .filter(allowed);
  const opens = (s: Screen) => allowed(s) && mayOpenScreen(model, user, s);
  if (model.product.dashboard) {
    const dashboard =
      nav.find((s) => s.kind === 'dashboard') ??
      model.screens.find((s) => s.kind === 'dashboard' && opens(s));
    if (dashboard !== undefined) return dashboard;
  }
  return (
    nav[0] ??
    model.screens.find((s) => s.kind === 'list' && opens(s)) ??
    model.screens.find((s) => s.kind === 'page' && opens(s))
  );
}
