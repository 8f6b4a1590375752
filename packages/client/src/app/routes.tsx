/**
 * The routes of a model: one per screen at the path the spec gives it, the sign-in page, help,
 * the page about unspecified facets, and not-found. Screens load on demand, one chunk per kind.
 */
import { type Model, type Screen } from '@ninefold/spec/model';
import { lazy } from 'react';
import { Outlet, type RouteObject } from 'react-router';
import { RequireSession } from '../auth/RequireSession';
import { SignInPage } from '../auth/SignInPage';
import { RouteError } from '../pages/RouteError';
import { HomeRedirect } from '../pages/HomeRedirect';
import { NotFoundPage } from '../pages/NotFoundPage';
import { ScreenGate } from '../screens/ScreenGate';
import { Shell } from '../shell/Shell';

const HelpPage = lazy(() => import('../pages/HelpPage'));
const AboutPage = lazy(() => import('../pages/AboutPage'));

/** Paths the app keeps for itself; a screen the spec puts at one of them wins over ours. */
export const APP_PATHS = { signIn: '/sign-in', help: '/help', about: '/about' } as const;

export function createRoutes(model: Model): RouteObject[] {
  const taken = new Set(model.screens.map((s) => s.path));
  const own = (path: string, element: React.ReactNode): RouteObject[] =>
    taken.has(path) ? [] : [{ path, element }];
  return [
    {
      errorElement: <RouteError />,
      children: [
        { path: APP_PATHS.signIn, element: <SignInPage /> },
        {
          // the shell also frames help and about, which are readable before signing in
          element: <Shell />,
          errorElement: <RouteError />,
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
