/**
 * The frame of the admin area's pages: their title and the links between them. Only admins reach
 * them: the routes check `isAdmin` (`app/routes.tsx`, `AdminOnly`) before this code even loads.
 */
import '../styles/admin';
import { Group, Stack, Title } from '@mantine/core';
import { isAdmin } from '@ninefold/engine/grants';
import { SIGNED_IN_PATHS } from '@ninefold/model';
import { type ReactNode } from 'react';
import { useMatch } from 'react-router';
import { useSession } from '../auth/session';
import { useT } from '../i18n/I18nProvider';
import { ButtonLink } from '../components/buttons';
import { useModel } from '../runtime/runtime';
import { useDocumentTitle } from '../shell/title';

/**
 * The admin area's pages, in the order their links show. Invitations are also for those who may
 * create users without being admins (`adminOnly: false`): they see that link alone.
 */
export const ADMIN_PAGES = [
  { path: SIGNED_IN_PATHS.adminJobs, label: 'Jobs', key: 'admin.jobs', adminOnly: true },
  {
    path: SIGNED_IN_PATHS.adminWebhooks,
    label: 'Webhook deliveries',
    key: 'admin.webhooks',
    adminOnly: true,
  },
  { path: SIGNED_IN_PATHS.adminMail, label: 'Mail outbox', key: 'admin.mail', adminOnly: true },
  {
    path: SIGNED_IN_PATHS.adminInvitations,
    label: 'Invitations',
    key: 'admin.invitations',
    adminOnly: false,
  },
  { path: SIGNED_IN_PATHS.adminAudit, label: 'Audit trail', key: 'admin.audit', adminOnly: true },
] as const;

/**
 * A page of the admin area: its title, the links to the others, and its content.
 *
 * @example <AdminFrame title="Jobs"><JobsTable /></AdminFrame>
 */
export function AdminFrame({ title, children }: { title: string; children: ReactNode }) {
  useDocumentTitle(title);
  const t = useT();
  const model = useModel();
  const { data: user } = useSession();
  const admin = user != null && isAdmin(model, user.roles);
  return (
    <Stack gap="md" py="md">
      <Title order={1}>{title}</Title>
      <Group gap="xs" component="nav" aria-label={t('admin.nav')}>
        {ADMIN_PAGES.filter((page) => admin || !page.adminOnly).map((page) => (
          <AdminLink key={page.path} to={page.path} label={t(page.key)} />
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
