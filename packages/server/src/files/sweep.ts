/**
 * The sweep of orphaned bytes (decision 0071): what the store holds that no row of `ninefold_files`
 * names and no file job will ever hear of — the bytes of an upload whose process stopped between
 * storing them and inserting their row, bytes a restore put back that the database does not name —
 * and, on the disk, the temporary files of uploads killed midway. `ninefold.file-sweep` runs once a
 * day, and a start makes sure one is pending (`scheduleFileSweep`):
 * - the store's keys are streamed and their files' rows looked up a batch at a time, so that it holds
 *   one batch in memory whatever the store's size;
 * - a key of a file without a row, written more than an hour ago (`StoredKey.modifiedAt`), gets the
 *   file's removal (`ninefold.file-remove`) an hour on, which looks for the row again before it
 *   deletes anything. The hour after the sweep is what makes it safe on S3: there a multipart upload's
 *   object is dated from the upload's start, so a long upload's bytes may look old the moment they
 *   appear, while their row is being inserted; by the time the removal runs, that row is there;
 * - a key that is not a file's (`fileOfKey`: another program's object in a shared bucket) is never
 *   touched, nor is a key whose file has a row;
 * - the temporary files last written more than an hour ago go at once (`FileStore.removeLeftovers`).
 * Run twice, it writes no second removal (they are keyed by file) and finds no leftover twice.
 */
import { type Kysely, type Transaction } from 'kysely';
import { TABLES } from '../schema/names.js';
import { enqueueJob } from '../jobs/enqueue.js';
import { scheduleJob } from '../jobs/schedule.js';
import { type FileJobContext } from './jobs.js';
import { fileOfKey } from './keys.js';
import { enqueueFileRemoval } from './lifecycle.js';

/** Removes, a day after day, the bytes no row names and the temporary files uploads left. */
export const FILE_SWEEP_JOB = 'ninefold.file-sweep';

/** The one key of the sweep: at most one is pending, and one runs at a time. */
const SWEEP_KEY = 'file-sweep';

/**
 * How old bytes without a row must be before the sweep takes them for orphans, and how long their
 * removal then waits: far longer than an upload takes from its last byte stored to its row inserted.
 */
export const ORPHAN_AGE_MS = 60 * 60_000;

/** How long from one sweep to the next. */
export const SWEEP_EVERY_MS = 24 * 3_600_000;

/** How many files' rows one statement looks up. */
export const SWEEP_BATCH = 500;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the server's own table, outside the spec's schema
type Db = Transaction<any> | Kysely<any>;

/** What a sweep did: for tests and logs. */
export interface SweepOutcome {
  /** The keys the store listed. */
  readonly listed: number;
  /** The files whose removal it wrote (a file's removal already pending is not counted again). */
  readonly orphans: number;
  /** The temporary files it removed. */
  readonly leftovers: number;
}

/**
 * Makes sure a sweep is pending: due now when none is (the first start, or a sweep that died after
 * its last attempt); a pending one keeps its time, so that restarts do not list the store each time.
 *
 * @example await scheduleFileSweep(database.db, new Date());
 */
export async function scheduleFileSweep(db: Db, now: Date): Promise<void> {
  await enqueueJob(db, { kind: FILE_SWEEP_JOB, key: SWEEP_KEY }, now);
}

/**
 * Runs a `ninefold.file-sweep` job at `now`, then schedules the next a day on. It stops between two
 * keys when `signal` aborts (its lease ended, the process stops); a later run starts over.
 *
 * @example await sweepFiles({ database, files }, now) // { listed: 1204, orphans: 1, leftovers: 0 }
 */
export async function sweepFiles(
  context: FileJobContext,
  now: Date,
  signal?: AbortSignal,
  batch = SWEEP_BATCH,
): Promise<SweepOutcome> {
  const before = new Date(now.getTime() - ORPHAN_AGE_MS);
  const leftovers = await context.files.removeLeftovers(before);
  let listed = 0;
  let orphans = 0;
  // the files of the old keys listed since the last look-up: a batch at most
  const files = new Set<string>();
  for await (const { key, modifiedAt } of context.files.keys()) {
    signal?.throwIfAborted();
    listed += 1;
    const file = fileOfKey(key);
    if (file === null || modifiedAt.getTime() >= before.getTime()) continue;
    files.add(file);
    if (files.size < batch) continue;
    orphans += await removeUnnamed(context, [...files], now);
    files.clear();
  }
  if (files.size > 0) orphans += await removeUnnamed(context, [...files], now);
  await scheduleJob(
    context.database.db,
    { kind: FILE_SWEEP_JOB, key: SWEEP_KEY, runAt: new Date(now.getTime() + SWEEP_EVERY_MS) },
    now,
  );
  return { listed, orphans, leftovers };
}

/** Writes the removal, an hour on, of each of `files` that no row names; how many it wrote. */
async function removeUnnamed(context: FileJobContext, files: string[], now: Date): Promise<number> {
  const named = await context.database.db
    .selectFrom(TABLES.files)
    .select('id')
    .where('id', 'in', files)
    .execute();
  const held = new Set(named.map((row) => String(row['id'])));
  const unnamed = files.filter((file) => !held.has(file));
  if (unnamed.length === 0) return 0;
  const runAt = new Date(now.getTime() + ORPHAN_AGE_MS);
  return context.database.db.transaction().execute(async (trx) => {
    let written = 0;
    for (const file of unnamed) if (await enqueueFileRemoval(trx, file, now, runAt)) written += 1;
    return written;
  });
}
