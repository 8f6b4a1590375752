/**
 * Pruning the finished jobs, so that `ninefold_jobs` does not grow with every effect ever run: a
 * done job is deleted once it has been done for a while (7 days by default), a dead one once it has
 * been dead for longer (30 days), which leaves admins a month to see it and retry it (a retry makes
 * it pending again and so restarts its time). Pending and running jobs are never pruned.
 *
 * The runner prunes now and then (every 10 minutes by default, not on every poll), in small
 * batches, each its own short statement, so that no prune holds a long lock or a long transaction.
 * Several runners may prune at once: on PostgreSQL each batch skips the rows another has locked,
 * and a row deleted twice is deleted once.
 */
import { type Database } from '../db/open.js';
import { TABLES } from '../schema/names.js';

/** How many jobs one statement deletes. */
export const PRUNE_BATCH = 500;

/** How long finished jobs are kept. */
export interface Retention {
  /** A done job is kept this long after it was done (default 7 days). */
  readonly keepDoneMs: number;
  /** A dead job is kept this long after it died, or was last retried (default 30 days). */
  readonly keepDeadMs: number;
}

export const DEFAULT_RETENTION: Retention = {
  keepDoneMs: 7 * 24 * 3_600_000,
  keepDeadMs: 30 * 24 * 3_600_000,
};

/**
 * Deletes the done and dead jobs past their retention at `now`, a batch at a time, while
 * `keepGoing()` says so (a runner that stops); returns how many.
 *
 * @example await pruneJobs(database, DEFAULT_RETENTION, new Date()) // 1200
 */
export async function pruneJobs(
  database: Database,
  retention: Retention,
  now: Date,
  batch = PRUNE_BATCH,
  keepGoing: () => boolean = () => true,
): Promise<number> {
  const cutoffs = [
    ['done', new Date(now.getTime() - retention.keepDoneMs)],
    ['dead', new Date(now.getTime() - retention.keepDeadMs)],
  ] as const;
  let pruned = 0;
  for (const [state, before] of cutoffs) {
    for (;;) {
      const deleted = await deleteBatch(database, state, before, batch);
      pruned += deleted;
      if (deleted < batch || !keepGoing()) break;
    }
  }
  return pruned;
}

/** Deletes up to `batch` jobs of `state` last written before `before`. */
async function deleteBatch(
  database: Database,
  state: 'done' | 'dead',
  before: Date,
  batch: number,
): Promise<number> {
  // a job's last write is when it finished: ISO times of one format compare as text
  const old = database.db
    .selectFrom(TABLES.jobs)
    .select('id')
    .where('state', '=', state)
    .where('updated_at', '<', before.toISOString())
    .limit(batch);
  const result = await database.db
    .deleteFrom(TABLES.jobs)
    .where('id', 'in', database.dialect === 'postgres' ? old.forUpdate().skipLocked() : old)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
