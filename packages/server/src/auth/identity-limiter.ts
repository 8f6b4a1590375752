/**
 * How often sign-ups and password resets may be asked for (decision 0037): per client address, so
 * that one client cannot try thousands of addresses, and per e-mail address, so that nobody can
 * fill a person's mailbox with links from many clients. Both are counted before anything is
 * looked up, for known and unknown addresses alike, so a refusal says nothing about an address.
 * Fixed windows in the app's counter store (decision 0057), like the sign-in limit: shared by the
 * instances on a PostgreSQL server or in Redis.
 */
import { RETRY_AFTER_HEADER } from '@ninefold/model';
import { ApiError } from '../http/errors.js';
import { type CounterStore, type Window, secondsLeft } from '../limits/counters.js';

/** Requests one client address may make in a window. */
export const PER_ADDRESS = 10;
/** Requests for one e-mail address, from all clients together, in a window. */
export const PER_EMAIL = 3;
/** How long a window lasts: a quarter of an hour. */
export const IDENTITY_WINDOW_MS = 15 * 60_000;

/**
 * One flow's counts (sign-ups, password resets), under its own name in the store.
 *
 * @example
 * const limiter = new IdentityLimiter('sign-up', now, counters);
 * await limiter.attempt({ address: request.ip, email: 'ann@example.com' }); // throws E_RATE_LIMITED past a limit
 */
export class IdentityLimiter {
  constructor(
    private readonly flow: string,
    private readonly now: () => Date,
    private readonly counters: CounterStore,
  ) {}

  /**
   * Counts one request, or refuses it (uncounted) with E_RATE_LIMITED and Retry-After.
   */
  async attempt(client: { readonly address: string; readonly email: string }): Promise<void> {
    const now = this.now().getTime();
    const address = `${this.flow}:address:${client.address}`;
    const email = `${this.flow}:email:${client.email}`;
    const byAddress = await this.counters.take(address, PER_ADDRESS, IDENTITY_WINDOW_MS, now);
    if (byAddress.counted) {
      const byEmail = await this.counters.take(email, PER_EMAIL, IDENTITY_WINDOW_MS, now);
      if (byEmail.counted) return;
      // refused for the e-mail address: the client's count is given back, as if never taken
      await this.counters.giveBack(address, now);
    }
    // the wait is the longer of the two full windows'
    const [addressWindow, emailWindow] = await this.counters.peek([address, email], now);
    const wait = Math.max(waitOf(addressWindow, PER_ADDRESS, now), waitOf(emailWindow, PER_EMAIL, now), 1);
    throw new ApiError(
      'E_RATE_LIMITED',
      { retryAfter: wait },
      { headers: { [RETRY_AFTER_HEADER]: String(wait) } },
    );
  }
}

function waitOf(window: Window | undefined, limit: number, now: number): number {
  return window !== undefined && window.count >= limit ? secondsLeft(window, now) : 0;
}
