/**
 * Whether the database can serve a spec: every table and column the spec needs is there, with a
 * type it reads and writes (decision 0059). Not whether it is identical: during a rolling deploy the
 * pre-deploy step migrates to the new spec while the old instances serve on, and a field, a table or
 * an index they do not know is no reason for them to stop.
 *
 * The database is compared as the last recorded migration describes it (decision 0007: the schema
 * is data, never introspected), and the verdict is kept per migration id: `/ready`, which an
 * orchestrator polls, reads one row's id, as cheap as the hash it compared before.
 */
import { type Model } from '@ninefold/model';
import { isConnectionFailure } from '../db/connection-failure.js';
import { decodeInteger } from '../db/dialect.js';
import { type Database } from '../db/open.js';
import { desiredSchema } from './desired.js';
import { TABLES } from './names.js';
import { columnChange } from './plan.js';
import { type Column, type Schema, type Table, schemaHash } from './schema.js';

/**
 * What keeps a database from serving a spec, one sentence each; empty when it can. `present` null
 * is a database never migrated.
 *
 * @example
 * compatibilityProblems(desiredSchema(v1), desiredSchema(v2)) // [] (v2 only added a field)
 * compatibilityProblems(desiredSchema(v2), desiredSchema(v1)) // ['table notes has no column body']
 */
export function compatibilityProblems(needed: Schema, present: Schema | null): string[] {
  if (present === null) return ['it has never been migrated'];
  const problems: string[] = [];
  for (const table of Object.values(needed.tables)) {
    const there = present.tables[table.name];
    if (there === undefined) {
      problems.push(`table ${table.name} is missing`);
      continue;
    }
    for (const column of table.columns) problems.push(...columnProblems(table, column, there));
    for (const index of table.indexes) {
      // a unique index is a rule: without it, duplicates the spec forbids would be stored
      if (!index.unique) continue;
      const kept = there.indexes.some((i) => i.unique && i.columns.join(',') === index.columns.join(','));
      if (!kept) problems.push(`table ${table.name} has no unique index on (${index.columns.join(', ')})`);
    }
  }
  return problems;
}

function columnProblems(table: Table, needed: Column, there: Table): string[] {
  const column = there.columns.find((c) => c.name === needed.name);
  if (column === undefined) return [`table ${table.name} has no column ${needed.name}`];
  // what a migration from the needed column to the present one would do: only a change of meaning
  // or storage (retype, rescale) makes stored values unreadable; a relabel, more or fewer enum
  // values (the database does not check them), requiredness or a default are the engine's business
  const change = columnChange(table.name, needed, column);
  if (change?.kind === 'retype-column' || change?.kind === 'rescale-column')
    return [`column ${table.name}.${needed.name} holds ${label(column)}, not ${label(needed)}`];
  return [];
}

function label(column: Column): string {
  return `${column.meaning}${column.notNull ? ' (not null)' : ''}`;
}

/** The last recorded migration: its id and the schema it applied; null on a database never migrated. */
export interface RecordedSchema {
  readonly id: number;
  readonly hash: string;
  readonly schema: Schema;
}

/** A database's verdict for a spec: compatible, or the problems, at one recorded migration. */
export interface Compatibility {
  /** The recorded migration the verdict is about, or null when none is. */
  readonly migration: number | null;
  /** Whether the database holds exactly the spec's schema. */
  readonly identical: boolean;
  readonly problems: readonly string[];
}

/**
 * A checker of one spec against one database, for `/ready`: the verdict is worked out again only
 * when another migration has been recorded since the last call. A failed connection is thrown (see
 * `isConnectionFailure`), never answered as a verdict.
 *
 * @example
 * const check = compatibilityCheck(database, model);
 * const { problems } = await check(); // [] while the database can serve the spec
 */
export function compatibilityCheck(database: Database, model: Model): () => Promise<Compatibility> {
  const needed = desiredSchema(model);
  const hash = schemaHash(needed);
  let cached: Compatibility | null = null;
  return async () => {
    const id = await lastMigrationId(database);
    if (cached !== null && cached.migration === id) return cached;
    const recorded = id === null ? null : await recordedSchema(database);
    cached = {
      migration: recorded?.id ?? null,
      identical: recorded?.hash === hash,
      problems: recorded?.hash === hash ? [] : compatibilityProblems(needed, recorded?.schema ?? null),
    };
    return cached;
  };
}

/**
 * The schema the last migration applied, or null when none was (no migrations table yet).
 *
 * @example (await recordedSchema(database))?.schema.tables['notes']?.columns.length // 7
 */
export async function recordedSchema(database: Database): Promise<RecordedSchema | null> {
  const row = await database.db
    .selectFrom(TABLES.migrations)
    .select(['id', 'schema_hash', 'schema'])
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst()
    .catch(noMigrationsTable);
  if (row === undefined) return null;
  return {
    id: decodeInteger(row.id),
    hash: String(row.schema_hash),
    schema: JSON.parse(String(row.schema)) as Schema,
  };
}

async function lastMigrationId(database: Database): Promise<number | null> {
  const row = await database.db
    .selectFrom(TABLES.migrations)
    .select('id')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst()
    .catch(noMigrationsTable);
  return row === undefined ? null : decodeInteger(row.id);
}

/** A database that cannot be reached is not one without a migrations table: that is thrown. */
function noMigrationsTable(error: unknown): undefined {
  if (isConnectionFailure(error)) throw error;
  return undefined;
}
