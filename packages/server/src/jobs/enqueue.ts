/**
 * Writing a job: in the caller's transaction, the very one of the change that causes it, so that a
 * change that rolls back leaves no job and a change that commits cannot lose its job in a crash (a
 * transactional outbox). A runner in this process is woken to look soon after.
 */
import { type Kysely, type Transaction } from 'kysely';
import { newId } from '../ids.js';
import { TABLES } from '../schema/names.js';
import { type Backoff } from './backoff.js';
import { wakeRunners } from './wake.js';

/** A job to write. */
export interface NewJob {
  readonly kind: string;
  /** Any JSON value: what the handler needs. */
  readonly payload?: unknown;
  /** When it may run first (default now). */
  readonly runAt?: Date;
  /** How many attempts before it is dead (default 5). */
  readonly maxAttempts?: number;
  /**
   * At most one unfinished (pending or running) job of a kind has a key: a second with the same key
   * is not written, and the first's id is returned (one timer per record and transition, say).
   */
  readonly key?: string;
  /**
   * Jobs of one sequence run one at a time, in the order written: a job waits while an earlier
   * one of its sequence (written before it; ties by id) is pending or running (one webhook's
   * deliveries of one record, say).
   */
  readonly sequence?: string;
  /** How long it waits between attempts (default: the runner's). */
  readonly backoff?: Backoff;
}

export const DEFAULT_MAX_ATTEMPTS = 5;

/** The longest key: a key names something, it carries no data. */
const MAX_KEY_LENGTH = 200;

/** The job written, or the unfinished one of the same key that was there already. */
export interface Enqueued {
  readonly id: string;
  readonly created: boolean;
}

/**
 * Writes a job in a transaction (or outside one, given the database's Kysely).
 *
 * @example await db.transaction().execute(async (trx) => { …; await enqueueJob(trx, { kind: 'mail', payload }, now); });
 */
export async function enqueueJob(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the server's own table, outside the spec's schema
  trx: Transaction<any> | Kysely<any>,
  job: NewJob,
  now: Date = new Date(),
): Promise<Enqueued> {
  const maxAttempts = job.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  if (job.kind === '') throw new TypeError('A job needs a kind.');
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1)
    throw new TypeError(`A job's maxAttempts must be a whole number of at least 1, not ${maxAttempts}.`);
  if (job.key !== undefined && (job.key === '' || job.key.length > MAX_KEY_LENGTH))
    throw new TypeError(`A job's key must be 1 to ${MAX_KEY_LENGTH} characters long.`);
  if (job.sequence !== undefined && (job.sequence === '' || job.sequence.length > MAX_KEY_LENGTH))
    throw new TypeError(`A job's sequence must be 1 to ${MAX_KEY_LENGTH} characters long.`);
  if (job.backoff !== undefined && !(job.backoff.baseMs >= 1 && job.backoff.capMs >= job.backoff.baseMs))
    throw new TypeError(`A job's backoff needs a base of at least 1 ms and a cap of at least its base.`);
  // the unfinished job of the key may finish between the insert and the look: then insert again
  for (let round = 0; ; round += 1) {
    const id = newId();
    if (await insertJob(trx, id, job, maxAttempts, now)) {
      wakeRunners();
      return { id, created: true };
    }
    const existing = await trx
      .selectFrom(TABLES.jobs)
      .select('id')
      .where('kind', '=', job.kind)
      .where('dedupe_key', '=', job.key ?? '')
      .executeTakeFirst();
    if (existing !== undefined) return { id: String(existing.id), created: false };
    if (round === 2) throw new Error(`The job key "${job.key ?? ''}" was taken and freed three times over.`);
  }
}

/** Inserts a job; false when its key is taken by an unfinished job of its kind. */
async function insertJob(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the server's own table, outside the spec's schema
  trx: Transaction<any> | Kysely<any>,
  id: string,
  job: NewJob,
  maxAttempts: number,
  now: Date,
): Promise<boolean> {
  const at = now.toISOString();
  const result = await trx
    .insertInto(TABLES.jobs)
    .values({
      id,
      kind: job.kind,
      payload: JSON.stringify(job.payload ?? null),
      state: 'pending',
      attempts: 0,
      max_attempts: maxAttempts,
      run_at: (job.runAt ?? now).getTime(),
      locked_until: null,
      lease_owner: null,
      last_error: null,
      dedupe_key: job.key ?? null,
      sequence: job.sequence ?? null,
      backoff_base_ms: job.backoff?.baseMs ?? null,
      backoff_cap_ms: job.backoff?.capMs ?? null,
      created_at: at,
      updated_at: at,
    })
    // a conflict must not abort the caller's transaction (PostgreSQL would): nothing is written
    .onConflict((oc) => oc.columns(['kind', 'dedupe_key']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
}
