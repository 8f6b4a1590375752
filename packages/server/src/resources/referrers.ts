/**
 * The records that refer to one record through one ref field (decision 0043), read in the caller's
 * transaction: the one place that knows how a ref is stored. A single ref is its own column (a
 * foreign key); a list of refs is, today, a JSON list in its column.
 */
import { type RefPointer } from '@ninefold/engine';
import { type Model, type Value } from '@ninefold/model';
import { sql } from 'kysely';
import { type Db, type EntityTable, columnValues, decodeRow, entityTable } from './records.js';

const tables = new WeakMap<Model, Map<string, EntityTable>>();

/**
 * The table of an entity of the model, built once per model.
 *
 * @example tableOf(model, 'Comment').table // 'comments'
 */
export function tableOf(model: Model, entity: string): EntityTable {
  let byEntity = tables.get(model);
  if (byEntity === undefined) tables.set(model, (byEntity = new Map()));
  let info = byEntity.get(entity);
  if (info === undefined) {
    const declared = model.entities[entity];
    if (declared === undefined) throw new Error(`No entity ${entity}`);
    byEntity.set(entity, (info = entityTable(model, declared)));
  }
  return info;
}

/**
 * Every record of `pointer.entity` whose `pointer.field` holds `id`, whole.
 *
 * A list of refs (`many: true`) is matched on its JSON text and then on its decoded items. The join
 * tables of many refs (issue 16, "Many-to-many") replace this branch with a join on the join table:
 * nothing else in the delete path reads how a ref is stored.
 *
 * @example await referrers(tx, model, { entity: 'Comment', field: 'ticket', many: false, onDelete: 'cascade' }, ticketId)
 */
export async function referrers(
  tx: Db,
  model: Model,
  pointer: RefPointer,
  id: string,
): Promise<Record<string, Value>[]> {
  const info = tableOf(model, pointer.entity);
  const select = tx.selectFrom(info.table).select([...info.columns]);
  if (!pointer.many) {
    const rows = (await select.where(pointer.field, '=', id).orderBy('id').execute()) as Record<
      string,
      unknown
    >[];
    return rows.map((row) => decodeRow(info, columnValues(info, row)));
  }
  const rows = (await select
    .where(sql.ref(pointer.field), 'like', `%${JSON.stringify(id)}%`)
    .orderBy('id')
    .execute()) as Record<string, unknown>[];
  return rows
    .map((row) => decodeRow(info, columnValues(info, row)))
    .filter((record) => listHolds(record[pointer.field], id));
}

/** Whether a list of refs holds an id. */
export function listHolds(value: Value | undefined, id: string): boolean {
  return Array.isArray(value) && value.includes(id);
}
