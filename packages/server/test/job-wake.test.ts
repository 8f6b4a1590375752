/**
 * Waking the runners (`jobs/wake.ts`). On the real PostgreSQL server, a job written through one
 * database pool is claimed by a runner on another pool — as another process would have — at once,
 * by `NOTIFY ninefold_jobs` at the commit, though that runner polls only every minute; a rolled-back
 * write wakes nobody; and the runner's LISTEN connection, killed by the server, comes back by itself
 * without taking the process down, as does a server that cannot be reached. Where no other process
 * can notify (SQLite, PGlite), the runner says it hears none and a job written through its own
 * database wakes it at once.
 */
import pg from 'pg';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { DIALECTS, freshDatabase, reopen, specModel, type TestDialect } from '@ninefold/testkit';
import {
  type Database,
  JobRunner,
  LISTEN_APPLICATION_NAME,
  enqueueJob,
  migrate,
  openDatabase,
} from '../src/index.js';

const model = specModel(`entities: { Note: { fields: { title: { type: string } } } }`);
const TEST_DATABASE_URL = process.env['TEST_DATABASE_URL'] ?? '';

/** A runner that polls once a minute: within a test, only a wake-up makes it look. */
function sleepyRunner(database: Database, onRun: (at: number) => void, errors: unknown[] = []) {
  return new JobRunner({
    database,
    pollMs: 60_000,
    onError: (error) => errors.push(error),
    handlers: { wake: async () => onRun(Date.now()) },
  });
}

/** Waits for the first poll and the look at LISTEN's start to be over. */
async function settled(runner: JobRunner): Promise<void> {
  await sleep(200);
  expect(runner.busy).toBe(0);
}

/** The process ids of the LISTEN connections on the server. */
async function listeners(): Promise<number[]> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>(
      'select pid from pg_stat_activity where application_name = $1',
      [LISTEN_APPLICATION_NAME],
    );
    return rows.map((row) => row.pid);
  } finally {
    await client.end();
  }
}

async function terminate(pids: readonly number[]): Promise<void> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    await client.query('select pg_terminate_backend(pid) from unnest($1::int[]) as pid', [pids]);
  } finally {
    await client.end();
  }
}

function realPostgresTests() {
  it('a job written through another pool wakes a runner that polls once a minute, at its commit', async () => {
    const { database: writer, target } = await freshDatabase('postgres');
    await migrate(writer, model);
    const reader = await reopen(target);
    const runs: number[] = [];
    const runner = sleepyRunner(reader, (at) => runs.push(at));
    runner.start();
    try {
      expect(await runner.hearsOtherProcesses()).toBe(true);
      await settled(runner);
      await expect(
        writer.db.transaction().execute(async (trx) => {
          await enqueueJob(trx, { kind: 'wake' });
          throw new Error('the change fails');
        }),
      ).rejects.toThrow('the change fails');
      const committed = await writer.db.transaction().execute(async (trx) => {
        await enqueueJob(trx, { kind: 'wake' });
        // held open a while: the notification goes out at the commit, not at the write
        await sleep(300);
        expect(runs).toEqual([]);
        return Date.now();
      });
      await expect.poll(() => runs.length, { timeout: 5000, interval: 5 }).toBe(1);
      const latency = runs[0]! - committed;
      console.log(`claimed ${latency} ms after the commit (the runner polls every 60 s)`);
      expect(latency).toBeLessThan(500);
      await sleep(300);
      expect(runs).toHaveLength(1);
    } finally {
      await runner.stop();
    }
  });

  it('its LISTEN connection killed by the server, the runner listens again and is woken again', async () => {
    const { database: writer, target } = await freshDatabase('postgres');
    await migrate(writer, model);
    const reader = await reopen(target);
    const runs: number[] = [];
    const errors: unknown[] = [];
    const runner = sleepyRunner(reader, (at) => runs.push(at), errors);
    runner.start();
    try {
      expect(await runner.hearsOtherProcesses()).toBe(true);
      await settled(runner);
      const before = await listeners();
      expect(before.length).toBeGreaterThan(0);
      await terminate(before);
      // a new connection listens (after a quarter of a second); the dropped one was reported
      await expect
        .poll(async () => (await listeners()).some((pid) => !before.includes(pid)), { timeout: 10_000 })
        .toBe(true);
      expect(errors.length).toBeGreaterThan(0);
      await settled(runner);
      await enqueueJob(writer.db, { kind: 'wake' });
      const written = Date.now();
      await expect.poll(() => runs.length, { timeout: 5000, interval: 5 }).toBe(1);
      expect(runs[0]! - written).toBeLessThan(1000);
    } finally {
      await runner.stop();
    }
  });
}

function inProcessTests(dialect: TestDialect) {
  it('hears no other process, and a job written through its own database wakes it at once', async () => {
    const { database } = await freshDatabase(dialect);
    await migrate(database, model);
    const runs: number[] = [];
    const runner = sleepyRunner(database, (at) => runs.push(at));
    runner.start();
    try {
      expect(await runner.hearsOtherProcesses()).toBe(false);
      await settled(runner);
      await database.db.transaction().execute((trx) => enqueueJob(trx, { kind: 'wake' }));
      const written = Date.now();
      await expect.poll(() => runs.length, { timeout: 5000, interval: 5 }).toBe(1);
      expect(runs[0]! - written).toBeLessThan(1000);
    } finally {
      await runner.stop();
    }
  });
}

describe('a PostgreSQL server that cannot be reached', () => {
  it('the runner reports it, keeps trying to listen, and stops cleanly', async () => {
    // nothing listens on port 1
    const database = await openDatabase('postgres://postgres@127.0.0.1:1/nothing');
    const errors: unknown[] = [];
    const runner = sleepyRunner(database, () => undefined, errors);
    runner.start();
    try {
      expect(await runner.hearsOtherProcesses()).toBe(false);
      // the first LISTEN and the first claim failed; then the listener tries again after 0.25 s
      await expect.poll(() => errors.length, { timeout: 5000 }).toBeGreaterThanOrEqual(3);
    } finally {
      await runner.stop();
      await database.close();
    }
    const reported = errors.length;
    await sleep(600);
    expect(errors.length).toBe(reported);
  });
});

for (const dialect of DIALECTS) {
  describe(`${dialect}: waking the runners`, () => {
    if (dialect === 'postgres' && TEST_DATABASE_URL !== '') realPostgresTests();
    else inProcessTests(dialect);
  });
}
