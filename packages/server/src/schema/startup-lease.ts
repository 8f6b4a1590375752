/**
 * Start-up work that one instance does while the others wait (decision 0023): the demo accounts and
 * data of `ninefold start --demo`, made once however many instances start together on one database.
 *
 * The work itself goes through the API (many statements, many transactions, on SQLite through the
 * one connection every request uses), so it cannot run inside the migrations' exclusive
 * transaction. Instead a lease is taken in that transaction — under the same lock as migrations: a
 * PostgreSQL advisory lock, SQLite's write lock — as a row of `ninefold_leases`. Its holder renews
 * it while it works and deletes it when done; another instance waits until the row is gone, or
 * takes it over once it has not been renewed for a while (its holder died).
 */
import { type Kysely } from 'kysely';
import { randomUUID } from 'node:crypto';
import { withExclusiveTransaction } from '../db/dialect.js';
import { type Database } from '../db/open.js';
import { TABLES } from './names.js';

/** A lease held: give it back when the work is done, failed or not. */
export interface Lease {
  release(): Promise<void>;
}

export interface LeaseOptions {
  /** Told once when another instance holds the lease and this one waits. */
  readonly onWait?: () => void;
  /** How long to wait for a lease renewed all along, before giving up (default 5 minutes). */
  readonly waitMs?: number;
}

/** How often a holder renews its lease. */
const RENEW_MS = 1000;

/** A lease not renewed for this long belongs to an instance that stopped: it may be taken over. */
const STALE_MS = 10_000;

/** How often a waiting instance looks again. */
const POLL_MS = 100;

/**
 * Takes the lease of a name, waiting while another instance holds it.
 *
 * @example
 * const lease = await acquireStartupLease(database, 'demo');
 * try { … } finally { await lease.release(); }
 */
export async function acquireStartupLease(
  database: Database,
  name: string,
  options: LeaseOptions = {},
): Promise<Lease> {
  const holder = randomUUID();
  const deadline = Date.now() + (options.waitMs ?? 5 * 60_000);
  let told = false;
  while (!(await tryTake(database, name, holder))) {
    if (Date.now() > deadline) {
      throw new Error(
        `Another instance has held the start-up lease "${name}" on this database for longer than ` +
          `${Math.round((options.waitMs ?? 5 * 60_000) / 1000)} s and is still working; try again when it is done.`,
      );
    }
    if (!told) options.onWait?.();
    told = true;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  const renewing = setInterval(() => {
    database.db
      .updateTable(TABLES.leases)
      .set({ renewed_at: new Date().toISOString() })
      .where('name', '=', name)
      .where('holder', '=', holder)
      .execute()
      .catch(() => undefined); // a renewal missed: the next one, or a takeover after STALE_MS
  }, RENEW_MS);
  renewing.unref();
  return {
    async release() {
      clearInterval(renewing);
      await database.db
        .deleteFrom(TABLES.leases)
        .where('name', '=', name)
        .where('holder', '=', holder)
        .execute();
    },
  };
}

/** Takes the lease when it is free or stale, under the migrations' lock; false when it is held. */
async function tryTake(database: Database, name: string, holder: string): Promise<boolean> {
  return withExclusiveTransaction(database.db, database.dialect, async (tx) => {
    await ensureLeasesTable(tx);
    const row = await tx
      .selectFrom(TABLES.leases)
      .select('renewed_at')
      .where('name', '=', name)
      .executeTakeFirst();
    const now = Date.now();
    if (row !== undefined && now - Date.parse(String(row.renewed_at)) < STALE_MS) return false;
    await tx.deleteFrom(TABLES.leases).where('name', '=', name).execute();
    await tx
      .insertInto(TABLES.leases)
      .values({ name, holder, renewed_at: new Date(now).toISOString() })
      .execute();
    return true;
  });
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the server's own table, outside the spec's schema
async function ensureLeasesTable(tx: Kysely<any>): Promise<void> {
  await tx.schema
    .createTable(TABLES.leases)
    .ifNotExists()
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('holder', 'text', (c) => c.notNull())
    .addColumn('renewed_at', 'text', (c) => c.notNull())
    .execute();
}
