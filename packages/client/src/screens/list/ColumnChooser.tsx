/**
 * Which columns a list shows: a menu of checkboxes, remembered per screen in this browser.
 */
import { Button, Checkbox, Popover, Stack, Text } from '@mantine/core';
import { useLocalStorage } from '@mantine/hooks';
import { IconColumns } from '@tabler/icons-react';
import { useCallback, useMemo, useState } from 'react';
import { type ListColumn } from './columns';

/**
 * The columns hidden on a screen, kept in localStorage under the product and the screen.
 *
 * @example const [hidden, setHidden] = useHiddenColumns('Expense claims', 'my-claims');
 */
export function useHiddenColumns(product: string, screen: string) {
  const [stored, setStored] = useLocalStorage<string[]>({
    key: `ninefold:${product}:${screen}:hidden-columns`,
    defaultValue: [],
    getInitialValueInEffect: false,
  });
  const hidden = useMemo(() => new Set(Array.isArray(stored) ? stored : []), [stored]);
  const setHidden = useCallback(
    (name: string, hide: boolean) =>
      setStored((previous) => {
        const next = new Set(Array.isArray(previous) ? previous : []);
        if (hide) next.add(name);
        else next.delete(name);
        return [...next];
      }),
    [setStored],
  );
  return [hidden, setHidden] as const;
}

/**
 * The "Columns" button, and its menu once first opened: a closed popover still costs its
 * positioning hooks in the list's first frame.
 */
export function ColumnChooser(props: {
  columns: readonly ListColumn[];
  hidden: ReadonlySet<string>;
  onToggle(name: string, hide: boolean): void;
}) {
  const [wanted, setWanted] = useState(false);
  if (!wanted)
    return (
      <Button {...BUTTON} onClick={() => setWanted(true)}>
        Columns
      </Button>
    );
  return <ColumnMenu {...props} />;
}

const BUTTON = { variant: 'default', leftSection: <IconColumns size={16} aria-hidden /> } as const;

function ColumnMenu({
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
        <Button {...BUTTON}>Columns</Button>
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
