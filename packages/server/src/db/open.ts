/**
 * Opening the database: SQLite (embedded default), PostgreSQL (`DATABASE_URL`) or PGlite (tests).
 */
import SqliteDatabase from 'better-sqlite3';
import { basename } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { CompiledQuery, Kysely, PostgresDialect } from 'kysely';
import { type DialectName, SQLITE_PRAGMAS } from './dialect.js';
import { pglitePool } from './pglite-pool.js';
import { pgliteSchema, startPglite } from './pglite-start.js';
import { type Listening, type OnNotify, listenTo } from './postgres-listen.js';
import { postgresPool } from './postgres-pool.js';
import { sqliteRawReads } from './sqlite-raw-reads.js';
import { ImmediateSqliteDialect } from './sqlite-dialect.js';
import { cachingStatements } from './statement-cache.js';

/** An open database: its dialect, a Kysely instance over it, and how to close it. */
export interface Database {
  readonly dialect: DialectName;
  /** What the database is, for messages (`/ready`): its kind and name, never its address or password. */
  readonly label: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tables come from the spec at run time
  readonly db: Kysely<any>;
  /**
   * The rows of a read whose SQL is already compiled (`CompiledQuery`'s `sql` and `parameters`), each
   * an array of its values in the order of the select list: for the reads every request makes (its
   * session, a record by id, a page), which decode by position. On SQLite, outside a transaction,
   * the statement runs in raw mode outside Kysely (`sqlite-raw-reads.ts` says what that buys). Through Kysely (a
   * transaction, PostgreSQL), a row object's values are taken in order: give every column of the
   * select list its own name (an alias where two would share one), as a row object has one key per
   * name. Column names start with a letter, so no key is integer-like and reordered.
   */
  selectValues(sql: string, parameters: readonly unknown[]): Promise<unknown[][]>;
  /**
   * Listens to a channel of a PostgreSQL server (NOTIFY) on a connection of its own, which it keeps
   * across drops (`postgres-listen.ts`); absent where no other process can notify (SQLite, PGlite).
   */
  readonly listen?: (channel: string, onNotify: OnNotify, onError: (error: unknown) => void) => Listening;
  close(): Promise<void>;
}

/**
 * Where the data lives: a `postgres://` (or `postgresql://`) URL, a `sqlite:<path>` URL, a SQLite
 * file, or an in-process PGlite (in memory, or in a folder).
 */
export type DatabaseTarget = string | { readonly sqlite: string } | { readonly pglite: true | string };

/** How a PostgreSQL server's database is opened. */
export interface OpenOptions {
  /**
   * Where the LISTEN connections go (`DATABASE_LISTEN_URL`), when the pool's URL reaches the server
   * through a pooler in transaction mode (PgBouncer), which cannot hold a LISTEN: the same database,
   * reached directly. Default: the URL itself.
   */
  readonly listenUrl?: string | undefined;
}

/**
 * Opens a database and returns it with its dialect.
 *
 * @example
 * const database = await openDatabase({ sqlite: 'data/ninefold.sqlite' });
 * const database = await openDatabase(process.env.DATABASE_URL!);
 * const database = await openDatabase({ pglite: true }); // in memory, for tests
 */
export async function openDatabase(target: DatabaseTarget, options: OpenOptions = {}): Promise<Database> {
  if (typeof target === 'string') {
    if (/^postgres(ql)?:\/\//i.test(target)) return openPostgres(target, listenUrlFor(options.listenUrl));
    if (target.startsWith('sqlite:')) return openSqlite(target.slice('sqlite:'.length));
    throw new TypeError(
      `Unsupported database URL "${redact(target)}". Expected postgres://…, postgresql://… or sqlite:<path>.`,
    );
  }
  if ('sqlite' in target) return openSqlite(target.sqlite);
  return openPglite(target.pglite === true ? undefined : target.pglite);
}

function openSqlite(path: string): Database {
  const sqlite = new SqliteDatabase(path);
  for (const pragma of SQLITE_PRAGMAS) sqlite.pragma(pragma);
  const db = new Kysely({ dialect: new ImmediateSqliteDialect({ database: cachingStatements(sqlite) }) });
  const rawReads = sqliteRawReads(sqlite);
  const selectValues = async (text: string, parameters: readonly unknown[]) =>
    rawReads(text, parameters) ?? executeValues(db, text, parameters);
  const close = async () => {
    await db.destroy();
    // destroy() leaves alone a connection Kysely never used
    if (sqlite.open) sqlite.close();
  };
  return { dialect: 'sqlite', label: `SQLite file ${basename(path)}`, db, selectValues, close };
}

/** A listen URL as given, or undefined when none is (or it is empty); a URL not of PostgreSQL refused. */
function listenUrlFor(listenUrl: string | undefined): string | undefined {
  if (listenUrl === undefined || listenUrl === '') return undefined;
  if (/^postgres(ql)?:\/\//i.test(listenUrl)) return listenUrl;
  throw new TypeError(
    `Unsupported DATABASE_LISTEN_URL "${redact(listenUrl)}". Expected postgres://… or postgresql://…, the same database reached without a pooler.`,
  );
}

function openPostgres(url: string, listenUrl: string = url): Database {
  const pool = postgresPool(url);
  const db = new Kysely({ dialect: new PostgresDialect({ pool }) });
  const close = async () => {
    await db.destroy();
    if (!pool.ended) await pool.end();
  };
  return {
    dialect: 'postgres',
    label: `PostgreSQL database "${postgresDatabaseName(url)}"`,
    db,
    selectValues: (text, parameters) => executeValues(db, text, parameters),
    listen: (channel, onNotify, onError) => listenTo(listenUrl, channel, onNotify, onError),
    close,
  };
}

async function openPglite(dataDir: string | undefined): Promise<Database> {
  // in memory: a schema of the process's one PGlite (`pglite-start.ts`); in a folder: its own PGlite
  const { pglite, schema, end } =
    dataDir === undefined ? await pgliteSchema() : await ownPglite(await startPglite(dataDir));
  const db = new Kysely({ dialect: new PostgresDialect({ pool: pglitePool(pglite, { schema, end }) }) });
  return {
    dialect: 'postgres',
    label: 'PGlite database',
    db,
    selectValues: (text, parameters) => executeValues(db, text, parameters),
    async close() {
      await db.destroy();
      await end(); // destroy() leaves alone a pool Kysely never used
    },
  };
}

async function ownPglite(pglite: PGlite) {
  return { pglite, schema: undefined, end: async () => (pglite.closed ? undefined : pglite.close()) };
}

/**
 * Runs compiled SQL through Kysely's executor, waiting for a connection like any query; each row's
 * values in the order of its keys, which is the select list's (see `Database.selectValues`).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tables come from the spec at run time
async function executeValues(db: Kysely<any>, text: string, parameters: readonly unknown[]) {
  const result = await db.executeQuery<Record<string, unknown>>(CompiledQuery.raw(text, [...parameters]));
  return result.rows.map((row) => Object.values(row));
}

/** The database a PostgreSQL URL names (its path), or its user's when it names none, as `pg` does. */
function postgresDatabaseName(url: string): string {
  try {
    const parsed = new URL(url);
    const name = decodeURIComponent(parsed.pathname.replace(/^\//, ''));
    return name !== '' ? name : decodeURIComponent(parsed.username) || 'postgres';
  } catch {
    return 'postgres';
  }
}

/** A URL without its password, for messages. */
function redact(url: string): string {
  return url.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1:***@');
}
