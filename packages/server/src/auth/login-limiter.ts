/**
 * Login attempts per minute, per account and per address: a fixed one-minute window per key.
 *
 * In memory, per instance: behind a load balancer of n instances an attacker gets at most n times
 * the limit. Moving the counters to the database is a later step (decision 0008).
 */

export type LimitDecision =
  { readonly allowed: true } | { readonly allowed: false; readonly retryAfterSeconds: number };

const WINDOW_MS = 60_000;

export class LoginLimiter {
  readonly #windows = new Map<string, { count: number; resetAt: number }>();
  #lastSweep = 0;

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
    this.#sweep(now);
    let retryAfterMs = 0;
    for (const key of keys) {
      const window = this.#windows.get(key);
      if (window !== undefined && window.resetAt > now && window.count >= this.perMinute) {
        retryAfterMs = Math.max(retryAfterMs, window.resetAt - now);
      }
    }
    if (retryAfterMs > 0)
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(retryAfterMs / 1000)) };
    for (const key of keys) {
      const window = this.#windows.get(key);
      if (window === undefined || window.resetAt <= now)
        this.#windows.set(key, { count: 1, resetAt: now + WINDOW_MS });
      else window.count += 1;
    }
    return { allowed: true };
  }

  /** Forgets windows that have ended, at most once a window, so memory follows recent traffic. */
  #sweep(now: number): void {
    if (now - this.#lastSweep < WINDOW_MS) return;
    this.#lastSweep = now;
    for (const [key, window] of this.#windows) if (window.resetAt <= now) this.#windows.delete(key);
  }
}
