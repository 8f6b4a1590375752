/**
 * Migrating the database to the model at start-up: additive changes run by themselves, lossy ones
 * only when accepted, and every applied migration is recorded with its model, schema and plan.
 */
import { type Model } from '@ninefold/model';
import { type Kysely, sql } from 'kysely';
import { usersTable } from '../auth/users.js';
import { isConnectionFailure } from '../db/connection-failure.js';
import { type DialectName, decodeInteger, withExclusiveTransaction } from '../db/dialect.js';
import { type Database } from '../db/open.js';
import { applyPlan } from './apply.js';
import { computedChanges, recomputeEntities } from './computed-refresh.js';
import { type DanglingRow, danglingRows } from './foreign-keys.js';
import { desiredSchema } from './desired.js';
import { TABLES } from './names.js';
import { installSessionTriggers } from './session-triggers.js';
import { type Plan, diffSchemas, formatPlan } from './plan.js';
import { type Schema, schemaHash } from './schema.js';

export interface MigrateOptions {
  /** Run a plan that deletes or rewrites data. `ninefold migrate --apply --accept-data-loss`. */
  readonly acceptDataLoss?: boolean;
  readonly now?: () => Date;
}

export interface MigrationOutcome {
  /** `applied` when this call changed the schema, `up-to-date` when there was nothing to do. */
  readonly status: 'applied' | 'up-to-date';
  readonly plan: Plan;
  /** The printed plan. */
  readonly planText: string;
  /** The number of the recorded migration, or null when nothing was applied. */
  readonly id: number | null;
}

/** A migration that would lose data, refused; `planText` says what it would do. */
export class DataLossError extends Error {
  readonly code = 'E_DATA_LOSS';
  constructor(
    readonly plan: Plan,
    readonly planText: string,
  ) {
    super(
      `The database cannot follow the spec without losing data. The plan (lossy steps marked !):\n${planText}\n` +
        'Nothing was changed. Restore the spec, or run `ninefold migrate <spec> --apply --accept-data-loss` to apply the plan.',
    );
    this.name = 'DataLossError';
  }
}

/**
 * A migration that would add a foreign key over rows whose ref points at nothing, refused like a
 * lossy one (decision 0043): it names the rows. `--accept-data-loss` empties those refs.
 */
export class DanglingRefsError extends DataLossError {
  constructor(
    plan: Plan,
    planText: string,
    readonly dangling: readonly DanglingRow[],
    readonly count: number,
  ) {
    super(plan, planText);
    const listed = dangling.map((d) => `  ${d.table} ${d.id}: ${d.column} → ${d.missing} (no such record)`);
    const more = count > dangling.length ? [`  … and ${count - dangling.length} more`] : [];
    this.message =
      `The database cannot follow the spec: ${count} ${count === 1 ? 'record refers' : 'records refer'} to records that do not exist, and the plan makes those refs foreign keys:\n` +
      `${[...listed, ...more].join('\n')}\nThe plan:\n${planText}\n` +
      'Nothing was changed. Point those refs at existing records (or empty them), or run `ninefold migrate <spec> --apply --accept-data-loss` to empty them.';
    this.name = 'DanglingRefsError';
  }
}

/**
 * Brings the database to the schema of `model`, in one transaction that no other process runs at
 * the same time. Throws {@link DataLossError} (and changes nothing) when the plan is lossy and
 * `acceptDataLoss` is not set.
 *
 * @example
 * const outcome = await migrate(database, model);
 * if (outcome.status === 'applied') console.log(outcome.planText);
 */
export async function migrate(
  database: Database,
  model: Model,
  options: MigrateOptions = {},
): Promise<MigrationOutcome> {
  const desired = desiredSchema(model);
  const now = options.now ?? (() => new Date());
  // SQLite rebuilds a table to change its foreign keys, which it may only do with them off; every
  // key is checked before the migration commits (https://www.sqlite.org/lang_altertable.html)
  const sqlite = database.dialect === 'sqlite';
  if (sqlite) await sql`pragma foreign_keys = off`.execute(database.db);
  try {
    return await migrateInTransaction(database, model, desired, now, options);
  } finally {
    if (sqlite) await sql`pragma foreign_keys = on`.execute(database.db);
  }
}

