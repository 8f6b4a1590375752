/**
 * Waking the runners when a job is written, so that it need not wait for their next poll.
 *
 * - In this process, the runners of the same database are told at once (`onJobEnqueued`). The job
 *   is written inside a transaction that commits later, so a woken runner looks again a moment
 *   after (`JobRunner`).
 * - On PostgreSQL, the runners of every process: the write's transaction sends
 *   `NOTIFY ninefold_jobs`, which the server delivers when (and only if) it commits, to every
 *   runner listening on its own connection (`db/postgres-listen.ts`). Where a runner cannot listen
 *   (SQLite, one process; PGlite, in process) its poll is the fallback.
 */
import { type Kysely, PostgresAdapter, type Transaction, sql } from 'kysely';

/** The PostgreSQL channel a job's write notifies and the runners listen to. */
export const JOBS_CHANNEL = 'ninefold_jobs';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the server's own table, outside the spec's schema
type Trx = Transaction<any> | Kysely<any>;

/** The listeners of each database, by its Kysely adapter (one per database, shared by its transactions). */
const listeners = new WeakMap<object, Set<() => void>>();

/** The transactions that have notified already: PostgreSQL folds their notifications into one anyway. */
const notified = new WeakSet<object>();

/**
 * Calls `listener` whenever a job is written to `db` in this process; returns how to stop.
 *
 * @example const stop = onJobEnqueued(database.db, () => runner.wake());
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any database's Kysely
export function onJobEnqueued(db: Kysely<any>, listener: () => void): () => void {
  const adapter = db.getExecutor().adapter;
  const set = listeners.get(adapter) ?? new Set();
  listeners.set(adapter, set);
  set.add(listener);
  return () => set.delete(listener);
}

/**
 * Tells the runners that a job was written in `trx`: this process's at once, on PostgreSQL every
 * process's when the transaction commits.
 *
 * @example await enqueueJob(trx, job); // calls announceJob(trx)
 */
export async function announceJob(trx: Trx): Promise<void> {
  const adapter = trx.getExecutor().adapter;
  for (const listener of listeners.get(adapter) ?? []) listener();
  if (!(adapter instanceof PostgresAdapter)) return;
  if (trx.isTransaction) {
    if (notified.has(trx)) return;
    notified.add(trx);
  }
  await sql`select pg_notify(${JOBS_CHANNEL}, '')`.execute(trx);
}
