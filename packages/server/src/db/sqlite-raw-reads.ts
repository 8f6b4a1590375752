/**
 * The one SQLite-only path that bypasses Kysely: `Database.selectValues` on SQLite runs the
 * request's reads (its session, a record by id, a list page) as prepared better-sqlite3 statements
 * in raw mode, outside Kysely's hand-off of its single connection.
 *
 * What it buys (bench/README.md, measured): raw mode builds no object per row, so a list of 50
 * rows costs about 444 µs of CPU instead of 631 µs (better-sqlite3 building 51 objects of 15 keys
 * was a third of a page's read; the list pair went from 0.52 to 0.88); skipping Kysely's connection
 * hand-off was a fifth of a read by id. PostgreSQL reads go through Kysely (`executeValues`).
 */
import { type Database as SqliteDatabase } from 'better-sqlite3';
import { StatementCache } from './statement-cache.js';

/**
 * The raw reads of a SQLite connection: the rows of a compiled read, each an array of its values
 * in the select list's order; null while a transaction is open (a transaction holds Kysely's one
 * connection across awaits, and a read that did not wait its turn would see its uncommitted
 * writes), when the caller must go through Kysely.
 *
 * @example const read = sqliteRawReads(sqlite); read('select 1', []) // [[1]]
 */
export function sqliteRawReads(
  sqlite: SqliteDatabase,
): (text: string, parameters: readonly unknown[]) => unknown[][] | null {
  const statements = new StatementCache(sqlite, { raw: true });
  return (text, parameters) =>
    sqlite.inTransaction
      ? null
      : // better-sqlite3 is synchronous: nothing else runs on the connection while the statement does
        (statements.prepare(text).all(parameters) as unknown[][]);
}
