/**
 * Counts in Redis (`REDIS_URL`, decision 0057), through ioredis: each operation one Lua script
 * (`redis-scripts.ts`), atomic in Redis, so n instances together never allow more than a limit.
 *
 * Redis going away must neither crash the process, hang a request nor lock everyone out: commands
 * are never queued while the connection is down and time out after a second, and every limit then
 * counts in this process's memory (`memory-counters.ts`) — per instance, as before this store
 * existed — until Redis answers again, said once each way through `warn`. A `REDIS_URL` that
 * cannot be used at start is a {@link RedisUrlError} naming the problem without the password.
 */
import { Redis } from 'ioredis';
import { type CounterStore, type Taken, type Window } from './counters.js';
import { memoryCounters } from './memory-counters.js';
import { EXTEND, GIVE_BACK, PEEK, TAKE } from './redis-scripts.js';

/** How long a command may take before its limit is counted in memory instead. */
const COMMAND_TIMEOUT_MS = 1000;
/** After a failure, memory answers for this long before Redis is asked again. */
const BACK_OFF_MS = 1000;
/** `Infinity` as a bound a Lua number reads. */
const NO_LIMIT = Number.MAX_SAFE_INTEGER;

/** A `REDIS_URL` that cannot be used: the server does not start. */
export class RedisUrlError extends Error {
  constructor(problem: string) {
    super(`REDIS_URL ${problem}`);
    this.name = 'RedisUrlError';
  }
}

export interface RedisCounterOptions {
  /** Put before every key: two products sharing one Redis database need two (default `ninefold:limit:`). */
  readonly prefix?: string;
  /** Where the store says that Redis went away, and that it came back. */
  readonly warn?: (line: string) => void;
}

interface Scripted {
  nfTake(
    key: string,
    limit: number,
    windowMs: number,
    now: number,
    amount: number,
  ): Promise<[number, string, number]>;
  nfExtend(key: string, windowMs: number, now: number): Promise<[number, string]>;
  nfPeek(...args: (string | number)[]): Promise<[string, string][]>;
  nfGiveBack(key: string, now: number): Promise<number>;
}

/**
 * Connects to the Redis of a `redis://` or `rediss://` URL and answers a store counting there;
 * throws a {@link RedisUrlError} when the URL is malformed or Redis cannot be reached or signed in to.
 *
 * @example const counters = await openRedisCounters(process.env.REDIS_URL!, { warn: console.warn });
 */
export async function openRedisCounters(
  url: string,
  options: RedisCounterOptions = {},
): Promise<CounterStore> {
  const where = describeRedisUrl(url);
  const redis = new Redis(url, {
    lazyConnect: true,
    // a command while the connection is down fails at once instead of waiting in a queue
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: COMMAND_TIMEOUT_MS,
    connectTimeout: 3000,
    retryStrategy: (times) => Math.min(times * 200, 2000),
  });
  // the store's operations report failures themselves; an unheard 'error' event would only print
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    await redis.ping();
  } catch (error) {
    redis.disconnect();
    throw new RedisUrlError(`names ${where}, which cannot be used: ${messageOf(error)}.`);
  }
  redis.defineCommand('nfTake', { numberOfKeys: 1, lua: TAKE });
  redis.defineCommand('nfExtend', { numberOfKeys: 1, lua: EXTEND });
  redis.defineCommand('nfPeek', { lua: PEEK });
  redis.defineCommand('nfGiveBack', { numberOfKeys: 1, lua: GIVE_BACK });
  return redisCounters(redis, where, options);
}

function redisCounters(redis: Redis, where: string, options: RedisCounterOptions): CounterStore {
  const scripted = redis as unknown as Scripted;
  const prefix = options.prefix ?? 'ninefold:limit:';
  const warn = options.warn ?? (() => undefined);
  const local = memoryCounters();
  let down = false;
  let retryAt = 0;

  /** Redis's answer, or memory's while Redis cannot give one. */
  const guarded = async <T>(remote: () => Promise<T>, fallback: () => T): Promise<T> => {
    if (redis.status !== 'ready' || Date.now() < retryAt) {
      noteDown(`its connection is ${redis.status}`);
      return fallback();
    }
    try {
      const value = await remote();
      if (down) {
        down = false;
        warn(`Redis at ${where} answers again: the limits count there again.`);
      }
      return value;
    } catch (error) {
      retryAt = Date.now() + BACK_OFF_MS;
      noteDown(messageOf(error));
      return fallback();
    }
  };
  const noteDown = (why: string) => {
    if (down) return;
    down = true;
    warn(
      `Redis at ${where} cannot be used (${why}): until it answers, each instance counts the limits in its own memory.`,
    );
  };

  return {
    description: `Redis at ${where}`,
    remote: true,
    take: (key, limit, windowMs, now, amount = 1) =>
      guarded(
        async (): Promise<Taken> => {
          const bound = Number.isFinite(limit) ? limit : NO_LIMIT;
          const [count, reset, counted] = await scripted.nfTake(prefix + key, bound, windowMs, now, amount);
          return { counted: counted === 1, window: { count, resetAt: Number(reset) } };
        },
        () => local.take(key, limit, windowMs, now, amount) as Taken,
      ),
    extend: (key, windowMs, now) =>
      guarded(
        async (): Promise<Window> => {
          const [count, reset] = await scripted.nfExtend(prefix + key, windowMs, now);
          return { count, resetAt: Number(reset) };
        },
        () => local.extend(key, windowMs, now) as Window,
      ),
    peek: (keys, now) =>
      guarded(
        async () => {
          const rows = await scripted.nfPeek(keys.length, ...keys.map((key) => prefix + key));
          return rows.map(([count, reset]): Window | undefined =>
            count === '' || Number(reset) <= now
              ? undefined
              : { count: Number(count), resetAt: Number(reset) },
          );
        },
        () => local.peek(keys, now) as readonly (Window | undefined)[],
      ),
    giveBack: (key, now) =>
      guarded(
        async () => {
          await scripted.nfGiveBack(prefix + key, now);
        },
        () => local.giveBack(key, now) as void,
      ),
    forget: (key) =>
      guarded(
        async () => {
          await redis.del(prefix + key);
        },
        () => local.forget(key) as void,
      ),
    close: async () => {
      redis.disconnect();
    },
  };
}

/**
 * A Redis URL for messages: its scheme, host, port and database, never its user or password.
 * Throws a {@link RedisUrlError} for what is not a `redis://` or `rediss://` URL.
 *
 * @example describeRedisUrl('redis://:secret@cache:6379/2') // 'redis://cache:6379/2'
 */
export function describeRedisUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new RedisUrlError(
      'is not a URL: expected redis://[user:password@]host[:port][/database] or rediss://… for TLS.',
    );
  }
  if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:')
    throw new RedisUrlError(
      `has the scheme "${parsed.protocol.slice(0, -1)}": expected redis://[user:password@]host[:port][/database] or rediss://… for TLS.`,
    );
  const database = parsed.pathname.replace(/^\//, '');
  if (database !== '' && !/^\d+$/.test(database))
    throw new RedisUrlError(`names the database "${database}": expected a number (redis://host:6379/0).`);
  return `${parsed.protocol}//${parsed.host}${database === '' ? '' : `/${database}`}`;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