async function migrateInTransaction(
  database: Database,
  model: Model,
  desired: Schema,
  now: () => Date,
  options: MigrateOptions,
): Promise<MigrationOutcome> {
  return withExclusiveTransaction(database.db, database.dialect, async (tx) => {
    await ensureMigrationsTable(tx, database.dialect);
    const last = await lastMigration(tx);
    const { plan, recomputed, planText } = planFrom(last, model, desired);
    // a file migrated while sessions were stamped (decisions 0019, 0021) loses the stamp's triggers;
    // on PostgreSQL, triggers tell every session change to every instance (decision 0058)
    const sessionTriggers = async () => {
      if (database.dialect === 'sqlite') await dropSessionStamp(tx, usersTable(model));
      else await installSessionTriggers(tx, desired, usersTable(model));
    };
    if (plan.steps.length === 0 && recomputed.length === 0) {
      await sessionTriggers();
      return { status: 'up-to-date', plan, planText, id: null };
    }
    if (plan.lossy && options.acceptDataLoss !== true) throw new DataLossError(plan, planText);
    const dangling = await danglingRows(tx, plan);
    if (dangling.count > 0 && options.acceptDataLoss !== true)
      throw new DanglingRefsError(plan, planText, dangling.rows, dangling.count);
    await applyPlan(tx, database.dialect, plan);
    await recomputeEntities(tx, database.dialect, model, recomputed);
    if (database.dialect === 'sqlite') await checkSqliteForeignKeys(tx);
    await sessionTriggers();
    const id = (last?.id ?? 0) + 1;
    await tx
      .insertInto(TABLES.migrations)
      .values({
        id,
        applied_at: now().toISOString(),
        schema_hash: schemaHash(desired),
        model: JSON.stringify(model),
        schema: JSON.stringify(desired),
        plan: planText,
      })
      .execute();
    return { status: 'applied', plan, planText, id };
  });
}

/** The plan from the last migration to `model`: its steps, the entities recomputed, and the text. */
function planFrom(
  last: { schema: Schema; model: Model | null } | null,
  model: Model,
  desired: Schema,
): { plan: Plan; recomputed: string[]; planText: string } {
  const plan = diffSchemas(last?.schema ?? null, desired);
  // computed values added or changed are recomputed for every row (decision 0045)
  const recomputed = last === null ? [] : computedChanges(last.model, model);
  const planText = [
    formatPlan(plan),
    ...recomputed.map((e) => `~ recompute the computed values of every ${e}`),
  ].join('\n');
  return { plan, recomputed, planText };
}

/** What `migrate` would do now, without doing it: `ninefold migrate` without `--apply`. */
export interface PlannedMigration {
  readonly plan: Plan;
  readonly planText: string;
  /** True when there is nothing to apply. */
  readonly upToDate: boolean;
}

/**
 * The plan `migrate` would apply to bring the database to `model`, read without a lock and without
 * changing anything (decision 0059). A plan that adds foreign keys may still be refused when applied,
 * over refs that point at nothing.
 *
 * @example
 * const { upToDate, planText } = await planMigration(database, model);
 * if (!upToDate) console.log(planText);
 */
export async function planMigration(database: Database, model: Model): Promise<PlannedMigration> {
  const last = await lastMigration(database.db).catch((error: unknown) => {
    if (isConnectionFailure(error)) throw error;
    return null; // no migrations table yet: a database never migrated
  });
  const { plan, recomputed, planText } = planFrom(last, model, desiredSchema(model));
  return { plan, planText, upToDate: plan.steps.length === 0 && recomputed.length === 0 };
}

