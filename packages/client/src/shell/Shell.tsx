/**
 * The frame of every page: the product's name, the navigation the signed-in role may use, the
 * colour scheme, and the user's menu. A burger folds the navigation away below 48em. The layout is
 * our own CSS (`shell.css`) rather than Mantine's AppShell, whose resizing, asides, footers and
 * scroll-lock code the first page would otherwise load.
 */
import {
  Burger,
  Center,
  Group,
  Loader,
  UnstyledButton,
  useComputedColorScheme,
  useMantineColorScheme,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconHelpCircle, IconInfoCircle, IconMoon, IconSun } from '@tabler/icons-react';
import { API_PATHS } from '@ninefold/model';
import { useQueryClient } from '@tanstack/react-query';
import { Suspense, useEffect, useState } from 'react';
import { Link, Outlet, useLocation, useMatch } from 'react-router';
import { useSession } from '../auth/session';
import { ErrorBoundary } from '../components/ErrorBoundary';
import { Heading } from '../components/Heading';
import { ToastContext, createToastStore, useShownToasts } from '../feedback/toasts';
import { ButtonLink, IconButton } from '../components/buttons';
import { syncDeviceSettings } from '../prerender/client';
import { isAdmin, visibleNav } from '@ninefold/engine/grants';
import { hasAppNotifications } from '../notifications/app-notifications';
import { lazyComponent } from '../runtime/lazy';
import { useModel, useRuntime } from '../runtime/runtime';
import { useT } from '../i18n/I18nProvider';
import { AccountButton } from './AccountButton';
import { NavIcon } from './icons';
import './shell.css';

const UserMenu = lazyComponent(() => import('./UserMenu').then((module) => module.default));
/** The notifications' bell: after the first paint, and only when the spec notifies in the app. */
const NotificationBell = lazyComponent(() =>
  import('../notifications/NotificationBell').then((module) => module.default),
);
/** The offline queue's replays and indicator: after the first paint, and only when the spec queues writes. */
const OfflineIndicator = lazyComponent(() =>
  import('../offline/OfflineIndicator').then((module) => module.default),
);
/** The live stream's subscription: after the first paint, and only when the spec streams changes. */
/** The toasts: with the first one, not with the first page. */
const Toaster = lazyComponent(() => import('../feedback/Toaster').then((module) => module.default));
const LiveUpdates = lazyComponent(() => import('../live/LiveUpdates').then((module) => module.default));

