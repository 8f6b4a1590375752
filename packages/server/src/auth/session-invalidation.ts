/**
 * Hearing other instances' session changes (decision 0058): on a PostgreSQL server, every app
 * listens to `ninefold_sessions` on its database's LISTEN connection (`db/postgres-listen.ts`) and
 * forgets, in its session cache, what each notification names (the triggers of
 * `schema/session-triggers.ts` send them at the commit of every change, whoever made it).
 *
 * The cache counts on it only while it holds: from the moment the connection listens and the
 * triggers are found, until the connection drops (its error) or falls silent (no notification, not
 * even the instances' heartbeat, for `SILENCE_MS`). Meanwhile the cache trusts an entry for at most
 * a second (`UNHEARD_TTL_MS`); on hearing again, it forgets everything, since what was told while it
 * was away is lost. Where no other process can tell (SQLite, PGlite) nothing listens: this
 * process's own invalidation is enough.
 */
import { type Model } from '@ninefold/model';
import { sql } from 'kysely';
import { type Database } from '../db/open.js';
import { SESSIONS_CHANNEL, hasSessionTriggers } from '../schema/session-triggers.js';
import { type SessionCache, sessionCacheOf } from './session-cache.js';
import { usersTable } from './users.js';

/**
 * Forgets what one notification's payload names: `s:<id hash>`, `u:<user id>` or `*`, separated by
 * spaces. A token it does not know is read as `*`: forgetting too much only costs lookups.
 *
 * @example forgetNotified(cache, 's:9f86d0… u:42') // that session and every session of user 42
 */
export function forgetNotified(cache: SessionCache, payload: string): void {
  const hashes = new Set<string>();
  const users = new Set<string>();
  for (const token of payload.split(' ')) {
    if (token === '') continue;
    const kind = token.slice(0, 2);
    if (kind === 's:') hashes.add(token.slice(2));
    else if (kind === 'u:') users.add(token.slice(2));
    else return cache.forgetAll();
  }
  if (hashes.size > 0) cache.forgetHashes(hashes);
  if (users.size > 0) cache.forgetUsers(users);
}

/**
 * How often an instance checks that it still hears, and notifies the channel itself when it has
 * heard nothing for as long: a LISTEN connection can die without a word (a NAT that drops an idle
 * flow, a partition), and then only its silence tells. Any instance's beat proves every listener's
 * connection, so with several instances about one beat goes per period in all.
 */
const BEAT_MS = 200;

/**
 * Silence longer than this, and the connection is not counted on: noticed within `SILENCE_MS +
 * BEAT_MS` of the last thing heard, inside the second.
 */
const SILENCE_MS = 700;

interface Hearer {
  /** The apps that asked: the connection closes with the last one. */
  holders: number;
  close(): Promise<void>;
}

const hearers = new WeakMap<Database, Hearer>();

/**
 * Starts hearing other instances' session changes for `database`'s session cache, if it can be told
 * any (a PostgreSQL server); returns how to stop. One LISTEN connection per database, however many
 * apps share it.
 *
 * @example const stop = hearSessionChanges(database, model, (error) => app.log.warn({ err: error }));
 * app.addHook('onClose', stop);
 */
export function hearSessionChanges(
  database: Database,
  model: Model,
  onError: (error: unknown) => void,
): () => Promise<void> {
  if (database.listen === undefined) return async () => undefined;
  let hearer = hearers.get(database);
  if (hearer === undefined) {
    hearer = startHearing(database, database.listen, usersTable(model), onError);
    hearers.set(database, hearer);
  }
  hearer.holders++;
  const held = hearer;
  let stopped = false;
  return async () => {
    if (stopped) return;
    stopped = true;
    held.holders--;
    if (held.holders > 0) return;
    hearers.delete(database);
    await held.close();
  };
}

function startHearing(
  database: Database,
  listen: NonNullable<Database['listen']>,
  users: string,
  onError: (error: unknown) => void,
): Hearer {
  const cache = sessionCacheOf(database);
  /** Counts connections: a check of the triggers answered after a newer (re)connection is stale. */
  let connection = 0;
  /** Whether the current connection listens and the triggers are there to tell. */
  let told = false;
  let heardAt = performance.now();
  let beating = false;
  const listening = listen(
    SESSIONS_CHANNEL,
    (payload) => {
      heardAt = performance.now();
      if (payload === null) {
        told = false;
        const made = ++connection;
        hasSessionTriggers(database.db, users).then(
          (found) => {
            if (made !== connection) return;
            if (!found) onError(new Error(MISSING_TRIGGERS));
            told = found;
            heardAt = performance.now();
            cache.hearing(found);
          },
          (error: unknown) => onError(error),
        );
        return;
      }
      // heard again after a silence: `hearing` forgets everything, as after a reconnection
      if (told) cache.hearing(true);
      forgetNotified(cache, payload);
    },
    (error) => {
      connection++;
      told = false;
      cache.hearing(false);
      onError(error);
    },
  );
  const beat = setInterval(() => {
    const silence = performance.now() - heardAt;
    if (silence > SILENCE_MS) cache.hearing(false);
    if (silence < BEAT_MS || beating) return;
    beating = true;
    sql`select pg_notify(${SESSIONS_CHANNEL}, '')`
      .execute(database.db)
      // a pool that cannot reach the server beats no more: the silence says so
      .catch(() => undefined)
      .finally(() => (beating = false));
  }, BEAT_MS);
  beat.unref();
  return {
    holders: 0,
    async close() {
      clearInterval(beat);
      cache.hearing(false);
      await listening.close();
    },
  };
}

const MISSING_TRIGGERS =
  'The sessions and users tables have no triggers to tell other instances of session changes: ' +
  'sessions are cached for at most a second. Run `ninefold migrate --apply` with this version to add them.';
