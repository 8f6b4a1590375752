/**
 * Sessions in the database, so that any instance serves any request. The client holds a 128-bit
 * random id; the table holds only its SHA-256, so a copy of the table opens no session.
 */
import { type UserContext } from '@ninefold/engine';
import { type Limits, type Model, type SessionMethod } from '@ninefold/model';
import * as crypto from 'node:crypto';
import { type Database } from '../db/open.js';
import { weakMemo } from '../memo.js';
import { type EntityTable, decodeRow, entityTable, selectColumns } from '../resources/records.js';
import { TABLES, LOCALE_COLUMN } from '../schema/names.js';
import { type ActiveSession, sessionCacheOf } from './session-cache.js';
import { type UserSummary, toSummary, usersTable } from './users.js';

/** How often a session's last use is written: reads stay reads most of the time. */
const TOUCH_INTERVAL_MS = 60_000;

export type SessionLookup =
  | {
      readonly status: 'active';
      readonly user: UserSummary;
      /** The user as the engine sees them: their id, roles and every field of their User record, if any. */
      readonly context: UserContext;
      /** When the user last proved a factor on this session (milliseconds since the epoch), or null. */
      readonly authenticatedAt: number | null;
    }
  | { readonly status: 'expired' }
  | { readonly status: 'none' };

/** Node's one-shot `crypto.hash` (20.12 and 21.7 on), which skips the Hash object createHash makes. */
const oneShotHash = (crypto as Partial<typeof crypto>).hash;

/**
 * The SHA-256 of a session id, as stored: hashed at every request that carries a session cookie.
 *
 * @example hashSessionId('q3V…') // 64 hex digits
 */
export function hashSessionId(id: string): string {
  if (oneShotHash !== undefined) return oneShotHash('sha256', id, 'hex');
  return crypto.createHash('sha256').update(id).digest('hex');
}

/**
 * Starts a session for a user and returns its id, for the cookie.
 *
 * @example const id = await createSession(database, userId, new Date(), { userAgent, address, method: 'password' }); // 'q3V…' (22 characters)
 */
export async function createSession(
  database: Database,
  userId: string,
  now: Date,
  origin: SessionOrigin = UNKNOWN_ORIGIN,
): Promise<string> {
  const id = crypto.randomBytes(16).toString('base64url');
  await database.db
    .insertInto(TABLES.sessions)
    .values({
      id_hash: hashSessionId(id),
      user_id: userId,
      created_at: now.toISOString(),
      last_seen_at: now.toISOString(),
      user_agent: origin.userAgent === null ? null : origin.userAgent.slice(0, MAX_USER_AGENT),
      address: origin.address,
      method: origin.method,
      // every way in proves a factor: a new session is a recent authentication (decision 0042)
      authenticated_at: now.toISOString(),
    })
    .execute();
  return id;
}

/** Where and how a session began, for its user's list of sessions (`WireSession`). */
export interface SessionOrigin {
  readonly userAgent: string | null;
  readonly address: string | null;
  readonly method: SessionMethod | null;
}

const UNKNOWN_ORIGIN: SessionOrigin = { userAgent: null, address: null, method: null };

/** The most of a User-Agent kept: enough to name a browser, not a client's essay. */
const MAX_USER_AGENT = 256;

/** What a lookup answers for an id that names no live session. */
const NONE: SessionLookup = { status: 'none' };

/** An id that cannot be ours is not worth a query. */
const SESSION_ID = /^[A-Za-z0-9_-]{22}$/;

/**
 * The session of an id: active (with its user, roles as they are now), expired (idle or past its
 * absolute lifetime; deleted on the way), or none (unknown, ended, or its user disabled).
 *
 * @example const found = await lookupSession(database, model, cookieValue, new Date());
 */
export async function lookupSession(
  database: Database,
  model: Model,
  id: string,
  now: Date,
): Promise<SessionLookup> {
  return cachedSession(database, model, id, now) ?? readSession(database, model, id, now);
}

/**
 * The session of an id at once, from the session cache, when it is there, neither expired nor due
 * to record its use; undefined otherwise (`readSession` decides).
 *
 * @example const found = cachedSession(database, model, cookieValue, new Date()) ?? (await readSession(…));
 */
export function cachedSession(
  database: Database,
  model: Model,
  id: string,
  now: Date,
): SessionLookup | undefined {
  const time = now.getTime();
  const cached = sessionCacheOf(database).get(id, model, time);
  if (cached === undefined) return undefined;
  const settled =
    !isExpired(model.limits, cached.createdAt, cached.lastSeenAt, time) &&
    time - cached.lastSeenAt < TOUCH_INTERVAL_MS;
  return settled ? active(cached) : undefined;
}

/**
 * The session of an id, read from the database (see `lookupSession`); an active one is then cached
 * (`SessionCache`).
 *
 * @example const found = await readSession(database, model, cookieValue, new Date());
 */
