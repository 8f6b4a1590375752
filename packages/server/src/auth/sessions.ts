/**
 * Sessions in the database, so that any instance serves any request. The client holds a 128-bit
 * random id; the table holds only its SHA-256, so a copy of the table opens no session.
 */
import { type UserContext } from '@ninefold/engine';
import { type Limits, type Model, type Value } from '@ninefold/model';
import * as crypto from 'node:crypto';
import { sql } from 'kysely';
import { type Database } from '../db/open.js';
import { type EntityTable, decodeRow, entityTable } from '../resources/records.js';
import { TABLES } from '../schema/names.js';
import {
  type ActiveSession,
  STAMP_COLUMN,
  STAMP_WIDTH,
  SessionCache,
  hasSessionStamp,
} from './session-cache.js';
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

/** What a lookup answers for an id that names no live session. */
const NONE: SessionLookup = { status: 'none' };

/** A record to read with the session, by id (`RecordRead`). */
export interface WithRecord {
  readonly table: EntityTable;
  readonly id: string;
}

/** An id that cannot be ours is not worth a query. */
const SESSION_ID = /^[A-Za-z0-9_-]{22}$/;

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
  withRecord?: WithRecord,
): Promise<SessionLookup> {
  return (
    keptSession(database, model, id, now, withRecord) ?? readSession(database, model, id, now, withRecord)
  );
}

/**
 * The session of an id at once, when it is kept (SQLite: `SessionCache`), nothing was committed
 * since it was read, and it is neither expired nor due to record its use; with `withRecord`, that
 * record, read by the statement that checks the stamp. Undefined otherwise: `readSession` decides.
 *
 * @example const found = keptSession(database, model, cookieValue, new Date()) ?? (await readSession(…));
 */
export function keptSession(
  database: Database,
  model: Model,
  id: string,
  now: Date,
  withRecord?: WithRecord,
): SessionLookup | undefined {
  const queries = sessionQueries(database, model);
  const cache = queries.cache;
  if (cache === null || !cache.has(id)) return undefined;
  const check = queries.check(withRecord?.table ?? null);
  const rows = database.selectValuesNow(check.sql, withRecord === undefined ? [] : [withRecord.id]);
  const row = rows?.[0];
  const kept = row === undefined ? undefined : cache.get(id, row);
  if (kept === undefined) return undefined;
  const time = now.getTime();
  const settled =
    !isExpired(model.limits, kept.createdAt, kept.lastSeenAt, time) &&
    time - kept.lastSeenAt < TOUCH_INTERVAL_MS;
  return settled ? active(kept, withRecord, row!, check.recordAt) : undefined;
}

/**
 * The session of an id, read from the database (see `lookupSession`); on SQLite an active session
 * is then kept between requests while the database is unchanged (`SessionCache`).
 *
 * @example const found = await readSession(database, model, cookieValue, new Date());
 */
export async function readSession(
  database: Database,
  model: Model,
  id: string,
  now: Date,
  withRecord?: WithRecord,
): Promise<SessionLookup> {
  if (!SESSION_ID.test(id)) return NONE;
  const queries = sessionQueries(database, model);
  await queries.ready();
  const idHash = hashSessionId(id);
  const lookup = queries.lookup(withRecord?.table ?? null);
  const parameters = withRecord === undefined ? [idHash] : [withRecord.id, idHash];
  const [row] = await database.selectValues(lookup.sql, parameters);
  if (row === undefined) return NONE;
  const at = lookup.sessionAt;
  const user = toSummary({
    id: row[at + 2],
    email: row[at + 3],
    name: row[at + 4],
    roles: row[at + 5],
    disabled: row[at + 6],
  });
  const cache = queries.cache;
  if (user.disabled) {
    cache?.forget(id);
    await endSession(database, id);
    return NONE;
  }
  const users = queries.users;
  // without a User entity the engine knows a user by their id and roles alone (as userContext says)
  const context =
    users === null
      ? { id: user.id, roles: [...user.roles] }
      : { ...decodeRow(users, row, at + SESSION_COLUMNS), id: user.id, roles: [...user.roles] };
  const session: ActiveSession = {
    user,
    idHash,
    context,
    createdAt: Date.parse(String(row[at])),
    lastSeenAt: Date.parse(String(row[at + 1])),
  };
  const time = now.getTime();
  if (isExpired(model.limits, session.createdAt, session.lastSeenAt, time)) {
    cache?.forget(id);
    await endSession(database, id);
    return { status: 'expired' };
  }
  if (time - session.lastSeenAt >= TOUCH_INTERVAL_MS) {
    // the write changes the stamp: the session is read afresh next time, with its new last use
    cache?.forget(id);
    await database.db
      .updateTable(TABLES.sessions)
      .set({ last_seen_at: now.toISOString() })
      .where('id_hash', '=', idHash)
      .execute();
  } else {
    cache?.keep(id, session, row);
  }
  return active(session, withRecord, row, lookup.recordAt);
}

/** An active session's answer, with the record `row` holds from `recordAt` on (with `withRecord`). */
function active(
  session: ActiveSession,
  withRecord: WithRecord | undefined,
  row: readonly unknown[],
  recordAt: number,
): SessionLookup {
  const { user, idHash, context } = session;
  if (withRecord === undefined) return { status: 'active', user, idHash, context };
  const table = withRecord.table;
  // a LEFT JOIN that found no record: its id, never NULL in a record, is NULL
  const found = row[recordAt] === null ? null : decodeRow(table, row, recordAt);
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
  /** Where the session's columns start in a row (after the stamp, on SQLite). */
  readonly sessionAt: number;
  /** Where the record's columns start in a row (with a table). */
  readonly recordAt: number;
}

