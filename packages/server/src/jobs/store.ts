/**
 * The runner's statements on `ninefold_jobs`: claim the due jobs, then settle each (done, retry
 * later, dead). A settlement counts only while its runner still holds the job's lease, so a runner
 * whose lease ran out (and whose job another took over) changes nothing.
 *
 * Claiming is one statement. On PostgreSQL, `FOR UPDATE SKIP LOCKED` lets several processes claim
 * at once, each taking rows no other has locked: every job is claimed by exactly one. On SQLite one
 * statement is already atomic (the database has one writer), and one process runs the jobs.
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
  const at = now.getTime();
  const known = sql`kind in (${sql.join(kinds)})`;
  // a look first, so that an idle poll writes nothing (on SQLite, an UPDATE takes the write lock)
  const due = await sql<{ one: number }>`
    select 1 as one from ${table}
     where ${known}
       and ((state = 'pending' and run_at <= ${at}) or (state = 'running' and locked_until <= ${at}))
     limit 1`.execute(database.db);
  if (due.rows.length === 0) return [];
  const lock = database.dialect === 'postgres' ? sql`for update skip locked` : sql``;
  const { rows } = await sql<JobRow>`
    update ${table}
       set state = 'running', attempts = attempts + 1, locked_until = ${lockedUntil.getTime()},
           lease_owner = ${owner}, updated_at = ${now.toISOString()}
     where id in (
       select id from ${table}
        where ${known}
          and ((state = 'pending' and run_at <= ${at}) or (state = 'running' and locked_until <= ${at}))
        order by run_at, id
        limit ${limit}
        ${lock})
    returning *`.execute(database.db);
  return rows.map(jobOf).sort((a, b) => a.runAt.getTime() - b.runAt.getTime());
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
