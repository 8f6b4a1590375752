/**
 * Two job settings of the job core on every database: a `sequence` runs its jobs one at a time in
 * the order written — a later job waits while an earlier one is pending or running, goes once that
 * one is done or dead, and jobs of other sequences (or none) are not held up — and a job's own
 * `backoff` sets its waits between attempts instead of the runner's.
 */
import { describe, expect, it } from 'vitest';
import { DIALECTS, freshDatabase, specModel, testClock } from '@ninefold/testkit';
import { type Database, JobRunner, TABLES, enqueueJob, migrate } from '@ninefold/server';

const model = specModel(`entities: { Note: { fields: { title: { type: string } } } }`);

async function migrated(dialect: (typeof DIALECTS)[number]): Promise<Database> {
  const { database } = await freshDatabase(dialect);
  await migrate(database, model);
  return database;
}

const MINUTE = 60_000;

for (const dialect of DIALECTS) {
  describe(`${dialect}: job sequences and backoff`, () => {
    it('runs a sequence’s jobs one at a time in the order written, past a failure and a death', async () => {
      const database = await migrated(dialect);
      const clock = testClock();
      const ran: string[] = [];
      const failing = new Set(['a1']);
      const runner = new JobRunner({
        database,
        now: clock.now,
        backoff: { baseMs: MINUTE, capMs: MINUTE },
        handlers: {
          step: async (job) => {
            const name = (job.payload as { name: string }).name;
            ran.push(name);
            if (failing.has(name)) throw new Error(`${name} fails`);
          },
        },
      });
      const write = (name: string, sequence?: string, maxAttempts = 5) =>
        enqueueJob(
          database.db,
          { kind: 'step', payload: { name }, maxAttempts, ...(sequence === undefined ? {} : { sequence }) },
          clock.now(),
        );
      // written in one instant: the order is the ids'
      await write('a1', 'a', 2);
      await write('a2', 'a');
      await write('a3', 'a');
      await write('b1', 'b');
      await write('free');
      expect(await runner.runDue()).toBe(3);
      expect([...ran].sort()).toEqual(['a1', 'b1', 'free']);

      // a1 failed and waits for its retry: a2 and a3 wait behind it
      ran.length = 0;
      expect(await runner.runDue()).toBe(0);
      clock.advance(2 * MINUTE);
      expect(await runner.runDue()).toBe(1);
      expect(ran).toEqual(['a1']);
      // a1 is dead after its second attempt: the sequence goes on, one job a round
      expect(await runner.runDue()).toBe(1);
      expect(await runner.runDue()).toBe(1);
      expect(ran).toEqual(['a1', 'a2', 'a3']);
      const states = await database.db
        .selectFrom(TABLES.jobs)
        .select(['state', 'sequence'])
        .where('sequence', '=', 'a')
        .orderBy('id')
        .execute();
      expect(states.map((s) => s['state'])).toEqual(['dead', 'done', 'done']);
    });

    it('refuses an empty or overlong sequence and a backoff without a sensible base and cap', async () => {
      const database = await migrated(dialect);
      await expect(enqueueJob(database.db, { kind: 'step', sequence: '' })).rejects.toThrow(
        "A job's sequence must be 1 to 200 characters long.",
      );
      await expect(enqueueJob(database.db, { kind: 'step', sequence: 'x'.repeat(201) })).rejects.toThrow(
        "A job's sequence must be 1 to 200 characters long.",
      );
      await expect(
        enqueueJob(database.db, { kind: 'step', backoff: { baseMs: 1000, capMs: 10 } }),
      ).rejects.toThrow("A job's backoff needs a base of at least 1 ms and a cap of at least its base.");
      expect(await database.db.selectFrom(TABLES.jobs).select('id').execute()).toEqual([]);
    });

    it('waits between attempts as the job’s own backoff says, not the runner’s', async () => {
      const database = await migrated(dialect);
      const clock = testClock();
      const runner = new JobRunner({
        database,
        now: clock.now,
        backoff: { baseMs: 1000, capMs: 1000 },
        handlers: { step: async () => Promise.reject(new Error('down')) },
      });
      const own = await enqueueJob(
        database.db,
        { kind: 'step', backoff: { baseMs: 10 * MINUTE, capMs: 10 * MINUTE } },
        clock.now(),
      );
      const runners = await enqueueJob(database.db, { kind: 'step' }, clock.now());
      expect(await runner.runDue()).toBe(2);
      const runAt = async (id: string) =>
        Number(
          (
            await database.db
              .selectFrom(TABLES.jobs)
              .select('run_at')
              .where('id', '=', id)
              .executeTakeFirstOrThrow()
          ).run_at,
        ) - clock.now().getTime();
      // equal jitter: between half the delay and all of it
      expect(await runAt(own.id)).toBeGreaterThanOrEqual(5 * MINUTE);
      expect(await runAt(own.id)).toBeLessThanOrEqual(10 * MINUTE);
      expect(await runAt(runners.id)).toBeLessThanOrEqual(1000);
    });
  });
}