/**
 * A lookup's row, by position from `sessionAt`: the session's `created_at` and `last_seen_at`, the
 * user's `id`, `email`, `name`, `roles` and `disabled`, then (with a User entity) every column of
 * their record, then (with a table) every column of the record asked for.
 */
const SESSION_COLUMNS = 7;

/**
 * The statements of who is asking, compiled once per database and model, and (SQLite) the sessions
 * kept between requests.
 */
class SessionQueries {
  /** The User entity's table, whose columns the lookup reads, or null without a User entity. */
  readonly users: EntityTable | null;
  /**
   * Null until `ready` has settled, and for good on PostgreSQL, which has no stamp to tell that
   * nothing changed, or on a SQLite file whose stamp is not in place (not migrated by this version).
   */
  cache: SessionCache | null = null;
  readonly #lookups = new Map<EntityTable | null, SessionQuery>();
  readonly #checks = new Map<EntityTable | null, SessionQuery>();
  #ready: Promise<void> | null = null;

  constructor(
    private readonly database: Database,
    private readonly model: Model,
  ) {
    const entity = model.entities['User'];
    this.users = entity === undefined ? null : entityTable(model, entity);
  }

  /** Decides, once, whether sessions may be kept (the stamp is in place); before any `lookup`. */
  ready(): Promise<void> {
    this.#ready ??= (async () => {
      if (this.database.dialect !== 'sqlite') return;
      if (await hasSessionStamp(this.database.db, usersTable(this.model))) this.cache = new SessionCache();
    })();
    return this.#ready;
  }

  /**
   * The session lookup: the session and every column of its user's record, so that who is asking
   * costs one query (its only parameter is the id's hash); on SQLite, the stamp first. With a
   * table, the same query also reads the row of that table whose id is its first parameter (a LEFT
   * JOIN: the session is found whether the row exists or not). Its row is decoded by position; each
   * column has an alias of its own, as a row object has one key per name.
   */
  lookup(table: EntityTable | null): SessionQuery {
    let query = this.#lookups.get(table);
    if (query === undefined) {
      const stamp = this.cache === null ? [] : [STAMP_COLUMN];
      const columns: string[] = [
        's.created_at',
        's.last_seen_at',
        ...['id', 'email', 'name', 'roles', 'disabled', ...(this.users?.columns ?? [])].map((c) => `u.${c}`),
      ];
      let lookup = this.database.db
        .selectFrom(`${TABLES.sessions} as s`)
        .innerJoin(`${usersTable(this.model)} as u`, 'u.id', 's.user_id');
      if (table !== null) {
        lookup = lookup.leftJoin(`${table.table} as r`, (join) => join.on('r.id', '=', RECORD_ID));
        columns.push(...table.columns.map((c) => `r.${c}`));
      }
      const compiled = lookup
        .select([...stamp.map((s, i) => sql.raw(s).as(`t${i}`)), ...aliased(columns)])
        .where('s.id_hash', '=', ID_HASH)
        .compile();
      inOrder(compiled.parameters, table === null ? [ID_HASH] : [RECORD_ID, ID_HASH]);
      const sessionAt = stamp.length;
      query = {
        sql: compiled.sql,
        sessionAt,
        recordAt: sessionAt + columns.length - (table?.columns.length ?? 0),
      };
      this.#lookups.set(table, query);
    }
    return query;
  }

  /**
   * What a kept session's request reads instead (SQLite): the stamp, and with a table the row of
   * that table whose id is the only parameter (a LEFT JOIN of a one-row table, so the stamp comes
   * back whether the row exists or not).
   */
  check(table: EntityTable | null): SessionQuery {
    let query = this.#checks.get(table);
    if (query === undefined) {
      const stamp = [sql.raw(STAMP_COLUMN).as('t0')];
      const one = this.database.db.selectFrom(sql<{ one: number }>`(select 1)`.as('o'));
      const compiled =
        table === null
          ? one.select(stamp).compile()
          : one
              .leftJoin(`${table.table} as r`, (join) => join.on('r.id', '=', RECORD_ID))
              .select([...stamp, ...aliased(table.columns.map((c) => `r.${c}`))])
              .compile();
      inOrder(compiled.parameters, table === null ? [] : [RECORD_ID]);
      query = { sql: compiled.sql, sessionAt: STAMP_WIDTH, recordAt: STAMP_WIDTH };
      this.#checks.set(table, query);
    }
    return query;
  }
}

/** Each column with an alias of its own (`c0`, `c1`, …): a row object keeps them apart and in order. */
function aliased(columns: readonly string[]): string[] {
  return columns.map((column, i) => `${column} as c${i}`);
}

/** The callers bind their values in this order. */
function inOrder(parameters: readonly unknown[], expected: readonly string[]): void {
  if (parameters.join('\u0000') !== expected.join('\u0000')) {
    throw new Error('A session statement does not take its parameters in the expected order.');
  }
}

/** Per database and model. */
const queriesOf = new WeakMap<Database, WeakMap<Model, SessionQueries>>();

function sessionQueries(database: Database, model: Model): SessionQueries {
  let byModel = queriesOf.get(database);
  if (byModel === undefined) {
    byModel = new WeakMap();
    queriesOf.set(database, byModel);
  }
  let queries = byModel.get(model);
  if (queries === undefined) {
    queries = new SessionQueries(database, model);
    byModel.set(model, queries);
  }
  return queries;
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
