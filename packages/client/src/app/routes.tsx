/**
 * The routes of a model: one per screen at the path the spec gives it, the sign-in page, help,
 * the page about unspecified facets, the admin area and the notification settings (paths no screen
 * may take), and not-found. Screens load on demand, one chunk per kind.
 */
import { APP_PATHS, type Model, type Screen, type SessionUser, SIGNED_IN_PATHS } from '@ninefold/model';
import { Suspense, useMemo } from 'react';
import { Outlet, type RouteObject, useLocation, useRoutes } from 'react-router';
import { accessFor, isAdmin } from '@ninefold/engine/grants';
import { RequireSession } from '../auth/RequireSession';
import { useSession } from '../auth/session';
import { ErrorBoundary } from '../components/ErrorBoundary';
import { RouteError } from '../pages/RouteError';
import { HomeRedirect } from '../pages/HomeRedirect';
import { ForbiddenPage } from '../pages/ForbiddenPage';
import { NotFoundPage } from '../pages/NotFoundPage';
import { ScreenGate } from '../screens/ScreenGate';
import { PageLoader, Shell } from '../shell/Shell';
import { lazyComponent, onDemandComponent } from '../runtime/lazy';
import { useModel } from '../runtime/runtime';
import type { PublicPageName } from '../identity/PublicPage';
import type { OwnPageName } from './OwnPage';

const HelpPage = lazyComponent(() => import('../pages/HelpPage').then((module) => module.default));

/**
 * The sign-in page loads on its own: a signed-in user's first page does not need its inputs. Start-up
 * asks for it when the address is the sign-in page's or when there is no session; once here, it
 * renders without suspending.
 */
const signInPage = onDemandComponent(() => import('../auth/SignInPage').then((module) => module.SignInPage));

/** Starts loading the sign-in page; the promise settles when it is here (or failed to load). */
export function preloadSignIn(): Promise<unknown> {
  return signInPage.load().catch(() => undefined); // a failure shows when the page renders, with a retry
}

function SignInRoute() {
  return (
    <Suspense fallback={<PageLoader />}>
      <signInPage.View />
    </Suspense>
  );
}
const AboutPage = lazyComponent(() => import('../pages/AboutPage').then((module) => module.default));

// the app's own signed-in pages: one chunk, never on the way to a screen's first paint
const OwnPage = lazyComponent(() => import('./OwnPage').then((module) => module.default));

// sign-up, the forgotten password and the one-time link: one chunk, only when one is opened
const PublicPage = lazyComponent(() => import('../identity/PublicPage').then((module) => module.default));

function PublicRoute({ page }: { page: PublicPageName }) {
  return (
    <Suspense fallback={<PageLoader />}>
      <PublicPage page={page} />
    </Suspense>
  );
}

/**
 * One of the app's own signed-in pages for whom `allowed` says (the rule the server guards its
 * routes with), "Not allowed" for anyone else — decided before the page's code loads.
 */
function OwnPageFor({ page, allowed }: { page: OwnPageName; allowed: AllowedBy }) {
  const model = useModel();
  const { data: user } = useSession();
  if (user == null || !ALLOWED[allowed](model, user)) return <ForbiddenPage />;
  return <OwnPage page={page} />;
}

type AllowedBy = keyof typeof ALLOWED;
const ALLOWED = {
  /** Invitations: whoever may create users (creating one invites them). */
  invite: (model: Model, user: SessionUser) => accessFor(model, user.context, 'create', 'User') !== false,
  /** API tokens: a role of `auth.tokens`. */
  tokens: (model: Model, user: SessionUser) => user.roles.some((role) => model.auth.tokens.includes(role)),
} as const;

/**
 * A page of the admin area for an admin (`isAdmin`, the definition the server guards its admin
 * routes with), "Not allowed" for anyone else — decided before the admin area's code loads.
 */
function AdminOnly({ page }: { page: OwnPageName }) {
  const model = useModel();
  const { data: user } = useSession();
  if (user == null || !isAdmin(model, user.roles)) return <ForbiddenPage />;
  return <OwnPage page={page} />;
}

export function createRoutes(model: Model): RouteObject[] {
  const taken = new Set(model.screens.map((s) => s.path));
  const own = (path: string, element: React.ReactNode): RouteObject[] =>
    taken.has(path) ? [] : [{ path, element }];
  return [
    {
      children: [
        { path: APP_PATHS.signIn, element: <SignInRoute /> },
        { path: APP_PATHS.signUp, element: <PublicRoute page="signUp" /> },
        { path: APP_PATHS.forgotPassword, element: <PublicRoute page="forgotPassword" /> },
        { path: APP_PATHS.link, element: <PublicRoute page="link" /> },
        {
          // the shell also frames help and about, which are readable before signing in
          element: <Shell />,
          children: [
            ...own(APP_PATHS.help, <HelpPage />),
            ...own(APP_PATHS.about, <AboutPage />),
            {
              element: (
                <RequireSession>
                  <Outlet />
                </RequireSession>
              ),
              children: [
                { index: true, element: <HomeRedirect /> },
                { path: SIGNED_IN_PATHS.adminJobs, element: <AdminOnly page="jobs" /> },
                { path: SIGNED_IN_PATHS.adminWebhooks, element: <AdminOnly page="webhooks" /> },
                { path: SIGNED_IN_PATHS.adminMail, element: <AdminOnly page="mail" /> },
                { path: SIGNED_IN_PATHS.adminAudit, element: <AdminOnly page="audit" /> },
                {
                  path: SIGNED_IN_PATHS.adminInvitations,
                  element: <OwnPageFor page="invitations" allowed="invite" />,
                },
                { path: SIGNED_IN_PATHS.account, element: <OwnPage page="account" /> },
                {
                  path: SIGNED_IN_PATHS.accountTokens,
                  element: <OwnPageFor page="tokens" allowed="tokens" />,
                },
                {
                  path: SIGNED_IN_PATHS.notificationSettings,
                  element: <OwnPage page="notificationSettings" />,
                },
                { path: SIGNED_IN_PATHS.accountTwoStep, element: <OwnPage page="twoStep" /> },
                ...model.screens.map((screen: Screen) => ({
                  path: screen.path,
                  element: <ScreenGate screen={screen} />,
                })),
                { path: '*', element: <NotFoundPage /> },
              ],
            },
          ],
        },
      ],
    },
  ];
}

/**
 * The model's routes at the router's location. A route that fails to render shows its error in
 * place of the page (the shell catches its screens' own), until the user goes elsewhere.
 */
export function AppRoutes({ model }: { model: Model }) {
  const routes = useMemo(() => createRoutes(model), [model]);
  const element = useRoutes(routes);
  const { pathname } = useLocation();
  return (
    <ErrorBoundary resetKey={pathname} fallback={(error) => <RouteError error={error} />}>
      {element}
    </ErrorBoundary>
  );
}
