/**
 * The session cache: active sessions kept in memory between requests, so that a request of a
 * signed-in user costs no session lookup (a SHA-256 of the cookie and a statement over the sessions
 * and users tables, about a fifth of a get by id: decision 0017). It is the same on SQLite and on
 * PostgreSQL.
 *
 * Correctness rests on explicit invalidation (decision 0058):
 *
 * - In this process, every change that could change who is asking forgets the sessions it touches
 *   (sign-out and the end of a session, an expired one, a password reset, a role change, a disabled
 *   user, a write to a User record through the API). That is enough for SQLite (one process) and
 *   PGlite (in process).
 * - On a PostgreSQL server, triggers on the sessions and users tables notify every change at its
 *   commit, whoever made it (another instance, the CLI, a hand-run SQL client), and each instance
 *   hears it on its LISTEN connection (`session-invalidation.ts`) and forgets what it names.
 * - While an instance that can be told does not hear (before its LISTEN connection is up, after it
 *   dropped or fell silent, until it hears again and has forgotten everything), an entry is trusted
 *   for at most `UNHEARD_TTL_MS` (1 s): a revocation elsewhere is never missed for longer than that.
 * - `SESSION_CACHE_TTL_MS` (5 s) stays as the backstop for what nothing announces (a trigger dropped
 *   by hand, a notification lost inside the server).
 *
 * A read that was under way when an invalidation arrived is not cached (`version`): it may have
 * read the row before the change committed.
 */
import { type UserContext } from '@ninefold/engine';
import { type Model } from '@ninefold/model';
import { type Database } from '../db/open.js';
import { LruMap } from '../lru-map.js';
import { weakMemo } from '../memo.js';
import { type UserSummary } from './user-summary.js';

/**
 * How long a cached session is trusted without reading it again: on SQLite, the longest another
 * process's revocation (a user disabled by the CLI) goes unseen here; on a PostgreSQL server, a
 * backstop behind the notifications.
 */
export const SESSION_CACHE_TTL_MS = 5_000;

/**
 * How long a cached session is trusted while this instance could be told of changes but is not
 * listening (decision 0058): the bound for a revocation to reach every instance.
 */
export const UNHEARD_TTL_MS = 1_000;

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
  /** The SHA-256 of the id, as the sessions table holds it (and a notification names it). */
  readonly idHash: string;
  /** The model the session's context was decoded for. */
  readonly model: Model;
  /** When the session was read from the database (milliseconds since the epoch). */
  readonly readAt: number;
}

/**
 * Active sessions by the id the client holds.
 *
 * @example
 * const version = cache.version;
 * const session = await read(id); // from the database
 * cache.set(id, idHash, model, session, now, version);
 * cache.get(id, model, later) // the session, unless forgotten or read more than the TTL ago
 */
export class SessionCache {
  readonly #entries = new LruMap<string, Entry>(MAX_SESSIONS);
  /** Whether other processes' changes can be told to it (a PostgreSQL server). */
  readonly #told: boolean;
  #hearing = false;
  #version = 0;

  /** `told`: whether other processes' changes can reach it (true on a PostgreSQL server). */
  constructor(told = false) {
    this.#told = told;
  }

  /** Counts invalidations: a read begun at one version is cached only if it is still current. */
  get version(): number {
    return this.#version;
  }

  /** How long an entry is trusted now. */
  get #ttl(): number {
    return this.#told && !this.#hearing ? UNHEARD_TTL_MS : SESSION_CACHE_TTL_MS;
  }

  /**
   * Whether every change is being told to it now (`session-invalidation.ts` says so when its LISTEN
   * connection is up, and not when it drops). Hearing again, it forgets everything: what was
   * changed while it did not hear is lost.
   */
  hearing(hearing: boolean): void {
    if (hearing && !this.#hearing) this.forgetAll();
    this.#hearing = hearing;
  }

  /** The session cached under `id`, if it was read for `model` less than the TTL before `now`. */
  get(id: string, model: Model, now: number): ActiveSession | undefined {
    const entry = this.#entries.get(id);
    if (entry === undefined) return undefined;
    if (entry.model === model && now - entry.readAt < this.#ttl) return entry.session;
    this.#entries.delete(id);
    return undefined;
  }

  /**
   * Caches a session read from the database at `now`, unless something was forgotten since the
   * read began at `version`: the read may predate that change's commit.
   */
  set(id: string, idHash: string, model: Model, session: ActiveSession, now: number, version: number): void {
    if (version !== this.#version) return;
    Object.freeze(session.user.roles);
    Object.freeze(session.context.roles);
    Object.freeze(session.context);
    this.#entries.set(id, { session, idHash, model, readAt: now });
  }

  /** Forgets one session (signed out, ended, expired). */
  forgetSession(id: string): void {
    this.#version++;
    this.#entries.delete(id);
  }

  /** Forgets the sessions whose ids hash to these (ended elsewhere: a notification names hashes). */
  forgetHashes(idHashes: ReadonlySet<string>): void {
    this.#version++;
    for (const [id, entry] of this.#entries) {
      if (idHashes.has(entry.idHash)) this.#entries.delete(id);
    }
  }

  /** Forgets every session of these users (roles changed, disabled, password reset, record written). */
  forgetUsers(userIds: ReadonlySet<string>): void {
    this.#version++;
    for (const [id, entry] of this.#entries) {
      if (userIds.has(entry.session.user.id)) this.#entries.delete(id);
    }
  }

  /** Forgets every session of a user (roles changed, disabled, password reset, record written). */
  forgetUser(userId: string): void {
    this.forgetUsers(new Set([userId]));
  }

  /** Forgets every session (an admin ended everyone's): the sessions that stay are read again. */
  forgetAll(): void {
    this.#version++;
    this.#entries.clear();
  }
}

/**
 * The session cache of a database: one per open database, shared by every app and function of this
 * process that uses it, so that `setRoles(database, …)` reaches the cache the app reads.
 *
 * @example sessionCacheOf(database).forgetUser(user.id);
 */
export const sessionCacheOf: (database: Database) => SessionCache = weakMemo(
  (database) => new SessionCache(database.listen !== undefined),
);
