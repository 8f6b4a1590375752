/**
 * How often sign-ups and password resets may be asked for (decision 0037): per client address, so
 * that one client cannot try thousands of addresses, and per e-mail address, so that nobody can
 * fill a person's mailbox with links from many clients. Both are counted before anything is
 * looked up, for known and unknown addresses alike, so a refusal says nothing about an address.
 * In memory, per instance, in fixed windows (`http/windows.ts`), like the sign-in limit.
 */
import { RETRY_AFTER_HEADER } from '@ninefold/model';
import { ApiError } from '../http/errors.js';
import { FixedWindows, secondsLeft } from '../http/windows.js';

/** Requests one client address may make in a window. */
export const PER_ADDRESS = 10;
/** Requests for one e-mail address, from all clients together, in a window. */
export const PER_EMAIL = 3;
/** How long a window lasts: a quarter of an hour. */
export const IDENTITY_WINDOW_MS = 15 * 60_000;

/**
 * One flow's counts (sign-ups, password resets).
 *
 * @example
 * const limiter = new IdentityLimiter(now);
 * limiter.attempt({ address: request.ip, email: 'ann@example.com' }); // throws E_RATE_LIMITED past a limit
 */
export class IdentityLimiter {
  readonly #addresses = new FixedWindows(IDENTITY_WINDOW_MS);
  readonly #emails = new FixedWindows(IDENTITY_WINDOW_MS);

  constructor(private readonly now: () => Date) {}

  /**
   * Counts one request, or refuses it (uncounted) with E_RATE_LIMITED and Retry-After.
   */
  attempt(client: { readonly address: string; readonly email: string }): void {
    const now = this.now().getTime();
    const address = this.#addresses.peek(client.address, now);
    const email = this.#emails.peek(client.email, now);
    const full = [
      address !== undefined && address.count >= PER_ADDRESS ? secondsLeft(address, now) : 0,
      email !== undefined && email.count >= PER_EMAIL ? secondsLeft(email, now) : 0,
    ];
    const wait = Math.max(...full);
    if (wait > 0) {
      throw new ApiError(
        'E_RATE_LIMITED',
        { retryAfter: wait },
        { headers: { [RETRY_AFTER_HEADER]: String(wait) } },
      );
    }
    this.#addresses.count(client.address, now);
    this.#emails.count(client.email, now);
  }
}
