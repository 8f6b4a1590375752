/**
 * The menu of the column chooser: a checkbox per column, the last one shown kept. Its own chunk,
 * loaded when the menu is first opened.
 */
import { Button, Checkbox, Popover, Stack, Text } from '@mantine/core';
import { COLUMNS_BUTTON } from './columns-button';
import { type ListColumn } from './columns';

export default function ColumnMenu({
  columns,
  hidden,
  onToggle,
}: {
  columns: readonly ListColumn[];
  hidden: ReadonlySet<string>;
  onToggle(name: string, hide: boolean): void;
}) {
  const shown = columns.filter((c) => !hidden.has(c.name)).length;
  return (
    <Popover position="bottom-end" shadow="md" withinPortal trapFocus returnFocus defaultOpened>
      <Popover.Target>
        <Button {...COLUMNS_BUTTON}>Columns</Button>
      </Popover.Target>
      <Popover.Dropdown>
        <Stack gap="xs" role="group" aria-label="Columns shown">
          <Text size="sm" fw={500}>
            Columns shown
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