/**
 * Whether the database holds the schema of `model` exactly. `/ready` asks whether it can serve it
 * instead (`compatibility.ts`, decision 0059). A failed connection is
 * thrown (see `isConnectionFailure`), not answered with false.
 *
 * @example await isMigrated(database, schemaHash(desiredSchema(model))) // true
 */
export async function isMigrated(database: Database, hash: string): Promise<boolean> {
  const row = await database.db
    .selectFrom(TABLES.migrations)
    .select('schema_hash')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst()
    .catch((error: unknown) => {
      // a database that cannot be reached is not one without a migrations table: the caller says which
      if (isConnectionFailure(error)) throw error;
      return undefined; // no migrations table yet
    });
  return row?.schema_hash === hash;
}

/** The migrations applied so far, newest first, without their model and schema documents. */
export async function listMigrations(
  database: Database,
): Promise<{ id: number; appliedAt: string; schemaHash: string; plan: string }[]> {
  const rows = await database.db
    .selectFrom(TABLES.migrations)
    .select(['id', 'applied_at', 'schema_hash', 'plan'])
    .orderBy('id', 'desc')
    .execute();
  return rows.map((r) => ({
    id: decodeInteger(r.id),
    appliedAt: String(r.applied_at),
    schemaHash: String(r.schema_hash),
    plan: String(r.plan),
  }));
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function ensureMigrationsTable(tx: Kysely<any>, dialect: DialectName): Promise<void> {
  await tx.schema
    .createTable(TABLES.migrations)
    .ifNotExists()
    .addColumn('id', dialect === 'sqlite' ? 'integer' : 'bigint', (c) => c.primaryKey())
    .addColumn('applied_at', 'text', (c) => c.notNull())
    .addColumn('schema_hash', 'text', (c) => c.notNull())
    .addColumn('model', 'text', (c) => c.notNull())
    .addColumn('schema', 'text', (c) => c.notNull())
    .addColumn('plan', 'text', (c) => c.notNull())
    .execute();
}

async function lastMigration(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  tx: Kysely<any>,
): Promise<{ id: number; schema: Schema; model: Model | null } | null> {
  const row = await tx
    .selectFrom(TABLES.migrations)
    .select(['id', 'schema', 'model'])
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (row === undefined) return null;
  return {
    id: decodeInteger(row.id),
    schema: JSON.parse(String(row.schema)) as Schema,
    model: parseModel(row.model),
  };
}

/** A recorded model, or null when it cannot be read as one (then nothing is recomputed for it). */
function parseModel(text: unknown): Model | null {
  try {
    const model = JSON.parse(String(text)) as Model;
    return typeof model.entities === 'object' && model.entities !== null ? model : null;
  } catch {
    return null;
  }
}

/**
 * Drops what decision 0019 created on SQLite and decision 0021 retired: the triggers that counted
 * every write to the sessions and users tables, and the table of their count. Idempotent.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the schema is the spec's, known at run time
async function dropSessionStamp(tx: Kysely<any>, users: string): Promise<void> {
  for (const table of [TABLES.sessions, users]) {
    for (const event of ['insert', 'update', 'delete']) {
      await sql.raw(`drop trigger if exists "${TABLES.sessionStamp}_${table}_${event}"`).execute(tx);
    }
  }
  await sql.raw(`drop table if exists "${TABLES.sessionStamp}"`).execute(tx);
}

/** SQLite, foreign keys off during the migration: every one must hold before it commits. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function checkSqliteForeignKeys(tx: Kysely<any>): Promise<void> {
  const broken = await sql<{
    table: string;
    rowid: number;
    parent: string;
  }>`pragma foreign_key_check`.execute(tx);
  const first = broken.rows[0];
  if (first !== undefined) {
    throw new Error(
      `The migration would leave ${broken.rows.length} refs pointing at nothing (the first in table ${first.table}, referring to ${first.parent}); nothing was changed.`,
    );
  }
}
