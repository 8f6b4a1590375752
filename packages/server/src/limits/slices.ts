/**
 * The request limit over a remote store without a round trip per request (decision 0057): each
 * instance claims a *slice* of a key's window from the shared store — a number of requests counted
 * there at once, all or nothing — and serves from it in memory until it is used up; then it claims
 * the next. A slice is about a second of this instance's traffic for the key (`SLICE_MS`), at least
 * one request and at most a tenth of the limit (`MAX_SLICE_SHARE`, and `MAX_SLICE`). When the
 * window has no room for a whole slice, it claims the room there is (one request if another
 * instance took it meanwhile), so that it refuses only once the store's window is full; a full window is remembered until it ends (a window's count never
 * goes down), so a client refused goes on being refused without a round trip. A slice is tied to the
 * store's window: when the window ends, what is left of it is forgotten.
 *
 * The bound: the instances together never allow more than the limit, since every request served
 * was counted in the store before. A client may be refused by one instance while each other
 * instance still holds unused requests of its last slice: at most a slice less one each. One
 * instance alone is exact: it refuses at exactly the limit, and its `remaining` is exact.
 */
import { type CounterStore, type MaybePromise, type Taken } from './counters.js';

/** A slice is about this long of an instance's traffic for a key. */
export const SLICE_MS = 1000;
/** A slice is at most this share of the limit… */
export const MAX_SLICE_SHARE = 0.1;
/** …and at most this many requests. */
export const MAX_SLICE = 1000;
const SWEEP_MS = 60_000;

/** Counts a key's requests in the store's windows, a slice at a time. */
export interface RequestSlices {
  /** Like {@link CounterStore.take}: counted or refused, with the key's window as this instance knows it. */
  take(key: string, limit: number, windowMs: number, now: number): MaybePromise<Taken>;
}

interface Slice {
  /** The end of the store's window the slice belongs to (0: none). */
  resetAt: number;
  /** The store's count right after this instance's last claim. */
  count: number;
  /** Requests of the slice not served yet. */
  left: number;
  /** The window has no room left: refuse until it ends. */
  full: boolean;
  /** How many requests the last claim counted, and when: the rate the next slice follows. */
  claimed: number;
  claimedAt: number;
  /** The claim under way: others wait for it rather than claim beside it. */
  pending: Promise<void> | undefined;
}

/**
 * Slices of `store`'s windows; a store in this process's memory (`remote: false`) is counted in as
 * it is, one request at a time, and answers at once.
 *
 * @example const slices = requestSlices(postgresCounters(database)); await slices.take('request:user:42', 600, 60_000, Date.now())
 */
export function requestSlices(store: CounterStore): RequestSlices {
  if (!store.remote) return { take: (key, limit, windowMs, now) => store.take(key, limit, windowMs, now) };
  const slices = new Map<string, Slice>();
  let lastSweep = 0;
  const sweep = (now: number) => {
    if (now - lastSweep < SWEEP_MS) return;
    lastSweep = now;
    for (const [key, slice] of slices)
      if (slice.resetAt <= now && slice.pending === undefined) slices.delete(key);
  };

  const claim = async (key: string, slice: Slice, limit: number, windowMs: number, now: number) => {
    let amount = sliceSize(slice, limit, now);
    let taken = await store.take(key, limit, windowMs, now, amount);
    // no room for a whole slice: what room the window has, else one request, to the last
    const room = limit - taken.window.count;
    if (!taken.counted && room > 1 && room < amount) {
      amount = room;
      taken = await store.take(key, limit, windowMs, now, amount);
    }
    if (!taken.counted && amount > 1 && room > 0) {
      amount = 1;
      taken = await store.take(key, limit, windowMs, now, amount);
    }
    slice.resetAt = taken.window.resetAt;
    slice.count = taken.window.count;
    slice.claimed = taken.counted ? amount : 0;
    slice.claimedAt = now;
    slice.left = slice.claimed;
    slice.full = !taken.counted || taken.window.count >= limit;
  };

  const take = (key: string, limit: number, windowMs: number, now: number): MaybePromise<Taken> => {
    let slice = slices.get(key);
    if (slice === undefined) {
      sweep(now);
      slice = { resetAt: 0, count: 0, left: 0, full: false, claimed: 0, claimedAt: now, pending: undefined };
      slices.set(key, slice);
    }
    if (slice.resetAt <= now) {
      // the window ended: what is left of the slice goes with it
      slice.claimed -= slice.left;
      slice.left = 0;
      slice.full = false;
    }
    if (slice.left > 0) {
      slice.left -= 1;
      return { counted: true, window: { count: slice.count - slice.left, resetAt: slice.resetAt } };
    }
    if (slice.full && slice.resetAt > now)
      return { counted: false, window: { count: Math.max(slice.count, limit), resetAt: slice.resetAt } };
    const current = slice;
    current.pending ??= claim(key, current, limit, windowMs, now).finally(() => {
      current.pending = undefined;
    });
    return current.pending.then(() => take(key, limit, windowMs, now));
  };
  return { take };
}

/**
 * The next slice of a key: what this instance served of it since its last claim, per
 * {@link SLICE_MS} of the time that took; at least 1, at most a tenth of the limit.
 */
function sliceSize(slice: Slice, limit: number, now: number): number {
  const served = slice.claimed - slice.left;
  const perSlice = Math.ceil((served * SLICE_MS) / Math.max(1, now - slice.claimedAt));
  const most = Math.max(1, Math.min(MAX_SLICE, Math.floor(limit * MAX_SLICE_SHARE)));
  return Math.max(1, Math.min(most, perSlice));
}
