/**
 * `GET /api/<resource>/<id>/history`: a record's history, oldest first, each change masked as the
 * record is for its reader. A deleted record's history stays readable by those who could read the
 * record when it was deleted: the record is rebuilt from its own history (`recordAsDeleted`) and
 * the same read rules decide on it. An update that changed only fields hidden from the reader is
 * left out: its time and author would tell them when a field they may not read changed
 * (decision 0027).
 */
import { readableFields } from '@ninefold/engine';
import { type HistoryEntry, type Value, SYSTEM_FIELDS } from '@ninefold/model';
import { type FastifyRequest } from 'fastify';
import { TABLES } from '../schema/names.js';
import { type Callers, activation, mayRead } from './caller.js';
import { type RecordReader } from './record-read.js';
import { type EntityTable } from './records.js';
import { type EntityResource } from './resource.js';

/**
 * The history route's handler of one entity's resource.
 *
 * @example app.get(`${resource.path}/:id/history`, historyRoute(resource, callers, reader));
 */
export function historyRoute(resource: EntityResource, callers: Callers, reader: RecordReader) {
  const { model, entity, info } = resource;
  return async (request: FastifyRequest) => {
    const caller = callers.of(request);
    const id = reader.idOf(request);
    if (id === undefined) throw reader.notFound();
    const rows = (await resource.db
      .selectFrom(TABLES.history)
      .selectAll()
      .where('entity', '=', entity)
      .where('record_id', '=', id)
      .orderBy('at')
      .orderBy('id')
      .execute()) as Record<string, unknown>[];
    const entries = rows.map(historyEntry);
    const record = (await reader.byId(id)) ?? recordAsDeleted(info, id, entries);
    if (record === null || !mayRead(resource, record, caller, activation(resource, record, caller))) {
      throw reader.notFound();
    }
    const fields = readableFields(model, caller.user, entity, record, { now: caller.now });
    const visible = fields === null ? null : new Set<string>([...SYSTEM_FIELDS, ...fields]);
    const data: HistoryEntry[] = [];
    for (const entry of entries) {
      const masked: Record<string, { from: Value; to: Value }> = {};
      let hidden = 0;
      for (const [name, change] of Object.entries(entry.changes)) {
        if (visible === null || visible.has(name)) masked[name] = change;
        else hidden += 1;
      }
      // creations, deletions and transitions are the record's own events; an update is only its changes
      if (entry.action === 'update' && hidden > 0 && Object.keys(masked).length === 0) continue;
      data.push({ ...entry, changes: masked });
    }
    return { data };
  };
}

function historyEntry(row: Readonly<Record<string, unknown>>): HistoryEntry {
  const text = (value: unknown) => (value === null || value === undefined ? null : String(value));
  return {
    id: String(row['id']),
    at: String(row['at']),
    by: text(row['by']),
    action: String(row['action']) as HistoryEntry['action'],
    transition: text(row['transition']),
    from: text(row['from_state']),
    to: text(row['to_state']),
    changes:
      typeof row['changes'] === 'string'
        ? (JSON.parse(row['changes']) as Record<string, { from: Value; to: Value }>)
        : {},
  };
}

/**
 * A deleted record as it was when it was deleted, rebuilt from its history: its creation's values
 * and every later change in order, its state from its transitions. Null unless the history ends
 * with its deletion (a record that never existed, or one the history does not begin).
 */
export function recordAsDeleted(
  info: EntityTable,
  id: string,
  entries: readonly HistoryEntry[],
): Record<string, Value> | null {
  const [first] = entries;
  if (first?.action !== 'create' || entries.at(-1)?.action !== 'delete') return null;
  const record: Record<string, Value> = {};
  for (const column of info.columns) record[column] = null;
  Object.assign(record, { id, createdAt: first.at, updatedAt: first.at, createdBy: first.by, version: 0 });
  for (const entry of entries) {
    if (entry.action === 'delete') break;
    for (const [name, change] of Object.entries(entry.changes)) {
      if (info.stored.has(name)) record[name] = change.to;
    }
    if (info.hasState && entry.to !== null) record['state'] = entry.to;
    record['updatedAt'] = entry.at;
    record['version'] = Number(record['version']) + 1;
  }
  return record;
}
