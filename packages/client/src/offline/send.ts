/**
 * Sending a write, or keeping it for later: with `calls.offlineQueue`, a write that cannot reach
 * the server (the browser is offline, or every attempt failed on the network) is queued on the
 * device under its user, with its `Idempotency-Key`, and replayed when the connection returns.
 * Only the network queues a write: any answer of the server is an answer.
 */
import type { Model } from '@ninefold/model';
import { type Http, NetworkError, WriteQueued } from '../api/http';
import { type QueueKey, type QueuedWrite, enqueue, isWaiting, queueKey, readQueue } from './queue';

/** Sends a write as it was made, with its key: the first attempt and every replay alike. */
export function sendWrite<T>(http: Http, write: QueuedWrite, keepalive = false): Promise<T> {
  return http.request<T>(write.method, write.path, {
    idempotencyKey: write.key,
    ...(keepalive ? { keepalive } : {}),
    ...(write.body === undefined ? {} : { body: write.body }),
    ...(write.version === undefined ? {} : { version: write.version }),
  });
}

/** Whether the browser knows it has no network (a `true` proves nothing). */
export const knownOffline = (): boolean => globalThis.navigator?.onLine === false;

/**
 * Sends a write, or queues it for `userId` when the server cannot be reached and the model queues
 * writes; then it throws `WriteQueued`. A write made while earlier ones wait is queued behind them
 * at once, so that writes reach the server in the order they were made. With `keepalive` (the page
 * is going) the request leaves, or the write is queued, before this returns.
 *
 * @example const record = await sendOrQueue<ApiRecord>(http, model, user.id, write);
 */
export async function sendOrQueue<T>(
  http: Http,
  model: Model,
  userId: string | null,
  write: QueuedWrite,
  keepalive = false,
): Promise<T> {
  if (!model.calls.offlineQueue || userId === null) return sendWrite<T>(http, write, keepalive);
  const key = queueKey(model, userId);
  let failure: unknown = new NetworkError('offline');
  if (!knownOffline() && !readQueue(key).some(isWaiting)) {
    try {
      return await sendWrite<T>(http, write, keepalive);
    } catch (error) {
      if (!(error instanceof NetworkError)) throw error;
      failure = error;
    }
  }
  // the browser would not keep it (storage full or disabled): the user is told, as without a queue
  if (!enqueue(key, write)) throw failure;
  throw new WriteQueued(write);
}

/** The writes of a queue that are about one record. */
export function writesOf(writes: readonly QueuedWrite[], recordId: string): QueuedWrite[] {
  return writes.filter((w) => w.recordId === recordId);
}

export type { QueueKey };
