/**
 * The wake-up between `enqueueJob` and the runners of this process: a job written here need not
 * wait for the next poll. The job is written inside a transaction that commits later, so a runner
 * woken looks again a moment after (`JobRunner`); one in another process finds it at its next poll.
 */

const listeners = new Set<() => void>();

/** Calls `listener` whenever a job is written in this process; returns how to stop. */
export function onJobEnqueued(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Tells every runner of this process that a job was written. */
export function wakeRunners(): void {
  for (const listener of listeners) listener();
}
