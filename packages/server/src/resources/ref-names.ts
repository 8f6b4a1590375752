/**
 * The names of referenced records as a reader sees them (decision 0065): each record's name
 * (`recordName`: its display field or composed title), only when the reader may read that record
 * (the target's list permission, in SQL) and the fields that name it (`queryableFields`). A record
 * the reader may not see has no name here, so that no caller falls back to printing its id.
 */
import { queryableFields, valueDecoder } from '@ninefold/engine';
import { type Model, type Value, nameFields, recordName } from '@ninefold/model';
import { sql } from 'kysely';
import { type Tables, type Viewer, readableRows } from '../dashboards/readable-rows.js';
import { type Database } from '../db/open.js';

/**
 * The names of the records of `target` with these ids that the viewer may read, by id.
 *
 * @example await refNames({ model, database, tables }, 'Department', ['01H…'], viewer) // Map { '01H…' → 'Sales' }
 */
export async function refNames(
  context: { readonly model: Model; readonly database: Database; readonly tables: Tables },
  target: string,
  ids: readonly string[],
  viewer: Viewer,
): Promise<Map<string, string>> {
  const { model, database, tables } = context;
  const names = new Map<string, string>();
  const entity = model.entities[target];
  if (entity === undefined || ids.length === 0) return names;
  const readable = queryableFields(model, viewer.user, target);
  const parts = nameFields(entity);
  if (readable !== null && parts.some((f) => f !== 'createdAt' && !readable.has(f))) return names;
  const rows = readableRows(model, target, viewer, database.dialect);
  if (rows === null) return names;
  const info = tables(target);
  const columns = [...new Set([...parts, 'createdAt'])].filter((f) => f !== 'id' && info.stored.has(f));
  const found = await sql<Record<string, unknown>>`select id, ${sql.join(columns.map((c) => sql.ref(c)))}
    from ${sql.table(info.table)}
    where id in (${sql.join([...new Set(ids)].map((id) => sql.val(id)))}) and ${rows}`.execute(database.db);
  for (const row of found.rows) {
    const record: Record<string, Value> = {};
    for (const column of columns) record[column] = valueDecoder(info.stored.get(column)!)(row[column]);
    names.set(String(row['id']), recordName(entity, record));
  }
  return names;
}
