/**
 * Every difference between SQLite and PostgreSQL that the server knows about lives here: column
 * types, boolean encoding, error codes, in-place conversions and the migration lock. The rest of the
 * server builds its SQL through Kysely and asks this module when the two databases disagree.
 *
 * Storage encoding (decision 0004 of the engine, followed exactly; see decision 0007):
 * integers, decimals and money are integer minor units (BIGINT in PostgreSQL, INTEGER in SQLite),
 * booleans are BOOLEAN in PostgreSQL and INTEGER 0/1 in SQLite, everything else is TEXT — JSON
 * included, in both databases, so that one encoder serves both.
 */
import { type Kysely, sql } from 'kysely';

export type DialectName = 'sqlite' | 'postgres';

/** The storage type of a column, independent of the database. */
export type StorageType = 'text' | 'integer' | 'boolean';

/**
 * The SQL type of a storage type in a dialect.
 *
 * @example sqlType('integer', 'postgres') // 'bigint'
 */
export function sqlType(type: StorageType, dialect: DialectName): 'text' | 'integer' | 'bigint' | 'boolean' {
  switch (type) {
    case 'text':
      return 'text';
    case 'integer':
      // minor units of a 15-digit amount overflow PostgreSQL's 32-bit integer
      return dialect === 'sqlite' ? 'integer' : 'bigint';
    case 'boolean':
      return dialect === 'sqlite' ? 'integer' : 'boolean';
  }
}

/**
 * A boolean as the column value to bind.
 *
 * @example encodeBoolean(true, 'sqlite') // 1
 */
export function encodeBoolean(value: boolean, dialect: DialectName): boolean | number {
  return dialect === 'sqlite' ? (value ? 1 : 0) : value;
}

/** A boolean column value as read from either database. */
export function decodeBoolean(raw: unknown): boolean {
  return raw === true || raw === 1 || raw === 1n || raw === 't' || raw === 'true';
}

/** An integer column value as read from either database (`pg` returns BIGINT as a string). */
export function decodeInteger(raw: unknown): number {
  return Number(raw as number | bigint | string);
}

/**
 * True when a database error is the violation of a unique index.
 *
 * @example if (isUniqueViolation(err)) throw new ApiError('E_UNIQUE', { field: 'Email' });
 */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const code = (error as { code?: unknown }).code;
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === '23505';
}

/**
 * True when a database error is a foreign key's refusal: a ref to a record that is not there, or a
 * delete of a record still referred to (decision 0043).
 *
 * @example if (isForeignKeyViolation(err)) throw new ApiError('E_CONFLICT');
 */
export function isForeignKeyViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const code = (error as { code?: unknown }).code;
  return code === 'SQLITE_CONSTRAINT_FOREIGNKEY' || code === '23503';
}

/**
 * Defers every foreign key check of the current transaction to its commit, so that a delete that
 * cascades through a cycle of refs may delete its records in any order (decision 0043). SQLite
 * resets the pragma at the end of the transaction; PostgreSQL's `SET CONSTRAINTS` lasts as long.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the schema is the spec's, known at run time
export async function deferForeignKeys(tx: Kysely<any>, dialect: DialectName): Promise<void> {
  if (dialect === 'sqlite') await sql`pragma defer_foreign_keys = on`.execute(tx);
  else await sql`set constraints all deferred`.execute(tx);
}

/**
 * The column list of an index. PostgreSQL sorts and compares text under the database's collation
 * unless told otherwise; the engine's SQL compares text `COLLATE "C"` (code-point order, as SQLite's
 * BINARY, decision 0004), and only an index of the same collation serves those comparisons.
 *
 * @example indexColumnsSql(['createdAt', 'id'], ['createdAt', 'id'], 'postgres') // "createdAt" collate "C", "id" collate "C"
 */
export function indexColumnsSql(
  columns: readonly string[],
  textColumns: readonly string[],
  dialect: DialectName,
) {
  const parts = columns.map((column) =>
    dialect === 'postgres' && textColumns.includes(column)
      ? sql`${sql.ref(column)} collate "C"`
      : sql`${sql.ref(column)}`,
  );
  return sql.join(parts);
}

/**
 * The expression that rescales a column of minor units from one scale to another, rounding half
 * away from zero when the scale shrinks.
 */
export function rescaleSql(column: string, from: number, to: number, dialect: DialectName) {
  const ref = sql.ref(column);
  if (to >= from) return sql`${ref} * ${sql.lit(10 ** (to - from))}`;
  const divisor = sql.lit(10 ** (from - to));
  const type = sql.raw(sqlType('integer', dialect));
  // ROUND of a float is exact here: minor units stay below 2^53 (precision ≤ 15)
  return sql`cast(round(${ref} * 1.0 / ${divisor}) as ${type})`;
}

/**
 * Runs `work` in one transaction that no other process can run at the same time: PostgreSQL takes
 * a transaction-scoped advisory lock keyed by the current schema; SQLite opens the transaction with
 * BEGIN IMMEDIATE, which takes the database's write lock at once. Commits when `work` resolves and
 * rolls back when it throws.
 *
 * @example await withExclusiveTransaction(db, 'sqlite', async (tx) => { ... });
 */
export async function withExclusiveTransaction<T>(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the schema is the spec's, known at run time
  db: Kysely<any>,
  dialect: DialectName,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  work: (tx: Kysely<any>) => Promise<T>,
): Promise<T> {
  return db.connection().execute(async (conn) => {
    if (dialect === 'sqlite') {
      await beginImmediate(conn);
    } else {
      await sql`begin`.execute(conn);
      await sql`select pg_advisory_xact_lock(hashtext('ninefold:migrate:' || current_schema()))`.execute(
        conn,
      );
    }
    try {
      const result = await work(conn);
      await sql`commit`.execute(conn);
      return result;
    } catch (error) {
      await sql`rollback`.execute(conn).catch(() => undefined);
      throw error;
    }
  });
}

/** How long a SQLite statement waits for another connection's write lock. */
const BUSY_TIMEOUT_MS = 5000;

/** How long a SQLite start-up waits for another one's migration before giving up. */
const SQLITE_LOCK_WAIT_MS = 60_000;

/**
 * BEGIN IMMEDIATE, retried without blocking the event loop: better-sqlite3 is synchronous, so its
 * busy timeout would freeze the process (and whatever holds the lock in it) while it waits.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function beginImmediate(conn: Kysely<any>): Promise<void> {
  const deadline = Date.now() + SQLITE_LOCK_WAIT_MS;
  await sql`pragma busy_timeout = 0`.execute(conn);
  try {
    for (;;) {
      try {
        await sql`begin immediate`.execute(conn);
        return;
      } catch (error) {
        const code = (error as { code?: unknown }).code;
        if (code !== 'SQLITE_BUSY' || Date.now() > deadline) throw error;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    }
  } finally {
    await sql.raw(`pragma busy_timeout = ${BUSY_TIMEOUT_MS}`).execute(conn);
  }
}

/** The pragmas every SQLite connection gets: durable writes, concurrent readers, a busy wait. */
export const SQLITE_PRAGMAS = [
  // first: turning a new file to WAL needs its lock, which another process starting on the same new
  // file may hold for a moment (its own pragma, its migration); without a wait that is SQLITE_BUSY
  `busy_timeout = ${BUSY_TIMEOUT_MS}`,
  'journal_mode = WAL',
  // an acknowledged write survives a power cut, not only a process crash
  'synchronous = FULL',
  'foreign_keys = ON',
] as const;
