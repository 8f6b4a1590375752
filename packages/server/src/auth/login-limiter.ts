/**
 * Who may try a password now (decision 0027). Three counts, none of which lets one client lock out
 * another that has not failed:
 *
 * - **per address**: `limits.loginAttemptsPerMinute` attempts a minute from one address, whatever
 *   the account, counted before the password is checked (a fixed window, `FixedWindows`);
 * - **per account and address**: a pair's first {@link FREE_FAILURES} failures are free (typos); after
 *   each further one the pair waits, 1 s, 2 s, 4 s… up to {@link MAX_DELAY_SECONDS}; a success ends
 *   its count;
 * - **per account**: past {@link ACCOUNT_CEILING_FACTOR} × the per-address limit of failures in a
 *   minute, from all addresses together, every address that has failed for the account waits for
 *   the minute's end. An address that has not failed for it (the owner's, usually) is never refused
 *   for other addresses' failures.
 *
 * In memory, per instance, like the request rate limit (decision 0008), and bounded.
 */
import { FixedWindows, WINDOW_MS, secondsLeft } from '../http/windows.js';
import { LruMap } from '../lru-map.js';
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
/**
 * The most pairs remembered: an attack from very many addresses costs bounded memory; the pair
 * forgotten first is the one least recently tried, which loses its delay (its per-address limit
 * still holds).
 */
const MAX_PAIRS = 100_000;

/** The failures of one account from one address. */
interface PairFailures {
  count: number;
  /** When the pair may try again (ms since the epoch); 0 while its failures are free. */
  waitUntil: number;
  lastFailureAt: number;
}

/** Who is trying: the account (its normalised email) and the client's address. */
export interface LoginClient {
  readonly account: string;
  readonly address: string;
}

export class LoginLimiter {
  readonly #addresses = new FixedWindows();
  readonly #accounts = new FixedWindows();
  readonly #pairs = new LruMap<string, PairFailures>(MAX_PAIRS);
  readonly #accountCeiling: number;
  #lastSweep = 0;

  constructor(
    private readonly perMinute: number,
    private readonly now: () => Date,
  ) {
    this.#accountCeiling = perMinute * ACCOUNT_CEILING_FACTOR;
  }

  /**
   * Counts one attempt of a client, or refuses it (uncounted) with the seconds to wait.
   *
   * @example limiter.attempt({ account: 'ann@example.com', address: '203.0.113.9' })
   */
  attempt(client: LoginClient): LimitDecision {
    const now = this.now().getTime();
    const address = this.#addresses.peek(client.address, now);
    if (address !== undefined && address.count >= this.perMinute) return refused(secondsLeft(address, now));
    const pair = this.#pairs.get(pairKey(client));
    if (pair !== undefined) {
      if (pair.waitUntil > now) return refused(Math.ceil((pair.waitUntil - now) / 1000));
      // the account is under attack from many addresses: those that have failed for it wait
      const account = this.#accounts.peek(client.account, now);
      if (account !== undefined && account.count >= this.#accountCeiling)
        return refused(secondsLeft(account, now));
    }
    this.#addresses.count(client.address, now);
    return { allowed: true };
  }

  /** Records a wrong password (or an unknown account) for a client that was allowed to try. */
  failed(client: LoginClient): void {
    const now = this.now().getTime();
    this.#sweep(now);
    this.#accounts.count(client.account, now);
    const key = pairKey(client);
    const pair = this.#pairs.get(key) ?? { count: 0, waitUntil: 0, lastFailureAt: now };
    pair.count += 1;
    pair.lastFailureAt = now;
    const over = pair.count - FREE_FAILURES;
    if (over > 0) pair.waitUntil = now + delaySeconds(over) * 1000;
    this.#pairs.set(key, pair);
  }

  /** A correct password: the pair's failures are forgiven. */
  succeeded(client: LoginClient): void {
    this.#pairs.delete(pairKey(client));
  }

  #sweep(now: number): void {
    if (now - this.#lastSweep < WINDOW_MS) return;
    this.#lastSweep = now;
    for (const [key, pair] of this.#pairs) {
      if (pair.waitUntil <= now && now - pair.lastFailureAt > PAIR_MEMORY_MS) this.#pairs.delete(key);
    }
  }
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
 * The login limiter of an app: one per app context, shared by every route that checks a password
 * (signing in, changing one's password), so that guesses through one count against the other.
 *
 * @example const limiter = loginLimiterOf(context); limiter.attempt({ account, address })
 */
export const loginLimiterOf: (context: {
  readonly model: { readonly limits: { readonly loginAttemptsPerMinute: number } };
  readonly now: () => Date;
}) => LoginLimiter = weakMemo(
  (context) => new LoginLimiter(context.model.limits.loginAttemptsPerMinute, context.now),
);

function refused(retryAfterSeconds: number): LimitDecision {
  return { allowed: false, retryAfterSeconds: Math.max(1, retryAfterSeconds) };
}

// the account is a normalised email, which has no newline; the address neither
const pairKey = (client: LoginClient) => `${client.account}\n${client.address}`;
