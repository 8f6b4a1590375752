/**
 * A `pg.Pool`-shaped adapter around PGlite, so PGlite and a real PostgreSQL server share Kysely's
 * PostgresDialect and one code path.
 *
 * PGlite is a single connection: `connect()` hands it out to one caller at a time and queues the
 * rest, which is what a transaction needs (it keeps the connection until `release()`).
 */
import type { PGlite } from '@electric-sql/pglite';
import { type PostgresPool, type PostgresPoolClient, type PostgresQueryResult } from 'kysely';

type Command = PostgresQueryResult<unknown>['command'];

/**
 * @example
 * const pglite = await PGlite.create();
 * const db = new Kysely({ dialect: new PostgresDialect({ pool: pglitePool(pglite) }) });
 */
export function pglitePool(pglite: PGlite): PostgresPool {
  let busy: Promise<void> = Promise.resolve();
  return {
    async connect(): Promise<PostgresPoolClient> {
      let release!: () => void;
      const previous = busy;
      busy = new Promise<void>((resolve) => (release = resolve));
      await previous;
      let released = false;
      const client = {
        async query(sqlText: string, parameters: ReadonlyArray<unknown>) {
          const result = await pglite.query<Record<string, unknown>>(sqlText, [...parameters]);
          return {
            rows: result.rows,
            rowCount: result.affectedRows ?? result.rows.length,
            command: (result.command ?? 'SELECT') as Command,
          };
        },
        release() {
          if (released) return;
          released = true;
          release();
        },
      };
      return client as unknown as PostgresPoolClient;
    },
    async end() {
      await pglite.close();
    },
  };
}
