/**
 * The signed-in user's menu: who they are, their roles, and signing out. Its own chunk: the popover
 * it opens (Floating UI, focus trap, transitions) is not needed to paint the first page.
 */
import { Menu, Text } from '@mantine/core';
import { IconLogout } from '@tabler/icons-react';
import { useNavigate } from 'react-router';
import { useSignOut } from '../auth/session-actions';
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
