/**
 * The offline queue's storage: the writes a user made while the server could not be reached, kept
 * in `localStorage` under the product and the user (decision 0015), in the order they were made.
 * A write waits until it is sent, or fails — then it stays, with the server's problem, until the
 * user fixes or discards it: nothing leaves the queue unseen. Tabs of the same app share it.
 */
import type { HttpMethod, Model, Problem, Value } from '@ninefold/model';
import { useCallback, useSyncExternalStore } from 'react';

/** What a queued write does to its record. */
export type WriteKind = 'create' | 'update' | 'delete' | 'transition';

/** One write as it was made: replayed as is, with its `Idempotency-Key`. */
export interface QueuedWrite {
  /** The write's `Idempotency-Key`: the same in every attempt, so the server does it once. */
  readonly key: string;
  readonly kind: WriteKind;
  readonly entity: string;
  /** The record written; null for a create. */
  readonly recordId: string | null;
  readonly method: HttpMethod;
  /** Relative to the API's base path, like `claims/<id>`. */
  readonly path: string;
  readonly body?: Readonly<Record<string, Value>>;
  /** The version the write is based on (`If-Match`). */
  readonly version?: number;
  readonly transition?: string;
  /** The record's title when the write was made, to name it while it waits. */
  readonly title: string;
  /** When the write was made (ISO). */
  readonly at: string;
  /** Why the server refused it when it was sent: set, the write waits for the user, not the network. */
  readonly problem?: Problem;
}

/** The queue of one user of one product: its `localStorage` key. */
export type QueueKey = string & { readonly __queue: true };

const PREFIX = 'ninefold.offline';

/**
 * The queue of a user: writes queued by one user are never sent under another's session.
 *
 * @example const key = queueKey(model, user.id); readQueue(key)
 */
export function queueKey(model: Model, userId: string): QueueKey {
  return `${PREFIX}:${model.calls.basePath}:${model.product.name}:${userId}` as QueueKey;
}

const EMPTY: readonly QueuedWrite[] = [];
/** The last text read per key and what it parsed to: snapshots stay the same object until it changes. */
const parsed = new Map<string, { readonly text: string | null; readonly writes: readonly QueuedWrite[] }>();
const listeners = new Set<() => void>();

function storage(): Storage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null; // storage disabled by the browser's settings
  }
}

/** The writes of a queue, oldest first; failed ones stay in place until the user decides. */
export function readQueue(key: QueueKey): readonly QueuedWrite[] {
  const text = storage()?.getItem(key) ?? null;
  const known = parsed.get(key);
  if (known !== undefined && known.text === text) return known.writes;
  let writes = EMPTY;
  if (text !== null) {
    try {
      const value = JSON.parse(text) as unknown;
      if (Array.isArray(value)) writes = value as QueuedWrite[];
    } catch {
      // an unreadable entry (edited by hand): treated as empty rather than breaking the app
    }
  }
  parsed.set(key, { text, writes });
  return writes;
}

/** Stores a queue's writes; false when the browser refuses (no storage, or full). */
function writeQueue(key: QueueKey, writes: readonly QueuedWrite[]): boolean {
  const store = storage();
  if (store === null) return false;
  try {
    if (writes.length === 0) store.removeItem(key);
    else store.setItem(key, JSON.stringify(writes));
  } catch {
    return false;
  }
  for (const listener of listeners) listener();
  return true;
}

/**
 * Adds a write at the end of its queue, once: a write whose key is already there (the same create
 * sent again) is not added twice. False when the browser would not store it.
 */
export function enqueue(key: QueueKey, write: QueuedWrite): boolean {
  const writes = readQueue(key);
  if (writes.some((w) => w.key === write.key)) return true;
  return writeQueue(key, [...writes, write]);
}

/** Changes one write (null takes it out); the others keep their place. */
export function changeWrite(
  key: QueueKey,
  writeKey: string,
  change: (write: QueuedWrite) => QueuedWrite | null,
): void {
  const writes = readQueue(key);
  const next: QueuedWrite[] = [];
  for (const write of writes) {
    if (write.key !== writeKey) next.push(write);
    else {
      const changed = change(write);
      if (changed !== null) next.push(changed);
    }
  }
  writeQueue(key, next);
}

/** Takes a write out of its queue: sent, or discarded by the user. */
export function removeWrite(key: QueueKey, writeKey: string): void {
  changeWrite(key, writeKey, () => null);
}

/** Whether a write still waits to be sent (rather than for the user, after a refusal). */
export const isWaiting = (write: QueuedWrite): boolean => write.problem === undefined;

/** Calls `listener` whenever a queue changes, in this tab or another. */
export function subscribeQueue(listener: () => void): () => void {
  listeners.add(listener);
  const fromOtherTab = (event: StorageEvent) => {
    if (event.key === null || event.key.startsWith(PREFIX)) listener();
  };
  globalThis.addEventListener?.('storage', fromOtherTab);
  return () => {
    listeners.delete(listener);
    globalThis.removeEventListener?.('storage', fromOtherTab);
  };
}

/** The writes of a user's queue, re-rendering when it changes; empty without a user. */
export function useQueue(key: QueueKey | null): readonly QueuedWrite[] {
  const snapshot = useCallback(() => (key === null ? EMPTY : readQueue(key)), [key]);
  return useSyncExternalStore(subscribeQueue, snapshot, snapshot);
}
