/**
 * Ref fields in a notification's text, shown as the referenced records' titles rather than their
 * ids: `{assignee}` renders as "Ann Smith", as the app shows a ref (the target entity's `display`
 * field, or the id when that is empty — the client's `recordTitle`).
 *
 * A title is shown only to a recipient who may read the referenced record, decided as the read path
 * decides it (`maskRecord`): to anyone else the ref renders as empty, never as the id of something
 * they may not see, and a title field they may not read falls back to the id of a record they may.
 * A `many: true` ref renders as its readable titles joined with ", ". Webhooks keep sending ids.
 *
 * The referenced records are read once per delivery (`loadReferences`), then titled per recipient
 * (`withRefLabels`).
 */
import { type UserContext, type WireRecord, maskRecord } from '@ninefold/engine';
import { type Entity, type Model, type Value, recordName } from '@ninefold/model';
import { type Database } from '../db/open.js';
import { columnValues, decodeRow, entityTable, selectColumns } from '../resources/records.js';
import { usersByIds } from './recipients.js';

type RecordValues = Readonly<Record<string, Value | undefined>>;

/** The records a record's ref fields point at, by target entity and id. */
export type References = ReadonlyMap<string, ReadonlyMap<string, RecordValues>>;

/**
 * Reads the records the ref fields of `record` point at: one query per target entity.
 *
 * @example const references = await loadReferences(database, model, 'Ticket', record);
 */
export async function loadReferences(
  database: Database,
  model: Model,
  entityName: string,
  record: RecordValues,
): Promise<References> {
  const wanted = new Map<string, Set<string>>();
  for (const field of refFields(model.entities[entityName])) {
    const ids = wanted.get(field.to) ?? new Set<string>();
    for (const id of idsOf(record[field.name])) ids.add(id);
    wanted.set(field.to, ids);
  }
  const references = new Map<string, Map<string, RecordValues>>();
  for (const [target, ids] of wanted) {
    const entity = model.entities[target];
    if (entity === undefined || ids.size === 0) continue;
    references.set(target, await readRecords(database, model, entity, [...ids]));
  }
  return references;
}

/**
 * The record as a recipient sees it in a notification's text: each ref field it may read holds
 * the titles of the referenced records it may read instead of their ids. `user` null (an outside
 * address) may read no referenced record.
 *
 * @example withRefLabels(model, reader, 'Ticket', readable, references, now).assignee // 'Ann Smith'
 */
export function withRefLabels(
  model: Model,
  user: UserContext | null,
  entityName: string,
  readable: RecordValues,
  references: References,
  now: Date,
): RecordValues {
  const out: Record<string, Value | undefined> = { ...readable };
  for (const field of refFields(model.entities[entityName])) {
    if (!Object.hasOwn(readable, field.name)) continue; // a field they may not read stays absent
    const target = model.entities[field.to];
    const titles: string[] = [];
    for (const id of idsOf(readable[field.name])) {
      const referenced = target === undefined ? undefined : references.get(target.name)?.get(id);
      if (target === undefined || referenced === undefined) continue;
      const visible =
        user === null ? null : maskRecord(model, user, target.name, referenced as WireRecord, { now });
      if (visible !== null) titles.push(titleOf(target, visible));
    }
    out[field.name] = titles.join(', ');
  }
  return out;
}

/** The ref fields of an entity, each with its target. */
function refFields(entity: Entity | undefined): { name: string; to: string }[] {
  if (entity === undefined) return [];
  return Object.values(entity.fields).flatMap((field) =>
    field.type === 'ref' && field.to !== null ? [{ name: field.name, to: field.to }] : [],
  );
}

/** The name the app shows for a record (decision 0065): never its id. */
function titleOf(entity: Entity, record: RecordValues): string {
  return recordName(entity, record);
}

/** The records of an entity with the given ids; users as the rules see them (with their roles). */
async function readRecords(
  database: Database,
  model: Model,
  entity: Entity,
  ids: readonly string[],
): Promise<Map<string, RecordValues>> {
  if (entity.name === 'User') {
    const users = await usersByIds(database, model, ids);
    return new Map(users.map((user) => [user.id, user.context as RecordValues]));
  }
  const info = entityTable(model, entity);
  const rows = (await database.db
    .selectFrom(info.table)
    .select(selectColumns(info, database.dialect))
    .where('id', 'in', ids)
    .execute()) as Record<string, unknown>[];
  const records = rows.map((row) => decodeRow(info, columnValues(info, row)));
  return new Map(records.map((record) => [String(record['id']), record]));
}

/** The ids a ref field holds: one, many, or none. */
function idsOf(value: Value | undefined): string[] {
  if (typeof value === 'string' && value !== '') return [value];
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string' && v !== '');
  return [];
}
