/**
 * The menu of the column chooser: a checkbox per column, the last one shown kept. Its own chunk,
 * loaded when the menu is first opened.
 */
import { Button, Checkbox, Popover, Stack, Text } from '@mantine/core';
import { COLUMNS_BUTTON } from './columns-button';
import { type ListColumn } from './columns';
import { useT } from '../../i18n/I18nProvider';

export default function ColumnMenu({
  columns,
  hidden,
  onToggle,
}: {
  columns: readonly ListColumn[];
  hidden: ReadonlySet<string>;
  onToggle(name: string, hide: boolean): void;
}) {
  const t = useT();
  const shown = columns.filter((c) => !hidden.has(c.name)).length;
  return (
    <Popover position="bottom-end" shadow="md" withinPortal trapFocus returnFocus defaultOpened>
      <Popover.Target>
        <Button {...COLUMNS_BUTTON}>{t('list.columns')}</Button>
      </Popover.Target>
      <Popover.Dropdown>
        <Stack gap="xs" role="group" aria-label={t('list.columnsShown')}>
          <Text size="sm" fw={500}>
            {t('list.columnsShown')}
          </Text>
          {columns.map((column) => {
            const visible = !hidden.has(column.name);
            return (
              <Checkbox
                key={column.name}
                label={column.label}
                checked={visible}
                // the last visible column stays: a list without columns shows nothing
                disabled={visible && shown === 1}
                onChange={(event) => onToggle(column.name, !event.currentTarget.checked)}
              />
            );
          })}
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}
