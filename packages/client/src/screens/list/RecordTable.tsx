/**
 * A list's rows as a table: sortable headers, rows that open their record, and only the rows near
 * the window rendered — spacer rows stand in for the others, so columns keep their widths. The
 * rows are plain elements with the classes of Mantine's table, which the header and the table
 * itself still render: a Mantine component per cell costs more than the cell. The layout is fixed,
 * with widths decided before the first row (`column-widths.ts`): what a row holds wraps or is
 * clamped inside its cell, and shows whole when its row has the keyboard's focus or the pointer
 * rests on the cell (its title), never moving a column's edge.
 */
import { type ApiRecord } from '@ninefold/model';
import { Table, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconArrowsSort } from '@tabler/icons-react';
import { type Row, type Table as TableModel, flexRender } from '@tanstack/react-table';
import { type Ref } from 'react';
import { ACTIONS_COLUMN } from './columns';
import { sortDirection } from './list-params';
import { type RowsView } from './rows-view';
import { rowActivation, useWindowRows } from './window-rows';

/** A row of one line, as the table's spacing and the theme's type make it, before it is measured. */
const ROW_HEIGHT = 46;

export function RecordTable({
  table,
  rows,
  sort,
  onSort,
  sortable,
  busy,
  label,
  widths,
}: {
  table: TableModel<ApiRecord>;
  /** Each column's width (`'9rem'`), or undefined for a share of what is left. */
  widths: Readonly<Record<string, string | undefined>>;
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
  const visible = useWindowRows<HTMLTableSectionElement>({
    count: all.length,
    estimate: ROW_HEIGHT,
    onNearEnd: rows.loadMore,
    canLoadMore: rows.canLoadMore,
  });
  return (
    <Table.ScrollContainer minWidth={Math.max(width * 130, 480)} type="native">
      <Table
        highlightOnHover
        verticalSpacing="xs"
        aria-label={label}
        aria-busy={busy}
        aria-rowcount={rows.total + 1}
        className="nf-fixed-table"
      >
        <colgroup>
          {headers.map((header) => (
            <col key={header.id} style={{ width: widths[header.column.id] }} />
          ))}
        </colgroup>
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
        <Table.Tbody ref={visible.listRef as Ref<HTMLTableSectionElement>}>
          {visible.before > 0 && <Spacer height={visible.before} width={width} />}
          {visible.items.map((item) => {
            const row = all[item.index];
            return row === undefined ? null : (
              <RecordRow key={row.id} row={row} index={item.index} rows={rows} measure={visible.measure} />
            );
          })}
          {visible.after > 0 && <Spacer height={visible.after} width={width} />}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** One record's row, as `Table.Tr` and `Table.Td` of a table with row borders and hover render them. */
function RecordRow({
  row,
  index,
  rows,
  measure,
}: {
  row: Row<ApiRecord>;
  index: number;
  rows: RowsView;
  measure: ((element: HTMLElement | null) => void) | undefined;
}) {
  const path = rows.pathOf(row.original);
  return (
    <tr
      className={Table.classes.tr}
      data-with-row-border
      data-hover
      data-index={index}
      ref={measure}
      aria-rowindex={index + 2}
      data-record={row.original.id}
      {...(path === null
        ? {}
        : { tabIndex: 0, style: { cursor: 'pointer' }, ...rowActivation(() => rows.open(path)) })}
    >
      {row.getVisibleCells().map((cell) => (
        <td key={cell.id} className={Table.classes.td} style={{ verticalAlign: 'top' }}>
          <div className="nf-cell" title={longText(cell.getValue())}>
            {flexRender(cell.column.columnDef.cell, cell.getContext())}
          </div>
        </td>
      ))}
    </tr>
  );
}

/** A cell's whole text for the pointer, when it may be clamped: the keyboard's row shows it whole. */
function longText(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 40 ? value : undefined;
}

/** Stands in for the rows not rendered above or below the window. */
function Spacer({ height, width }: { height: number; width: number }) {
  return (
    <tr aria-hidden="true">
      <td colSpan={width} style={{ height, padding: 0, border: 0 }} />
    </tr>
  );
}
