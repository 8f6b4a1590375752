/**
 * Keyed jobs whose time changes: a timer is rescheduled when the field it fires at changes, and
 * cancelled when its record leaves the state. Both run in the caller's transaction, like
 * `enqueueJob`. Only a pending job is moved or cancelled: one already running is left to its
 * handler, which checks the record again before it acts.
 */
import { type Kysely, type Transaction } from 'kysely';
import { TABLES } from '../schema/names.js';
import { type Enqueued, enqueueJob } from './enqueue.js';
import { wakeRunners } from './wake.js';

/** A keyed job to have pending at a time. */
export interface ScheduledJob {
  readonly kind: string;
  readonly key: string;
  readonly runAt: Date;
  readonly payload?: unknown;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the server's own table, outside the spec's schema
type Trx = Transaction<any> | Kysely<any>;

/**
 * Makes the pending job of `kind` and `key` due at `runAt` (with `payload`), writing it when there
 * is none.
 *
 * @example await scheduleJob(trx, { kind: 'ninefold.timer', key: 'Loan/l1/markOverdue', runAt }, now);
 */
export async function scheduleJob(trx: Trx, job: ScheduledJob, now: Date): Promise<Enqueued> {
  const moved = await trx
    .updateTable(TABLES.jobs)
    .set({
      run_at: job.runAt.getTime(),
      payload: JSON.stringify(job.payload ?? null),
      attempts: 0,
      last_error: null,
      updated_at: now.toISOString(),
    })
    .where('kind', '=', job.kind)
    .where('dedupe_key', '=', job.key)
    .where('state', '=', 'pending')
    .returning('id')
    .executeTakeFirst();
  if (moved !== undefined) {
    wakeRunners();
    return { id: String(moved.id), created: false };
  }
  return enqueueJob(trx, { kind: job.kind, key: job.key, runAt: job.runAt, payload: job.payload }, now);
}

/** Deletes the pending job of `kind` and `key`, if there is one; true when it did. */
export async function cancelJob(trx: Trx, kind: string, key: string): Promise<boolean> {
  const result = await trx
    .deleteFrom(TABLES.jobs)
    .where('kind', '=', kind)
    .where('dedupe_key', '=', key)
    .where('state', '=', 'pending')
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
