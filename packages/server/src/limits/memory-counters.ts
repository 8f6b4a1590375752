/**
 * Counts in this process's memory (decision 0057): where the database is this process's alone
 * (a SQLite file, PGlite), and Redis's stand-in while Redis cannot be reached. Answers at once,
 * without a promise. Windows that have ended are forgotten at most once a minute, so memory follows
 * recent traffic; streaks (a sign-in pair's failures) are bounded besides, as an attack from very
 * many addresses makes one per address: the least recently counted is forgotten first (it loses its
 * delay; its address's limit still holds).
 */
import { LruMap } from '../lru-map.js';
import { type CounterStore, type Taken, type Window } from './counters.js';

/** The most streaks remembered (decision 0027). */
export const MAX_STREAKS = 100_000;
const SWEEP_MS = 60_000;

interface Open {
  count: number;
  resetAt: number;
}

/**
 * A store in memory, for one process.
 *
 * @example const counters = memoryCounters(); counters.take('request:user:42', 600, 60_000, Date.now())
 */
export function memoryCounters(options: { readonly maxStreaks?: number } = {}): CounterStore {
  const windows = new Map<string, Open>();
  const streaks = new LruMap<string, Open>(options.maxStreaks ?? MAX_STREAKS);
  let lastSweep = 0;
  const sweep = (now: number) => {
    if (now - lastSweep < SWEEP_MS) return;
    lastSweep = now;
    for (const [key, window] of windows) if (window.resetAt <= now) windows.delete(key);
    for (const [key, streak] of streaks) if (streak.resetAt <= now) streaks.delete(key);
  };
  const open = (key: string, now: number): Open | undefined => {
    const window = windows.get(key) ?? streaks.get(key);
    return window !== undefined && window.resetAt > now ? window : undefined;
  };
  return {
    description: 'the memory of this process',
    remote: false,
    take(key, limit, windowMs, now, amount = 1): Taken {
      sweep(now);
      const window = open(key, now);
      if (window === undefined) {
        if (amount > limit) return { counted: false, window: { count: 0, resetAt: now + windowMs } };
        const opened = { count: amount, resetAt: now + windowMs };
        windows.set(key, opened);
        return { counted: true, window: { ...opened } };
      }
      if (window.count + amount > limit) return { counted: false, window: { ...window } };
      window.count += amount;
      return { counted: true, window: { ...window } };
    },
    extend(key, windowMs, now): Window {
      sweep(now);
      const count = (open(key, now)?.count ?? 0) + 1;
      const streak = { count, resetAt: now + windowMs };
      streaks.set(key, streak);
      return { ...streak };
    },
    peek(keys, now) {
      return keys.map((key) => {
        const window = open(key, now);
        return window === undefined ? undefined : { ...window };
      });
    },
    giveBack(key, now) {
      const window = open(key, now);
      if (window !== undefined && window.count > 0) window.count -= 1;
    },
    forget(key) {
      windows.delete(key);
      streaks.delete(key);
    },
    close: async () => undefined,
  };
}
