/**
 * The job runner on every database: a job written in a transaction runs only if that transaction
 * commits, and then once; a failing job is retried with growing delays and goes dead after its last
 * attempt; a lease whose runner died is taken over; stop() waits for running handlers; a kind no
 * handler knows goes dead. (Two processes' runners sharing one PostgreSQL are the fault suite's,
 * `faults/jobs.faults.ts`.)
 */
import { describe, expect, it } from 'vitest';
import { DIALECTS, freshDatabase, specModel, testClock } from '@ninefold/testkit';
import { type Database, type Job, JobRunner, TABLES, enqueueJob, migrate } from '@ninefold/server';

const model = specModel(`entities: { Note: { fields: { title: { type: string } } } }`);

async function migrated(dialect: (typeof DIALECTS)[number]): Promise<Database> {
  const { database } = await freshDatabase(dialect);
  await migrate(database, model);
  return database;
}

async function row(database: Database, id: string) {
  return database.db.selectFrom(TABLES.jobs).selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

const backoff = { baseMs: 1000, capMs: 60_000 };

for (const dialect of DIALECTS) {
  describe(`${dialect}: jobs`, () => {
    it('a job written in a transaction that rolls back never runs; one that commits runs once', async () => {
      const database = await migrated(dialect);
      const clock = testClock();
      const ran: unknown[] = [];
      const runner = new JobRunner({
        database,
        now: clock.now,
        handlers: { note: async (job) => void ran.push(job.payload) },
      });
      await expect(
        database.db.transaction().execute(async (trx) => {
          await enqueueJob(trx, { kind: 'note', payload: { n: 'rolled back' } }, clock.now());
          throw new Error('the change fails');
        }),
      ).rejects.toThrow('the change fails');
      const committed = await database.db
        .transaction()
        .execute((trx) => enqueueJob(trx, { kind: 'note', payload: { n: 'committed' } }, clock.now()));
      expect(await runner.runDue()).toBe(1);
      expect(await runner.runDue()).toBe(0);
      clock.advance(24 * 60 * 60_000);
      expect(await runner.runDue()).toBe(0);
      expect(ran).toEqual([{ n: 'committed' }]);
      const done = await row(database, committed.id);
      expect(done['state']).toBe('done');
      expect(Number(done['attempts'])).toBe(1);
      expect(await database.db.selectFrom(TABLES.jobs).select('id').execute()).toHaveLength(1);
    });

    it('runs a job no earlier than its time', async () => {
      const database = await migrated(dialect);
      const clock = testClock();
      let ran = 0;
      const runner = new JobRunner({
        database,
        now: clock.now,
        handlers: { later: async () => void (ran += 1) },
      });
      await enqueueJob(
        database.db,
        { kind: 'later', runAt: new Date(clock.now().getTime() + 60_000) },
        clock.now(),
      );
      expect(await runner.runDue()).toBe(0);
      clock.advance(59_999);
      expect(await runner.runDue()).toBe(0);
      clock.advance(1);
      expect(await runner.runDue()).toBe(1);
      expect(ran).toBe(1);
    });

    it('retries a failing job with growing delays, and after its last attempt it is dead with its last error', async () => {
      const database = await migrated(dialect);
      const clock = testClock();
      let calls = 0;
      const runner = new JobRunner({
        database,
        now: clock.now,
        backoff,
        handlers: {
          flaky: async () => {
            calls += 1;
            throw new Error(`receiver down (${calls})`);
          },
        },
      });
      const { id } = await enqueueJob(database.db, { kind: 'flaky', maxAttempts: 4 }, clock.now());
      const delays: number[] = [];
      for (let attempt = 1; attempt <= 3; attempt += 1) {
        expect(await runner.runDue()).toBe(1);
        const pending = await row(database, id);
        expect(pending['state']).toBe('pending');
        expect(pending['last_error']).toBe(`receiver down (${attempt})`);
        const delay = Number(pending['run_at']) - clock.now().getTime();
        // base × 2^(attempt − 1), with equal jitter: between half of it and all of it
        const full = backoff.baseMs * 2 ** (attempt - 1);
        expect(delay).toBeGreaterThanOrEqual(full / 2);
        expect(delay).toBeLessThanOrEqual(full);
        delays.push(delay);
        // not before its time
        clock.advance(delay - 1);
        expect(await runner.runDue()).toBe(0);
        clock.advance(1);
      }
      expect(delays[2]).toBeGreaterThan(delays[0] ?? Infinity);
      expect(await runner.runDue()).toBe(1);
      const dead = await row(database, id);
      expect(dead['state']).toBe('dead');
      expect(Number(dead['attempts'])).toBe(4);
      expect(dead['last_error']).toBe('receiver down (4)');
      clock.advance(24 * 60 * 60_000);
      expect(await runner.runDue()).toBe(0);
      expect(calls).toBe(4);
    });

    it('caps the delay', async () => {
      const database = await migrated(dialect);
      const clock = testClock();
      const runner = new JobRunner({
        database,
        now: clock.now,
        backoff: { baseMs: 1000, capMs: 3000 },
        handlers: { flaky: () => Promise.reject(new Error('no')) },
      });
      const { id } = await enqueueJob(database.db, { kind: 'flaky', maxAttempts: 10 }, clock.now());
      for (let attempt = 1; attempt <= 6; attempt += 1) {
        expect(await runner.runDue()).toBe(1);
        const delay = Number((await row(database, id))['run_at']) - clock.now().getTime();
        expect(delay).toBeLessThanOrEqual(3000);
        clock.advance(delay);
      }
    });

    it('a job whose runner died is claimed again once its lease ends, and runs to done', async () => {
      const database = await migrated(dialect);
      const clock = testClock();
      const seen: Job[] = [];
      // the first runner claims the job and never finishes it: its process died
      const dying = new JobRunner({
        database,
        now: clock.now,
        leaseMs: 60_000,
        handlers: { work: () => new Promise<void>(() => undefined) },
      });
      const { id } = await enqueueJob(database.db, { kind: 'work' }, clock.now());
      void dying.runDue();
      await expect.poll(async () => (await row(database, id))['state']).toBe('running');
      const other = new JobRunner({
        database,
        now: clock.now,
        leaseMs: 60_000,
        handlers: { work: async (job) => void seen.push(job) },
      });
      clock.advance(59_999);
      expect(await other.runDue()).toBe(0);
      clock.advance(1);
      expect(await other.runDue()).toBe(1);
      expect(seen.map((job) => [job.id, job.attempts])).toEqual([[id, 2]]);
      expect((await row(database, id))['state']).toBe('done');
    });

    it('a job whose last attempt never finished is dead once its lease ends', async () => {
      const database = await migrated(dialect);
      const clock = testClock();
      const dying = new JobRunner({
        database,
        now: clock.now,
        leaseMs: 1000,
        handlers: { work: () => new Promise<void>(() => undefined) },
      });
      const { id } = await enqueueJob(database.db, { kind: 'work', maxAttempts: 1 }, clock.now());
      void dying.runDue();
      await expect.poll(async () => (await row(database, id))['state']).toBe('running');
      clock.advance(1000);
      let ran = 0;
      const other = new JobRunner({
        database,
        now: clock.now,
        handlers: { work: async () => void (ran += 1) },
      });
      expect(await other.runDue()).toBe(1);
      const dead = await row(database, id);
      expect(dead['state']).toBe('dead');
      expect(String(dead['last_error'])).toMatch(/did not finish/);
      expect(ran).toBe(0);
    });

    it('leaves a job of a kind it does not know to a runner that knows it', async () => {
      const database = await migrated(dialect);
      const older = new JobRunner({ database, handlers: { timer: async () => undefined } });
      const { id } = await enqueueJob(database.db, { kind: 'toString' });
      expect(await older.runDue()).toBe(0);
      const waiting = await row(database, id);
      expect([waiting['state'], Number(waiting['attempts'])]).toEqual(['pending', 0]);
      let ran = 0;
      const newer = new JobRunner({ database, handlers: { toString: async () => void (ran += 1) } });
      expect(await newer.runDue()).toBe(1);
      expect(ran).toBe(1);
      expect((await row(database, id))['state']).toBe('done');
    });

    it('writes one unfinished job per kind and key, and frees the key once it is done', async () => {
      const database = await migrated(dialect);
      let ran = 0;
      const runner = new JobRunner({ database, handlers: { timer: async () => void (ran += 1) } });
      const first = await database.db
        .transaction()
        .execute((trx) => enqueueJob(trx, { kind: 'timer', key: 'claims/1/approve' }));
      const again = await database.db.transaction().execute(async (trx) => {
        const repeat = await enqueueJob(trx, { kind: 'timer', key: 'claims/1/approve' });
        // the transaction goes on after the repeat: PostgreSQL did not abort it
        await enqueueJob(trx, { kind: 'timer', key: 'claims/2/approve' });
        return repeat;
      });
      expect(first.created).toBe(true);
      expect(again).toEqual({ id: first.id, created: false });
      const otherKind = await enqueueJob(database.db, { kind: 'other', key: 'claims/1/approve' });
      expect(otherKind.created).toBe(true);
      expect(await runner.runDue()).toBe(2);
      expect(ran).toBe(2);
      const next = await enqueueJob(database.db, { kind: 'timer', key: 'claims/1/approve' });
      expect(next.created).toBe(true);
      expect(next.id).not.toBe(first.id);
    });

    it('refuses a job without a kind, with attempts below one, or with an empty or overlong key', async () => {
      const database = await migrated(dialect);
      await expect(enqueueJob(database.db, { kind: '' })).rejects.toThrow('A job needs a kind.');
      await expect(enqueueJob(database.db, { kind: 'k', maxAttempts: 0 })).rejects.toThrow(/at least 1/);
      await expect(enqueueJob(database.db, { kind: 'k', maxAttempts: 1.5 })).rejects.toThrow(/whole number/);
      await expect(enqueueJob(database.db, { kind: 'k', key: '' })).rejects.toThrow(/1 to 200 characters/);
      await expect(enqueueJob(database.db, { kind: 'k', key: 'x'.repeat(201) })).rejects.toThrow(/1 to 200/);
      expect(await database.db.selectFrom(TABLES.jobs).select('id').execute()).toEqual([]);
    });

    it('started, it runs a job written in this process without waiting for its poll', async () => {
      const database = await migrated(dialect);
      const ran: string[] = [];
      let told: () => void = () => undefined;
      const finished = new Promise<void>((resolve) => (told = resolve));
      const runner = new JobRunner({
        database,
        pollMs: 60_000,
        handlers: {
          note: async (job) => {
            ran.push(job.id);
            told();
          },
        },
      });
      runner.start();
      // the first poll finds nothing; the next is a minute away
      await new Promise((resolve) => setTimeout(resolve, 100));
      const started = Date.now();
      const { id } = await database.db.transaction().execute((trx) => enqueueJob(trx, { kind: 'note' }));
      await finished;
      expect(Date.now() - started).toBeLessThan(5000);
      await runner.stop();
      expect(ran).toEqual([id]);
      await expect.poll(async () => (await row(database, id))['state']).toBe('done');
    });

    it('stop() waits for the running handlers, and aborts those past its timeout', async () => {
      const database = await migrated(dialect);
      let release: () => void = () => undefined;
      const slowGate = new Promise<void>((resolve) => (release = resolve));
      const events: string[] = [];
      let aborted: unknown = null;
      const runner = new JobRunner({
        database,
        pollMs: 10,
        handlers: {
          slow: async () => {
            events.push('slow started');
            await slowGate;
            events.push('slow finished');
          },
          stuck: (_job, signal) =>
            new Promise<void>((_resolve, reject) => {
              events.push('stuck started');
              signal.addEventListener('abort', () => {
                aborted = signal.reason;
                reject(new Error('aborted'));
              });
            }),
        },
      });
      const slow = await enqueueJob(database.db, { kind: 'slow' });
      runner.start();
      await expect.poll(() => events).toContain('slow started');
      setTimeout(() => release(), 200);
      await runner.stop(5000);
      events.push('stopped');
      expect(events).toEqual(['slow started', 'slow finished', 'stopped']);
      expect((await row(database, slow.id))['state']).toBe('done');

      const stuck = await enqueueJob(database.db, { kind: 'stuck' });
      runner.start();
      await expect.poll(() => events).toContain('stuck started');
      await runner.stop(100);
      expect(String(aborted)).toMatch(/stopped/);
      // once stopped, it claims nothing more
      const after = await enqueueJob(database.db, { kind: 'slow' });
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect((await row(database, after.id))['state']).toBe('pending');
      // the aborted attempt failed: the job waits for its retry
      const retried = await row(database, stuck.id);
      expect(retried['state']).toBe('pending');
      expect(retried['last_error']).toBe('aborted');
    });
  });
}