export async function readSession(
  database: Database,
  model: Model,
  id: string,
  now: Date,
): Promise<SessionLookup> {
  if (!SESSION_ID.test(id)) return NONE;
  const cache = sessionCacheOf(database);
  // an invalidation heard while the row is read may be of a change this read did not see
  const version = cache.version;
  const queries = sessionQueries(database, model);
  const idHash = hashSessionId(id);
  const [row] = await database.selectValues(queries.lookup, [idHash]);
  if (row === undefined) {
    cache.forgetSession(id);
    return NONE;
  }
  const user = toSummary({
    id: row[2],
    email: row[3],
    name: row[4],
    roles: row[5],
    disabled: row[6],
    [LOCALE_COLUMN]: row[8],
  });
  if (user.disabled) {
    await endSession(database, id);
    return NONE;
  }
  const users = queries.users;
  // without a User entity the engine knows a user by their id and roles alone (as `userContext` says)
  const context =
    users === null
      ? { id: user.id, roles: [...user.roles] }
      : { ...decodeRow(users, row, SESSION_COLUMNS), id: user.id, roles: [...user.roles] };
  const createdAt = Date.parse(String(row[0]));
  const lastSeenAt = Date.parse(String(row[1]));
  const authenticatedAt = row[7] === null || row[7] === undefined ? null : Date.parse(String(row[7]));
  const time = now.getTime();
  if (isExpired(model.limits, createdAt, lastSeenAt, time)) {
    await endSession(database, id);
    return { status: 'expired' };
  }
  let session: ActiveSession = { user, context, createdAt, lastSeenAt, authenticatedAt };
  if (time - lastSeenAt >= TOUCH_INTERVAL_MS) {
    await database.db
      .updateTable(TABLES.sessions)
      .set({ last_seen_at: now.toISOString() })
      .where('id_hash', '=', idHash)
      .execute();
    session = { ...session, lastSeenAt: time };
  }
  cache.set(id, idHash, model, session, time, version);
  return active(session);
}

function active(session: ActiveSession): SessionLookup {
  return {
    status: 'active',
    user: session.user,
    context: session.context,
    authenticatedAt: session.authenticatedAt,
  };
}

/**
 * A lookup's row, by position: the session's `created_at` and `last_seen_at`, the user's `id`,
 * `email`, `name`, `roles` and `disabled`, the session's `authenticated_at`, the user's picked
 * locale, then (with a User entity) every column of their record.
 */
const SESSION_COLUMNS = 9;

/** The session lookup of a database and model, compiled once. */
interface SessionQueries {
  /** The User entity's table, whose columns the lookup reads, or null without a User entity. */
  readonly users: EntityTable | null;
  /**
   * The session and every column of its user's record, so that authentication costs one query (its
   * only parameter is the id's hash). Its row is decoded by position; each column has an alias of
   * its own, as a row object has one key per name.
   */
  readonly lookup: string;
}

function compileSessionQueries(database: Database, model: Model): SessionQueries {
  const entity = model.entities['User'];
  const users = entity === undefined ? null : entityTable(model, entity);
  const columns: string[] = [
    's.created_at',
    's.last_seen_at',
    ...['id', 'email', 'name', 'roles', 'disabled'].map((c) => `u.${c}`),
    's.authenticated_at',
    `u.${LOCALE_COLUMN}`,
  ];
  // the user's record, lists of refs from their join tables (decision 0044)
  const record =
    users === null ? [] : selectColumns(users, database.dialect, 'u', (_, i) => `c${columns.length + i}`);
  const lookup = database.db
    .selectFrom(`${TABLES.sessions} as s`)
    .innerJoin(`${usersTable(model)} as u`, 'u.id', 's.user_id')
    .select([...columns.map((column, i) => `${column} as c${i}`), ...record])
    .where('s.id_hash', '=', '')
    .compile().sql;
  return { users, lookup };
}

/** Per database and model: the lookup is compiled once, not at every request. */
const queriesOf = weakMemo((database: Database) =>
  weakMemo((model: Model) => compileSessionQueries(database, model)),
);

function sessionQueries(database: Database, model: Model): SessionQueries {
  return queriesOf(database)(model);
}

/**
 * Whether a session is past its idle or absolute lifetime.
 *
 * @example isExpired({ sessionIdleMinutes: 60, sessionAbsoluteHours: 24 }, created, lastSeen, Date.now())
 */
export function isExpired(
  limits: Pick<Limits, 'sessionIdleMinutes' | 'sessionAbsoluteHours'>,
  createdAt: number,
  lastSeenAt: number,
  now: number,
): boolean {
  return (
    now - lastSeenAt >= limits.sessionIdleMinutes * 60_000 ||
    now - createdAt >= limits.sessionAbsoluteHours * 3_600_000
  );
}

/** Ends a session by its id (and forgets it in the session cache); ending an unknown one does nothing. */
export async function endSession(database: Database, id: string): Promise<void> {
  sessionCacheOf(database).forgetSession(id);
  await database.db.deleteFrom(TABLES.sessions).where('id_hash', '=', hashSessionId(id)).execute();
}
