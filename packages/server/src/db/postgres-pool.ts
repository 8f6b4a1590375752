/**
 * The `pg.Pool` Kysely uses on a PostgreSQL server, made to outlive its connections (decision 0023).
 *
 * `pg` emits `'error'` on a client whose connection the database ended (a restart, a failover,
 * `pg_terminate_backend`). The pool listens for it only while the client is idle; a client checked
 * out by a request — running a query, or between two statements of a transaction — has no listener,
 * and an `'error'` event without one ends the process. So every client gets its own listener for
 * as long as it lives, which notes it broken; a broken client is released with an error, so the
 * pool discards it and makes a fresh one; and a connection that cannot be made is a
 * {@link DatabaseUnreachable}, which the API answers with 503 instead of 500.
 */
import { type PostgresPool, type PostgresPoolClient } from 'kysely';
import pg from 'pg';
import { DatabaseUnreachable, isConnectionFailure } from './connection-failure.js';

/**
 * How long a request waits for a connection — a new one, or one of the pool's when all are busy —
 * before the database counts as unreachable (503, not a request left hanging).
 */
const CONNECT_TIMEOUT_MS = 5000;

/** The pool of a PostgreSQL server and how to end it. */
export interface PostgresServerPool extends PostgresPool {
  readonly ended: boolean;
}

/**
 * @example const db = new Kysely({ dialect: new PostgresDialect({ pool: postgresPool(url) }) });
 */
export function postgresPool(url: string): PostgresServerPool {
  const pool = new pg.Pool({ connectionString: url, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  const broken = new WeakSet<pg.PoolClient>();
  // an idle client losing its connection: the pool has already discarded it; the next query reports it
  pool.on('error', () => undefined);
  pool.on('connect', (client) => {
    // the listener every client keeps, checked out or idle: its request's query fails by itself
    client.on('error', () => broken.add(client as pg.PoolClient));
    noteBrokenByQueries(client as pg.PoolClient, broken);
  });

  return {
    get ended() {
      return pool.ended;
    },
    async connect(): Promise<PostgresPoolClient> {
      let client: pg.PoolClient;
      try {
        client = await pool.connect();
      } catch (error) {
        throw new DatabaseUnreachable(error);
      }
      const release = client.release.bind(client);
      // Kysely releases without an error: a client whose connection broke is handed back with one
      client.release = (error?: Error | boolean) =>
        release(
          error ?? (broken.has(client) ? new Error('The connection to the database broke.') : undefined),
        );
      return client;
    },
    end: () => pool.end(),
  };
}

/**
 * Notes a client broken as soon as one of its queries fails for its connection. The database's
 * FATAL answer reaches the query before the socket's end reaches the client, and Kysely hands the
 * client back in between: without this, the pool would give the dead client to the next request
 * (a read tried again, say) before it knows.
 */
function noteBrokenByQueries(client: pg.PoolClient, broken: WeakSet<pg.PoolClient>): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  const watched = (...args: unknown[]) => {
    const result = query(...args);
    if (result instanceof Promise) {
      result.catch((error: unknown) => {
        if (isConnectionFailure(error)) broken.add(client);
      });
    }
    return result;
  };
  client.query = watched as typeof client.query;
}
