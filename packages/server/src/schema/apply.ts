/**
 * Running a plan's steps through Kysely, inside the caller's transaction.
 */
import { type Kysely, sql } from 'kysely';
import { type DialectName, encodeBoolean, indexColumnsSql, rescaleSql, sqlType } from '../db/dialect.js';
import {
  addForeignKey,
  dropForeignKey,
  emptyDangling,
  inlineReferences,
  rebuildSqliteTable,
} from './foreign-keys.js';
import { type Plan, type Step } from './plan.js';
import { type Column } from './schema.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tables come from the spec at run time
type Db = Kysely<any>;

/**
 * Applies every step of a plan, in order. On PostgreSQL the foreign keys of new tables and columns
 * are added last, once every table they may refer to exists; SQLite declares them inline, where a
 * table may refer to one not yet created.
 */
export async function applyPlan(tx: Db, dialect: DialectName, plan: Plan): Promise<void> {
  const keys: { table: string; column: Column }[] = [];
  for (const step of plan.steps) await applyStep(tx, dialect, step, keys);
  for (const { table, column } of keys) await addForeignKey(tx, table, column);
}

async function applyStep(
  tx: Db,
  dialect: DialectName,
  step: Step,
  keys: { table: string; column: Column }[],
): Promise<void> {
  const later = (table: string, column: Column) => {
    if (dialect === 'postgres' && column.references !== undefined) keys.push({ table, column });
  };
  switch (step.kind) {
    case 'create-table': {
      let create = tx.schema.createTable(step.table.name);
      for (const column of step.table.columns) {
        const references = inlineReferences(column, dialect);
        create = create.addColumn(column.name, sqlType(column.storage, dialect), (c) => {
          let def = c;
          if (column.primaryKey) def = def.primaryKey();
          if (column.notNull) def = def.notNull();
          if (references !== null) def = def.modifyEnd(sql.raw(references));
          return def;
        });
        later(step.table.name, column);
      }
      await create.execute();
      return;
    }
    case 'drop-table':
      // PostgreSQL: the foreign keys that refer to it go with it (their columns change in this plan)
      await (
        dialect === 'postgres'
          ? tx.schema.dropTable(step.table.name).cascade()
          : tx.schema.dropTable(step.table.name)
      ).execute();
      return;
    case 'add-column':
      await addColumn(tx, dialect, step.table, step.column);
      later(step.table, step.column);
      return;
    case 'drop-column':
      await dropColumn(tx, dialect, step.table, step.column);
      return;
    case 'relabel-column':
      return;
    case 'retype-column':
      await dropColumn(tx, dialect, step.table, step.from);
      await addColumn(tx, dialect, step.table, step.to);
      later(step.table, step.to);
      return;
    case 'add-foreign-key':
      // only rows the migration was told to give up (`--accept-data-loss`) still dangle here
      await emptyDangling(tx, step.table, step.column);
      if (dialect === 'postgres') later(step.table, step.column);
      else await rebuildSqliteTable(tx, step.table, { column: step.column.name, references: step.column });
      return;
    case 'drop-foreign-key':
      if (dialect === 'postgres') await dropForeignKey(tx, step.table, step.column);
      else await rebuildSqliteTable(tx, step.table, { column: step.column.name, references: null });
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
  const references = inlineReferences(column, dialect);
  await tx.schema
    .alterTable(table)
    .addColumn(column.name, sqlType(column.storage, dialect), (c) => {
      const def = column.primaryKey ? c.primaryKey() : c;
      return references === null ? def : def.modifyEnd(sql.raw(references));
    })
    .execute();
  if (column.backfill !== null) {
    await tx.updateTable(table).set(column.name, bind(column.backfill, dialect)).execute();
  }
}

/** SQLite cannot drop a column of a foreign key: the table is rebuilt without it. */
async function dropColumn(tx: Db, dialect: DialectName, table: string, column: Column): Promise<void> {
  if (dialect === 'sqlite' && column.references !== undefined)
    await rebuildSqliteTable(tx, table, { drop: column.name });
  else await tx.schema.alterTable(table).dropColumn(column.name).execute();
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
