/**
 * The file jobs with the real runner, on every database and on both stores (decision 0050): a file
 * no write attached is removed (its row, its bytes, its variants) 24 hours after its upload and not
 * a millisecond before; an attached file is left alone; a detached file's bytes go once its row is;
 * a job run twice, or retried after the store failed halfway, ends the same; another file's bytes
 * are never touched. The daily sweep (decision 0071): bytes no row names, over an hour old, are
 * removed an hour later unless a row names them by then; fresh bytes, a file's bytes and variants
 * while its row is there, and keys that are no file's are kept; the disk's temporary files of killed
 * uploads go once an hour old; a start leaves a pending sweep at its time, a failed one is retried.
 * The clock is the test's; the runner is driven by `runDue()`; the bytes are dated by setting the
 * times of the files that hold them (the disk's, s3rver's).
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNATTACHED_FILE_TTL_MS } from '@ninefold/model';
import {
  DIALECTS,
  type TestS3Server,
  type TestServer,
  givenUser,
  specModel,
  startS3Server,
  tempFileStore,
  testServer,
} from '@ninefold/testkit';
import {
  FILE_EXPIRE_JOB,
  FILE_REMOVE_JOB,
  FILE_SWEEP_JOB,
  type FileStore,
  JobRunner,
  ORPHAN_AGE_MS,
  SWEEP_EVERY_MS,
  TABLES,
  diskFileStore,
  fileKeys,
  openFileStore,
  productJobHandlers,
  scheduleFileSweep,
  sweepFiles,
} from '../src/index.js';
import { enqueueFileRemoval, scheduleFileExpiry } from '../src/files/lifecycle.js';
import { variantKey } from '../src/files/keys.js';
import { newId } from '../src/ids.js';

const model = specModel(`
entities:
  Claim: { fields: { title: string } }
roles:
  employee:
    Claim: { read: true, create: true }
`);

let s3: TestS3Server;
let s3Runs = 0;
beforeAll(async () => {
  s3 = await startS3Server();
});

const STORES: Record<'disk' | 's3', () => FileStore> = {
  disk: tempFileStore,
  s3: () => openFileStore(s3.env(`jobs${(s3Runs += 1)}`), '/nowhere'),
};

/** A store whose bytes the test can date, and see the temporary files of. */
interface Dated {
  readonly files: FileStore;
  /** Makes the bytes under `key` look written at `at`. */
  date(key: string, at: Date): void;
  /** Leaves what an upload killed at `at` leaves: a temporary file on the disk, nothing on S3. */
  killedUpload(name: string, at: Date): void;
  /** The temporary files there are. */
  partial(): string[];
}

