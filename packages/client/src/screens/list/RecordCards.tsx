/**
 * A list's rows as compact cards, for phones: the record's title and state on top, the other
 * columns as label and value beneath, its actions at the bottom. Virtualised like the table, and
 * like its rows made of plain elements: Mantine's card classes, and the layout of `list.css`.
 */
import { type ApiRecord } from '@ninefold/model';
import { Card, Paper } from '@mantine/core';
import { type Row, type Table as TableModel, flexRender } from '@tanstack/react-table';
import { type CSSProperties, type Ref } from 'react';
import { ACTIONS_COLUMN } from './columns';
import './list.css';
import { type RowsView } from './rows-view';
import { rowActivation, useWindowRows } from './window-rows';

/** A card of a few lines, before it is measured. */
const CARD_HEIGHT = 140;

/** What `<Card withBorder padding="sm">` renders on its root. */
const CARD = {
  className: `${Paper.classes.root} ${Card.classes.root}`,
  'data-with-border': true,
  'data-orientation': 'vertical',
} as const;
const CARD_STYLE = { '--card-padding': 'var(--mantine-spacing-sm)' } as CSSProperties;

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
    <ul
      ref={visible.listRef as Ref<HTMLUListElement>}
      aria-label={label}
      aria-busy={busy}
      style={{ listStyle: 'none', padding: 0, margin: 0 }}
    >
      {visible.before > 0 && <li aria-hidden="true" style={{ height: visible.before }} />}
      {visible.items.map((item) => {
        const row = all[item.index];
        return row === undefined ? null : (
          <RecordCard
            key={row.id}
            row={row}
            index={item.index}
            titleColumn={titleColumn}
            rows={rows}
            measure={visible.measure}
          />
        );
      })}
      {visible.after > 0 && <li aria-hidden="true" style={{ height: visible.after }} />}
    </ul>
  );
}

function RecordCard({
  row,
  index,
  titleColumn,
  rows,
  measure,
}: {
  row: Row<ApiRecord>;
  index: number;
  titleColumn: string;
  rows: RowsView;
  measure: ((element: HTMLElement | null) => void) | undefined;
}) {
  const cells = row.getVisibleCells();
  const title = cells.find((c) => c.column.id === titleColumn) ?? cells[0];
  const state = cells.find((c) => c.column.id === 'state' && c !== title);
  const actions = cells.find((c) => c.column.id === ACTIONS_COLUMN);
  const rest = cells.filter((c) => c !== title && c !== state && c !== actions);
  const path = rows.pathOf(row.original);
  return (
    <li data-index={index} ref={measure} style={{ paddingBottom: 8 }}>
      <div
        {...CARD}
        data-record={row.original.id}
        {...(path === null
          ? { style: CARD_STYLE }
          : {
              tabIndex: 0,
              style: { ...CARD_STYLE, cursor: 'pointer' },
              ...rowActivation(() => rows.open(path)),
            })}
      >
        <div className="nf-card-head">
          <p className="nf-card-title">
            {title !== undefined && flexRender(title.column.columnDef.cell, title.getContext())}
          </p>
          {state !== undefined && flexRender(state.column.columnDef.cell, state.getContext())}
        </div>
        {rest.length > 0 && (
          <dl className="nf-card-fields">
            {rest.map((cell) => (
              <div key={cell.id} style={{ display: 'contents' }}>
                <dt>{String(cell.column.columnDef.header ?? '')}</dt>
                <dd>{flexRender(cell.column.columnDef.cell, cell.getContext())}</dd>
              </div>
            ))}
          </dl>
        )}
        {actions !== undefined && (
          <div className="nf-card-actions">
            {flexRender(actions.column.columnDef.cell, actions.getContext())}
          </div>
        )}
      </div>
    </li>
  );
}
