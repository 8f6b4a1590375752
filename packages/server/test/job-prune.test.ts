/**
 * Pruning the finished jobs on every database (`jobs/prune.ts`): a done job goes after its
 * retention (7 days by default), a dead one after its own (30 days), a pending or running one never;
 * the runner prunes by itself every `pruneEveryMs` of its clock, not on every poll; and two runners
 * with pools of their own prune one table at once, in batches, each job deleted once.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { DIALECTS, freshDatabase, opensTwice, reopen, specModel, testClock } from '@ninefold/testkit';
import { type Database, JobRunner, TABLES, enqueueJob, migrate, pruneJobs } from '../src/index.js';

const model = specModel(`entities: { Note: { fields: { title: { type: string } } } }`);
const DAY = 24 * 3_600_000;

async function countByState(database: Database): Promise<Record<string, number>> {
  const rows = await database.db
    .selectFrom(TABLES.jobs)
    .select(['state', (eb) => eb.fn.countAll().as('n')])
    .groupBy('state')
    .execute();
  return Object.fromEntries(rows.map((row) => [String(row.state), Number(row.n)]));
}

/** A runner on the test's clock whose `ok` jobs succeed and whose `fail` jobs die at once. */
function runnerOf(
  database: Database,
  now: () => Date,
  options: { pollMs?: number; pruneEveryMs?: number } = {},
) {
  return new JobRunner({
    database,
    now,
    ...options,
    handlers: {
      ok: async () => undefined,
      fail: async () => {
        throw new Error('receiver gone');
      },
    },
  });
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: pruning jobs`, () => {
    it('deletes done jobs after 7 days and dead ones after 30, and never a pending one', async () => {
      const { database } = await freshDatabase(dialect);
      await migrate(database, model);
      const clock = testClock();
      const runner = runnerOf(database, clock.now);
      for (let n = 0; n < 3; n += 1) await enqueueJob(database.db, { kind: 'ok' }, clock.now());
      await enqueueJob(database.db, { kind: 'fail', maxAttempts: 1 }, clock.now());
      const later = new Date(clock.now().getTime() + 90 * DAY);
      await enqueueJob(database.db, { kind: 'ok', runAt: later }, clock.now());
      expect(await runner.runDue()).toBe(4);
      expect(await countByState(database)).toEqual({ done: 3, dead: 1, pending: 1 });

      clock.advance(7 * DAY);
      expect(await runner.prune()).toBe(0);
      clock.advance(1);
      expect(await runner.prune()).toBe(3);
      expect(await countByState(database)).toEqual({ dead: 1, pending: 1 });
      clock.advance(23 * DAY - 1);
      expect(await runner.prune()).toBe(0);
      clock.advance(1);
      expect(await runner.prune()).toBe(1);
      expect(await countByState(database)).toEqual({ pending: 1 });
    });

    it("takes its retention from the runner's options", async () => {
      const { database } = await freshDatabase(dialect);
      await migrate(database, model);
      const clock = testClock();
      const runner = new JobRunner({
        database,
        now: clock.now,
        retention: { keepDoneMs: 60_000 },
        handlers: { ok: async () => undefined },
      });
      await enqueueJob(database.db, { kind: 'ok' }, clock.now());
      expect(await runner.runDue()).toBe(1);
      clock.advance(60_001);
      expect(await runner.prune()).toBe(1);
      expect(await countByState(database)).toEqual({});
    });

    it('a prune asked to stop ends after the batch in hand', async () => {
      const { database } = await freshDatabase(dialect);
      await migrate(database, model);
      const clock = testClock();
      await database.db.transaction().execute(async (trx) => {
        for (let n = 0; n < 20; n += 1) await enqueueJob(trx, { kind: 'ok' }, clock.now());
      });
      await database.db.updateTable(TABLES.jobs).set({ state: 'done' }).execute();
      clock.advance(8 * DAY);
      const retention = { keepDoneMs: 7 * DAY, keepDeadMs: 30 * DAY };
      expect(await pruneJobs(database, retention, clock.now(), 5, () => false)).toBe(5);
      expect(await countByState(database)).toEqual({ done: 15 });
      expect(await pruneJobs(database, retention, clock.now(), 5)).toBe(15);
    });

    it('the runner prunes by itself every pruneEveryMs of its clock, not on every poll', async () => {
      const { database } = await freshDatabase(dialect);
      await migrate(database, model);
      const clock = testClock();
      const runner = runnerOf(database, clock.now, { pollMs: 5, pruneEveryMs: 30 * DAY });
      for (let n = 0; n < 3; n += 1) await enqueueJob(database.db, { kind: 'ok' }, clock.now());
      runner.start();
      try {
        await expect.poll(() => countByState(database), { timeout: 10_000 }).toEqual({ done: 3 });
        // past the retention, but its last prune (at its start) was less than pruneEveryMs ago
        clock.advance(8 * DAY);
        await sleep(300);
        expect(await countByState(database)).toEqual({ done: 3 });
        clock.advance(22 * DAY);
        await expect.poll(() => countByState(database), { timeout: 10_000 }).toEqual({});
      } finally {
        await runner.stop();
      }
    });

    // two pools of one database: a SQLite file or a PostgreSQL server (PGlite opens once)
    if (opensTwice(dialect))
      it('two runners with pools of their own prune at once, in batches, each job once', async () => {
        const { database, target } = await freshDatabase(dialect);
        await migrate(database, model);
        const other = await reopen(target);
        const clock = testClock();
        const jobs = 1200;
        await database.db.transaction().execute(async (trx) => {
          for (let n = 0; n < jobs; n += 1)
            await enqueueJob(trx, { kind: 'ok', payload: { n } }, clock.now());
        });
        // all done, at the clock's start
        await database.db
          .updateTable(TABLES.jobs)
          .set({ state: 'done', updated_at: clock.now().toISOString() })
          .execute();
        clock.advance(8 * DAY);
        const pruned = await Promise.all([
          runnerOf(database, clock.now).prune(),
          runnerOf(other, clock.now).prune(),
          pruneJobs(database, { keepDoneMs: 7 * DAY, keepDeadMs: 30 * DAY }, clock.now(), 7),
        ]);
        expect(pruned.reduce((sum, n) => sum + n, 0)).toBe(jobs);
        expect(await countByState(database)).toEqual({});
      });
  });
}
