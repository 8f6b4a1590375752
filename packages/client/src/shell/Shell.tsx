/**
 * The frame of every page: the product's name, the navigation the signed-in role may use, the
 * colour scheme, and the user's menu. A burger folds the navigation away below 48em.
 */
import {
  ActionIcon,
  AppShell,
  Badge,
  Burger,
  Button,
  Center,
  Divider,
  Group,
  Loader,
  Menu,
  NavLink,
  ScrollArea,
  Text,
  Title,
  UnstyledButton,
  useComputedColorScheme,
  useMantineColorScheme,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import {
  IconHelpCircle,
  IconInfoCircle,
  IconLogout,
  IconMoon,
  IconSun,
  IconUserCircle,
} from '@tabler/icons-react';
import { Suspense, useEffect } from 'react';
import { Link, Outlet, useLocation, useMatch, useNavigate } from 'react-router';
import { useSession, useSignOut } from '../auth/session';
import { ErrorBoundary } from '../components/ErrorBoundary';
import { visibleNav } from '../runtime/access';
import { useModel } from '../runtime/runtime';
import { NavIcon } from './icons';

export function Shell() {
  const model = useModel();
  const { data: user } = useSession();
  const [opened, { toggle, close }] = useDisclosure(false);
  const location = useLocation();
  useEffect(close, [location.pathname, close]);
  const unspecified = Object.values(model.facets).filter((facet) => !facet.specified).length;

  return (
    <AppShell
      header={{ height: 56 }}
      navbar={{ width: 260, breakpoint: 'sm', collapsed: { mobile: !opened } }}
      padding="md"
    >
      <a href="#main" className="nf-skip-link">
        Skip to content
      </a>
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap" miw={0}>
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label="Navigation" />
            <UnstyledButton component={Link} to="/" miw={0}>
              <Title order={2} size="h4" lineClamp={1}>
                {model.product.name}
              </Title>
            </UnstyledButton>
          </Group>
          <Group gap="xs" wrap="nowrap">
            <ColorSchemeToggle />
            {user != null ? (
              <UserMenu name={user.name} email={user.email} roles={user.roles} />
            ) : (
              <SignInButton />
            )}
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" aria-label="Main">
        <AppShell.Section grow component={ScrollArea}>
          {visibleNav(model, user?.context ?? null).map(({ item, screen }) => (
            <NavItemLink
              key={screen.id}
              to={screen.path}
              label={item.label}
              icon={<NavIcon name={item.icon} />}
            />
          ))}
        </AppShell.Section>
        <AppShell.Section>
          <Divider my="xs" />
          <NavItemLink to="/help" label="Help" icon={<IconHelpCircle size={18} stroke={1.6} aria-hidden />} />
          <NavItemLink
            to="/about"
            label="About this app"
            icon={<IconInfoCircle size={18} stroke={1.6} aria-hidden />}
            badge={unspecified > 0 ? `${unspecified} unspecified` : undefined}
          />
        </AppShell.Section>
      </AppShell.Navbar>
      <AppShell.Main id="main" tabIndex={-1}>
        <ErrorBoundary resetKey={location.pathname}>
          <Suspense
            fallback={
              <Center py="xl">
                <Loader aria-label="Loading" />
              </Center>
            }
          >
            <Outlet />
          </Suspense>
        </ErrorBoundary>
      </AppShell.Main>
    </AppShell>
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
  return (
    <NavLink
      component={Link}
      to={to}
      label={label}
      leftSection={icon}
      active={active}
      aria-current={active ? 'page' : undefined}
      rightSection={
        badge === undefined ? undefined : (
          <Badge size="xs" variant="light" color="orange">
            {badge}
          </Badge>
        )
      }
    />
  );
}

function ColorSchemeToggle() {
  const { setColorScheme } = useMantineColorScheme();
  const computed = useComputedColorScheme('light');
  const next = computed === 'dark' ? 'light' : 'dark';
  return (
    <ActionIcon
      variant="subtle"
      color="gray"
      size="lg"
      onClick={() => setColorScheme(next)}
      aria-label={`Switch to ${next} mode`}
    >
      {computed === 'dark' ? <IconSun size={20} /> : <IconMoon size={20} />}
    </ActionIcon>
  );
}

function SignInButton() {
  const location = useLocation();
  return (
    <Button component={Link} to={`/sign-in?next=${encodeURIComponent(location.pathname)}`} size="xs">
      Sign in
    </Button>
  );
}

function UserMenu({ name, email, roles }: { name: string; email: string; roles: readonly string[] }) {
  const model = useModel();
  const signOut = useSignOut();
  const navigate = useNavigate();
  return (
    <Menu position="bottom-end" width={240}>
      <Menu.Target>
        <ActionIcon variant="subtle" color="gray" size="lg" aria-label={`Account: ${name}`}>
          <IconUserCircle size={22} />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>
          <Text size="sm" fw={600} c="var(--mantine-color-text)">
            {name}
          </Text>
          <Text size="xs">{email}</Text>
          <Text size="xs">{roles.map((r) => model.roles[r]?.label ?? r).join(', ')}</Text>
        </Menu.Label>
        <Menu.Divider />
        <Menu.Item
          leftSection={<IconLogout size={16} />}
          onClick={() =>
            signOut.mutate(undefined, { onSettled: () => void navigate('/sign-in', { replace: true }) })
          }
        >
          Sign out
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}

export function PageLoader() {
  return (
    <Center py="xl">
      <Loader aria-label="Loading" />
    </Center>
  );
}
