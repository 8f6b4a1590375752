/**
 * Sessions in the database, so that any instance serves any request. The client holds a 128-bit
 * random id; the table holds only its SHA-256, so a copy of the table opens no session.
 */
import { type UserContext } from '@ninefold/engine';
import { type Limits, type Model, type Value } from '@ninefold/spec/model';
import * as crypto from 'node:crypto';
import { type Database } from '../db/open.js';
import { type EntityTable, decodeRow, entityTable } from '../resources/records.js';
import { TABLES } from '../schema/names.js';
import { type UserSummary, toSummary, usersTable } from './users.js';

/** How often a session's last use is written: reads stay reads most of the time. */
const TOUCH_INTERVAL_MS = 60_000;

export type SessionLookup =
  | {
      readonly status: 'active';
      readonly user: UserSummary;
      readonly idHash: string;
      /** The user as the engine sees them: their id, roles and every field of their User record, if any. */
      readonly context: UserContext;
      /** The record asked for with the session (`withRecord`), read by the same statement. */
      readonly record?: RecordRead;
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
 * A record read by id together with the session, by the same statement: the request's first read
 * (a GET of one record) then costs no statement of its own. Only the request that asked gets it;
 * nothing is kept between requests.
 */
export interface RecordRead {
  /** The table the record was read from. */
  readonly table: EntityTable;
  /** The id asked for. */
  readonly id: string;
  /** The record, decoded; null when no row has that id (whether the user may read it is not decided). */
  readonly record: Record<string, Value> | null;
}

/**
 * The session of an id: active (with its user, roles as they are now), expired (idle or past its
 * absolute lifetime; deleted on the way), or none (unknown, ended, or its user disabled). With
 * `withRecord`, the active session comes with that record (`RecordRead`), read by the same query.
 *
 * @example const found = await lookupSession(database, model, cookieValue, new Date());
 */
export async function lookupSession(
  database: Database,
  model: Model,
  id: string,
  now: Date,
  withRecord?: { readonly table: EntityTable; readonly id: string },
): Promise<SessionLookup> {
  // an id that cannot be ours is not worth a query
  if (!/^[A-Za-z0-9_-]{22}$/.test(id)) return { status: 'none' };
  const idHash = hashSessionId(id);
  const lookup = sessionQuery(database, model, withRecord?.table ?? null);
  const parameters = withRecord === undefined ? [idHash] : [withRecord.id, idHash];
  const [row] = await database.selectValues(lookup.sql, parameters);
  if (row === undefined) return { status: 'none' };
  const [createdAt, lastSeenAt, userId, email, name, roles, disabled] = row;
  const user = toSummary({ id: userId, email, name, roles, disabled });
  if (user.disabled) {
    await endSession(database, id);
    return { status: 'none' };
  }
  const lastSeen = Date.parse(String(lastSeenAt));
  if (isExpired(model.limits, Date.parse(String(createdAt)), lastSeen, now.getTime())) {
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
  // without a User entity the engine knows a user by their id and roles alone (as userContext says)
  const context =
    users === null
      ? { id: user.id, roles: [...user.roles] }
      : { ...decodeRow(users, row, SESSION_COLUMNS), id: user.id, roles: [...user.roles] };
  if (withRecord === undefined) return { status: 'active', user, idHash, context };
  const table = withRecord.table;
  // a LEFT JOIN that found no record: its id, never NULL in a record, is NULL
  const found = row[lookup.recordAt] === null ? null : decodeRow(table, row, lookup.recordAt);
  return {
    status: 'active',
    user,
    idHash,
    context,
    record: { table, id: withRecord.id, record: found },
  };
}

interface SessionQuery {
  readonly sql: string;
  readonly users: ReturnType<typeof entityTable> | null;
  /** Where the record's columns start in a row (with a table). */
  readonly recordAt: number;
}

/**
 * A lookup's row, by position: the session's `created_at` and `last_seen_at`, the user's `id`,
 * `email`, `name`, `roles` and `disabled`, then (with a User entity) every column of their record,
 * then (with a table) every column of the record asked for.
 */
const SESSION_COLUMNS = 7;

/** Per database and model: the lookup alone (key null), and with each table's record by id. */
const sessionQueries = new WeakMap<Database, WeakMap<Model, Map<EntityTable | null, SessionQuery>>>();

/**
 * The session lookup's SQL, compiled once per database and model: the session and every column of
 * its user's record, so that who is asking costs one query (its only parameter is the id's hash).
 * With a table, the same query also reads the row of that table whose id is its first parameter
 * (a LEFT JOIN: the session is found whether the row exists or not). Its row is decoded by position
 * (`SESSION_COLUMNS`); each column has an alias of its own, as a row object has one key per name.
 */
function sessionQuery(database: Database, model: Model, table: EntityTable | null): SessionQuery {
  let byModel = sessionQueries.get(database);
  if (byModel === undefined) {
    byModel = new WeakMap();
    sessionQueries.set(database, byModel);
  }
  let byTable = byModel.get(model);
  if (byTable === undefined) {
    byTable = new Map();
    byModel.set(model, byTable);
  }
  let query = byTable.get(table);
  if (query === undefined) {
    const entity = model.entities['User'];
    const users = entity === undefined ? null : entityTable(model, entity);
    const columns = [
      's.created_at',
      's.last_seen_at',
      ...['id', 'email', 'name', 'roles', 'disabled', ...(users?.columns ?? [])].map((c) => `u.${c}`),
    ];
    const recordAt = columns.length;
    let lookup = database.db
      .selectFrom(`${TABLES.sessions} as s`)
      .innerJoin(`${usersTable(model)} as u`, 'u.id', 's.user_id');
    if (table !== null) {
      lookup = lookup.leftJoin(`${table.table} as r`, (join) => join.on('r.id', '=', RECORD_ID));
      columns.push(...table.columns.map((c) => `r.${c}`));
    }
    const selected = columns.map((column, i) => `${column} as c${i}`);
    const compiled = lookup.select(selected).where('s.id_hash', '=', ID_HASH).compile();
    const expected = table === null ? [ID_HASH] : [RECORD_ID, ID_HASH];
    // lookupSession binds its values in this order
    if (compiled.parameters.join('\u0000') !== expected.join('\u0000')) {
      throw new Error('The session lookup does not take its parameters in the expected order.');
    }
    query = { sql: compiled.sql, users, recordAt };
    byTable.set(table, query);
  }
  return query;
}

/** Placeholder values, to check the order of the compiled lookup's parameters. */
const RECORD_ID = '\u0000record id';
const ID_HASH = '\u0000id hash';

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
