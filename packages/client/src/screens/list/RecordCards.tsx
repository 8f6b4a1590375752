/**
 * A list's rows as compact cards, for phones: the record's title and state on top, the other
 * columns as label and value beneath, its actions at the bottom. Virtualised like the table.
 */
import { Box, Card, Group, Text } from '@mantine/core';
import { type Table as TableModel, flexRender } from '@tanstack/react-table';
import { type Ref } from 'react';
import { type ApiRecord } from '../../api/records';
import { ACTIONS_COLUMN } from './columns';
import { type RowsView } from './rows-view';
import { rowActivation, useWindowRows } from './window-rows';

/** A card of a few lines, before it is measured. */
const CARD_HEIGHT = 140;

export function RecordCards({
  table,
  rows,
  titleColumn,
  busy,
  label,
}: {
  table: TableModel<ApiRecord>;
  rows: RowsView;
  /** The column shown as each card's title. */
  titleColumn: string;
  busy: boolean;
  label: string;
}) {
  const all = table.getRowModel().rows;
  const visible = useWindowRows<HTMLUListElement>({
    count: all.length,
    estimate: CARD_HEIGHT,
    onNearEnd: rows.loadMore,
    canLoadMore: rows.canLoadMore,
  });
  return (
    <Box
      component="ul"
      ref={visible.listRef as Ref<HTMLUListElement>}
      aria-label={label}
      aria-busy={busy}
      style={{ listStyle: 'none', padding: 0, margin: 0 }}
    >
      {visible.before > 0 && <li aria-hidden="true" style={{ height: visible.before }} />}
      {visible.items.map((item) => {
        const row = all[item.index];
        if (row === undefined) return null;
        const cells = row.getVisibleCells();
        const title = cells.find((c) => c.column.id === titleColumn) ?? cells[0];
        const state = cells.find((c) => c.column.id === 'state' && c !== title);
        const actions = cells.find((c) => c.column.id === ACTIONS_COLUMN);
        const rest = cells.filter((c) => c !== title && c !== state && c !== actions);
        const path = rows.pathOf(row.original);
        return (
          <li key={row.id} data-index={item.index} ref={visible.measure} style={{ paddingBottom: 8 }}>
            <Card
              withBorder
              padding="sm"
              data-record={row.original.id}
              {...(path === null
                ? {}
                : { tabIndex: 0, style: { cursor: 'pointer' }, ...rowActivation(() => rows.open(path)) })}
            >
              <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
                <Text fw={600} miw={0} style={{ overflowWrap: 'anywhere' }}>
                  {title !== undefined && flexRender(title.column.columnDef.cell, title.getContext())}
                </Text>
                {state !== undefined && flexRender(state.column.columnDef.cell, state.getContext())}
              </Group>
              {rest.length > 0 && (
                <Box
                  component="dl"
                  mt={6}
                  mb={0}
                  style={{ display: 'grid', gridTemplateColumns: 'auto 1fr', columnGap: 12, rowGap: 2 }}
                >
                  {rest.map((cell) => (
                    <Box key={cell.id} style={{ display: 'contents' }}>
                      <Text component="dt" size="sm" c="dimmed">
                        {String(cell.column.columnDef.header ?? '')}
                      </Text>
                      <Text component="dd" size="sm" m={0} miw={0} style={{ overflowWrap: 'anywhere' }}>
                        {flexRender(cell.column.columnDef.cell, cell.getContext())}
                      </Text>
                    </Box>
                  ))}
                </Box>
              )}
              {actions !== undefined && (
                <Box mt="xs">{flexRender(actions.column.columnDef.cell, actions.getContext())}</Box>
              )}
            </Card>
          </li>
        );
      })}
      {visible.after > 0 && <li aria-hidden="true" style={{ height: visible.after }} />}
    </Box>
  );
}
