/**
 * Counts in a table of the PostgreSQL server every instance shares (`ninefold_limits`, decision
 * 0057): one row per key with its count and its window's end. Each operation is one statement, so
 * the database's row lock makes it atomic across instances: a `take` is an upsert that counts only
 * while the window holds fewer than the limit (and opens a new window over an ended one), so n
 * instances together never allow more than the limit. Rows whose window has ended are deleted in
 * batches, at most once a minute per instance, beside the counting.
 */
import { CompiledQuery } from 'kysely';
import { isConnectionFailure } from '../db/connection-failure.js';
import { decodeInteger } from '../db/dialect.js';
import { type Database } from '../db/open.js';
import { TABLES } from '../schema/names.js';
import { type CounterStore, type Taken, type Window } from './counters.js';

const T = TABLES.limits;
const PRUNE_EVERY_MS = 60_000;
const PRUNE_BATCH = 1000;
/** `Infinity` as a bound the `bigint` column compares with. */
const NO_LIMIT = Number.MAX_SAFE_INTEGER;

// counts $5 (one, or a slice) unless the open window has no room for all of it; an ended window is
// replaced by a new one (the caller never asks for more than the limit)
const TAKE = `insert into ${T} as l (key, count, reset_at) values ($1, $5::bigint, $3::bigint + $4::bigint)
on conflict (key) do update set
  count = case when l.reset_at <= $3::bigint then excluded.count else l.count + excluded.count end,
  reset_at = case when l.reset_at <= $3::bigint then excluded.reset_at else l.reset_at end
where l.reset_at <= $3::bigint or l.count + excluded.count <= $2::bigint
returning count, reset_at`;
const EXTEND = `insert into ${T} as l (key, count, reset_at) values ($1, 1, $2::bigint + $3::bigint)
on conflict (key) do update set
  count = case when l.reset_at <= $2::bigint then 1 else l.count + 1 end,
  reset_at = excluded.reset_at
returning count, reset_at`;
const PEEK = `select key, count, reset_at from ${T} where key = any($1::text[]) and reset_at > $2::bigint`;
const GIVE_BACK = `update ${T} set count = count - 1 where key = $1 and count > 0 and reset_at > $2::bigint`;
const FORGET = `delete from ${T} where key = $1`;
// the row's own window is checked again as it is deleted: a take that opened a new window on an
// ended row after the batch was chosen must not lose its count (PostgreSQL re-evaluates the
// condition on the row's latest version; `key in (…)` alone would delete the new window too, and
// let a window allow more than its limit)
const PRUNE = `delete from ${T} where key in (select key from ${T} where reset_at <= $1::bigint limit ${PRUNE_BATCH}) and reset_at <= $1::bigint`;

interface Row {
  readonly key?: string;
  readonly count: unknown;
  readonly reset_at: unknown;
}

/**
 * A store in the database's `ninefold_limits` table (made by `migrate`, on every dialect; counted
 * in only on a PostgreSQL server).
 *
 * @example const counters = postgresCounters(database); await counters.take('request:user:42', 600, 60_000, Date.now())
 */
export function postgresCounters(database: Database): CounterStore {
  const once = async (text: string, parameters: readonly unknown[]): Promise<readonly Row[]> =>
    (await database.db.executeQuery<Row>(CompiledQuery.raw(text, [...parameters]))).rows;
  // a connection the database ended a moment before is tried once more on a fresh one, as reads
  // are (decision 0023): a count that did reach the table is then counted twice, never lost
  const run = async (text: string, parameters: readonly unknown[]): Promise<readonly Row[]> => {
    try {
      return await once(text, parameters);
    } catch (error) {
      if (!isConnectionFailure(error)) throw error;
      return once(text, parameters);
    }
  };
  let lastPrune = 0;
  const prune = (now: number) => {
    if (now - lastPrune < PRUNE_EVERY_MS) return;
    lastPrune = now;
    // housekeeping beside the counting: a failure is tried again a minute later
    run(PRUNE, [now]).catch(() => undefined);
  };

  const take = async (
    key: string,
    limit: number,
    windowMs: number,
    now: number,
    amount = 1,
  ): Promise<Taken> => {
    prune(now);
    const bound = Number.isFinite(limit) ? limit : NO_LIMIT;
    if (amount > bound) return { counted: false, window: { count: 0, resetAt: now + windowMs } };
    // a refusal returns no row: the window that refused is read after it (a second try covers a
    // window that ended, or was pruned, in between)
    for (let attempt = 0; ; attempt += 1) {
      const [counted] = await run(TAKE, [key, bound, now, windowMs, amount]);
      if (counted !== undefined) return { counted: true, window: windowOf(counted) };
      const [full] = await run(PEEK, [[key], now]);
      if (full !== undefined || attempt >= 2)
        return {
          counted: false,
          window: full === undefined ? { count: bound, resetAt: now + windowMs } : windowOf(full),
        };
    }
  };

  return {
    description: `the PostgreSQL table ${T}`,
    remote: true,
    take,
    async extend(key, windowMs, now) {
      prune(now);
      const [row] = await run(EXTEND, [key, now, windowMs]);
      return windowOf(row!);
    },
    async peek(keys, now) {
      const rows = await run(PEEK, [keys, now]);
      const byKey = new Map(rows.map((row) => [row.key, windowOf(row)]));
      return keys.map((key) => byKey.get(key));
    },
    async giveBack(key, now) {
      await run(GIVE_BACK, [key, now]);
    },
    async forget(key) {
      await run(FORGET, [key]);
    },
    close: async () => undefined,
  };
}

function windowOf(row: Row): Window {
  return { count: decodeInteger(row.count), resetAt: decodeInteger(row.reset_at) };
}
