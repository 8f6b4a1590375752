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
          <Text size="xs">{roles.map((r) => model.roles[r]?.label ?? r).join(', ')}</Text>
        </Menu.Label>
        <Menu.Divider />
        <Menu.Item component={Link} to={SIGNED_IN_PATHS.account} leftSection={<IconUser size={16} />}>
          Your account
        </Menu.Item>
        {mayHoldTokens && (
          <Menu.Item component={Link} to={SIGNED_IN_PATHS.accountTokens} leftSection={<IconKey size={16} />}>
            API tokens
          </Menu.Item>
        )}
        {Object.keys(model.notifications).length > 0 && (
          <Menu.Item
            component={Link}
            to={SIGNED_IN_PATHS.notificationSettings}
            leftSection={<IconBell size={16} />}
          >
            Notification settings
          </Menu.Item>
        )}
        {(admin || mayInvite) && <Menu.Label>Admin</Menu.Label>}
        {mayInvite && (
          <Menu.Item
            component={Link}
            to={SIGNED_IN_PATHS.adminInvitations}
            leftSection={<IconUserPlus size={16} />}
          >
            Invitations
          </Menu.Item>
        )}
        {admin && (
          <>
            <Menu.Item
              component={Link}
              to={SIGNED_IN_PATHS.adminJobs}
              leftSection={<IconBriefcase size={16} />}
            >
              Jobs
            </Menu.Item>
            <Menu.Item
              component={Link}
              to={SIGNED_IN_PATHS.adminWebhooks}
              leftSection={<IconWebhook size={16} />}
            >
              Webhook deliveries
            </Menu.Item>
            <Menu.Item component={Link} to={SIGNED_IN_PATHS.adminMail} leftSection={<IconMail size={16} />}>
              Mail outbox
            </Menu.Item>
            <Menu.Item
              component={Link}
              to={SIGNED_IN_PATHS.adminAudit}
              leftSection={<IconListDetails size={16} />}
            >
              Audit trail
            </Menu.Item>
          </>
        )}
        {(admin || mayInvite) && <Menu.Divider />}
        {kept > 0 && (
          // signing out keeps them: they are sent when this user signs in again, never for another
          <Menu.Label data-testid="kept-on-sign-out">
            {kept === 1 ? '1 change is' : `${kept} changes are`} not sent yet: signing out keeps{' '}
            {kept === 1 ? 'it' : 'them'} on this device, sent when you sign in again.
          </Menu.Label>
        )}
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
