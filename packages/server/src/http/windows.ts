/**
 * Fixed one-minute windows of counts by key, in memory, per instance. The limits that must hold
 * across instances count in the app's counter store instead (`limits/`, decision 0057); what
 * still counts here is the refused API tokens of an address (`auth/request-auth.ts`), a guard of
 * each instance's own lookups.
 */
import { type Window as CountedWindow } from '../limits/counters.js';

export { secondsLeft } from '../limits/counters.js';

/** A key's count in its current window, and when that window ends (ms since the epoch). */
export interface Window extends CountedWindow {
  count: number;
}

/** The length of the request limit's and the sign-in limit's windows: a minute. */
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
