/**
 * Where a figure leads: the list of the rows it counts. The list is a screen of the widget's entity
 * the viewer may open, chosen so that its own `where` is the widget's; the figure's group becomes a
 * filter in the URL (`state[eq]=submitted`, a date bucket as `spentOn[gte]=…&spentOn[lt]=…`), which
 * the list screen reads (list-params.ts). A widget's `where` is CEL and is never turned into URL
 * filters: when no list screen has that very condition, the figure leads to the entity's widest list
 * the viewer may open, and the card says that the list is wider than the figure (decision 0049).
 */
import type { UserContext } from '@ninefold/engine';
import { mayOpenScreen } from '@ninefold/engine/grants';
import {
  type DateBucket,
  type Entity,
  type Expr,
  type Model,
  type Screen,
  type Value,
  type Widget,
  filterParam,
} from '@ninefold/model';

/** The list a widget's figures lead to, and whether it shows exactly the rows the widget counts. */
export interface ListTarget {
  readonly screen: Screen;
  /** False when the list's own condition differs from the widget's: it shows more (or other) rows. */
  readonly exact: boolean;
}

const conditionText = (where: Expr | null) =>
  where === null ? '' : where.source.replace(/\s+/g, ' ').trim();

/**
 * The list screen a widget's figures lead to, or null when the viewer may open no list of its
 * entity. A list whose `where` is the widget's comes first; then a list without a `where` (the
 * widest), then any other list the viewer may open.
 *
 * @example listTarget(model, user, widget) // { screen: allClaims, exact: true }
 */
export function listTarget(model: Model, user: UserContext | null, widget: Widget): ListTarget | null {
  const lists = model.screens.filter(
    (screen) =>
      screen.kind === 'list' && screen.entity === widget.entity && mayOpenScreen(model, user, screen),
  );
  const wanted = conditionText(widget.where);
  const same = lists.find((screen) => conditionText(screen.where) === wanted);
  if (same !== undefined) return { screen: same, exact: true };
  const widest = lists.find((screen) => screen.where === null) ?? lists[0];
  return widest === undefined ? null : { screen: widest, exact: false };
}

/**
 * The URL filters that select one group of a grouped widget: the key of an enum, the state, a ref
 * or a boolean as `[eq]` (no value as `[isNull]`), a date bucket as the range of its days.
 *
 * @example groupFilters(claim, widget, 'submitted') // { 'state[eq]': 'submitted' }
 */
export function groupFilters(entity: Entity, widget: Widget, key: Value): Record<string, string> {
  const by = widget.by;
  if (by === null) return {};
  if (key === null) return { [filterParam(by.field, 'isNull')]: 'true' };
  if (by.bucket !== null) {
    const start = String(key).slice(0, 10);
    const end = bucketEnd(start, by.bucket);
    if (end === null) return {};
    const isDate = entity.fields[by.field]?.type === 'date';
    const bound = (day: string) => (isDate ? day : `${day}T00:00:00.000Z`);
    return { [filterParam(by.field, 'gte')]: bound(start), [filterParam(by.field, 'lt')]: bound(end) };
  }
  return { [filterParam(by.field, 'eq')]: String(key) };
}

/**
 * The first day after a bucket that starts on `start` (`2026-11-01`), or null for a key that is no date.
 *
 * @example bucketEnd('2026-11-01', 'month') // '2026-12-01'
 */
export function bucketEnd(start: string, bucket: DateBucket): string | null {
  const date = new Date(`${start}T00:00:00.000Z`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(start) || Number.isNaN(date.getTime())) return null;
  if (bucket === 'day') date.setUTCDate(date.getUTCDate() + 1);
  else if (bucket === 'week') date.setUTCDate(date.getUTCDate() + 7);
  else date.setUTCMonth(date.getUTCMonth() + 1);
  return date.toISOString().slice(0, 10);
}

/**
 * The address of a list with filters.
 *
 * @example listHref(allClaims, { 'state[eq]': 'paid' }) // '/claims?state%5Beq%5D=paid'
 */
export function listHref(screen: Screen, filters: Readonly<Record<string, string>>): string {
  const search = new URLSearchParams(filters).toString();
  return search === '' ? screen.path : `${screen.path}?${search}`;
}
