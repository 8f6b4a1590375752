/**
 * The session cache: active sessions kept in memory between requests, so that a request of a
 * signed-in user costs no session lookup (a SHA-256 of the cookie and a statement over the sessions
 * and users tables, about a fifth of a get by id: decision 0017). It is the same on SQLite and on
 * PostgreSQL.
 *
 * Correctness rests on explicit invalidation: every change this process makes that could change who
 * is asking forgets the sessions it touches (sign-out and the end of a session, an expired one, a
 * password reset, a role change, a disabled user, a write to a User record through the API). A
 * change made by another process (the CLI, another instance on the same PostgreSQL, a hand-run
 * SQL client) is not seen by this cache: an entry is trusted for at most `SESSION_CACHE_TTL_MS`
 * after it was read, then the session is read afresh. Issue 20 will add PostgreSQL LISTEN/NOTIFY
 * to make that immediate across instances (decision 0021).
 */
import { type UserContext } from '@ninefold/engine';
import { type Model } from '@ninefold/model';
import { type Database } from '../db/open.js';
import { LruMap } from '../lru-map.js';
import { weakMemo } from '../memo.js';
import { type UserSummary } from './user-summary.js';

/**
 * How long a cached session is trusted without reading it again: the longest another process's
 * revocation (a user disabled by the CLI, a session ended by another instance) goes unseen here.
 */
export const SESSION_CACHE_TTL_MS = 5_000;

/** A bound on memory: the least recently used session goes first (a miss only costs a lookup). */
const MAX_SESSIONS = 10_000;

/** An active session as its lookup read it, with the times its expiry is decided from. */
export interface ActiveSession {
  readonly user: UserSummary;
  /** Frozen when cached: the same object serves many requests (and keys the per-user decisions). */
  readonly context: UserContext;
  /** Milliseconds since the epoch. */
  readonly createdAt: number;
  readonly lastSeenAt: number;
  /** When the user last proved a factor on this session, or null (decision 0042). */
  readonly authenticatedAt: number | null;
}

interface Entry {
  readonly session: ActiveSession;
  /** The model the session's context was decoded for. */
  readonly model: Model;
  /** When the session was read from the database (milliseconds since the epoch). */
  readonly readAt: number;
}

/**
 * Active sessions by the id the client holds.
 *
 * @example
 * cache.set(id, model, session, now);
 * cache.get(id, model, later) // the session, unless forgotten or read more than the TTL ago
 */
export class SessionCache {
  readonly #entries = new LruMap<string, Entry>(MAX_SESSIONS);

  /** The session cached under `id`, if it was read for `model` less than the TTL before `now`. */
  get(id: string, model: Model, now: number): ActiveSession | undefined {
    const entry = this.#entries.get(id);
    if (entry === undefined) return undefined;
    if (entry.model === model && now - entry.readAt < SESSION_CACHE_TTL_MS) return entry.session;
    this.#entries.delete(id);
    return undefined;
  }

  /** Caches a session just read from the database at `now`. */
  set(id: string, model: Model, session: ActiveSession, now: number): void {
    Object.freeze(session.user.roles);
    Object.freeze(session.context.roles);
    Object.freeze(session.context);
    this.#entries.set(id, { session, model, readAt: now });
  }

  /** Forgets one session (signed out, ended, expired). */
  forgetSession(id: string): void {
    this.#entries.delete(id);
  }

  /** Forgets every session of a user (roles changed, disabled, password reset, record written). */
  forgetUser(userId: string): void {
    for (const [id, entry] of this.#entries) {
      if (entry.session.user.id === userId) this.#entries.delete(id);
    }
  }

  /** Forgets every session (an admin ended everyone's): the sessions that stay are read again. */
  forgetAll(): void {
    this.#entries.clear();
  }
}

/**
 * The session cache of a database: one per open database, shared by every app and function of this
 * process that uses it, so that `setRoles(database, …)` reaches the cache the app reads.
 *
 * @example sessionCacheOf(database).forgetUser(user.id);
 */
export const sessionCacheOf: (database: Database) => SessionCache = weakMemo(() => new SessionCache());
