/**
 * What the table and the cards share: the rendered slice of the rows, and how a row opens.
 */
import { type VirtualItem } from '@tanstack/react-virtual';
import { type RefObject } from 'react';
import { type ApiRecord } from '../../api/records';

export interface RowsView {
  /** The element the rows start in (below any header), to place the virtual rows on the page. */
  readonly listRef: RefObject<HTMLElement | null>;
  readonly items: readonly VirtualItem[];
  readonly measure: (element: HTMLElement | null) => void;
  /** Space standing in for the rows above and below those rendered. */
  readonly before: number;
  readonly after: number;
  /** Rows in the whole list, loaded or not. */
  readonly total: number;
  /** The record's page, or null when its entity has none. */
  pathOf(record: ApiRecord): string | null;
  open(path: string): void;
}