export function Shell() {
  const { model, http, eventSource } = useRuntime();
  const t = useT();
  const { data: user, refetch } = useSession();
  const queryClient = useQueryClient();
  const [opened, { toggle, close }] = useDisclosure(false);
  const location = useLocation();
  useEffect(close, [location.pathname, close]);
  const [toastStore] = useState(createToastStore);
  const toasts = useShownToasts(toastStore);
  // the spec's author's concern, not every user's: on /about, and beside it for an admin (decision 0066)
  const unspecified =
    user != null && isAdmin(model, user.roles)
      ? Object.values(model.facets).filter((facet) => !facet.specified).length
      : 0;

  return (
    <ToastContext.Provider value={toastStore}>
      <div className="nf-shell" data-nav-open={opened || undefined}>
        <a href="#main" className="nf-skip-link">
          {t('first.skipToContent')}
        </a>
        {/* the class keeps the header clear of the scrollbar while a dialog locks the page's scroll */}
        <header className="nf-shell-header right-scroll-bar-position">
          <Group h="100%" px="md" justify="space-between" wrap="nowrap">
            <Group gap="sm" wrap="nowrap" miw={0}>
              <Burger
                opened={opened}
                onClick={toggle}
                hiddenFrom="sm"
                size="sm"
                aria-label={t('first.navigation')}
                aria-controls="nf-nav"
                aria-expanded={opened}
              />
              <UnstyledButton component={Link} to="/" miw={0}>
                <Heading order={2} size={4} lineClamp={1}>
                  {model.product.name}
                </Heading>
              </UnstyledButton>
            </Group>
            <Group gap="xs" wrap="nowrap">
              {user != null && model.calls.realtime && (
                <Suspense fallback={null}>
                  <LiveUpdates
                    key={user.id}
                    client={queryClient}
                    url={http.url(API_PATHS.events)}
                    eventSource={eventSource}
                    onRefused={() => void refetch()}
                    cursors={http.eventCursors}
                  />
                </Suspense>
              )}
              {user != null && model.calls.offlineQueue && (
                <Suspense fallback={null}>
                  <OfflineIndicator key={user.id} userId={user.id} />
                </Suspense>
              )}
              {user != null && hasAppNotifications(model) && (
                <Suspense fallback={null}>
                  <NotificationBell key={user.id} userId={user.id} />
                </Suspense>
              )}
              <ColorSchemeToggle />
              {user != null ? (
                // the menu's code (its popover) loads after the first paint; its button shows at once,
                // marked unavailable until then
                <Suspense fallback={<AccountButton name={user.name} aria-disabled />}>
                  <UserMenu name={user.name} email={user.email} roles={user.roles} />
                </Suspense>
              ) : (
                <SignInButton />
              )}
            </Group>
          </Group>
        </header>
        <nav className="nf-shell-nav" id="nf-nav" aria-label={t('first.mainNavigation')}>
          <div className="nf-nav-scroll">
            {visibleNav(model, user?.context ?? null).map(({ item, screen }) => (
              <NavItemLink
                key={screen.id}
                to={screen.path}
                label={item.label}
                icon={<NavIcon name={item.icon} />}
              />
            ))}
          </div>
          <div>
            <hr className="nf-nav-divider" />
            <NavItemLink
              to="/help"
              label={t('first.help')}
              icon={<IconHelpCircle size={18} stroke={1.6} aria-hidden />}
            />
            <NavItemLink
              to="/about"
              label={t('first.about')}
              icon={<IconInfoCircle size={18} stroke={1.6} aria-hidden />}
              badge={unspecified > 0 ? t('first.unspecifiedBadge', { n: unspecified }) : undefined}
            />
          </div>
        </nav>
        <main className="nf-shell-main" id="main" tabIndex={-1}>
          <ErrorBoundary resetKey={location.pathname}>
            <Suspense
              fallback={
                <Center py="xl">
                  <Loader aria-label={t('first.loader')} />
                </Center>
              }
            >
              <Outlet />
            </Suspense>
          </ErrorBoundary>
        </main>
        {/* there from the start, so that what appears in it is announced */}
        <div className="nf-toasts" aria-live="polite" aria-label={t('first.messages')} role="region">
          {toasts.length > 0 && (
            <Suspense fallback={null}>
              <Toaster store={toastStore} toasts={toasts} />
            </Suspense>
          )}
        </div>
      </div>
    </ToastContext.Provider>
  );
}

function NavItemLink({
  to,
  label,
  icon,
  badge,
}: {
  to: string;
  label: string;
  icon: React.ReactNode;
  badge?: string | undefined;
}) {
  const active = useMatch({ path: to, end: false }) !== null;
  // drawn as Mantine's NavLink draws a link (shell.css), without its collapsible children's code
  return (
    <Link to={to} className="nf-nav-link mantine-focus-auto" aria-current={active ? 'page' : undefined}>
      <span className="nf-nav-link-section">{icon}</span>
      <span className="nf-nav-link-label">{label}</span>
      {badge !== undefined && (
        // drawn as Mantine's light orange `Badge` (shell.css), whose code the first page does without
        <span className="nf-nav-link-badge">{badge}</span>
      )}
    </Link>
  );
}

function ColorSchemeToggle() {
  const { product } = useModel();
  const { setColorScheme } = useMantineColorScheme();
  const computed = useComputedColorScheme('light');
  const t = useT();
  const next = computed === 'dark' ? 'light' : 'dark';
  const toggle = () => {
    setColorScheme(next);
    syncDeviceSettings(product.name, product.theme.colorScheme); // the server prerenders in the spec's
  };
  return (
    <IconButton onClick={toggle} aria-label={next === 'dark' ? t('first.darkMode') : t('first.lightMode')}>
      {computed === 'dark' ? <IconSun size={20} /> : <IconMoon size={20} />}
    </IconButton>
  );
}

function SignInButton() {
  const location = useLocation();
  const t = useT();
  return (
    <ButtonLink to={`/sign-in?next=${encodeURIComponent(location.pathname)}`} size="xs">
      {t('first.signIn')}
    </ButtonLink>
  );
}

export function PageLoader() {
  const t = useT();
  return (
    <Center py="xl">
      <Loader aria-label={t('first.loader')} />
    </Center>
  );
}
