/**
 * When a file's bytes go (decision 0050), as jobs written in the transaction that decides it, so
 * that a crash after the commit cannot leave bytes nobody will ever remove:
 * - an upload schedules its expiry (`ninefold.file-expire`, keyed by the file) 24 hours on, which
 *   removes the file if no write attached it by then;
 * - a write that detaches a file (replaced, removed, or its record deleted) deletes its row and
 *   enqueues the removal of its bytes and variants (`ninefold.file-remove`), run after the commit.
 * The handlers are in `jobs.ts`, registered with the product's job kinds. Bytes that no row ever
 * named (a crash between the store and the row) are the daily sweep's (`sweep.ts`).
 */
import { type Kysely, type Transaction } from 'kysely';
import { UNATTACHED_FILE_TTL_MS } from '@ninefold/model';
import { enqueueJob } from '../jobs/enqueue.js';
import { scheduleJob } from '../jobs/schedule.js';

/** Removes a file no write attached within `UNATTACHED_FILE_TTL_MS` of its upload. */
export const FILE_EXPIRE_JOB = 'ninefold.file-expire';
/** Removes a file's bytes (and its variants) from the store, once its row is gone. */
export const FILE_REMOVE_JOB = 'ninefold.file-remove';

/** The payload of both jobs. */
export interface FileJobPayload {
  readonly file: string;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the server's own table, outside the spec's schema
type Trx = Transaction<any> | Kysely<any>;

/**
 * Schedules the removal of a file just uploaded, should nothing attach it in time.
 *
 * @example await scheduleFileExpiry(trx, file.id, now);
 */
export async function scheduleFileExpiry(trx: Trx, file: string, uploadedAt: Date): Promise<void> {
  const payload: FileJobPayload = { file };
  await scheduleJob(
    trx,
    {
      kind: FILE_EXPIRE_JOB,
      key: `file/${file}`,
      runAt: new Date(uploadedAt.getTime() + UNATTACHED_FILE_TTL_MS),
      payload,
    },
    uploadedAt,
  );
}

/**
 * Enqueues the removal of a file's bytes, in the transaction that deleted its row (due at once), or
 * for bytes a sweep found no row naming (due an hour on: decision 0071). True when it wrote the job;
 * false when the file's removal was pending already.
 *
 * @example await enqueueFileRemoval(trx, 'f1', now);
 */
export async function enqueueFileRemoval(
  trx: Trx,
  file: string,
  now: Date,
  runAt: Date = now,
): Promise<boolean> {
  const payload: FileJobPayload = { file };
  const { created } = await enqueueJob(
    trx,
    { kind: FILE_REMOVE_JOB, key: `file-remove/${file}`, runAt, payload },
    now,
  );
  return created;
}
