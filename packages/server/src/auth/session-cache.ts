/**
 * Sessions kept between requests while their rows are provably unchanged (SQLite only).
 *
 * Who is asking used to cost every request a statement over three tables (session, user, and the
 * record of a GET), a SHA-256 and the user's decoding. A kept session is reused only if neither the
 * sessions table nor the users table can have been written since it was read: triggers on both
 * (`installSessionStamp`, created by `migrate`) count every row inserted, updated or deleted there,
 * by any connection (this server, the CLI disabling a user, another server process, a hand-run
 * `sqlite3`), in the one row of `ninefold_session_stamp`. The count is read by the same statement
 * as the session when it is kept, and by the same statement as the record when it is reused, so a
 * kept session is exactly what a fresh lookup would have read. Writes to any other table leave kept
 * sessions alone. This replaced `PRAGMA data_version` and `total_changes()`, which told the same for
 * any write at all, at a price: the pragma's table-valued function prepares a statement of its own
 * at every execution, a tenth of a get by id (decision 0019). PostgreSQL has no such stamp: there
 * every request reads its session (decision 0017).
 */
import { type UserContext } from '@ninefold/engine';
import { type Kysely, sql } from 'kysely';
import { TABLES } from '../schema/names.js';
import { type UserSummary } from './users.js';

/** The stamp's column, first in every statement that reads or checks a kept session. */
export const STAMP_COLUMN = `(select "n" from "${TABLES.sessionStamp}" where "id" = 1)`;

/** How many columns the stamp takes at the start of a row. */
export const STAMP_WIDTH = 1;

/** What a write to one of the tables a session is read from does to the stamp. */
const BUMP = `update "${TABLES.sessionStamp}" set "n" = "n" + 1 where "id" = 1`;

const EVENTS = ['insert', 'update', 'delete'] as const;

/** The names of the triggers that keep the stamp of `tables`. */
function stampTriggers(tables: readonly string[]): string[] {
  return tables.flatMap((table) => EVENTS.map((event) => `${TABLES.sessionStamp}_${table}_${event}`));
}

/**
 * Creates (if missing) the stamp's table and row, and the triggers that count every write to the
 * sessions table and the users table (SQLite). Idempotent: `migrate` runs it every time.
 *
 * @example await installSessionStamp(tx, 'users');
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the schema is the spec's, known at run time
export async function installSessionStamp(tx: Kysely<any>, usersTable: string): Promise<void> {
  await sql
    .raw(
      `create table if not exists "${TABLES.sessionStamp}" ("id" integer primary key, "n" integer not null)`,
    )
    .execute(tx);
  await sql.raw(`insert or ignore into "${TABLES.sessionStamp}" ("id", "n") values (1, 0)`).execute(tx);
  for (const table of [TABLES.sessions, usersTable]) {
    for (const event of EVENTS) {
      await sql
        .raw(
          `create trigger if not exists "${TABLES.sessionStamp}_${table}_${event}" ` +
            `after ${event} on "${table}" begin ${BUMP}; end`,
        )
        .execute(tx);
    }
  }
}

/**
 * Whether the stamp is in place (its row and every trigger): without it nothing may be kept, and
 * every request reads its session afresh.
 *
 * @example if (await hasSessionStamp(database.db, 'users')) cache = new SessionCache();
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the schema is the spec's, known at run time
export async function hasSessionStamp(db: Kysely<any>, usersTable: string): Promise<boolean> {
  const names = stampTriggers([TABLES.sessions, usersTable]);
  try {
    const { rows } = await sql<{
      triggers: number;
      stamp: unknown;
    }>`select (select count(*) from sqlite_master where type = 'trigger' and name in (${sql.join(
      names,
    )})) as triggers, ${sql.raw(STAMP_COLUMN)} as stamp`.execute(db);
    return rows[0]?.triggers === names.length && typeof rows[0].stamp === 'number';
  } catch {
    return false; // no stamp table
  }
}

/** A bound on memory: the oldest kept session goes first (a miss only costs a fresh lookup). */
const MAX_KEPT = 10_000;

/** An active session as its lookup read it, with the times its expiry is decided from. */
export interface ActiveSession {
  readonly user: UserSummary;
  readonly idHash: string;
  /** Frozen when kept: the same object serves many requests (and keys the engine's per-user caches). */
  readonly context: UserContext;
  /** Milliseconds since the epoch. */
  readonly createdAt: number;
  readonly lastSeenAt: number;
}

interface Kept {
  readonly session: ActiveSession;
  readonly stamp: number;
}

/**
 * Active sessions by the id the client holds, each with the stamp read with it.
 *
 * @example
 * cache.keep(id, session, row); // row starts with the stamp (STAMP_COLUMN)
 * cache.get(id, laterRow)       // the session, if laterRow's stamp is the same
 */
export class SessionCache {
  readonly #kept = new Map<string, Kept>();

  /** Whether any session is kept under `id` (its stamp not yet checked). */
  has(id: string): boolean {
    return this.#kept.has(id);
  }

  /** The session kept under `id` if `row` (a statement's row starting with the stamp) shows no change since. */
  get(id: string, row: readonly unknown[]): ActiveSession | undefined {
    const kept = this.#kept.get(id);
    if (kept === undefined) return undefined;
    if (kept.stamp === row[0]) return kept.session;
    this.#kept.delete(id);
    return undefined;
  }

  /** Keeps a session read by the statement whose row (starting with the stamp) is `row`. */
  keep(id: string, session: ActiveSession, row: readonly unknown[]): void {
    this.#kept.delete(id);
    const stamp = row[0];
    // a missing stamp row reads as NULL: nothing is kept
    if (typeof stamp !== 'number') return;
    if (this.#kept.size >= MAX_KEPT) {
      const oldest = this.#kept.keys().next();
      if (oldest.done !== true) this.#kept.delete(oldest.value);
    }
    Object.freeze(session.user.roles);
    Object.freeze(session.context.roles);
    Object.freeze(session.context);
    this.#kept.set(id, { session, stamp });
  }

  /** Forgets a session (ended, expired, or about to be written). */
  forget(id: string): void {
    this.#kept.delete(id);
  }
}
