/**
 * What a job is: a row of `ninefold_jobs`, the effect of a change (a timer, a notification, a
 * webhook delivery) written in the change's own transaction and run afterwards by the runner.
 *
 * Delivery is at least once: a process that dies mid-job leaves its lease to run out, and the job
 * runs again. Handlers must therefore be idempotent; the job's `id` is stable across its attempts,
 * the key to give an outside system (an Idempotency-Key, a webhook id) or to check before acting.
 */
import { JOB_STATES, type JobState } from '@ninefold/model';
import { decodeInteger } from '../db/dialect.js';
import { type Backoff } from './backoff.js';

// the states are the protocol's: the admin's client filters by them too
export { JOB_STATES, type JobState };

/** A job as read from its row. */
export interface Job {
  readonly id: string;
  readonly kind: string;
  readonly payload: unknown;
  readonly state: JobState;
  /** How many times it has been claimed, this attempt included. */
  readonly attempts: number;
  readonly maxAttempts: number;
  readonly runAt: Date;
  readonly lockedUntil: Date | null;
  readonly leaseOwner: string | null;
  readonly lastError: string | null;
  readonly key: string | null;
  /** The jobs it runs in order with (`NewJob.sequence`), or null. */
  readonly sequence: string | null;
  /** Its own backoff between attempts, or null for the runner's. */
  readonly backoff: Backoff | null;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/**
 * What runs a kind of job. It throws to fail the attempt (the runner retries it later); it should
 * stop when `signal` aborts (the process stops, or the job's lease ends).
 */
export type JobHandler = (job: Job, signal: AbortSignal) => Promise<void>;

/** The handlers of the kinds a runner knows, by kind. */
export type JobHandlers = Readonly<Record<string, JobHandler>>;

/** The row of a job, as either database returns it. */
export type JobRow = Record<string, unknown>;

/** A row as a job. */
export function jobOf(row: JobRow): Job {
  const lockedUntil = row['locked_until'];
  const baseMs = row['backoff_base_ms'];
  const capMs = row['backoff_cap_ms'];
  return {
    id: String(row['id']),
    kind: String(row['kind']),
    payload: JSON.parse(String(row['payload'])) as unknown,
    state: String(row['state']) as JobState,
    attempts: decodeInteger(row['attempts']),
    maxAttempts: decodeInteger(row['max_attempts']),
    runAt: new Date(decodeInteger(row['run_at'])),
    lockedUntil:
      lockedUntil === null || lockedUntil === undefined ? null : new Date(decodeInteger(lockedUntil)),
    leaseOwner: nullableText(row['lease_owner']),
    lastError: nullableText(row['last_error']),
    key: nullableText(row['dedupe_key']),
    sequence: nullableText(row['sequence']),
    backoff:
      baseMs === null || baseMs === undefined || capMs === null || capMs === undefined
        ? null
        : { baseMs: decodeInteger(baseMs), capMs: decodeInteger(capMs) },
    createdAt: String(row['created_at']),
    updatedAt: String(row['updated_at']),
  };
}

function nullableText(raw: unknown): string | null {
  return raw === null || raw === undefined ? null : String(raw);
}
