/**
 * What the table and the cards share: the loaded rows, how a row opens, and how more are loaded.
 * Each renders its own window of rows (`useWindowRows`), so that scrolling re-renders the rows
 * alone, not the screen around them.
 */
import { type ApiRecord } from '@ninefold/model';

export interface RowsView {
  /** Rows in the whole list, loaded or not. */
  readonly total: number;
  /** The record's page, or null when its entity has none. */
  pathOf(record: ApiRecord): string | null;
  open(path: string): void;
  /** Asked as the window nears the last loaded row, when `canLoadMore`. */
  loadMore(): void;
  readonly canLoadMore: boolean;
}
