/**
 * The signed-in user's menu: who they are, their roles, their account (and API tokens, for a role
 * that may hold them), their notification settings (when the spec notifies), invitations (for whoever
 * may create users), the admin area (for admins), and signing out. Its own chunk: the popover it opens
 * (Floating UI, focus trap, transitions) is not needed to paint the first page.
 */
import { Menu, Text } from '@mantine/core';
import { accessFor, isAdmin } from '@ninefold/engine/grants';
import { SIGNED_IN_PATHS } from '@ninefold/model';
import {
  IconBell,
  IconBriefcase,
  IconKey,
  IconListDetails,
  IconLogout,
  IconMail,
  IconUser,
  IconUserPlus,
  IconWebhook,
} from '@tabler/icons-react';
import { Link, useNavigate } from 'react-router';
import { useSession } from '../auth/session';
import { useSignOut } from '../auth/session-actions';
import { useUserQueue } from '../offline/PendingWrites';
import { useModel } from '../runtime/runtime';
import { LanguageItems } from '../i18n/LanguageMenu';
import { useT } from '../i18n/I18nProvider';
import { AccountButton } from './AccountButton';
import '../styles/controls';

export default function UserMenu({
  name,
  email,
  roles,
}: {
  name: string;
  email: string;
  roles: readonly string[];
}) {
  const model = useModel();
  const t = useT();
  const signOut = useSignOut();
  const navigate = useNavigate();
  const kept = useUserQueue().writes.length;
  const { data: session } = useSession();
  const admin = isAdmin(model, roles);
  const mayInvite = session != null && accessFor(model, session.context, 'create', 'User') !== false;
  const mayHoldTokens = roles.some((role) => model.auth.tokens.includes(role));
  return (
    <Menu position="bottom-end" width={240}>
      <Menu.Target>
        <AccountButton name={name} />
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>
          <Text size="sm" fw={600} c="var(--mantine-color-text)">
            {name}
          </Text>
          <Text size="xs">{email}</Text>
          <Text size="xs">
            {new Intl.ListFormat(model.product.locale, { type: 'unit' }).format(
              roles.map((r) => model.roles[r]?.label ?? r),
            )}
          </Text>
        </Menu.Label>
        <Menu.Divider />
        <Menu.Item component={Link} to={SIGNED_IN_PATHS.account} leftSection={<IconUser size={16} />}>
          {t('first.yourAccount')}
        </Menu.Item>
        {mayHoldTokens && (
          <Menu.Item component={Link} to={SIGNED_IN_PATHS.accountTokens} leftSection={<IconKey size={16} />}>
            {t('first.apiTokens')}
          </Menu.Item>
        )}
        {Object.keys(model.notifications).length > 0 && (
          <Menu.Item
            component={Link}
            to={SIGNED_IN_PATHS.notificationSettings}
            leftSection={<IconBell size={16} />}
          >
            {t('first.notificationSettings')}
          </Menu.Item>
        )}
        {(admin || mayInvite) && <Menu.Label>{t('first.admin')}</Menu.Label>}
        {mayInvite && (
          <Menu.Item
            component={Link}
            to={SIGNED_IN_PATHS.adminInvitations}
            leftSection={<IconUserPlus size={16} />}
          >
            {t('first.invitations')}
          </Menu.Item>
        )}
        {admin && (
          <>
            <Menu.Item
              component={Link}
              to={SIGNED_IN_PATHS.adminJobs}
              leftSection={<IconBriefcase size={16} />}
            >
              {t('first.jobs')}
            </Menu.Item>
            <Menu.Item
              component={Link}
              to={SIGNED_IN_PATHS.adminWebhooks}
              leftSection={<IconWebhook size={16} />}
            >
              {t('first.webhookDeliveries')}
            </Menu.Item>
            <Menu.Item component={Link} to={SIGNED_IN_PATHS.adminMail} leftSection={<IconMail size={16} />}>
              {t('first.mailOutbox')}
            </Menu.Item>
            <Menu.Item
              component={Link}
              to={SIGNED_IN_PATHS.adminAudit}
              leftSection={<IconListDetails size={16} />}
            >
              {t('first.auditTrail')}
            </Menu.Item>
          </>
        )}
        {(admin || mayInvite) && <Menu.Divider />}
        <LanguageItems />
        <Menu.Divider />
        {kept > 0 && (
          // signing out keeps them: they are sent when this user signs in again, never for another
          <Menu.Label data-testid="kept-on-sign-out">{t('offline.keptOnSignOut', { n: kept })}</Menu.Label>
        )}
        <Menu.Item
          leftSection={<IconLogout size={16} />}
          onClick={() =>
            signOut.mutate(undefined, { onSettled: () => void navigate('/sign-in', { replace: true }) })
          }
        >
          {t('first.signOut')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
