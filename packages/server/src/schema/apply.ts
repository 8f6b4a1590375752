/**
 * Running a plan's steps through Kysely, inside the caller's transaction.
 */
import { type Kysely } from 'kysely';
import { type DialectName, encodeBoolean, indexColumnsSql, rescaleSql, sqlType } from '../db/dialect.js';
import { fillJoinTable } from './join-tables.js';
import { type Plan, type Step } from './plan.js';
import { type Column } from './schema.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tables come from the spec at run time
type Db = Kysely<any>;

/** Applies every step of a plan, in order. */
export async function applyPlan(tx: Db, dialect: DialectName, plan: Plan): Promise<void> {
  for (const step of plan.steps) await applyStep(tx, dialect, step);
}

async function applyStep(tx: Db, dialect: DialectName, step: Step): Promise<void> {
  switch (step.kind) {
    case 'create-table': {
      let create = tx.schema.createTable(step.table.name);
      for (const column of step.table.columns) {
        create = create.addColumn(column.name, sqlType(column.storage, dialect), (c) => {
          let def = c;
          if (column.primaryKey) def = def.primaryKey();
          if (column.notNull) def = def.notNull();
          return def;
        });
      }
      const join = step.table.join;
      if (join !== undefined) {
        const key = ['holder', 'target'] as never[]; // the table's columns come from the schema at run time
        // decision 0044: one row per (holder, listed record); the holder's going takes its rows
        // along, a listed record cannot go while listed (the delete path decides before it tries)
        create = create
          .addPrimaryKeyConstraint(`${step.table.name}_pk`, key)
          .addForeignKeyConstraint(
            `${step.table.name}_holder_fk`,
            key.slice(0, 1),
            join.holder,
            ['id'],
            (fk) => fk.onDelete('cascade'),
          )
          .addForeignKeyConstraint(`${step.table.name}_target_fk`, key.slice(1), join.target, ['id'], (fk) =>
            fk.onDelete('restrict'),
          );
      }
      await create.execute();
      return;
    }
    case 'fill-join-table':
      await fillJoinTable(tx, step.table, step.from);
      return;
    case 'drop-table':
      await tx.schema.dropTable(step.table.name).execute();
      return;
    case 'add-column':
      await addColumn(tx, dialect, step.table, step.column);
      return;
    case 'drop-column':
      await tx.schema.alterTable(step.table).dropColumn(step.column.name).execute();
      return;
    case 'relabel-column':
      return;
    case 'retype-column':
      await tx.schema.alterTable(step.table).dropColumn(step.from.name).execute();
      await addColumn(tx, dialect, step.table, step.to);
      return;
    case 'rescale-column':
      await tx
        .updateTable(step.table)
        .set(step.column.name, rescaleSql(step.column.name, step.fromScale, step.toScale, dialect))
        .where(step.column.name, 'is not', null)
        .execute();
      return;
    case 'narrow-enum':
      await narrowEnum(tx, step.table, step.column, step.removed);
      return;
    case 'require-column':
      if (step.column.backfill === null) return;
      await tx
        .updateTable(step.table)
        .set(step.column.name, bind(step.column.backfill, dialect))
        .where(step.column.name, 'is', null)
        .execute();
      return;
    case 'create-index': {
      const create = tx.schema
        .createIndex(step.index.name)
        .on(step.index.table)
        .expression(indexColumnsSql(step.index.columns, step.index.textColumns, dialect));
      await (step.index.unique ? create.unique() : create).execute();
      return;
    }
    case 'drop-index':
      await tx.schema.dropIndex(step.index.name).execute();
      return;
  }
}

async function addColumn(tx: Db, dialect: DialectName, table: string, column: Column): Promise<void> {
  await tx.schema
    .alterTable(table)
    .addColumn(column.name, sqlType(column.storage, dialect), (c) => (column.primaryKey ? c.primaryKey() : c))
    .execute();
  if (column.backfill !== null) {
    await tx.updateTable(table).set(column.name, bind(column.backfill, dialect)).execute();
  }
}

/** Removed enum values become no value; in a list, they leave the list. */
async function narrowEnum(tx: Db, table: string, column: Column, removed: readonly string[]): Promise<void> {
  if (!column.meaning.endsWith('[]')) {
    await tx
      .updateTable(table)
      .set(column.name, null)
      .where(column.name, 'in', [...removed])
      .execute();
    return;
  }
  // lists are JSON text: rewritten here rather than with two dialects' JSON functions
  const rows = (await tx
    .selectFrom(table)
    .select(['id', column.name])
    .where(column.name, 'is not', null)
    .execute()) as {
    id: string;
    [name: string]: unknown;
  }[];
  for (const row of rows) {
    const list = JSON.parse(String(row[column.name])) as unknown;
    if (!Array.isArray(list)) continue;
    const kept = list.filter((v) => !removed.includes(v as string));
    if (kept.length === list.length) continue;
    await tx.updateTable(table).set(column.name, JSON.stringify(kept)).where('id', '=', row.id).execute();
  }
}

function bind(value: string | number | boolean, dialect: DialectName) {
  return typeof value === 'boolean' ? encodeBoolean(value, dialect) : value;
}
