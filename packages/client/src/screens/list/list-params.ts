/**
 * A list's sort, search and filters as URL search parameters, so that a list is a deep link and
 * the back button undoes a filter. Filters use the API's own names (`amount[gte]=10`), so the URL
 * reads like the request it makes.
 */
import {
  FILTER_OPERATORS,
  type Entity,
  LIST_PARAMS,
  type Model,
  type Screen,
  SYSTEM_FIELDS,
} from '@ninefold/model';
import { type ListParams } from '../../api/list-query';

const FILTER_KEY = /^([A-Za-z_][A-Za-z0-9_]*)\[([A-Za-z]+)\]$/;

/**
 * Whether a list of the entity can show, filter or sort on a field: one of its own, or a system
 * field (the state only where the entity has states). Here rather than beside `fieldOf`, which
 * builds on it, because the app's first chunk reads a list's URL before the list's code loads.
 */
export function hasField(model: Model, entity: Entity, name: string): boolean {
  if (entity.fields[name] !== undefined) return true;
  if (!(SYSTEM_FIELDS as readonly string[]).includes(name)) return false;
  return name !== 'state' || model.states[entity.name] !== undefined;
}

/** What the URL says the list shows. */
export interface ListState {
  /** The sort asked for, or the screen's default; '' for the server's own order. */
  readonly sort: string;
  readonly q: string;
  /** Filters by query parameter, in the URL's order. */
  readonly filters: Readonly<Record<string, string>>;
}

/**
 * Reads a list's state from the URL: filters on fields of the entity only (anything else in the
 * URL is left alone), and the screen's sort when the URL names none.
 *
 * @example readListState(model, entity, screen, new URLSearchParams('state[in]=draft&sort=amount'))
 */
export function readListState(
  model: Model,
  entity: Entity,
  screen: Screen,
  search: URLSearchParams,
): ListState {
  const filters: Record<string, string> = {};
  for (const [key, value] of search) {
    const match = FILTER_KEY.exec(key);
    if (match === null || value === '') continue;
    const [, name = '', op = ''] = match;
    if ((FILTER_OPERATORS as readonly string[]).includes(op) && hasField(model, entity, name))
      filters[key] = value;
  }
  return {
    sort: search.get(LIST_PARAMS.sort) ?? screen.sort ?? '',
    q: search.get(LIST_PARAMS.q) ?? '',
    filters,
  };
}

/** The request of a list in this state. */
export function toListParams(screen: Screen, state: ListState): ListParams {
  return {
    screen: screen.id,
    filters: state.filters,
    ...(state.sort === '' ? {} : { sort: state.sort }),
    ...(state.q.trim() === '' ? {} : { q: state.q }),
  };
}

/**
 * The URL's parameters with some set (a string) or removed (null), everything else kept.
 *
 * @example withParams(search, { 'amount[gte]': '10', 'amount[lte]': null })
 */
export function withParams(
  search: URLSearchParams,
  changes: Readonly<Record<string, string | null>>,
): URLSearchParams {
  const next = new URLSearchParams(search);
  for (const [key, value] of Object.entries(changes)) {
    if (value === null || value === '') next.delete(key);
    else next.set(key, value);
  }
  return next;
}

/** The URL's parameters without any filter or search. */
export function withoutFilters(search: URLSearchParams): URLSearchParams {
  const next = new URLSearchParams();
  for (const [key, value] of search)
    if (!FILTER_KEY.test(key) && key !== LIST_PARAMS.q) next.append(key, value);
  return next;
}

/** The sort after a click on a column's header: ascending first, then the other way round. */
export function toggledSort(current: string, column: string): string {
  return current === column ? `-${column}` : column;
}

/** The direction a sort orders a column in, if it orders by it first. */
export function sortDirection(sort: string, column: string): 'ascending' | 'descending' | null {
  const first = sort.split(',')[0] ?? '';
  if (first === column) return 'ascending';
  if (first === `-${column}`) return 'descending';
  return null;
}
