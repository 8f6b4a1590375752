/**
 * A `pg.Pool`-shaped adapter around PGlite, so PGlite and a real PostgreSQL server share Kysely's
 * PostgresDialect and one code path.
 *
 * PGlite is a single connection: `connect()` hands it out to one caller at a time and queues the
 * rest, which is what a transaction needs (it keeps the connection until `release()`). The queue is
 * the PGlite's, not the pool's: pools over schemas of one PGlite (`pglite-start.ts`) take turns too,
 * and each sets its schema as the connection's `search_path` when its turn comes.
 */
import type { PGlite } from '@electric-sql/pglite';
import { type PostgresPool, type PostgresPoolClient, type PostgresQueryResult } from 'kysely';

type Command = PostgresQueryResult<unknown>['command'];

/** Per PGlite: the end of its queue, and the schema its connection's `search_path` names now. */
const turns = new WeakMap<PGlite, { busy: Promise<void>; schema: string | null }>();

/**
 * Waits for the PGlite's connection, and holds it until the returned function is called: nothing
 * else runs on it meanwhile (a transaction of another pool over it included).
 *
 * @example const done = await takeTurn(pglite); try { … } finally { done(); }
 */
export async function takeTurn(pglite: PGlite): Promise<() => void> {
  let turn = turns.get(pglite);
  if (turn === undefined) turns.set(pglite, (turn = { busy: Promise.resolve(), schema: null }));
  let release!: () => void;
  const previous = turn.busy;
  turn.busy = new Promise<void>((resolve) => (release = resolve));
  await previous;
  return release;
}

/**
 * @example
 * const pglite = await PGlite.create();
 * const db = new Kysely({ dialect: new PostgresDialect({ pool: pglitePool(pglite) }) });
 */
export function pglitePool(
  pglite: PGlite,
  options: { readonly schema?: string | undefined; readonly end?: () => Promise<unknown> } = {},
): PostgresPool {
  const schema = options.schema ?? null;
  return {
    async connect(): Promise<PostgresPoolClient> {
      const release = await takeTurn(pglite);
      const turn = turns.get(pglite);
      if (schema !== null && turn !== undefined && turn.schema !== schema) {
        await pglite.exec(`set search_path to "${schema}"`).catch((error: unknown) => {
          release();
          throw error;
        });
        turn.schema = schema;
      }
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
      await (options.end?.() ?? pglite.close());
    },
  };
}
