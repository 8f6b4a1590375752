/**
 * Who may try a password now (decision 0027). Three counts, none of which lets one client lock out
 * another that has not failed:
 *
 * - **per address**: `limits.loginAttemptsPerMinute` attempts a minute from one address, whatever
 *   the account, counted before the password is checked (a fixed window);
 * - **per account and address**: a pair's first {@link FREE_FAILURES} failures are free (typos); after
 *   each further one the pair waits, 1 s, 2 s, 4 s… up to {@link MAX_DELAY_SECONDS}; a success ends
 *   its count;
 * - **per account**: past {@link ACCOUNT_CEILING_FACTOR} × the per-address limit of failures in a
 *   minute, from all addresses together, every address that has failed for the account waits for
 *   the minute's end. An address that has not failed for it (the owner's, usually) is never refused
 *   for other addresses' failures.
 *
 * Counted in the app's counter store (decision 0057): in memory on SQLite, shared by the instances
 * on a PostgreSQL server or in Redis. A pair's delay is worked out from its failures and the time of
 * the last, which the store keeps as a streak forgotten an hour after its last failure.
 */
import { type CounterStore, type Window, secondsLeft } from '../limits/counters.js';
import { WINDOW_MS } from '../http/windows.js';
import { weakMemo } from '../memo.js';

export type LimitDecision =
  { readonly allowed: true } | { readonly allowed: false; readonly retryAfterSeconds: number };

/** Failures of one account from one address before its attempts are delayed. */
export const FREE_FAILURES = 3;
/** The longest delay between two attempts of one account from one address. */
export const MAX_DELAY_SECONDS = 300;
/** An account's failures a minute from all addresses, as a multiple of the per-address limit. */
export const ACCOUNT_CEILING_FACTOR = 10;
/** How long a pair's failures are remembered after its last one. */
const PAIR_MEMORY_MS = 60 * WINDOW_MS;

/** Who is trying: the account (its normalised email) and the client's address. */
export interface LoginClient {
  readonly account: string;
  readonly address: string;
}

export class LoginLimiter {
  readonly #accountCeiling: number;

  constructor(
    private readonly perMinute: number,
    private readonly now: () => Date,
    private readonly counters: CounterStore,
  ) {
    this.#accountCeiling = perMinute * ACCOUNT_CEILING_FACTOR;
  }

  /**
   * Counts one attempt of a client, or refuses it (uncounted) with the seconds to wait.
   *
   * @example await limiter.attempt({ account: 'ann@example.com', address: '203.0.113.9' })
   */
  async attempt(client: LoginClient): Promise<LimitDecision> {
    const now = this.now().getTime();
    const keys = keysOf(client);
    const [address, pair, account] = await this.counters.peek([keys.address, keys.pair, keys.account], now);
    if (address !== undefined && address.count >= this.perMinute) return refused(secondsLeft(address, now));
    if (pair !== undefined) {
      const waitUntil = pairWaitUntil(pair);
      if (waitUntil > now) return refused(Math.ceil((waitUntil - now) / 1000));
      // the account is under attack from many addresses: those that have failed for it wait
      if (account !== undefined && account.count >= this.#accountCeiling)
        return refused(secondsLeft(account, now));
    }
    // counted only while the address's window has room: instances that share the store, all at once, never let more through
    const taken = await this.counters.take(keys.address, this.perMinute, WINDOW_MS, now);
    return taken.counted ? { allowed: true } : refused(secondsLeft(taken.window, now));
  }

  /** Records a wrong password (or an unknown account) for a client that was allowed to try. */
  async failed(client: LoginClient): Promise<void> {
    const now = this.now().getTime();
    const keys = keysOf(client);
    await this.counters.take(keys.account, Infinity, WINDOW_MS, now);
    await this.counters.extend(keys.pair, PAIR_MEMORY_MS, now);
  }

  /** A correct password: the pair's failures are forgiven. */
  async succeeded(client: LoginClient): Promise<void> {
    await this.counters.forget(keysOf(client).pair);
  }
}

/**
 * When a pair may try again (ms since the epoch), from its streak of failures: its count, and its
 * last failure an hour before the streak ends. 0 while its failures are free.
 */
function pairWaitUntil(pair: Window): number {
  const over = pair.count - FREE_FAILURES;
  return over > 0 ? pair.resetAt - PAIR_MEMORY_MS + delaySeconds(over) * 1000 : 0;
}

/**
 * The wait after a pair's `over`-th failure past the free ones: 1 s, 2 s, 4 s… capped.
 *
 * @example delaySeconds(3) // 4
 */
export function delaySeconds(over: number): number {
  return Math.min(MAX_DELAY_SECONDS, 2 ** Math.min(over - 1, 30));
}

/**
 * The login limiter of an app: one per context `buildApp` hands its route registrars, shared by every
 * route that checks a password or a second factor (signing in, its second step — decision 0041 —
 * changing one's password), so that guesses through one count against the others.
 *
 * @example const limiter = loginLimiterOf(context); limiter.attempt({ account, address })
 */
export const loginLimiterOf: (context: LimitContext) => LoginLimiter = weakMemo(
  (context) => new LoginLimiter(context.model.limits.loginAttemptsPerMinute, context.now, context.counters),
);

/** What a limiter needs of the context `buildApp` hands its route registrars. */
export interface LimitContext {
  readonly model: { readonly limits: { readonly loginAttemptsPerMinute: number } };
  readonly now: () => Date;
  /** Where the limits count (decision 0057). */
  readonly counters: CounterStore;
}

function refused(retryAfterSeconds: number): LimitDecision {
  return { allowed: false, retryAfterSeconds: Math.max(1, retryAfterSeconds) };
}

// the account is a normalised email, which has no newline; the address neither
const keysOf = (client: LoginClient) => ({
  address: `login:address:${client.address}`,
  account: `login:account:${client.account}`,
  pair: `login:pair:${client.account}\n${client.address}`,
});
