/**
 * Keyed jobs whose time changes: a timer is rescheduled when the field it fires at changes, and
 * cancelled when its record leaves the state. Both run in the caller's transaction, like
 * `enqueueJob`. Only a pending job is moved or cancelled. While the key's job runs, scheduling writes
 * a follow-up job (`enqueueJob`): the running one may have read the record before the change, and
 * would otherwise be the key's last word (decision 0029); cancelling leaves the running one to its
 * handler, which checks the record again before it acts.
 */
import { type Kysely, type Transaction } from 'kysely';
import { TABLES } from '../schema/names.js';
import { type Enqueued, enqueueJob } from './enqueue.js';
import { announceJob } from './wake.js';

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
 * is none (a follow-up, when the key's job is running).
 *
 * @example await scheduleJob(trx, { kind: 'ninefold.timer', key: 'Loan/l1/markOverdue', runAt }, now);
 */
export async function scheduleJob(trx: Trx, job: ScheduledJob, now: Date): Promise<Enqueued> {
  // a job of the key may turn pending between the move and the write (a retry, on PostgreSQL):
  // then the write finds it, and the move is tried again
  for (let round = 0; round < 3; round += 1) {
    const moved = await movePending(trx, job, now);
    if (moved !== null) return moved;
    const written = await enqueueJob(
      trx,
      { kind: job.kind, key: job.key, runAt: job.runAt, payload: job.payload },
      now,
    );
    if (written.created) return written;
  }
  throw new Error(`The pending job of the key "${job.key}" kept changing while it was scheduled.`);
}

async function movePending(trx: Trx, job: ScheduledJob, now: Date): Promise<Enqueued | null> {
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
  if (moved === undefined) return null;
  await announceJob(trx);
  return { id: String(moved.id), created: false };
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
