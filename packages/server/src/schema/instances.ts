/**
 * The instances serving one database (decision 0059): each running `ninefold start` and `ninefold
 * worker` keeps a row of `ninefold_instances`, renewed every few seconds and deleted when it stops.
 * A starting instance that finds no other's row, renewed lately, is alone: it may migrate the
 * database itself. With others serving, the migration is the pre-deploy step's
 * (`ninefold migrate --apply`), so that a start never changes the schema under running instances.
 *
 * A row in the database, not a look at `pg_stat_activity`: an idle instance holds no pooled
 * connection, a pooler (PgBouncer) hides who is behind its connections, and many products may
 * share one server in schemas of their own; a row lives in the product's schema and says who runs.
 * Like `ninefold_leases`, the table is made when first needed and is no part of the spec's schema.
 */
import { type Kysely } from 'kysely';
import { randomUUID } from 'node:crypto';
import { isConnectionFailure } from '../db/connection-failure.js';
import { withExclusiveTransaction } from '../db/dialect.js';
import { type Database } from '../db/open.js';
import { TABLES } from './names.js';

/** How often an instance renews its row. */
export const INSTANCE_RENEW_MS = 5000;

/** A row not renewed for this long is an instance that stopped without a word (killed, cut off). */
export const INSTANCE_STALE_MS = 20_000;

/** This process's row: how many others serve beside it, and how to leave. */
export interface InstancePresence {
  readonly id: string;
  /** The other instances whose row was renewed within {@link INSTANCE_STALE_MS}. */
  others(): Promise<number>;
  /** Stops renewing and deletes the row; idempotent. */
  release(): Promise<void>;
}

export interface PresenceOptions {
  /** The clock (tests move it); default `Date.now`. */
  readonly now?: () => number;
  /** How often to renew (default {@link INSTANCE_RENEW_MS}). */
  readonly renewMs?: number;
}

/**
 * Writes this instance's row and keeps it renewed until released.
 *
 * @example
 * const presence = await registerInstance(database);
 * if ((await presence.others()) === 0) await migrate(database, model);
 * // … on stop:
 * await presence.release();
 */
export async function registerInstance(
  database: Database,
  options: PresenceOptions = {},
): Promise<InstancePresence> {
  const now = options.now ?? Date.now;
  const id = randomUUID();
  const at = () => new Date(now()).toISOString();
  // under the migrations' lock: two instances starting together do not both create the table
  await withExclusiveTransaction(database.db, database.dialect, async (tx) => {
    await ensureInstancesTable(tx);
    // rows of instances long gone are cleared by whoever starts next
    await tx
      .deleteFrom(TABLES.instances)
      .where('seen_at', '<', new Date(now() - INSTANCE_STALE_MS).toISOString())
      .execute();
    await tx.insertInto(TABLES.instances).values({ id, started_at: at(), seen_at: at() }).execute();
  });
  const renewing = setInterval(() => {
    database.db
      .updateTable(TABLES.instances)
      .set({ seen_at: at() })
      .where('id', '=', id)
      .execute()
      .catch(() => undefined); // a renewal missed (the database away): the next one, within the stale time
  }, options.renewMs ?? INSTANCE_RENEW_MS);
  renewing.unref();
  let released = false;
  return {
    id,
    others: () => countInstances(database, id, now),
    async release() {
      if (released) return;
      released = true;
      clearInterval(renewing);
      await database.db
        .deleteFrom(TABLES.instances)
        .where('id', '=', id)
        .execute()
        .catch((error: unknown) => {
          // a database gone away: the row goes stale by itself
          if (!isConnectionFailure(error)) throw error;
        });
    },
  };
}

/**
 * How many instances serve from the database now (their rows renewed lately): for a command that
 * is no instance itself (`ninefold users`), deciding as a start does whether it may migrate.
 *
 * @example if ((await instancesServing(database)) === 0) await migrate(database, model);
 */
export async function instancesServing(database: Database): Promise<number> {
  return countInstances(database, null, Date.now);
}

async function countInstances(database: Database, except: string | null, now: () => number): Promise<number> {
  const row = await database.db
    .selectFrom(TABLES.instances)
    .select((eb) => eb.fn.countAll().as('n'))
    .where('id', '<>', except ?? '')
    .where('seen_at', '>=', new Date(now() - INSTANCE_STALE_MS).toISOString())
    .executeTakeFirst()
    .catch((error: unknown) => {
      // no table yet: no instance ever registered on this database
      if (isConnectionFailure(error)) throw error;
      return undefined;
    });
  return Number(row?.n ?? 0);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the server's own table, outside the spec's schema
async function ensureInstancesTable(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable(TABLES.instances)
    .ifNotExists()
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('started_at', 'text', (c) => c.notNull())
    .addColumn('seen_at', 'text', (c) => c.notNull())
    .execute();
}
