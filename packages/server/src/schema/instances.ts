/**
 * The instances serving one database (decision 0059): each running `ninefold start` and `ninefold
 * worker` keeps a row of `ninefold_instances`, renewed every few seconds and deleted when it stops.
 * A starting instance that finds no other instance present is alone: it may migrate the database
 * itself. With others serving, the migration is the pre-deploy step's (`ninefold migrate --apply`),
 * so that a start never changes the schema under running instances.
 *
 * On a PostgreSQL server presence is exact: each instance holds a session-level advisory lock on a
 * key of its own (written in its row) on a pooled connection it keeps for as long as it runs. A
 * process killed with SIGKILL closes its socket, the server ends its session and the lock goes
 * with it, so the row stops counting at once, not after {@link INSTANCE_STALE_MS}. A row is
 * present when its lock is held (`pg_locks`); a row without a key (an older version's, SQLite's,
 * PGlite's) when it was renewed lately.
 *
 * A row in the database, not a look at `pg_stat_activity`: a pooler (PgBouncer) hides who is
 * behind its connections, and many products may share one server in schemas of their own; a row
 * lives in the product's schema and says who runs, and its key says which lock is its.
 * Like `ninefold_leases`, the table is made when first needed and is no part of the spec's schema.
 */
import { type Kysely, sql } from 'kysely';
import { randomInt, randomUUID } from 'node:crypto';
import { isConnectionFailure } from '../db/connection-failure.js';
import { withExclusiveTransaction } from '../db/dialect.js';
import { type Database } from '../db/open.js';
import { TABLES } from './names.js';

/** How often an instance renews its row. */
export const INSTANCE_RENEW_MS = 5000;

/** A row not renewed for this long is an instance that stopped without a word (killed, cut off). */
export const INSTANCE_STALE_MS = 20_000;

/** The first key of the instances' advisory locks (two-key form): "NFIN". */
export const INSTANCE_LOCK_SPACE = 0x4e46494e;

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
  const server = database.dialect === 'postgres' && database.listen !== undefined;
  // under the migrations' lock: two instances starting together do not both create the table
  await withExclusiveTransaction(database.db, database.dialect, async (tx) => {
    await ensureInstancesTable(tx, server);
    // rows of instances long gone are cleared by whoever starts next
    await tx
      .deleteFrom(TABLES.instances)
      .where('seen_at', '<', new Date(now() - INSTANCE_STALE_MS).toISOString())
      .execute();
  });
  const lock = server ? await holdInstanceLock(database) : undefined;
  await database.db
    .insertInto(TABLES.instances)
    .values({ id, started_at: at(), seen_at: at(), ...(lock ? { lock_key: lock.key } : {}) })
    .execute();
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
      await lock?.release();
    },
  };
}

/**
 * Takes an advisory lock on a key of this instance's own (tried again on the rare key another
 * holds) on a pooled connection kept until `release`, which unlocks it and hands the connection back.
 */
async function holdInstanceLock(
  database: Database,
): Promise<{ readonly key: number; release(): Promise<void> }> {
  let letGo: () => void = () => undefined;
  const released = new Promise<void>((resolve) => (letGo = resolve));
  return new Promise((resolve, reject) => {
    database.db
      .connection()
      .execute(async (connection) => {
        let key = 0;
        for (let attempt = 0; key === 0; attempt += 1) {
          const candidate = randomInt(1, 2 ** 31 - 1);
          const { rows } = await sql<{ locked: boolean }>`
            select pg_try_advisory_lock(${INSTANCE_LOCK_SPACE}::int, ${candidate}::int) as locked`.execute(
            connection,
          );
          if (rows[0]?.locked === true) key = candidate;
          else if (attempt >= 5) throw new Error('Could not take an instance lock.');
        }
        let done: () => void = () => undefined;
        const finished = new Promise<void>((settle) => (done = settle));
        resolve({
          key,
          release: async () => {
            letGo();
            await finished;
          },
        });
        await released;
        await sql`select pg_advisory_unlock(${INSTANCE_LOCK_SPACE}::int, ${key}::int)`
          .execute(connection)
          .catch(() => undefined); // a connection gone: its lock went with it
        done();
      })
      .catch(reject);
  });
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
  const stale = new Date(now() - INSTANCE_STALE_MS).toISOString();
  const server = database.dialect === 'postgres' && database.listen !== undefined;
  const row = await (
    server
      ? sql<{ n: unknown }>`
          select count(*) as n from ${sql.table(TABLES.instances)} i
          where i.id <> ${except ?? ''} and case
            when i.lock_key is null then i.seen_at >= ${stale}
            else exists (select 1 from pg_locks l
              where l.locktype = 'advisory' and l.granted and l.objsubid = 2
                and l.database = (select oid from pg_database where datname = current_database())
                and l.classid = ${INSTANCE_LOCK_SPACE}::int::oid and l.objid = i.lock_key::oid)
          end`
          .execute(database.db)
          .then((result) => result.rows[0])
      : database.db
          .selectFrom(TABLES.instances)
          .select((eb) => eb.fn.countAll().as('n'))
          .where('id', '<>', except ?? '')
          .where('seen_at', '>=', stale)
          .executeTakeFirst()
  ).catch((error: unknown) => {
    // no table yet: no instance ever registered on this database
    if (isConnectionFailure(error)) throw error;
    return undefined;
  });
  return Number(row?.n ?? 0);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the server's own table, outside the spec's schema
async function ensureInstancesTable(db: Kysely<any>, server: boolean): Promise<void> {
  await db.schema
    .createTable(TABLES.instances)
    .ifNotExists()
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('started_at', 'text', (c) => c.notNull())
    .addColumn('seen_at', 'text', (c) => c.notNull())
    .addColumn('lock_key', 'integer')
    .execute();
  // a table made before the locks (decision 0059 as first written): the key's column added
  if (server)
    await sql`alter table ${sql.table(TABLES.instances)} add column if not exists lock_key integer`.execute(
      db,
    );
}
