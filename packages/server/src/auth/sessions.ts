/**
 * Sessions in the database, so that any instance serves any request. The client holds a 128-bit
 * random id; the table holds only its SHA-256, so a copy of the table opens no session.
 */
import { type UserContext } from '@ninefold/engine';
import { type Limits, type Model } from '@ninefold/spec/model';
import * as crypto from 'node:crypto';
import { type Database } from '../db/open.js';
import { decodeRow, entityTable } from '../resources/records.js';
import { TABLES } from '../schema/names.js';
import { type UserSummary, toSummary, usersTable } from './users.js';

/** How often a session's last use is written: reads stay reads most of the time. */
const TOUCH_INTERVAL_MS = 60_000;

export type SessionLookup =
  | {
      readonly status: 'active';
      readonly user: UserSummary;
      readonly idHash: string;
      /** The user as the engine sees them (every field of their User record), when the model has one. */
      readonly context: UserContext | null;
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
 * @example const id = await createSession(database, userId, new Date()); // 'q3V…' (22 characters)
 */
export async function createSession(database: Database, userId: string, now: Date): Promise<string> {
  const id = crypto.randomBytes(16).toString('base64url');
  await database.db
    .insertInto(TABLES.sessions)
    .values({
      id_hash: hashSessionId(id),
      user_id: userId,
      created_at: now.toISOString(),
      last_seen_at: now.toISOString(),
    })
    .execute();
  return id;
}

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
  // an id that cannot be ours is not worth a query
  if (!/^[A-Za-z0-9_-]{22}$/.test(id)) return { status: 'none' };
  const idHash = hashSessionId(id);
  const lookup = sessionQuery(database, model);
  const [row] = await database.select(lookup.sql, [idHash]);
  if (row === undefined) return { status: 'none' };
  const user = toSummary(row);
  if (user.disabled) {
    await endSession(database, id);
    return { status: 'none' };
  }
  const lastSeen = Date.parse(String(row.last_seen_at));
  if (isExpired(model.limits, Date.parse(String(row.created_at)), lastSeen, now.getTime())) {
    await endSession(database, id);
    return { status: 'expired' };
  }
  if (now.getTime() - lastSeen >= TOUCH_INTERVAL_MS) {
    await database.db
      .updateTable(TABLES.sessions)
      .set({ last_seen_at: now.toISOString() })
      .where('id_hash', '=', idHash)
      .execute();
  }
  const users = lookup.users;
  const context =
    users === null
      ? null
      : { ...decodeRow(users, row, database.dialect), id: user.id, roles: [...user.roles] };
  return { status: 'active', user, idHash, context };
}

interface SessionQuery {
  readonly sql: string;
  readonly users: ReturnType<typeof entityTable> | null;
}

const sessionQueries = new WeakMap<Database, WeakMap<Model, SessionQuery>>();

/**
 * The session lookup's SQL, compiled once per database and model: the session and every column of
 * its user's record, so that who is asking costs one query (its only parameter is the id's hash).
 */
function sessionQuery(database: Database, model: Model): SessionQuery {
  let byModel = sessionQueries.get(database);
  if (byModel === undefined) {
    byModel = new WeakMap();
    sessionQueries.set(database, byModel);
  }
  let query = byModel.get(model);
  if (query === undefined) {
    const entity = model.entities['User'];
    const users = entity === undefined ? null : entityTable(model, entity);
    const columns = new Set(['id', 'email', 'name', 'roles', 'disabled', ...(users?.columns ?? [])]);
    const compiled = database.db
      .selectFrom(`${TABLES.sessions} as s`)
      .innerJoin(`${usersTable(model)} as u`, 'u.id', 's.user_id')
      .select(['s.created_at', 's.last_seen_at', ...[...columns].map((c) => `u.${c}`)])
      .where('s.id_hash', '=', '')
      .compile();
    query = { sql: compiled.sql, users };
    byModel.set(model, query);
  }
  return query;
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

/** Ends a session by its id; ending an unknown one does nothing. */
export async function endSession(database: Database, id: string): Promise<void> {
  await database.db.deleteFrom(TABLES.sessions).where('id_hash', '=', hashSessionId(id)).execute();
}
