/**
 * Sessions kept between requests while the database is provably unchanged (SQLite only).
 *
 * Who is asking used to cost every request a statement over three tables (session, user, and the
 * record of a GET), a SHA-256 and the user's decoding. A kept session is reused only if nothing can
 * have been committed since it was read, which SQLite tells per statement: `PRAGMA data_version`
 * changes when another connection (the CLI disabling a user, another server process) commits, and
 * `total_changes()` counts every row this connection has written. Both are read by the same
 * statement as the session when it is kept, and by the same statement as the record (or alone)
 * when it is reused, so a kept session is exactly what a fresh lookup would have read. Any write
 * invalidates every kept session: conservative, and the cost of a miss is one extra cheap query.
 * PostgreSQL has no such stamp: there every request reads its session (decision 0017).
 */
import { type UserContext } from '@ninefold/engine';
import { type UserSummary } from './users.js';

/** The stamp's columns, first in every statement that reads or checks a kept session. */
export const STAMP_COLUMNS = ['(select data_version from pragma_data_version)', 'total_changes()'] as const;

/** How many columns the stamp takes at the start of a row. */
export const STAMP_WIDTH = STAMP_COLUMNS.length;

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
  readonly dataVersion: unknown;
  readonly changes: unknown;
}

/**
 * Active sessions by the id the client holds, each with the stamp read with it.
 *
 * @example
 * cache.keep(id, session, row); // row starts with the stamp (STAMP_COLUMNS)
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
    if (kept.dataVersion === row[0] && kept.changes === row[1]) return kept.session;
    this.#kept.delete(id);
    return undefined;
  }

  /** Keeps a session read by the statement whose row (starting with the stamp) is `row`. */
  keep(id: string, session: ActiveSession, row: readonly unknown[]): void {
    this.#kept.delete(id);
    if (this.#kept.size >= MAX_KEPT) {
      const oldest = this.#kept.keys().next();
      if (oldest.done !== true) this.#kept.delete(oldest.value);
    }
    Object.freeze(session.user.roles);
    Object.freeze(session.context.roles);
    Object.freeze(session.context);
    this.#kept.set(id, { session, dataVersion: row[0], changes: row[1] });
  }

  /** Forgets a session (ended, expired, or about to be written). */
  forget(id: string): void {
    this.#kept.delete(id);
  }
}
