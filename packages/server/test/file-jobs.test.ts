/**
 * The file jobs with the real runner, on every database and on both stores (decision 0050): a file
 * no write attached is removed (its row, its bytes, its variants) 24 hours after its upload and not
 * a millisecond before; an attached file is left alone; a detached file's bytes go once its row is;
 * a job run twice, or retried after the store failed halfway, ends the same; another file's bytes
 * are never touched. The clock is the test's; the runner is driven by `runDue()`.
 */
import { Readable } from 'node:stream';
import { beforeAll, describe, expect, it } from 'vitest';
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
  type FileStore,
  JobRunner,
  TABLES,
  fileKeys,
  openFileStore,
  productJobHandlers,
} from '../src/index.js';
import { enqueueFileRemoval, scheduleFileExpiry } from '../src/files/lifecycle.js';

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
  for (const key of fileKeys(id)) await server.files.put(key, Readable.from([Buffer.from(key)]));
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
  for await (const key of files.keys()) keys.push(key);
  return keys.sort();
}

async function rowOf(server: TestServer, id: string) {
  return server.database.db.selectFrom(TABLES.files).selectAll().where('id', '=', id).executeTakeFirst();
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
    });
