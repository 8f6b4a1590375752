/**
 * Where an app counts its limits when it is not told (decision 0057), decided here and nowhere
 * else: in the PostgreSQL server's table when other processes can share the database (a server:
 * `Database.listen` exists exactly there), else in this process's memory (a SQLite file, PGlite),
 * which is as shared as the database is and costs no statement. Redis is chosen by whoever
 * starts the server (`REDIS_URL`, `openCounterStore`), and given to `buildApp` as `counters`.
 */
import { type Database } from '../db/open.js';
import { type Env } from '../webhooks/resolve.js';
import { type CounterStore } from './counters.js';
import { memoryCounters } from './memory-counters.js';
import { postgresCounters } from './postgres-counters.js';
import { type RedisCounterOptions, openRedisCounters } from './redis-counters.js';

/**
 * The default store of a database.
 *
 * @example const counters = countersFor(database); // memory on SQLite, the ninefold_limits table on PostgreSQL
 */
export function countersFor(database: Database): CounterStore {
  return database.listen !== undefined ? postgresCounters(database) : memoryCounters();
}

/**
 * The store `env` asks for: Redis when `REDIS_URL` is set (a `RedisUrlError` when it cannot be
 * used), else the database's default.
 *
 * @example const counters = await openCounterStore(process.env, database, { warn: console.warn });
 */
export async function openCounterStore(
  env: Env,
  database: Database,
  options: RedisCounterOptions = {},
): Promise<CounterStore> {
  const url = env['REDIS_URL'];
  return url === undefined || url === '' ? countersFor(database) : openRedisCounters(url, options);
}