const scratch = mkdtempSync(join(tmpdir(), 'ninefold-sweep-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
let dated = 0;

const DATED: Record<'disk' | 's3', () => Dated> = {
  disk: () => {
    const root = join(scratch, `files${(dated += 1)}`);
    const tmp = join(root, 'tmp');
    return {
      files: diskFileStore(root),
      date: (key, at) => utimesSync(join(root, key.slice(0, 2), key), at, at),
      killedUpload(name, at) {
        mkdirSync(tmp, { recursive: true });
        writeFileSync(join(tmp, name), 'half of it');
        utimesSync(join(tmp, name), at, at);
      },
      partial: () => readdirSync(tmp).sort(),
    };
  },
  s3: () => {
    const prefix = `sweep${(dated += 1)}`;
    return {
      files: openFileStore(s3.env(prefix), '/nowhere'),
      // s3rver dates an object by its file's time: S3's LastModified
      date: (key, at) => utimesSync(join(s3.directory, s3.bucket, prefix, `${key}._S3rver_object`), at, at),
      // the parts of an interrupted upload are never listed: nothing for the store to see
      killedUpload: () => undefined,
      partial: () => [],
    };
  },
};

/** A server on a store, a user, and a runner of the product's jobs on the server's clock. */
async function world(dialect: (typeof DIALECTS)[number], files: FileStore) {
  const server = await testServer(dialect, model, { files });
  const user = await givenUser(server, 'ann@example.com', ['employee']);
  const handlers = productJobHandlers({ model, database: server.database, files, now: server.clock.now });
  const runner = new JobRunner({ database: server.database, now: server.clock.now, handlers });
  return { server, user, runner, handlers };
}

/** What an upload leaves: the bytes and every variant in the store, the row, the expiry job. */
async function uploaded(server: TestServer, uploadedBy: string, id: string): Promise<void> {
  await stored(server, fileKeys(id));
  await recorded(server, uploadedBy, id);
}

/** Bytes under each of `keys`, and no row. */
async function stored(server: TestServer, keys: readonly string[]): Promise<void> {
  for (const key of keys) await server.files.put(key, Readable.from([Buffer.from(key)]));
}

/** The row of a file whose bytes are stored, and its expiry: the second half of an upload. */
async function recorded(server: TestServer, uploadedBy: string, id: string): Promise<void> {
  const now = server.clock.now();
  await server.database.db.transaction().execute(async (trx) => {
    await trx
      .insertInto(TABLES.files)
      .values({
        id,
        name: 'receipt.pdf',
        size: id.length,
        type: 'application/pdf',
        uploaded_by: uploadedBy,
        uploaded_at: now.toISOString(),
      })
      .execute();
    await scheduleFileExpiry(trx, id, now);
  });
}

async function attach(server: TestServer, id: string): Promise<void> {
  await server.database.db
    .updateTable(TABLES.files)
    .set({
      entity: 'Claim',
      record_id: 'c1',
      field: 'receipt',
      attached_at: server.clock.now().toISOString(),
    })
    .where('id', '=', id)
    .execute();
}

/** A write that detaches a file: its row goes and its removal is enqueued, in one transaction. */
async function detach(server: TestServer, id: string): Promise<void> {
  await server.database.db.transaction().execute(async (trx) => {
    await trx.deleteFrom(TABLES.files).where('id', '=', id).execute();
    await enqueueFileRemoval(trx, id, server.clock.now());
  });
}

async function storedKeys(files: FileStore): Promise<string[]> {
  const keys: string[] = [];
  for await (const { key } of files.keys()) keys.push(key);
  return keys.sort();
}

async function rowOf(server: TestServer, id: string) {
  return server.database.db.selectFrom(TABLES.files).selectAll().where('id', '=', id).executeTakeFirst();
}

/** The file a file job is about. */
function fileOf(job: Record<string, unknown>): string {
  return (JSON.parse(String(job['payload'])) as { file: string }).file;
}

async function jobsOf(server: TestServer, kind: string) {
  return server.database.db.selectFrom(TABLES.jobs).selectAll().where('kind', '=', kind).execute();
}

/** A store whose first `failures` deletes fail after deleting nothing: S3 down for a moment. */
function failingDeletes(files: FileStore, failures: number): FileStore {
  let left = failures;
  return {
    ...files,
    keys: () => files.keys(),
    async delete(key) {
      if (left > 0) {
        left -= 1;
        throw new Error('the store is unreachable');
      }
      await files.delete(key);
    },
  };
}

for (const dialect of DIALECTS)
  for (const kind of ['disk', 's3'] as const)
    describe(`${dialect}, ${kind}: file jobs`, () => {
      it('removes a file nobody attached 24 hours after its upload, and not before', async () => {
        const { server, user, runner } = await world(dialect, STORES[kind]());
        await uploaded(server, user.id, 'f_unheld');
        await uploaded(server, user.id, 'f_other');
        server.clock.advance(1);
        // an upload a moment later expires a moment later
        expect(await storedKeys(server.files)).toEqual(
          [...fileKeys('f_other'), ...fileKeys('f_unheld')].sort(),
        );
        server.clock.advance(UNATTACHED_FILE_TTL_MS - 2);
        expect(await runner.runDue()).toBe(0);
        expect(await rowOf(server, 'f_unheld')).toBeDefined();
        server.clock.advance(1);
        expect(await runner.runDue()).toBe(2);
        expect(await rowOf(server, 'f_unheld')).toBeUndefined();
        expect(await rowOf(server, 'f_other')).toBeUndefined();
        expect(await storedKeys(server.files)).toEqual([]);
        expect((await jobsOf(server, FILE_EXPIRE_JOB)).map((j) => j['state'])).toEqual(['done', 'done']);
      });

      it('leaves an attached file, its row and its bytes, when its expiry comes', async () => {
        const { server, user, runner } = await world(dialect, STORES[kind]());
        await uploaded(server, user.id, 'f_held');
        await uploaded(server, user.id, 'f_dropped');
        server.clock.advance(60_000);
        await attach(server, 'f_held');
        server.clock.advance(UNATTACHED_FILE_TTL_MS);
        expect(await runner.runDue()).toBe(2);
        expect((await rowOf(server, 'f_held'))?.['record_id']).toBe('c1');
        expect(await rowOf(server, 'f_dropped')).toBeUndefined();
        expect(await storedKeys(server.files)).toEqual(fileKeys('f_held').sort());
      });

      it('removes the bytes and variants of a detached file, and only its', async () => {
        const { server, user, runner } = await world(dialect, STORES[kind]());
        await uploaded(server, user.id, 'f_replaced');
        await uploaded(server, user.id, 'f_kept');
        await attach(server, 'f_replaced');
        await attach(server, 'f_kept');
        await detach(server, 'f_replaced');
        expect(await runner.runDue()).toBe(1);
        expect(await storedKeys(server.files)).toEqual(fileKeys('f_kept').sort());
        expect((await jobsOf(server, FILE_REMOVE_JOB)).map((j) => j['state'])).toEqual(['done']);
        // its expiry, still scheduled, finds no row and nothing left to remove
        server.clock.advance(UNATTACHED_FILE_TTL_MS);
        expect(await runner.runDue()).toBe(2);
        expect(await storedKeys(server.files)).toEqual(fileKeys('f_kept').sort());
        expect(await rowOf(server, 'f_kept')).toBeDefined();
      });

      it('ends the same when a job runs twice', async () => {
        const { server, user, runner, handlers } = await world(dialect, STORES[kind]());
        await uploaded(server, user.id, 'f_twice');
        await uploaded(server, user.id, 'f_gone');
        await attach(server, 'f_gone');
        await detach(server, 'f_gone');
        server.clock.advance(UNATTACHED_FILE_TTL_MS);
        expect(await runner.runDue()).toBe(3);
        const signal = new AbortController().signal;
        const { jobOf } = await import('../src/jobs/job.js');
        for (const row of [
          ...(await jobsOf(server, FILE_EXPIRE_JOB)),
          ...(await jobsOf(server, FILE_REMOVE_JOB)),
        ])
          await handlers[String(row['kind'])]!(jobOf(row), signal);
        expect(await storedKeys(server.files)).toEqual([]);
        expect(await server.database.db.selectFrom(TABLES.files).selectAll().execute()).toEqual([]);
      });

      it('removes the bytes on a retry when the store failed after the row was deleted', async () => {
        const store = STORES[kind]();
        const { server, user } = await world(dialect, store);
        await uploaded(server, user.id, 'f_retried');
        const flaky = failingDeletes(store, 1);
        const runner = new JobRunner({
          database: server.database,
          now: server.clock.now,
          handlers: productJobHandlers({
            model,
            database: server.database,
            files: flaky,
            now: server.clock.now,
          }),
        });
        server.clock.advance(UNATTACHED_FILE_TTL_MS);
        expect(await runner.runDue()).toBe(1);
        const [failed] = await jobsOf(server, FILE_EXPIRE_JOB);
        expect(failed?.['state']).toBe('pending');
        expect(String(failed?.['last_error'])).toContain('the store is unreachable');
        expect(await rowOf(server, 'f_retried')).toBeUndefined();
        server.clock.advance(60 * 60_000);
        expect(await runner.runDue()).toBe(1);
        expect((await jobsOf(server, FILE_EXPIRE_JOB))[0]?.['state']).toBe('done');
        expect(await storedKeys(server.files)).toEqual([]);
      });

      it('sweeps bytes no row names once over an hour old, and never bytes a row names', async () => {
        const store = DATED[kind]();
        const { server, user, runner, handlers } = await world(dialect, store.files);
        const now = server.clock.now();
        const old = new Date(now.getTime() - ORPHAN_AGE_MS - 60_000);
        const fresh = new Date(now.getTime() - ORPHAN_AGE_MS + 60_000);
        // a file with its row, and bytes without: a crash between the two halves of an upload, an
        // upload that is about to insert its row, one whose row a long upload has yet to insert
        const [held, orphan, young, late] = [newId(), newId(), newId(), newId()];
        await uploaded(server, user.id, held);
        await stored(server, [orphan, variantKey(orphan, 320), young, late, 'notes.txt']);
        for (const key of [...fileKeys(held), orphan, variantKey(orphan, 320), late, 'notes.txt'])
          store.date(key, old);
        store.date(young, fresh);
        store.killedUpload('killed.part', old);
        store.killedUpload('writing.part', fresh);
        const everything = [...fileKeys(held), orphan, variantKey(orphan, 320), young, late, 'notes.txt'];

        await scheduleFileSweep(server.database.db, now);
        expect(await runner.runDue()).toBe(1);
        // the old temporary file at once; the orphans' bytes an hour on, by their file's removal
        expect(store.partial()).toEqual(kind === 'disk' ? ['writing.part'] : []);
        expect(await storedKeys(server.files)).toEqual(everything.sort());
        const removals = await jobsOf(server, FILE_REMOVE_JOB);
        expect(removals.map(fileOf).sort()).toEqual([late, orphan].sort());
        expect(removals.map((job) => Number(job['run_at']))).toEqual([
          now.getTime() + ORPHAN_AGE_MS,
          now.getTime() + ORPHAN_AGE_MS,
        ]);
        // run again, it writes no second removal and finds no temporary file left
        const { jobOf } = await import('../src/jobs/job.js');
        const [swept] = await jobsOf(server, FILE_SWEEP_JOB);
        await handlers[FILE_SWEEP_JOB]!(jobOf(swept!), new AbortController().signal);
        expect(await jobsOf(server, FILE_REMOVE_JOB)).toHaveLength(2);
        expect(await sweepFiles({ database: server.database, files: store.files }, now)).toEqual({
          listed: everything.length,
          orphans: 0,
          leftovers: 0,
        });

        // the long upload's row comes in (S3 dates its bytes from the upload's start): kept
        await recorded(server, user.id, late);
        server.clock.advance(ORPHAN_AGE_MS);
        expect(await runner.runDue()).toBe(2);
        expect(await storedKeys(server.files)).toEqual([...fileKeys(held), young, late, 'notes.txt'].sort());
        expect(await rowOf(server, held)).toBeDefined();
        expect(await rowOf(server, late)).toBeDefined();
        expect((await jobsOf(server, FILE_REMOVE_JOB)).map((job) => job['state'])).toEqual(['done', 'done']);
      });

      it('sweeps a day after a day: a start leaves a pending sweep at its time, a failed one is retried', async () => {
        const store = DATED[kind]();
        const { server } = await world(dialect, store.files);
        const start = server.clock.now().getTime();
        const sweeps = async () =>
          (await jobsOf(server, FILE_SWEEP_JOB))
            .map((job) => [job['state'], Number(job['run_at']) - start] as const)
            .sort(([, a], [, b]) => a - b);
        // the first start writes one due at once; a second start finds it
        await scheduleFileSweep(server.database.db, server.clock.now());
        await scheduleFileSweep(server.database.db, server.clock.now());
        expect(await sweeps()).toEqual([['pending', 0]]);
        // the store cannot be listed: the sweep is retried, and writes its next only once it ran
        let refusals = 1;
        const flaky: FileStore = {
          ...store.files,
          keys: () => {
            if (refusals > 0) {
              refusals -= 1;
              throw new Error('the store is unreachable');
            }
            return store.files.keys();
          },
        };
        const runner = new JobRunner({
          database: server.database,
          now: server.clock.now,
          handlers: productJobHandlers({
            model,
            database: server.database,
            files: flaky,
            now: server.clock.now,
          }),
        });
        expect(await runner.runDue()).toBe(1);
        const [failed] = await jobsOf(server, FILE_SWEEP_JOB);
        expect(String(failed?.['last_error'])).toContain('the store is unreachable');
        expect((await sweeps()).map(([state]) => state)).toEqual(['pending']);
        server.clock.advance(60_000);
        expect(await runner.runDue()).toBe(1);
        // done at its retry (a few seconds on), the next a day after it ran
        expect(await sweeps()).toEqual([
          ['done', expect.any(Number)],
          ['pending', 60_000 + SWEEP_EVERY_MS],
        ]);
        // a restart in between leaves tomorrow's sweep at its time
        await scheduleFileSweep(server.database.db, server.clock.now());
        expect((await sweeps()).at(-1)).toEqual(['pending', 60_000 + SWEEP_EVERY_MS]);
        server.clock.advance(SWEEP_EVERY_MS - 1);
        expect(await runner.runDue()).toBe(0);
        server.clock.advance(1);
        expect(await runner.runDue()).toBe(1);
        expect((await sweeps()).map(([state, at]) => [state, at - 60_000])).toEqual([
          ['done', expect.any(Number)],
          ['done', SWEEP_EVERY_MS],
          ['pending', 2 * SWEEP_EVERY_MS],
        ]);
      });

      it('finds the same orphans in batches of two, and stops when its signal aborts', async () => {
        const store = DATED[kind]();
        const { server, user } = await world(dialect, store.files);
        const now = server.clock.now();
        const old = new Date(now.getTime() - 2 * ORPHAN_AGE_MS);
        const held = [newId(), newId(), newId()];
        const orphans = [newId(), newId(), newId(), newId(), newId()];
        for (const id of held) await uploaded(server, user.id, id);
        await stored(server, orphans);
        const keys = [...held.flatMap((id) => fileKeys(id)), ...orphans];
        for (const key of keys) store.date(key, old);
        const context = { database: server.database, files: store.files };
        const aborted = new AbortController();
        aborted.abort(new Error('the lease ended'));
        await expect(sweepFiles(context, now, aborted.signal, 2)).rejects.toThrow('the lease ended');
        expect(await jobsOf(server, FILE_REMOVE_JOB)).toEqual([]);
        expect(await sweepFiles(context, now, undefined, 2)).toEqual({
          listed: keys.length,
          orphans: orphans.length,
          leftovers: 0,
        });
        expect((await jobsOf(server, FILE_REMOVE_JOB)).map(fileOf).sort()).toEqual([...orphans].sort());
      });
    });
