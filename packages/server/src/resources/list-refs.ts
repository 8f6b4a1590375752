/**
 * Lists of refs in their join tables (decision 0044): writing a record's lists, and what deleting a
 * listed record needs — how many records list it, per field, and taking it out of every list.
 *
 * A record carries a list as a JSON array of ids; an empty list is no value (null), as it reads.
 */
import { JOIN_COLUMNS, type WireRecord } from '@ninefold/engine';
import { type Model, type Value } from '@ninefold/model';
import { recordHistory } from '../audit/history.js';
import { ApiError } from '../http/errors.js';
import { type DialectName } from '../db/dialect.js';
import { type Db, type EntityTable, decodeRow, entityTable, selectColumns } from './records.js';

/**
 * The record with each list of refs as stored: each id once, in the order first written, and an
 * empty list as no value.
 *
 * @example storedLists(info, { members: ['u2', 'u1', 'u2'] }) // { members: ['u2', 'u1'] }
 */
export function storedLists<R extends WireRecord>(info: EntityTable, record: R): R {
  let out: R | null = null;
  for (const name of info.lists.keys()) {
    const value = record[name];
    if (!Array.isArray(value)) continue;
    const ids = [...new Set(value.map(String))];
    if (ids.length === value.length && ids.length > 0) continue;
    out ??= { ...record };
    (out as Record<string, Value>)[name] = ids.length === 0 ? null : ids;
  }
  return out ?? record;
}

/**
 * Writes the lists of refs of `after` whose ids differ from `before`'s (null: a new record): the
 * holder's rows are replaced, in the write's transaction. An unchanged list writes nothing.
 */
export async function writeLists(
  tx: Db,
  info: EntityTable,
  before: WireRecord | null,
  after: WireRecord,
): Promise<void> {
  const holder = String(after['id']);
  for (const [name, table] of info.lists) {
    const next = idsOf(after[name]);
    const previous = before === null ? [] : idsOf(before[name]);
    if (next.join('\u0000') === previous.join('\u0000')) continue;
    if (before !== null) await tx.deleteFrom(table).where(JOIN_COLUMNS.holder, '=', holder).execute();
    if (next.length === 0) continue;
    await tx
      .insertInto(table)
      .values(next.map((target, position) => ({ holder, target, position })))
      .execute();
  }
}

/** How many records of one entity list a record in one of their fields. */
export interface ListHolders {
  readonly entity: string;
  readonly field: string;
  readonly count: number;
}

/** Every list of refs of the model that can list a record of `target`, with its holder's table. */
export function listsOf(model: Model, target: string): { info: EntityTable; field: string; table: string }[] {
  const out: { info: EntityTable; field: string; table: string }[] = [];
  for (const entity of Object.values(model.entities)) {
    const info = entityTable(model, entity);
    for (const [field, table] of info.lists) {
      if (entity.fields[field]?.to === target) out.push({ info, field, table });
    }
  }
  return out;
}

/**
 * How many records list the record `id` of `target`, per field that lists it (fields listing it
 * nowhere left out): what `onDelete: restrict` refuses with and names (E_REFERENCED).
 *
 * @example await countListHolders(tx, model, 'User', id) // [{ entity: 'Project', field: 'members', count: 4 }]
 */
export async function countListHolders(
  tx: Db,
  model: Model,
  target: string,
  id: string,
): Promise<ListHolders[]> {
  const out: ListHolders[] = [];
  for (const { info, field, table } of listsOf(model, target)) {
    const row = (await tx
      .selectFrom(table)
      .select((eb) => eb.fn.countAll().as('n'))
      .where(JOIN_COLUMNS.target, '=', id)
      .executeTakeFirst()) as { n: unknown } | undefined;
    const count = Number(row?.n ?? 0);
    if (count > 0) out.push({ entity: info.entity.name, field, count });
  }
  return out;
}

/**
 * The ids of the records that list `id` of `target`, per field: whom `onDelete: cascade` deletes.
 */
export async function listHolderIds(
  tx: Db,
  model: Model,
  target: string,
  id: string,
): Promise<{ entity: string; field: string; ids: string[] }[]> {
  const out: { entity: string; field: string; ids: string[] }[] = [];
  for (const { info, field, table } of listsOf(model, target)) {
    const rows = (await tx
      .selectFrom(table)
      .select(JOIN_COLUMNS.holder)
      .where(JOIN_COLUMNS.target, '=', id)
      .orderBy(JOIN_COLUMNS.holder)
      .execute()) as { holder: string }[];
    if (rows.length > 0) out.push({ entity: info.entity.name, field, ids: rows.map((r) => r.holder) });
  }
  return out;
}

/**
 * Takes the record `id` of `target` out of every list that holds it (`onDelete: setNull`), in the
 * caller's transaction: each holder's version goes up and its history says what its list was and is.
 * Returns how many holders changed.
 */
export async function removeFromLists(
  tx: Db,
  model: Model,
  target: string,
  id: string,
  options: { readonly by: string | null; readonly now: Date; readonly dialect: DialectName },
): Promise<number> {
  let changed = 0;
  const at = options.now.toISOString();
  for (const { info, field, table } of listsOf(model, target)) {
    const holders = (await tx
      .selectFrom(table)
      .select(JOIN_COLUMNS.holder)
      .where(JOIN_COLUMNS.target, '=', id)
      .execute()) as { holder: string }[];
    for (const { holder } of holders) {
      const row = (await tx
        .selectFrom(info.table)
        .select(selectColumns(info, options.dialect))
        .where('id', '=', holder)
        .executeTakeFirst()) as Record<string, unknown> | undefined;
      if (row === undefined) continue;
      const before = decodeRow(
        info,
        info.columns.map((c) => row[c]),
      );
      const list = idsOf(before[field]);
      const after = list.filter((x) => x !== id);
      await tx
        .deleteFrom(table)
        .where(JOIN_COLUMNS.holder, '=', holder)
        .where(JOIN_COLUMNS.target, '=', id)
        .execute();
      await tx
        .updateTable(info.table)
        .set({ version: Number(before['version']) + 1, updatedAt: at })
        .where('id', '=', holder)
        .execute();
      await recordHistory(tx, {
        entity: info.entity.name,
        recordId: holder,
        at: options.now,
        by: options.by,
        action: 'update',
        changes: { [field]: { from: list, to: after.length === 0 ? null : after } },
      });
      changed++;
    }
  }
  return changed;
}

function idsOf(value: Value | undefined): string[] {
  return Array.isArray(value) ? [...new Set(value.map(String))] : [];
}

/**
 * The refusal of deleting a record some list still holds (409 E_REFERENCED), naming the first list.
 *
 * @example throw referenced(model, { entity: 'Project', field: 'members', count: 4 })
 */
export function referenced(model: Model, holders: ListHolders): ApiError {
  const entity = model.entities[holders.entity];
  return new ApiError('E_REFERENCED', {
    count: holders.count,
    label: entity?.label ?? holders.entity,
    plural: entity?.pluralLabel ?? holders.entity,
    field: entity?.fields[holders.field]?.label ?? holders.field,
  });
}
