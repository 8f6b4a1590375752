/**
 * Moving and cancelling a keyed job (`scheduleJob`, `cancelJob`) on every database: a pending job
 * of the key gets the new time, none is written twice, and a cancelled one never runs; a job
 * already running is neither moved nor cancelled.
 */
import { describe, expect, it } from 'vitest';
import { DIALECTS, freshDatabase, specModel, testClock } from '@ninefold/testkit';
import { JobRunner, TABLES, cancelJob, migrate, scheduleJob } from '../src/index.js';

const model = specModel(`entities: { Note: { fields: { title: { type: string } } } }`);

for (const dialect of DIALECTS) {
  describe(`${dialect}: scheduled jobs`, () => {
    it('scheduleJob writes a keyed job, then moves it; cancelJob deletes it', async () => {
      const { database } = await freshDatabase(dialect);
      await migrate(database, model);
      const clock = testClock();
      const ran: unknown[] = [];
      const runner = new JobRunner({
        database,
        now: clock.now,
        handlers: { remind: async (job) => void ran.push(job.payload) },
      });
      const later = (ms: number) => new Date(clock.now().getTime() + ms);
      const first = await scheduleJob(
        database.db,
        { kind: 'remind', key: 'a', runAt: later(60_000), payload: 1 },
        clock.now(),
      );
      expect(first.created).toBe(true);
      const moved = await scheduleJob(
        database.db,
        { kind: 'remind', key: 'a', runAt: later(120_000), payload: 2 },
        clock.now(),
      );
      expect(moved).toEqual({ id: first.id, created: false });
      expect(await database.db.selectFrom(TABLES.jobs).select('id').execute()).toHaveLength(1);
      clock.advance(60_000);
      expect(await runner.runDue()).toBe(0);
      clock.advance(60_000);
      expect(await runner.runDue()).toBe(1);
      expect(ran).toEqual([2]);

      await scheduleJob(database.db, { kind: 'remind', key: 'b', runAt: later(1000) }, clock.now());
      expect(await cancelJob(database.db, 'remind', 'b')).toBe(true);
      expect(await cancelJob(database.db, 'remind', 'b')).toBe(false);
      clock.advance(5000);
      expect(await runner.runDue()).toBe(0);
      expect(ran).toEqual([2]);
    });

    it('leaves a running job alone', async () => {
      const { database } = await freshDatabase(dialect);
      await migrate(database, model);
      const clock = testClock();
      const job = await scheduleJob(
        database.db,
        { kind: 'remind', key: 'r', runAt: clock.now() },
        clock.now(),
      );
      await database.db.updateTable(TABLES.jobs).set({ state: 'running' }).where('id', '=', job.id).execute();
      expect(await cancelJob(database.db, 'remind', 'r')).toBe(false);
      const again = await scheduleJob(
        database.db,
        { kind: 'remind', key: 'r', runAt: new Date(clock.now().getTime() + 1000) },
        clock.now(),
      );
      expect(again).toEqual({ id: job.id, created: false });
      const row = await database.db
        .selectFrom(TABLES.jobs)
        .selectAll()
        .where('id', '=', job.id)
        .executeTakeFirstOrThrow();
      expect(Number(row['run_at'])).toBe(clock.now().getTime());
    });
  });
}
