import { ActionIcon, type ActionIconProps, type ElementProps } from '@mantine/core';
import { IconUserCircle } from '@tabler/icons-react';
import { type Ref } from 'react';

/**
 * The button of the signed-in user's menu. The shell shows it on its own until the menu's code has
 * loaded (see `UserMenu`), then as the menu's target, which adds the menu's props and ref.
 */
export function AccountButton({
  name,
  ...props
}: { name: string; ref?: Ref<HTMLButtonElement> } & ElementProps<'button', keyof ActionIconProps>) {
  return (
    <ActionIcon variant="subtle" color="gray" size="lg" aria-label={`Account: ${name}`} {...props}>
      <IconUserCircle size={22} />
    </ActionIcon>
  );
}
