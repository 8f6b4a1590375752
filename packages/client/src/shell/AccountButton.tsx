import { IconUserCircle } from '@tabler/icons-react';
import { type ComponentProps } from 'react';
import { IconButton } from '../components/buttons';
import { useT } from '../i18n/I18nProvider';

/**
 * The button of the signed-in user's menu. The shell shows it on its own until the menu's code has
 * loaded (see `UserMenu`), then as the menu's target, which adds the menu's props and ref.
 */
export function AccountButton({ name, ...props }: { name: string } & ComponentProps<'button'>) {
  const t = useT();
  return (
    <IconButton aria-label={t('first.account', { name })} {...props}>
      <IconUserCircle size={22} />
    </IconButton>
  );
}
