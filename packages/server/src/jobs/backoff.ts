/**
 * How long a failed job waits before its next attempt: exponential backoff, capped, with jitter so
 * that jobs failing together (a receiver down) do not all come back in the same instant.
 */

export interface Backoff {
  /** The delay after the first failed attempt, before jitter (default 10 s). */
  readonly baseMs: number;
  /** The longest delay, before jitter (default 1 hour). */
  readonly capMs: number;
}

export const DEFAULT_BACKOFF: Backoff = { baseMs: 10_000, capMs: 60 * 60_000 };

/**
 * The delay after attempt `attempt` (1 for the first) failed: base × 2^(attempt − 1), capped, then
 * "equal jitter" — between half of it and all of it — so each delay stays above the one before's
 * lower bound and the delays grow.
 *
 * @example retryDelayMs(3, { baseMs: 1000, capMs: 60_000 }) // between 2000 and 4000
 */
export function retryDelayMs(attempt: number, backoff: Backoff, random: () => number = Math.random): number {
  const exponent = Math.min(Math.max(attempt - 1, 0), 40);
  const full = Math.min(backoff.capMs, backoff.baseMs * 2 ** exponent);
  return Math.round(full / 2 + (random() * full) / 2);
}
