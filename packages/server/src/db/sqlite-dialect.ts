/**
 * Kysely's SQLite dialect with one change: a transaction begins IMMEDIATE, holding the file's write
 * lock from its first statement. A deferred transaction (Kysely's `begin`) that reads and then
 * writes fails at once with "database is locked" when another process wrote in between — SQLite
 * cannot let it write from an outdated snapshot, and no busy timeout helps. Two processes meet on
 * one SQLite file when two instances start at once (the demo's start-up race) and a job runner of
 * one writes while the other seeds. An IMMEDIATE transaction waits for the lock (the busy timeout)
 * instead. Nothing is slowed: Kysely runs one transaction at a time on SQLite's one connection, and
 * every transaction of the server writes.
 */
import {
  CompiledQuery,
  type DatabaseConnection,
  type Driver,
  SqliteDialect,
  type SqliteDialectConfig,
  SqliteDriver,
} from 'kysely';

/**
 * The SQLite dialect whose transactions begin IMMEDIATE.
 *
 * @example new Kysely({ dialect: new ImmediateSqliteDialect({ database: sqlite }) })
 */
export class ImmediateSqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig;

  constructor(config: SqliteDialectConfig) {
    super(config);
    this.#config = config;
  }

  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.#config);
  }
}

class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}
