/**
 * The frame of the admin area's pages: their title, the links between them, and the one rule —
 * only admins (`isAdmin`, the engine's definition the server guards the routes with) see them;
 * anyone else gets "Not allowed", as the server would answer them.
 */
import '../styles/admin';
import { Group, Stack, Title } from '@mantine/core';
import { isAdmin } from '@ninefold/engine/grants';
import { SIGNED_IN_PATHS } from '@ninefold/model';
import { type ReactNode } from 'react';
import { useMatch } from 'react-router';
import { useUser } from '../auth/session';
import { ButtonLink } from '../components/buttons';
import { ForbiddenPage } from '../pages/ForbiddenPage';
import { useModel } from '../runtime/runtime';
import { useDocumentTitle } from '../shell/title';

/** The admin area's pages, in the order their links show. */
export const ADMIN_PAGES = [
  { path: SIGNED_IN_PATHS.adminJobs, label: 'Jobs' },
  { path: SIGNED_IN_PATHS.adminWebhooks, label: 'Webhook deliveries' },
  { path: SIGNED_IN_PATHS.adminMail, label: 'Mail outbox' },
] as const;

/**
 * A page of the admin area, or "Not allowed" for someone who is not an admin.
 *
 * @example <AdminFrame title="Jobs"><JobsTable /></AdminFrame>
 */
export function AdminFrame({ title, children }: { title: string; children: ReactNode }) {
  const model = useModel();
  const user = useUser();
  if (!isAdmin(model, user.roles)) return <ForbiddenPage />;
  return <AdminPage title={title}>{children}</AdminPage>;
}

function AdminPage({ title, children }: { title: string; children: ReactNode }) {
  useDocumentTitle(title);
  return (
    <Stack gap="md" py="md">
      <Title order={1}>{title}</Title>
      <Group gap="xs" component="nav" aria-label="Admin">
        {ADMIN_PAGES.map((page) => (
          <AdminLink key={page.path} to={page.path} label={page.label} />
        ))}
      </Group>
      {children}
    </Stack>
  );
}

function AdminLink({ to, label }: { to: string; label: string }) {
  const current = useMatch(to) !== null;
  return (
    <ButtonLink
      to={to}
      size="xs"
      variant={current ? 'light' : 'default'}
      aria-current={current ? 'page' : undefined}
    >
      {label}
    </ButtonLink>
  );
}
