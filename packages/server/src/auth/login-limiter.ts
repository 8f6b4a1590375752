/**
 * Login attempts per minute, per account and per address: a fixed one-minute window per key
 * (`FixedWindows`). An attempt is refused, and not counted, while any of its keys is spent.
 */
import { FixedWindows, secondsLeft } from '../http/windows.js';

export type LimitDecision =
  { readonly allowed: true } | { readonly allowed: false; readonly retryAfterSeconds: number };

export class LoginLimiter {
  readonly #windows = new FixedWindows();

  constructor(
    private readonly perMinute: number,
    private readonly now: () => Date,
  ) {}

  /**
   * Counts one attempt against every key, or refuses it when any key is spent.
   *
   * @example limiter.attempt(['account:ann@example.com', 'address:203.0.113.9'])
   */
  attempt(keys: readonly string[]): LimitDecision {
    const now = this.now().getTime();
    let retryAfterSeconds = 0;
    for (const key of keys) {
      const window = this.#windows.peek(key, now);
      if (window !== undefined && window.count >= this.perMinute) {
        retryAfterSeconds = Math.max(retryAfterSeconds, secondsLeft(window, now));
      }
    }
    if (retryAfterSeconds > 0) return { allowed: false, retryAfterSeconds };
    for (const key of keys) this.#windows.count(key, now);
    return { allowed: true };
  }
}
