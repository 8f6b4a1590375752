/**
 * The runner's statements on `ninefold_jobs`: claim the due jobs, then settle each (done, retry
 * later, dead). A settlement counts only while its runner still holds the job's lease, so a runner
 * whose lease ran out (and whose job another took over) changes nothing.
 *
 * Claiming is one statement. On PostgreSQL, `FOR UPDATE SKIP LOCKED` lets several processes claim
 * at once, each taking rows no other has locked: every job is claimed by exactly one. On SQLite one
 * statement is already atomic (the database has one writer), and one process runs the jobs.
 *
 * A job of a sequence (`NewJob.sequence`) is not claimed while an earlier job of its sequence is
 * pending or running: the jobs of a sequence run one at a time, in the order written. On PostgreSQL
 * the look for an earlier job reads the statement's snapshot, where a job another runner is claiming
 * this instant is still pending (its claim has not committed) and one it claimed is running: either
 * way the later job waits. A job only ever leaves the unfinished states, so a snapshot can show an
 * earlier job unfinished when it has just finished (the later one waits a poll), never the reverse.
 */
import { type Transaction, sql } from 'kysely';
import { type Database } from '../db/open.js';
import { TABLES } from '../schema/names.js';
import { type Job, type JobRow, jobOf } from './job.js';

/** The longest error kept for a job: enough to read, not a log. */
const MAX_ERROR_LENGTH = 2000;

/**
 * Claims up to `limit` due jobs of `kinds` for `owner` until `lockedUntil`: pending ones whose time
 * has come, and running ones whose lease ran out (their process died). Each claim counts as an
 * attempt. A runner claims only the kinds it runs: a job of a kind it does not know (written by a
 * newer version, during a rolling deploy) waits for a runner that knows it.
 */
export async function claimJobs(
  database: Database,
  owner: string,
  kinds: readonly string[],
  now: Date,
  lockedUntil: Date,
  limit: number,
): Promise<Job[]> {
  if (kinds.length === 0) return [];
  const table = sql.table(TABLES.jobs);
  const claimable = claimableJobs(database, kinds, now);
  // a look first, so that an idle poll writes nothing (on SQLite, an UPDATE takes the write lock)
  const due = await sql<{ one: number }>`
    select 1 as one from ${table} as job where ${claimable} limit 1`.execute(database.db);
  if (due.rows.length === 0) return [];
  const lock = database.dialect === 'postgres' ? sql`for update skip locked` : sql``;
  const { rows } = await sql<JobRow>`
    update ${table}
       set state = 'running', attempts = attempts + 1, locked_until = ${lockedUntil.getTime()},
           lease_owner = ${owner}, updated_at = ${now.toISOString()}
     where id in (
       select id from ${table} as job
        where ${claimable}
        order by run_at, id
        limit ${limit}
        ${lock})
    returning *`.execute(database.db);
  return rows.map(jobOf).sort((a, b) => a.runAt.getTime() - b.runAt.getTime());
}

/**
 * The condition on a job (named `job`) that it may be claimed now: of a kind the runner knows; pending
 * and due, or running with its lease run out; and first of its sequence's unfinished jobs.
 */
function claimableJobs(database: Database, kinds: readonly string[], now: Date) {
  const at = now.getTime();
  // times and ids compare as the bytes they are written in, whatever PostgreSQL's collation
  const bytes = database.dialect === 'postgres' ? sql` collate "C"` : sql``;
  return sql`job.kind in (${sql.join(kinds)})
    and ((job.state = 'pending' and job.run_at <= ${at}) or (job.state = 'running' and job.locked_until <= ${at}))
    and (job.sequence is null or not exists (
      select 1 from ${sql.table(TABLES.jobs)} as earlier
       where earlier.sequence = job.sequence
         and earlier.state in ('pending', 'running')
         and (earlier.created_at${bytes} < job.created_at${bytes}
              or (earlier.created_at = job.created_at and earlier.id${bytes} < job.id${bytes}))))`;
}

/** The job ran: done, and its key free again. */
export async function markDone(database: Database, job: Job, owner: string, now: Date): Promise<boolean> {
  return settle(database, job, owner, {
    state: 'done',
    dedupe_key: null,
    last_error: null,
    updated_at: now.toISOString(),
  });
}

/** The attempt failed and another is due at `runAt`. */
export async function markRetry(
  database: Database,
  job: Job,
  owner: string,
  error: string,
  runAt: Date,
  now: Date,
): Promise<boolean> {
  return settle(database, job, owner, {
    state: 'pending',
    run_at: runAt.getTime(),
    last_error: error.slice(0, MAX_ERROR_LENGTH),
    updated_at: now.toISOString(),
  });
}

/** No attempt is left, or the job can never run: dead, until an admin retries it. */
export async function markDead(
  database: Database,
  job: Job,
  owner: string,
  error: string,
  now: Date,
): Promise<boolean> {
  return settle(database, job, owner, {
    state: 'dead',
    dedupe_key: null,
    last_error: error.slice(0, MAX_ERROR_LENGTH),
    updated_at: now.toISOString(),
  });
}

async function settle(
  database: Database,
  job: Job,
  owner: string,
  values: Record<string, string | number | null>,
): Promise<boolean> {
  const result = await database.db
    .updateTable(TABLES.jobs)
    .set({ ...values, locked_until: null, lease_owner: null })
    .where('id', '=', job.id)
    .where('state', '=', 'running')
    .where('lease_owner', '=', owner)
    .where('attempts', '=', job.attempts)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Settles a job done inside a transaction of its handler, beside the writes it made: the writes
 * and the job's end then commit together, so a job whose writes committed is never run again (a
 * handler that must not act twice, as a notification's delivery). False when the job is no longer
 * this attempt's to settle (done already, or its lease taken over): the caller then rolls back.
 *
 * @example await database.db.transaction().execute(async (trx) => { …; if (!(await markDoneWithin(trx, job, now))) throw … });
 */
export async function markDoneWithin(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the server's own table, outside the spec's schema
  trx: Transaction<any>,
  job: Job,
  now: Date,
): Promise<boolean> {
  const result = await trx
    .updateTable(TABLES.jobs)
    .set({
      state: 'done',
      dedupe_key: null,
      last_error: null,
      locked_until: null,
      lease_owner: null,
      updated_at: now.toISOString(),
    })
    .where('id', '=', job.id)
    .where('state', '=', 'running')
    .where('lease_owner', '=', job.leaseOwner)
    .where('attempts', '=', job.attempts)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
