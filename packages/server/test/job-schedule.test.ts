/**
 * Moving and cancelling a keyed job (`scheduleJob`, `cancelJob`) on every database: a pending job
 * of the key gets the new time, none is written twice, and a cancelled one never runs. A job
 * already running is neither moved nor cancelled: scheduling its key writes a follow-up, which waits
 * until the running one has finished and takes over its work if that one fails (decision 0029).
 */
import { describe, expect, it } from 'vitest';
import { DIALECTS, freshDatabase, specModel, testClock } from '@ninefold/testkit';
import { type Database, JobRunner, TABLES, cancelJob, migrate, scheduleJob } from '../src/index.js';

const model = specModel(`entities: { Note: { fields: { title: { type: string } } } }`);

/** A handler's gate: `entered` once a handler waits at it, which it does until `open()`. */
function blocked() {
  let enter!: () => void;
  let release!: () => void;
  const entered = new Promise<void>((resolve) => (enter = resolve));
  const opened = new Promise<void>((resolve) => (release = resolve));
  return {
    entered,
    open: () => release(),
    wait: () => {
      enter();
      return opened;
    },
  };
}

async function state(database: Database, id: string): Promise<string> {
  const row = await database.db
    .selectFrom(TABLES.jobs)
    .select('state')
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return String(row.state);
}

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

    it("while the key's job runs, scheduling writes a follow-up that runs after it, not beside it", async () => {
      const { database } = await freshDatabase(dialect);
      await migrate(database, model);
      const clock = testClock();
      const gate = blocked();
      const ran: unknown[] = [];
      const runner = new JobRunner({
        database,
        now: clock.now,
        handlers: {
          remind: async (job) => {
            ran.push(job.payload);
            if (job.payload === 1) await gate.wait();
          },
        },
      });
      const first = await scheduleJob(
        database.db,
        { kind: 'remind', key: 'r', runAt: clock.now(), payload: 1 },
        clock.now(),
      );
      const running = runner.runDue();
      await gate.entered;
      const followUp = await scheduleJob(
        database.db,
        { kind: 'remind', key: 'r', runAt: clock.now(), payload: 2 },
        clock.now(),
      );
      expect(followUp.created).toBe(true);
      expect(followUp.id).not.toBe(first.id);
      // one pending job per key: a second schedule moves the follow-up
      const again = await scheduleJob(
        database.db,
        { kind: 'remind', key: 'r', runAt: clock.now(), payload: 3 },
        clock.now(),
      );
      expect(again).toEqual({ id: followUp.id, created: false });
      // due, but its key's job runs: it waits
      expect(await runner.runDue()).toBe(0);
      expect(await state(database, first.id)).toBe('running');
      gate.open();
      expect(await running).toBe(1);
      expect(await state(database, first.id)).toBe('done');
      expect(await runner.runDue()).toBe(1);
      expect(ran).toEqual([1, 3]);
      expect(await state(database, followUp.id)).toBe('done');
    });

    it('a failed attempt whose key has a follow-up is done, and the follow-up does the work', async () => {
      const { database } = await freshDatabase(dialect);
      await migrate(database, model);
      const clock = testClock();
      const gate = blocked();
      const ran: unknown[] = [];
      const runner = new JobRunner({
        database,
        now: clock.now,
        handlers: {
          remind: async (job) => {
            ran.push(job.payload);
            if (job.payload !== 1) return;
            await gate.wait();
            throw new Error('receiver down');
          },
        },
      });
      const first = await scheduleJob(
        database.db,
        { kind: 'remind', key: 'k', runAt: clock.now(), payload: 1 },
        clock.now(),
      );
      const running = runner.runDue();
      await gate.entered;
      // cancelling leaves the running job to its handler
      expect(await cancelJob(database.db, 'remind', 'k')).toBe(false);
      const followUp = await scheduleJob(
        database.db,
        { kind: 'remind', key: 'k', runAt: clock.now(), payload: 2 },
        clock.now(),
      );
      gate.open();
      await running;
      const superseded = await database.db
        .selectFrom(TABLES.jobs)
        .selectAll()
        .where('id', '=', first.id)
        .executeTakeFirstOrThrow();
      expect(superseded['state']).toBe('done');
      expect(superseded['last_error']).toBe('receiver down (a newer job of its key follows it)');
      expect(await runner.runDue()).toBe(1);
      clock.advance(24 * 3_600_000);
      expect(await runner.runDue()).toBe(0);
      expect(ran).toEqual([1, 2]);
      expect(await state(database, followUp.id)).toBe('done');
    });

    it('a failed attempt without a follow-up is retried under its key, which a schedule then moves', async () => {
      const { database } = await freshDatabase(dialect);
      await migrate(database, model);
      const clock = testClock();
      let calls = 0;
      const runner = new JobRunner({
        database,
        now: clock.now,
        backoff: { baseMs: 1000, capMs: 1000 },
        handlers: {
          remind: async () => {
            calls += 1;
            if (calls === 1) throw new Error('receiver down');
          },
        },
      });
      const first = await scheduleJob(
        database.db,
        { kind: 'remind', key: 'q', runAt: clock.now() },
        clock.now(),
      );
      expect(await runner.runDue()).toBe(1);
      expect(await state(database, first.id)).toBe('pending');
      const moved = await scheduleJob(
        database.db,
        { kind: 'remind', key: 'q', runAt: new Date(clock.now().getTime() + 60_000) },
        clock.now(),
      );
      expect(moved).toEqual({ id: first.id, created: false });
      clock.advance(59_999);
      expect(await runner.runDue()).toBe(0);
      clock.advance(1);
      expect(await runner.runDue()).toBe(1);
      expect(calls).toBe(2);
    });
  });
}
