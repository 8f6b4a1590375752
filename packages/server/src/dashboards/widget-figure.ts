/**
 * One widget's figure (decision 0046): its measure over the rows of its entity that the viewer may
 * read — the list's permission SQL (`toSqlFilter` of the viewer's read access) — and that hold the
 * widget's `where`, whole or grouped by its `by` field, in one SQL query; then each group labelled
 * (`group-labels.ts`) in the reader's language. A widget the viewer may not see is null (the route leaves it out): over an
 * entity they may not read, or measuring or grouping a field their read mask hides on some record
 * (`queryableFields`).
 */
import { type StoredField, queryableFields } from '@ninefold/engine';
import { type FigureGroup, type Model, type Value, type Widget, type WidgetFigure } from '@ninefold/model';
import { type RawBuilder, sql } from 'kysely';
import { type Database } from '../db/open.js';
import { isSystemField } from '../resources/records.js';
import { type Tables, type Viewer, readableRows } from './readable-rows.js';
import { bucketLabel, bucketSql, fillBuckets } from './date-buckets.js';
import { type Aggregates, figureValue } from './figure-values.js';
import { labelGroups } from './group-labels.js';

/** The most groups a widget answers; the rest are left out (a ref over thousands of records). */
export const MAX_GROUPS = 500;

/**
 * A widget's figure as the viewer may see it, or null when they may not see it at all.
 *
 * @example await widgetFigure({ model, database, tables }, widget, viewer, 'en-GB') // { id, value: 12, groups: null }
 */
export async function widgetFigure(
  context: { readonly model: Model; readonly database: Database; readonly tables: Tables },
  widget: Widget,
  viewer: Viewer,
  locale: string = context.model.product.locale,
): Promise<WidgetFigure | null> {
  const { model, database, tables } = context;
  const info = tables(widget.entity);
  const readable = queryableFields(model, viewer.user, widget.entity);
  const mayQuery = (name: string) => isSystemField(name) || readable === null || readable.has(name);
  const measured = widget.measure.kind === 'count' ? null : widget.measure.field;
  if (measured !== null && !mayQuery(measured)) return null;
  if (widget.by !== null && !mayQuery(widget.by.field)) return null;
  const rows = readableRows(model, widget.entity, viewer, database.dialect, widget.where);
  if (rows === null) return null;

  const measuredField: StoredField | null = measured === null ? null : (info.stored.get(measured) ?? null);
  const aggregates = aggregateSql(widget, measured);
  const table = sql.table(info.table);
  if (widget.by === null) {
    const result = await sql<Aggregates>`select ${aggregates} from ${table} where ${rows}`.execute(
      database.db,
    );
    const row = result.rows[0] ?? { n: 0 };
    return { id: widget.id, value: figureValue(widget.measure, measuredField, row), groups: null };
  }

  const { field, bucket } = widget.by;
  const key = bucket === null ? sql`${sql.ref(field)}` : bucketSql(field, bucket, database.dialect);
  const result = await sql<Aggregates & { g: unknown }>`select ${key} as g, ${aggregates}
    from ${table} where ${rows} group by 1 order by 1 limit ${MAX_GROUPS}`.execute(database.db);
  const stored = info.stored.get(field)!;
  const groups = result.rows.map((row) => ({
    key: bucket === null ? decodeKey(stored, row.g) : row.g === null ? null : String(row.g),
    value: figureValue(widget.measure, measuredField, row),
  }));
  const labelled = await labelGroups(context, widget, info, groups, viewer, locale);
  return { id: widget.id, value: null, groups: fillEmptyBuckets(widget, labelled, locale) };
}

/** The aggregate columns of a widget's query: `n` always, `s` and `c` as its measure needs. */
function aggregateSql(widget: Widget, measured: string | null): RawBuilder<unknown> {
  const n = sql`count(*) as n`;
  if (measured === null) return n;
  const column = sql.ref(measured);
  switch (widget.measure.kind) {
    case 'sum':
      return sql`${n}, sum(${column}) as s`;
    case 'avg':
      return sql`${n}, sum(${column}) as s, count(${column}) as c`;
    case 'min':
      return sql`${n}, min(${column}) as s`;
    case 'max':
      return sql`${n}, max(${column}) as s`;
    default:
      return n;
  }
}

/** A group's stored key as its wire value (a boolean from 0/1, a ref's id, an enum value). */
function decodeKey(field: StoredField, raw: unknown): Value {
  if (raw === null || raw === undefined) return null;
  if (field.type === 'boolean')
    return raw === true || raw === 1 || raw === 1n || raw === 't' || raw === 'true';
  return String(raw as string);
}

/** A date widget's groups with the buckets that have no rows filled in, the group without a date last. */
function fillEmptyBuckets(widget: Widget, groups: FigureGroup[], locale: string): FigureGroup[] {
  const bucket = widget.by?.bucket ?? null;
  if (bucket === null) return groups;
  const dated = groups
    .filter((g) => typeof g.key === 'string')
    .map((g) => ({ key: g.key as string, item: g }));
  const undated = groups.filter((g) => typeof g.key !== 'string');
  const empty = widget.measure.kind === 'count' ? 0 : null;
  const filled = fillBuckets(dated, bucket, (key) => ({
    key,
    label: bucketLabel(key, bucket, locale),
    value: empty,
  }));
  return [...filled, ...undated];
}
