/**
 * A list's column widths, decided before its first row from what each column holds — its field's
 * type and its header — and never from the rows: the table is laid out `fixed`, so that an
 * 80-character word or a name of 80 emoji wraps inside its own cell instead of squeezing every
 * other column, and no row that arrives later moves a column's edge (decision 0066). Text columns
 * (the title, a description, an email) have no width of their own: they share what is left.
 */
import { type FieldType } from '@ninefold/model';
import { type ListColumn } from './columns';

/** The width each type's values need at most, formatted; null for text that shares the rest. */
const TYPE_WIDTH: Readonly<Record<FieldType, number | null>> = {
  string: null,
  text: null,
  email: null,
  url: null,
  json: null,
  integer: 7,
  decimal: 8,
  money: 9,
  boolean: 6,
  date: 8.5,
  datetime: 11,
  time: 6,
  enum: 9,
  phone: 10,
  ref: 11,
  color: 8,
  file: 10,
  image: 6,
};

/** About the width of a header's character, in rem, and the sort icon's room beside it. */
const HEADER_CHAR = 0.55;
const HEADER_ROOM = 2.5;
/** A header's words may wrap past this: its column does not grow for a long label. */
const MOST = 14;
/** Room for a row's transition buttons, each. */
const ACTION = 6.5;

/**
 * Each column's width as CSS (`'9rem'`), or undefined for a text column that takes a share of the rest.
 *
 * @example columnWidths(columns, 'title', 2) // { title: undefined, amount: '9rem', state: '10rem', _actions: '14rem' }
 */
export function columnWidths(
  columns: readonly ListColumn[],
  display: string,
  actions: { readonly id: string; readonly count: number } | null,
): Record<string, string | undefined> {
  const widths: Record<string, string | undefined> = {};
  for (const column of columns) {
    // the record's title, or a state badge, whatever its field's type
    const own =
      column.name === display && column.field.type !== 'ref'
        ? null
        : column.name === 'state'
          ? 10
          : TYPE_WIDTH[column.field.type];
    widths[column.name] =
      own === null
        ? undefined
        : `${Math.max(own, Math.min(MOST, column.label.length * HEADER_CHAR + HEADER_ROOM))}rem`;
  }
  if (actions !== null) widths[actions.id] = `${Math.min(actions.count, 2) * ACTION + 1}rem`;
  return widths;
}
