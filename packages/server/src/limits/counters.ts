/**
 * The counter store every limit counts in (decision 0057): the request rate limit, the sign-in
 * limits and identity's. One interface, three places the counts live — this process's memory
 * (`memory-counters.ts`: SQLite and PGlite, one process), a table of the PostgreSQL server every
 * instance shares (`postgres-counters.ts`), or Redis (`redis-counters.ts`, when `REDIS_URL` is
 * set) — chosen per database in one place (`choose.ts`). Each operation is one atomic step in the
 * store, so that instances sharing it never allow more than a limit together.
 *
 * Operations answer at once when they can (`MaybePromise`): the memory store decides in the same
 * tick, which keeps the request limit a synchronous hook on SQLite (decision 0017).
 */

/** A value, or a promise of it when the store is elsewhere. */
export type MaybePromise<T> = T | Promise<T>;

/** A key's count in its current window, and when that window ends (ms since the epoch). */
export interface Window {
  readonly count: number;
  readonly resetAt: number;
}

/** What a `take` did: whether it counted, and the key's window after it. */
export interface Taken {
  readonly counted: boolean;
  readonly window: Window;
}

/**
 * Counts by key. Keys carry their limiter's namespace (`request:`, `login:`, `sign-up:`…); times
 * are the app's clock (ms since the epoch), so a test moves time instead of waiting, and instances
 * sharing a store agree as far as their clocks do.
 */
export interface CounterStore {
  /** Where the counts are, for a start-up line: never a password. */
  readonly description: string;
  /**
   * True when every operation is a round trip to another server (PostgreSQL, Redis): the request
   * limit then claims slices of its windows (`slices.ts`) instead of counting each request there.
   */
  readonly remote: boolean;
  /**
   * Counts `amount` (default 1) for `key` if its open window then holds at most `limit`
   * (`Infinity`: always), opening a window of `windowMs` from `now` when none is open: all of
   * `amount` or nothing. A refusal counts nothing.
   *
   * @example await store.take('request:user:42', 600, 60_000, Date.now()) // { counted: true, window: { count: 1, … } }
   */
  take(key: string, limit: number, windowMs: number, now: number, amount?: number): MaybePromise<Taken>;
  /**
   * Counts one for `key` and moves its window's end to `now + windowMs`: a streak, forgotten
   * `windowMs` after its last count (a sign-in pair's failures).
   *
   * @example await store.extend('login:pair:ann@example.com\n203.0.113.9', 3_600_000, Date.now())
   */
  extend(key: string, windowMs: number, now: number): MaybePromise<Window>;
  /**
   * The open windows of some keys at `now`, in their order (undefined for a key with none).
   *
   * @example const [address, pair] = await store.peek(['login:address:…', 'login:pair:…'], now)
   */
  peek(keys: readonly string[], now: number): MaybePromise<readonly (Window | undefined)[]>;
  /**
   * Takes back one count of a key's open window: a request counted in one window and then refused
   * by another (identity's two counts) is not counted at all.
   *
   * @example await store.giveBack('sign-up:address:203.0.113.9', now)
   */
  giveBack(key: string, now: number): MaybePromise<void>;
  /**
   * Forgets a key (a sign-in pair after the right password).
   *
   * @example await store.forget('login:pair:ann@example.com\n203.0.113.9')
   */
  forget(key: string): MaybePromise<void>;
  /** Lets go of what the store holds open (Redis's connection); the database's pool is not its own. */
  close(): Promise<void>;
}

/**
 * Whole seconds until a window ends, at least 1: for Retry-After.
 *
 * @example secondsLeft({ count: 3, resetAt: now + 45_000 }, now) // 45
 */
export function secondsLeft(window: Window, now: number): number {
  return Math.max(1, Math.ceil((window.resetAt - now) / 1000));
}

/**
 * Calls `then` with a value at once, or when its promise settles (errors go to `onError`): how a
 * caller keeps the memory store's answer synchronous without a second code path.
 *
 * @example whenReady(store.take(key, max, WINDOW_MS, now), answer, done)
 */
export function whenReady<T>(
  value: MaybePromise<T>,
  then: (value: T) => void,
  onError: (error: unknown) => void,
): void {
  if (value instanceof Promise) value.then(then, onError);
  else then(value);
}
