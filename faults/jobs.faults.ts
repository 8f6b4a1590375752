/**
 * The job runner under load on the real PostgreSQL server (decision 0028): two runners, each with a
 * connection pool of its own as two processes have, claim 500 jobs at once and every job runs
 * exactly once (`FOR UPDATE SKIP LOCKED`); and a runner process killed with SIGKILL mid-way loses
 * no job — started again, it takes over the jobs whose leases ran out and every job's effect is
 * there once (its handler is idempotent by job id).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { compile } from '@ninefold/language';
import {
  type Database,
  type Job,
  JobRunner,
  TABLES,
  enqueueJob,
  migrate,
  openDatabase,
} from '@ninefold/server';
import { type ProductStore, postgresStore } from './child-product.js';

const JOBS = 500;
const KILLED_JOBS = 200;
const CHILD = fileURLToPath(new URL('job-child.mjs', import.meta.url));
const CLI = fileURLToPath(new URL('../packages/cli/bin/ninefold.js', import.meta.url));
const SPEC = `entities: { Note: { fields: { title: { type: string } } } }`;

const compiled = compile(`entities: { Note: { fields: { title: { type: string } } } }`, {
  file: 'jobs.yaml',
});
if (!compiled.ok) throw new Error('The spec of the jobs fault test does not compile.');
const model = compiled.model;

const dir = mkdtempSync(join(tmpdir(), 'ninefold-jobs-'));
const stores: ProductStore[] = [];
const databases: Database[] = [];
afterAll(async () => {
  for (const database of databases) await database.close().catch(() => undefined);
  for (const store of stores) await store.drop();
  rmSync(dir, { recursive: true, force: true });
});

async function freshPostgres(): Promise<{ url: string; open: () => Promise<Database> }> {
  const store = await postgresStore(dir);
  stores.push(store);
  const url = store.env['DATABASE_URL'] ?? '';
  const open = async () => {
    const database = await openDatabase(url);
    databases.push(database);
    return database;
  };
  await migrate(await open(), model);
  return { url, open };
}

async function states(database: Database): Promise<Record<string, number>> {
  const rows = await database.db
    .selectFrom(TABLES.jobs)
    .select(['state', (eb) => eb.fn.countAll().as('n')])
    .groupBy('state')
    .execute();
  return Object.fromEntries(rows.map((row) => [String(row.state), Number(row.n)]));
}

async function until(check: () => Promise<boolean>, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Still not ${what} after ${ms} ms.`);
    await sleep(50);
  }
}

describe('postgres: jobs under load', () => {
  it(`two runners with pools of their own run each of ${JOBS} jobs exactly once`, async () => {
    const { open } = await freshPostgres();
    const [first, second] = [await open(), await open()];
    await first.db.transaction().execute(async (trx) => {
      for (let n = 0; n < JOBS; n += 1) await enqueueJob(trx, { kind: 'count', payload: { n } });
    });
    const runs = new Map<string, number>();
    const byRunner = [0, 0];
    const runner = (database: Database, index: number) =>
      new JobRunner({
        database,
        pollMs: 5,
        concurrency: 8,
        handlers: {
          count: async (job: Job) => {
            runs.set(job.id, (runs.get(job.id) ?? 0) + 1);
            byRunner[index] = (byRunner[index] ?? 0) + 1;
            await sleep(Math.random() * 5);
          },
        },
      });
    const runners = [runner(first, 0), runner(second, 1)];
    const started = Date.now();
    for (const r of runners) r.start();
    await until(async () => (await states(first))['done'] === JOBS, 120_000, `all ${JOBS} done`);
    await Promise.all(runners.map((r) => r.stop()));
    const elapsed = Date.now() - started;
    console.log(`${JOBS} jobs by two runners in ${elapsed} ms: ${byRunner.join(' + ')}`);
    expect(runs.size).toBe(JOBS);
    expect([...runs.values()].filter((count) => count !== 1)).toEqual([]);
    // both took part: the claims raced
    expect(byRunner[0]).toBeGreaterThan(0);
    expect(byRunner[1]).toBeGreaterThan(0);
    expect(await states(first)).toEqual({ done: JOBS });
  });

  it(`a runner process killed with SIGKILL mid-way loses none of ${KILLED_JOBS} jobs`, async () => {
    const { url, open } = await freshPostgres();
    const database = await open();
    await database.db.schema
      .createTable('job_attempts')
      .addColumn('job_id', 'text', (c) => c.notNull())
      .addColumn('attempt', 'integer', (c) => c.notNull())
      .execute();
    await database.db.schema
      .createTable('job_effects')
      .addColumn('job_id', 'text', (c) => c.primaryKey())
      .execute();
    const ids: string[] = [];
    await database.db.transaction().execute(async (trx) => {
      for (let n = 0; n < KILLED_JOBS; n += 1)
        ids.push((await enqueueJob(trx, { kind: 'effect', payload: { n } })).id);
    });
    const child = (): Promise<ChildProcess> =>
      new Promise((resolve, reject) => {
        const process_ = spawn(process.execPath, [CHILD], {
          env: { ...process.env, DATABASE_URL: url, LEASE_MS: '1000' },
          stdio: ['ignore', 'pipe', 'inherit'],
        });
        process_.once('error', reject);
        process_.stdout?.once('data', () => resolve(process_));
      });
    const effects = async () =>
      Number(
        (
          await database.db
            .selectFrom('job_effects')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirst()
        )?.n,
      );

    const first = await child();
    // killed once some jobs are done and others are running
    await until(async () => (await effects()) >= KILLED_JOBS / 4, 60_000, 'a quarter done');
    const exited = new Promise((resolve) => first.once('exit', resolve));
    first.kill('SIGKILL');
    await exited;
    const atKill = await states(database);
    console.log(`at the kill: ${JSON.stringify(atKill)}`);
    expect(atKill['done'] ?? 0).toBeLessThan(KILLED_JOBS);

    const second = await child();
    try {
      await until(
        async () => (await states(database))['done'] === KILLED_JOBS,
        120_000,
        `all ${KILLED_JOBS} done`,
      );
    } finally {
      const gone = new Promise((resolve) => second.once('exit', resolve));
      second.kill('SIGKILL');
      await gone;
    }
    const effected = await database.db.selectFrom('job_effects').select('job_id').execute();
    expect(effected.map((row) => String(row.job_id)).sort()).toEqual([...ids].sort());
    const attempts = await database.db.selectFrom('job_attempts').select(['job_id', 'attempt']).execute();
    const retried = attempts.filter((row) => Number(row.attempt) > 1).length;
    console.log(
      `${attempts.length} attempts for ${KILLED_JOBS} jobs; ${retried} after the kill's leases ran out`,
    );
    expect(await states(database)).toEqual({ done: KILLED_JOBS });
  });

  it('`ninefold worker` polls a PostgreSQL database, leaves a kind it does not know, and exits 0 on SIGTERM', async () => {
    const { url, open } = await freshPostgres();
    const database = await open();
    const specPath = join(dir, 'worker.yaml');
    writeFileSync(specPath, SPEC);
    let output = '';
    const workerProcess = spawn(process.execPath, [CLI, 'worker', specPath], {
      env: { ...process.env, DATABASE_URL: url },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    workerProcess.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    workerProcess.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) =>
      workerProcess.once('exit', (code) => resolve(code)),
    );
    try {
      await until(async () => output.includes('Running the jobs of'), 30_000, 'running');
      // no kind is declared yet (jobs/kinds.ts): a job of a kind the worker does not know is left
      // pending for a runner that knows it, while the worker polls
      const { id } = await enqueueJob(database.db, { kind: 'from-a-newer-version' });
      await new Promise((resolve) => setTimeout(resolve, 2500));
      const job = await database.db
        .selectFrom(TABLES.jobs)
        .select(['state', 'attempts'])
        .where('id', '=', id)
        .executeTakeFirst();
      expect(job?.state).toBe('pending');
      expect(Number(job?.attempts)).toBe(0);
    } finally {
      workerProcess.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
    expect(output).toMatch(/SIGTERM: letting the running jobs finish/);
  });
});
