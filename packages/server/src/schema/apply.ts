/**
 * Running a plan's steps through Kysely, inside the caller's transaction.
 */
import { type Kysely, type RawBuilder, sql } from 'kysely';
import { type DialectName, encodeBoolean, indexColumnsSql, rescaleSql, sqlType } from '../db/dialect.js';
import { fillJoinTable } from './join-tables.js';
import {
  addForeignKey,
  dropForeignKey,
  emptyDangling,
  rebuildSqliteTable,
  referencesSql,
} from './foreign-keys.js';
import { foreignKeyName } from './names.js';
import { type Plan, type Step } from './plan.js';
import { type Column } from './schema.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tables come from the spec at run time
type Db = Kysely<any>;

/** The foreign keys PostgreSQL adds after the plan's steps, and the new tables not created yet. */
interface Keys {
  readonly later: { table: string; column: Column }[];
  readonly waiting: Set<string>;
}

/**
 * Applies every step of a plan, in order. A foreign key is declared with its column; on PostgreSQL,
 * one that refers to a table this plan creates later is added once every table exists. SQLite
 * accepts a key to a table not yet created.
 */
export async function applyPlan(tx: Db, dialect: DialectName, plan: Plan): Promise<void> {
  const keys: Keys = {
    later: [],
    waiting: new Set(plan.steps.flatMap((s) => (s.kind === 'create-table' ? [s.table.name] : []))),
  };
  for (const step of plan.steps) await applyStep(tx, dialect, step, keys);
  for (const { table, column } of keys.later) await addForeignKey(tx, table, column);
}

/** The REFERENCES clause a column gets where it is created, or null when it comes later or never. */
function inline(keys: Keys, dialect: DialectName, table: string, column: Column): RawBuilder<unknown> | null {
  const target = column.references?.table;
  if (target === undefined) return null;
  if (dialect === 'postgres' && keys.waiting.has(target)) {
    keys.later.push({ table, column });
    return null;
  }
  return sql.raw(`constraint "${foreignKeyName(table, column.name)}" ${referencesSql(column)}`);
}

async function applyStep(tx: Db, dialect: DialectName, step: Step, keys: Keys): Promise<void> {
  switch (step.kind) {
    case 'create-table': {
      keys.waiting.delete(step.table.name); // a table may refer to itself
      let create = tx.schema.createTable(step.table.name);
      if (step.table.unlogged === true && dialect === 'postgres') create = create.modifyFront(sql`unlogged`);
      for (const column of step.table.columns) {
        const references = inline(keys, dialect, step.table.name, column);
        create = create.addColumn(column.name, sqlType(column.storage, dialect), (c) => {
          let def = c;
          if (column.primaryKey) def = def.primaryKey();
          if (column.notNull) def = def.notNull();
          if (references !== null) def = def.modifyEnd(references);
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
      // PostgreSQL: the foreign keys that refer to it go with it (their columns change in this plan)
      await (
        dialect === 'postgres'
          ? tx.schema.dropTable(step.table.name).cascade()
          : tx.schema.dropTable(step.table.name)
      ).execute();
      return;
    case 'add-column':
      await addColumn(tx, dialect, step.table, step.column, inline(keys, dialect, step.table, step.column));
      return;
    case 'drop-column':
      await dropColumn(tx, dialect, step.table, step.column);
      return;
    case 'relabel-column':
      return;
    case 'retype-column':
      await dropColumn(tx, dialect, step.table, step.from);
      await addColumn(tx, dialect, step.table, step.to, inline(keys, dialect, step.table, step.to));
      return;
    case 'add-foreign-key':
      // only rows the migration was told to give up (`--accept-data-loss`) still dangle here
      await emptyDangling(tx, step.table, step.column);
      if (dialect === 'postgres') await addForeignKey(tx, step.table, step.column);
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

async function addColumn(
  tx: Db,
  dialect: DialectName,
  table: string,
  column: Column,
  references: RawBuilder<unknown> | null,
): Promise<void> {
  await tx.schema
    .alterTable(table)
    .addColumn(column.name, sqlType(column.storage, dialect), (c) => {
      const def = column.primaryKey ? c.primaryKey() : c;
      return references === null ? def : def.modifyEnd(references);
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
