/**
 * Fixed one-minute windows of counts by key: the request rate limit and the login limit count in
 * them. In memory, per instance: behind a load balancer of n instances a client gets at most n times
 * a limit (decision 0008).
 */

/** A key's count in its current window, and when that window ends (ms since the epoch). */
export interface Window {
  count: number;
  readonly resetAt: number;
}

export const WINDOW_MS = 60_000;

/**
 * Counts by key in fixed windows that start at a key's first count. Windows that have ended are
 * forgotten at most once a window, so memory follows recent traffic.
 *
 * @example
 * const windows = new FixedWindows();
 * windows.count('user:42', Date.now()) // { count: 1, resetAt: … }
 */
export class FixedWindows {
  readonly #windows = new Map<string, Window>();
  #lastSweep = 0;

  /** `windowMs`: how long a window lasts (default one minute; identity's limits count by the hour). */
  constructor(private readonly windowMs: number = WINDOW_MS) {}

  /** The key's open window at `now`, or undefined when it has none. */
  peek(key: string, now: number): Window | undefined {
    const window = this.#windows.get(key);
    return window !== undefined && window.resetAt > now ? window : undefined;
  }

  /** Counts one for the key (opening a window if none is open) and returns its window. */
  count(key: string, now: number): Window {
    this.#sweep(now);
    const open = this.peek(key, now);
    if (open !== undefined) {
      open.count += 1;
      return open;
    }
    const window = { count: 1, resetAt: now + this.windowMs };
    this.#windows.set(key, window);
    return window;
  }

  #sweep(now: number): void {
    if (now - this.#lastSweep < this.windowMs) return;
    this.#lastSweep = now;
    for (const [key, window] of this.#windows) if (window.resetAt <= now) this.#windows.delete(key);
  }
}

/** Whole seconds until a window ends, at least 1: for Retry-After. */
export function secondsLeft(window: Window, now: number): number {
  return Math.max(1, Math.ceil((window.resetAt - now) / 1000));
}
