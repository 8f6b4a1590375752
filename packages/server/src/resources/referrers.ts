/**
 * The records that refer to one record through one ref field (decision 0043), read in the caller's
 * transaction: the one place that knows how a ref is stored. A single ref is its own column (a
 * foreign key); a list of refs is the rows of its join table (decision 0044).
 */
import { JOIN_COLUMNS, type RefPointer } from '@ninefold/engine';
import { type Model, type Value } from '@ninefold/model';
import { type DialectName } from '../db/dialect.js';
import { type Db, type EntityTable, columnValues, decodeRow, entityTable, selectColumns } from './records.js';

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
 * Every record of `pointer.entity` whose `pointer.field` holds `id`, whole (its lists of refs
 * included). A single ref is matched on its column (indexed, a foreign key); a list of refs
 * (`many: true`) through its join table's index on the listed id (decision 0044).
 *
 * @example await referrers(tx, model, 'sqlite', { entity: 'Comment', field: 'ticket', many: false, onDelete: 'cascade' }, ticketId)
 */
export async function referrers(
  tx: Db,
  model: Model,
  dialect: DialectName,
  pointer: RefPointer,
  id: string,
): Promise<Record<string, Value>[]> {
  const info = tableOf(model, pointer.entity);
  const select = tx.selectFrom(info.table).select(selectColumns(info, dialect));
  const list = info.lists.get(pointer.field);
  const matching =
    list === undefined
      ? select.where(pointer.field, '=', id)
      : select.where(
          'id',
          'in',
          tx.selectFrom(list).select(JOIN_COLUMNS.holder).where(JOIN_COLUMNS.target, '=', id),
        );
  const rows = (await matching.orderBy('id').execute()) as Record<string, unknown>[];
  return rows.map((row) => decodeRow(info, columnValues(info, row)));
}
