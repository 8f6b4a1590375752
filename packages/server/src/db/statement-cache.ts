/**
 * Prepared SQLite statements, kept by SQL text. Kysely's SQLite driver prepares every statement it
 * runs; a route's SQL is the same text at every request, so preparing it once saves a fifth of a
 * read (bench/README.md, "Where the time goes").
 */
import { type Database as SqliteDatabase, type Statement } from 'better-sqlite3';
import { type SqliteDatabase as KyselySqliteDatabase } from 'kysely';

/** Statements kept per database; the least recently used one goes first when it is full. */
const MAX_STATEMENTS = 256;

/**
 * The database as Kysely's `SqliteDialect` uses it, with `prepare` memoised by SQL text (a bounded
 * LRU). A cached statement still being iterated (a stream) is not shared: a fresh one is prepared.
 *
 * @example new SqliteDialect({ database: cachingStatements(new Database('app.sqlite')) })
 */
export function cachingStatements(sqlite: SqliteDatabase, max = MAX_STATEMENTS): KyselySqliteDatabase {
  const cache = new Map<string, Statement>();
  return {
    prepare(text: string) {
      const hit = cache.get(text);
      if (hit !== undefined) {
        if (hit.busy) return sqlite.prepare(text);
        // a Map iterates in insertion order: re-inserting marks the statement most recently used
        cache.delete(text);
        cache.set(text, hit);
        return hit;
      }
      const statement = sqlite.prepare(text);
      if (cache.size >= max) {
        const oldest = cache.keys().next();
        if (oldest.done !== true) cache.delete(oldest.value);
      }
      cache.set(text, statement);
      return statement;
    },
    close() {
      cache.clear();
      sqlite.close();
    },
  };
}
