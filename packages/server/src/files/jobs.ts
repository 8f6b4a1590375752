/**
 * The handlers of the file jobs that `lifecycle.ts` writes (decision 0050):
 * - `ninefold.file-expire`, 24 hours after an upload: a file no write attached by then has its row
 *   deleted (in a transaction that takes it only if it is still unattached, so a write attaching it
 *   at that moment either wins or finds it gone) and then its bytes and variants; an attached file
 *   is left alone;
 * - `ninefold.file-remove`, after the write that deleted a file's row, or an hour after the sweep
 *   found bytes no row names (`sweep.ts`): its bytes and variants go, unless a row names it by then.
 * Both are idempotent, as deliveries are at least once: a second run finds no row and deletes keys
 * that are no longer there, which is no error. Bytes are deleted only when no row names the file.
 */
import { TABLES } from '../schema/names.js';
import { type Database } from '../db/open.js';
import { type Job } from '../jobs/job.js';
import { fileKeys } from './keys.js';
import { type FileJobPayload } from './lifecycle.js';
import { type FileStore } from './store.js';

/** What a file job did: for tests and logs. */
export type FileJobOutcome = 'removed' | 'kept';

/** What the file jobs use. */
export interface FileJobContext {
  readonly database: Database;
  readonly files: FileStore;
}

/**
 * Runs a `ninefold.file-expire` job: removes the file unless a record holds it.
 *
 * @example await expireFile({ database, files }, job) // 'removed', or 'kept' when attached
 */
export async function expireFile(context: FileJobContext, job: Job): Promise<FileJobOutcome> {
  const { file } = job.payload as FileJobPayload;
  const kept = await context.database.db.transaction().execute(async (tx) => {
    await tx.deleteFrom(TABLES.files).where('id', '=', file).where('record_id', 'is', null).execute();
    // attached meanwhile (or before): the row stays, and so do the bytes
    const row = await tx.selectFrom(TABLES.files).select('id').where('id', '=', file).executeTakeFirst();
    return row !== undefined;
  });
  if (kept) return 'kept';
  await deleteBytes(context.files, file);
  return 'removed';
}

/**
 * Runs a `ninefold.file-remove` job: removes the file's bytes and variants, its row being gone.
 *
 * @example await removeFile({ database, files }, job) // 'removed'
 */
export async function removeFile(context: FileJobContext, job: Job): Promise<FileJobOutcome> {
  const { file } = job.payload as FileJobPayload;
  // a row that names the file means its bytes are still someone's: never delete them from under it
  const row = await context.database.db
    .selectFrom(TABLES.files)
    .select('id')
    .where('id', '=', file)
    .executeTakeFirst();
  if (row !== undefined) return 'kept';
  await deleteBytes(context.files, file);
  return 'removed';
}

/** Deletes every key of a file: the original and each variant. */
async function deleteBytes(files: FileStore, file: string): Promise<void> {
  await Promise.all(fileKeys(file).map((key) => files.delete(key)));
}
