/**
 * Prepared SQLite statements, kept by SQL text. Kysely's SQLite driver prepares every statement it
 * runs; a route's SQL is the same text at every request, so preparing it once saves a fifth of a
 * read (bench/README.md, "Where the time goes").
 */
import { type Database as SqliteDatabase, type Statement } from 'better-sqlite3';
import { type SqliteDatabase as KyselySqliteDatabase } from 'kysely';
import { LruMap } from '../lru-map.js';

/** Statements kept per cache; the least recently used one goes first when it is full. */
const MAX_STATEMENTS = 256;

/**
 * A bounded LRU of prepared statements by SQL text. With `raw`, its statements return each row as
 * an array of values in the select list's order (better-sqlite3's raw mode), which builds no object
 * per row; a statement's mode is its own, so raw and object statements live in separate caches.
 *
 * @example new StatementCache(sqlite, { raw: true }).prepare('select 1').all() // [[1]]
 */
export class StatementCache {
  readonly #sqlite: SqliteDatabase;
  readonly #raw: boolean;
  readonly #cache: LruMap<string, Statement>;

  constructor(sqlite: SqliteDatabase, options: { readonly raw?: boolean; readonly max?: number } = {}) {
    this.#sqlite = sqlite;
    this.#raw = options.raw ?? false;
    this.#cache = new LruMap(options.max ?? MAX_STATEMENTS);
  }

  /** The statement of `text`; a cached one still being iterated (a stream) is not shared. */
  prepare(text: string): Statement {
    const hit = this.#cache.get(text);
    if (hit !== undefined) return hit.busy ? this.#fresh(text) : hit;
    const statement = this.#fresh(text);
    this.#cache.set(text, statement);
    return statement;
  }

  clear(): void {
    this.#cache.clear();
  }

  #fresh(text: string): Statement {
    const statement = this.#sqlite.prepare(text);
    return this.#raw ? statement.raw(true) : statement;
  }
}

/**
 * The database as Kysely's `SqliteDialect` uses it, with `prepare` memoised by SQL text (a bounded
 * LRU, `StatementCache`).
 *
 * @example new SqliteDialect({ database: cachingStatements(new Database('app.sqlite')) })
 */
export function cachingStatements(sqlite: SqliteDatabase, max = MAX_STATEMENTS): KyselySqliteDatabase {
  const cache = new StatementCache(sqlite, { max });
  return {
    prepare: (text: string) => cache.prepare(text),
    close() {
      cache.clear();
      sqlite.close();
    },
  };
}
