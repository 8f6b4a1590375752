/**
 * A list's rows as a table: sortable headers, rows that open their record, and only the rows near
 * the window rendered — spacer rows stand in for the others, so columns keep their widths.
 */
import { Table, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconArrowsSort } from '@tabler/icons-react';
import { type Table as TableModel, flexRender } from '@tanstack/react-table';
import { type Ref } from 'react';
import { type ApiRecord } from '../../api/records';
import { ACTIONS_COLUMN } from './columns';
import { sortDirection } from './list-params';
import { type RowsView } from './rows-view';
import { rowActivation } from './window-rows';

export function RecordTable({
  table,
  rows,
  sort,
  onSort,
  sortable,
  busy,
  label,
}: {
  table: TableModel<ApiRecord>;
  rows: RowsView;
  sort: string;
  onSort(column: string): void;
  sortable: ReadonlySet<string>;
  busy: boolean;
  label: string;
}) {
  const headers = table.getHeaderGroups()[0]?.headers ?? [];
  const all = table.getRowModel().rows;
  const width = headers.length;
  return (
    <Table.ScrollContainer minWidth={Math.max(width * 130, 480)} type="native">
      <Table
        highlightOnHover
        verticalSpacing="xs"
        aria-label={label}
        aria-busy={busy}
        aria-rowcount={rows.total + 1}
      >
        <Table.Thead>
          <Table.Tr aria-rowindex={1}>
            {headers.map((header) => {
              const id = header.column.id;
              const title = String(header.column.columnDef.header ?? '');
              const direction = sortDirection(sort, id);
              if (!sortable.has(id))
                return (
                  <Table.Th key={header.id} scope="col">
                    {id === ACTIONS_COLUMN ? <VisuallyHidden>{title}</VisuallyHidden> : title}
                  </Table.Th>
                );
              const Icon =
                direction === 'ascending'
                  ? IconArrowUp
                  : direction === 'descending'
                    ? IconArrowDown
                    : IconArrowsSort;
              return (
                <Table.Th key={header.id} scope="col" aria-sort={direction ?? 'none'}>
                  <UnstyledButton
                    onClick={() => onSort(id)}
                    fw={700}
                    fz="sm"
                    style={{ display: 'inline-flex', alignItems: 'center', gap: 4 }}
                  >
                    {title}
                    <Icon
                      size={14}
                      stroke={1.8}
                      aria-hidden
                      style={{ opacity: direction === null ? 0.4 : 1 }}
                    />
                  </UnstyledButton>
                </Table.Th>
              );
            })}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody ref={rows.listRef as Ref<HTMLTableSectionElement>}>
          {rows.before > 0 && (
            <tr aria-hidden="true">
              <td colSpan={width} style={{ height: rows.before, padding: 0, border: 0 }} />
            </tr>
          )}
          {rows.items.map((item) => {
            const row = all[item.index];
            if (row === undefined) return null;
            const path = rows.pathOf(row.original);
            return (
              <Table.Tr
                key={row.id}
                data-index={item.index}
                ref={rows.measure}
                aria-rowindex={item.index + 2}
                data-record={row.original.id}
                {...(path === null
                  ? {}
                  : { tabIndex: 0, style: { cursor: 'pointer' }, ...rowActivation(() => rows.open(path)) })}
              >
                {row.getVisibleCells().map((cell) => (
                  <Table.Td key={cell.id} style={{ verticalAlign: 'top' }}>
                    {flexRender(cell.column.columnDef.cell, cell.getContext())}
                  </Table.Td>
                ))}
              </Table.Tr>
            );
          })}
          {rows.after > 0 && (
            <tr aria-hidden="true">
              <td colSpan={width} style={{ height: rows.after, padding: 0, border: 0 }} />
            </tr>
          )}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
