/**
 * The labels of a widget's groups (decision 0046), as a reader sees each key: an enum value as the
 * app shows it (humanized), a state by its label, a boolean as Yes or No, a date bucket by its first
 * day (`date-buckets.ts`), and a ref by the referenced record's display field — only when the viewer
 * may read that record and that field (the target's list permission in SQL, `queryableFields`);
 * otherwise by a neutral label, never its id. The groups without a value (`null`) are labelled
 * "(none)" and come last; enum and state groups come in their declared order, refs by label.
 */
import { queryableFields, valueDecoder } from '@ninefold/engine';
import {
  type FigureGroup,
  type FigureValue,
  type Model,
  type Value,
  type Widget,
  humanize,
} from '@ninefold/model';
import { sql } from 'kysely';
import { type Database } from '../db/open.js';
import { type EntityTable } from '../resources/records.js';
import { bucketLabel } from './date-buckets.js';
import { type Tables, type Viewer, readableRows } from './readable-rows.js';

/** The label of a ref the viewer may not read (or whose title field they may not read). */
export const HIDDEN_LABEL = '(hidden)';
/** The label of the group of rows without a value. */
export const NONE_LABEL = '(none)';

/**
 * The groups with their labels, in the `by` field's order.
 *
 * @example await labelGroups(context, widget, info, [{ key: 'travel', value: 3 }], viewer) // [{ key: 'travel', label: 'Travel', value: 3 }]
 */
export async function labelGroups(
  context: { readonly model: Model; readonly database: Database; readonly tables: Tables },
  widget: Widget,
  info: EntityTable,
  groups: readonly { key: Value; value: FigureValue }[],
  viewer: Viewer,
): Promise<FigureGroup[]> {
  const { model } = context;
  const by = widget.by!;
  const valued = groups.filter((g) => g.key !== null);
  const none = groups.filter((g) => g.key === null).map((g) => ({ ...g, label: NONE_LABEL }));
  let labelled: FigureGroup[];
  if (by.bucket !== null) {
    const bucket = by.bucket;
    labelled = valued.map((g) => ({ ...g, label: bucketLabel(String(g.key), bucket, model.product.locale) }));
  } else if (by.field === 'state') {
    const machine = model.states[widget.entity];
    const order = Object.keys(machine?.states ?? {});
    labelled = inOrder(
      valued.map((g) => ({ ...g, label: machine?.states[String(g.key)]?.label ?? humanize(String(g.key)) })),
      order,
    );
  } else {
    const field = info.entity.fields[by.field];
    const type = by.field === 'createdBy' ? 'ref' : field?.type;
    if (type === 'boolean') {
      labelled = inOrder(
        valued.map((g) => ({ ...g, label: g.key === true ? 'Yes' : 'No' })),
        [false, true],
      );
    } else if (type === 'ref') {
      const target = by.field === 'createdBy' ? 'User' : (field?.to ?? 'User');
      const titles = await refTitles(
        context,
        target,
        valued.map((g) => String(g.key)),
        viewer,
      );
      labelled = valued
        .map((g) => ({ ...g, label: titles.get(String(g.key)) ?? HIDDEN_LABEL }))
        .sort((a, b) => a.label.localeCompare(b.label, model.product.locale));
    } else {
      labelled = inOrder(
        valued.map((g) => ({ ...g, label: humanize(String(g.key)) })),
        field?.values ?? [],
      );
    }
  }
  return [...labelled, ...none];
}

/** Groups in the order of their keys in `order`; keys it does not hold after them, as they came. */
function inOrder(groups: FigureGroup[], order: readonly Value[]): FigureGroup[] {
  const rank = (key: Value) => {
    const i = order.indexOf(key);
    return i === -1 ? order.length : i;
  };
  return [...groups].sort((a, b) => rank(a.key) - rank(b.key));
}

/**
 * The titles of the records of `target` with these ids that the viewer may read, by id: their
 * display field, or their id when it is empty (as the app titles a record). None when the viewer
 * may not read the display field.
 */
async function refTitles(
  context: { readonly model: Model; readonly database: Database; readonly tables: Tables },
  target: string,
  ids: readonly string[],
  viewer: Viewer,
): Promise<Map<string, string>> {
  const { model, database, tables } = context;
  const titles = new Map<string, string>();
  const entity = model.entities[target];
  if (entity === undefined || ids.length === 0) return titles;
  const readable = queryableFields(model, viewer.user, target);
  if (readable !== null && !readable.has(entity.display)) return titles;
  const rows = readableRows(model, target, viewer, database.dialect);
  if (rows === null) return titles;
  const info = tables(target);
  const display = info.stored.has(entity.display) ? entity.display : 'id';
  const found = await sql<{ id: unknown; t: unknown }>`select id, ${sql.ref(display)} as t
    from ${sql.table(info.table)}
    where id in (${sql.join(ids.map((id) => sql.val(id)))}) and ${rows}`.execute(database.db);
  const decode = valueDecoder(info.stored.get(display)!);
  for (const row of found.rows) {
    const value = decode(row.t);
    const title =
      value === null || value === ''
        ? String(row.id)
        : Array.isArray(value)
          ? value.join(', ')
          : String(value);
    titles.set(String(row.id), title);
  }
  return titles;
}
