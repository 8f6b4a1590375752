import { IconColumns } from '@tabler/icons-react';

/** The "Columns" button's look, the same before and after its menu has loaded. */
export const COLUMNS_BUTTON = {
  variant: 'default',
  leftSection: <IconColumns size={16} aria-hidden />,
} as const;
