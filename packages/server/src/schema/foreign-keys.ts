/**
 * Foreign keys in the database (decision 0043): PostgreSQL adds and drops them as constraints;
 * SQLite cannot alter a table's constraints, so it rebuilds the table ("Making Other Kinds Of
 * Table Schema Changes", https://www.sqlite.org/lang_altertable.html), its rows and indexes kept.
 * And the rows a new foreign key would leave dangling, which stop a migration (`migrate.ts`).
 */
import { type Kysely, sql } from 'kysely';
import { foreignKeyName } from './names.js';
import { type Plan } from './plan.js';
import { type Column } from './schema.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tables come from the spec at run time
type Db = Kysely<any>;

/**
 * The REFERENCES clause of a column's foreign key: checked at the end of each statement unless
 * deferred (decision 0043).
 *
 * @example referencesSql(column) // 'references "categories" ("id") on delete no action deferrable initially immediate'
 */
export function referencesSql(column: Column): string {
  const target = column.references;
  if (target === undefined) return '';
  return `references "${target.table}" ("id") on delete ${target.onDelete} deferrable initially immediate`;
}

/**
 * PostgreSQL: makes an existing column a foreign key, or a new one whose table was created after
 * its own in the same plan.
 *
 * @example await addForeignKey(tx, 'products', column)
 */
export async function addForeignKey(tx: Db, table: string, column: Column): Promise<void> {
  await sql
    .raw(
      `alter table "${table}" add constraint "${foreignKeyName(table, column.name)}" foreign key ("${column.name}") ${referencesSql(column)}`,
    )
    .execute(tx);
}

/** PostgreSQL: drops the column's foreign key, if it has one. */
export async function dropForeignKey(tx: Db, table: string, column: Column): Promise<void> {
  await sql
    .raw(`alter table "${table}" drop constraint if exists "${foreignKeyName(table, column.name)}"`)
    .execute(tx);
}

interface SqliteColumn {
  readonly name: string;
  readonly type: string;
  readonly notnull: number;
  readonly pk: number;
}

/** How a SQLite rebuild changes the table: a column dropped, a column's foreign key set or removed. */
export type Rebuild =
  { readonly drop: string } | { readonly column: string; readonly references: Column | null };

/**
 * SQLite: rebuilds a table with one change, within the migration's transaction (which runs with
 * foreign keys off and checks them all before it commits: `migrate.ts`). The new table is created
 * from the old one's columns and foreign keys, filled, and renamed over it; its indexes are created
 * again from their own SQL.
 *
 * @example await rebuildSqliteTable(tx, 'products', { column: 'category', references: column })
 */
export async function rebuildSqliteTable(tx: Db, table: string, change: Rebuild): Promise<void> {
  const columns = (await sql<SqliteColumn>`select * from pragma_table_info(${table})`.execute(tx)).rows;
  const keys = (
    await sql<{
      from: string;
      table: string;
      on_delete: string;
    }>`select * from pragma_foreign_key_list(${table})`.execute(tx)
  ).rows;
  const indexes = (
    await sql<{
      sql: string;
    }>`select sql from sqlite_master where type = 'index' and tbl_name = ${table} and sql is not null`.execute(
      tx,
    )
  ).rows;
  const kept = columns.filter((c) => !('drop' in change) || c.name !== change.drop);
  const definition = kept.map((c) => {
    let clause: string | null = null;
    const existing = keys.find((k) => k.from === c.name);
    if (existing !== undefined)
      clause = `references "${existing.table}" ("id") on delete ${existing.on_delete.toLowerCase()} deferrable initially immediate`;
    if ('column' in change && change.column === c.name)
      clause = change.references === null ? null : referencesSql(change.references);
    return [
      `"${c.name}" ${c.type}`,
      c.pk > 0 ? 'primary key' : '',
      c.notnull > 0 ? 'not null' : '',
      clause ?? '',
    ]
      .filter((part) => part !== '')
      .join(' ');
  });
  const temporary = `ninefold_rebuild_${table}`;
  const names = kept.map((c) => `"${c.name}"`).join(', ');
  await sql.raw(`create table "${temporary}" (${definition.join(', ')})`).execute(tx);
  await sql.raw(`insert into "${temporary}" (${names}) select ${names} from "${table}"`).execute(tx);
  await sql.raw(`drop table "${table}"`).execute(tx);
  await sql.raw(`alter table "${temporary}" rename to "${table}"`).execute(tx);
  for (const index of indexes) await sql.raw(index.sql).execute(tx);
}

/** A row whose ref points at nothing: the foreign key a step adds would refuse it. */
export interface DanglingRow {
  readonly table: string;
  readonly id: string;
  readonly column: string;
  /** The id it holds, which no row of the referred table has. */
  readonly missing: string;
}

/** How many dangling rows a migration's refusal lists; the count says how many there are in all. */
export const DANGLING_SHOWN = 20;

/**
 * The rows that the plan's new foreign keys on existing columns would refuse: at most
 * `DANGLING_SHOWN` of them, and how many there are.
 *
 * @example const { rows, count } = await danglingRows(tx, plan)
 */
export async function danglingRows(tx: Db, plan: Plan): Promise<{ rows: DanglingRow[]; count: number }> {
  const rows: DanglingRow[] = [];
  let count = 0;
  for (const step of plan.steps) {
    if (step.kind !== 'add-foreign-key' || step.column.references === undefined) continue;
    const { table, column } = step;
    const where = danglingWhere(table, column);
    const found = await sql<{ id: string; missing: string }>`select ${sql.ref('id')} as id, ${sql.ref(
      column.name,
    )} as missing from ${sql.table(table)} where ${where} order by ${sql.ref('id')} limit ${DANGLING_SHOWN}`.execute(
      tx,
    );
    const total = await sql<{
      n: number | string;
    }>`select count(*) as n from ${sql.table(table)} where ${where}`.execute(tx);
    count += Number(total.rows[0]?.n ?? 0);
    for (const row of found.rows) {
      if (rows.length < DANGLING_SHOWN)
        rows.push({ table, id: String(row.id), column: column.name, missing: String(row.missing) });
    }
  }
  return { rows, count };
}

/**
 * Empties the refs that point at nothing, when the migration was told to accept losing them
 * (`--accept-data-loss`); the refusal listed them.
 */
export async function emptyDangling(tx: Db, table: string, column: Column): Promise<void> {
  await sql`update ${sql.table(table)} set ${sql.ref(column.name)} = null where ${danglingWhere(table, column)}`.execute(
    tx,
  );
}

function danglingWhere(table: string, column: Column) {
  const target = column.references?.table ?? table;
  return sql`${sql.ref(column.name)} is not null and not exists (select 1 from ${sql.table(target)} as ${sql.table(
    'referred',
  )} where ${sql.ref('referred.id')} = ${sql.ref(`${table}.${column.name}`)})`;
}
