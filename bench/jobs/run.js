// Job runner benchmark: how fast the runner delivers jobs, against its cost floor, the same rows
// written by a plain loop on the same database.
//
//   npm run bench:jobs                         (tsc -b && node bench/jobs/run.js)
//   node bench/jobs/run.js --jobs 2000 --runs 3 --only sqlite,postgres-1 --kept 20000
//
// Setups: SQLite with one runner (one process runs the jobs there); PostgreSQL with one runner, and
// with two runners on pools of their own (as two processes have), at BENCH_DATABASE_URL or
// TEST_DATABASE_URL (PostgreSQL is left out without one). Each setup runs in a fresh child process,
// so that its peak RSS is its own. A run: a fresh database (SQLite file, or PostgreSQL schema),
// migrated; N jobs of a trivial kind (a handler that does nothing) enqueued in one transaction with
// `enqueueJob`; the runner(s) started with their defaults (4 at a time, woken by the writes) and
// stopped once every job has run and settled. The anchor, in the same database and the same
// minute: N rows of the same shape inserted in one transaction, then each updated to done on its own
// (a claim and a settle are the runner's two writes a job; the anchor does one). Runs alternate
// which side goes first; medians are printed, with jobs/s and jobs ÷ anchor. `--kept K` first fills
// the table with K done jobs of the same kind, as a week of them before pruning would: a claim must
// not slow down with them.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { clearInterval, setInterval } from 'node:timers';
import { fileURLToPath } from 'node:url';
import { compile } from '@ninefold/language';
import { JobRunner, TABLES, enqueueJob, migrate, openDatabase } from '@ninefold/server';
import pg from 'pg';
import { argument, median } from '../lib/stats.js';

const JOBS = Number(argument('--jobs', '2000'));
const RUNS = Number(argument('--runs', '3'));
const KEPT = Number(argument('--kept', '0'));
const POSTGRES_URL = process.env['BENCH_DATABASE_URL'] || process.env['TEST_DATABASE_URL'] || '';
const SETUPS = {
  sqlite: { dialect: 'sqlite', runners: 1 },
  'postgres-1': { dialect: 'postgres', runners: 1 },
  'postgres-2': { dialect: 'postgres', runners: 2 },
};
const MiB = 2 ** 20;

const compiled = compile('entities: { Note: { fields: { title: { type: string } } } }', {
  file: 'bench-jobs.yaml',
});
if (!compiled.ok) throw new Error('The spec of the jobs benchmark does not compile.');
const model = compiled.model;

/** A fresh database of a dialect, and how to get rid of it. */
async function freshTarget(dialect) {
  if (dialect === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'ninefold-bench-jobs-'));
    return {
      target: { sqlite: join(dir, 'jobs.sqlite') },
      drop: async () => rmSync(dir, { recursive: true }),
    };
  }
  const schema = `nf_bench_jobs_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = async (text) => {
    const client = new pg.Client({ connectionString: POSTGRES_URL });
    await client.connect();
    await client.query(text);
    await client.end();
  };
  await admin(`create schema ${schema}`);
  const url = new URL(POSTGRES_URL);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return { target: url.toString(), drop: () => admin(`drop schema if exists ${schema} cascade`) };
}

/** Enqueues N jobs, then times the runner(s) running them all; returns both times in ms. */
async function jobsRun(databases) {
  const [first] = databases;
  const since = new Date().toISOString();
  const t0 = performance.now();
  await first.db.transaction().execute(async (trx) => {
    for (let n = 0; n < JOBS; n += 1) await enqueueJob(trx, { kind: 'bench', payload: { n } });
  });
  const enqueued = performance.now();
  let ran = 0;
  let allRan;
  const finished = new Promise((resolve) => (allRan = resolve));
  const handlers = {
    bench: async () => {
      ran += 1;
      if (ran === JOBS) allRan();
    },
  };
  const runners = databases.map((database) => new JobRunner({ database, handlers }));
  const cpu = process.cpuUsage();
  const started = performance.now();
  for (const runner of runners) runner.start();
  await finished;
  // stop() waits for the running handlers, so every job is settled (done) when it returns
  await Promise.all(runners.map((runner) => runner.stop()));
  const elapsed = performance.now() - started;
  const cpuUs = cpuMicros(process.cpuUsage(cpu));
  const done = await first.db
    .selectFrom(TABLES.jobs)
    .select((eb) => eb.fn.countAll().as('n'))
    .where('state', '=', 'done')
    .where('created_at', '>=', since)
    .executeTakeFirstOrThrow();
  if (Number(done.n) !== JOBS || ran !== JOBS) throw new Error(`${ran} ran and ${done.n} done of ${JOBS}.`);
  // this run's jobs go; the kept ones stay
  await first.db.deleteFrom(TABLES.jobs).where('created_at', '>=', since).execute();
  return { enqueueMs: enqueued - t0, runMs: elapsed, cpuUs };
}

function cpuMicros({ user, system }) {
  return user + system;
}

/** The anchor: the same N rows inserted in one transaction, then each updated on its own. */
async function anchorRun(database) {
  const t0 = performance.now();
  const ids = [];
  await database.db.transaction().execute(async (trx) => {
    for (let n = 0; n < JOBS; n += 1) {
      const id = `row-${n}`;
      ids.push(id);
      const at = new Date().toISOString();
      await trx
        .insertInto('bench_rows')
        .values({ id, state: 'pending', payload: JSON.stringify({ n }), run_at: Date.now(), updated_at: at })
        .execute();
    }
  });
  const inserted = performance.now();
  const cpu = process.cpuUsage();
  for (const id of ids) {
    await database.db
      .updateTable('bench_rows')
      .set({ state: 'done', updated_at: new Date().toISOString() })
      .where('id', '=', id)
      .execute();
  }
  const elapsed = performance.now() - inserted;
  const cpuUs = cpuMicros(process.cpuUsage(cpu));
  await database.db.deleteFrom('bench_rows').execute();
  return { enqueueMs: inserted - t0, runMs: elapsed, cpuUs };
}

/** In a child process: every run of one setup; prints its times and peak RSS as JSON. */
async function child(name) {
  const setup = SETUPS[name];
  const { target, drop } = await freshTarget(setup.dialect);
  const databases = [];
  try {
    for (let i = 0; i < setup.runners; i += 1) databases.push(await openDatabase(target));
    await migrate(databases[0], model);
    await databases[0].db.schema
      .createTable('bench_rows')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('payload', 'text', (c) => c.notNull())
      .addColumn('run_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    if (KEPT > 0) {
      await databases[0].db.transaction().execute(async (trx) => {
        for (let n = 0; n < KEPT; n += 1) await enqueueJob(trx, { kind: 'bench', payload: { n } });
        await trx.updateTable(TABLES.jobs).set({ state: 'done' }).execute();
      });
    }
    const runs = { jobs: [], anchor: [] };
    for (let i = 0; i < RUNS; i += 1) {
      const order = i % 2 === 0 ? ['jobs', 'anchor'] : ['anchor', 'jobs'];
      for (const side of order)
        runs[side].push(side === 'jobs' ? await jobsRun(databases) : await anchorRun(databases[0]));
    }
    process.stdout.write(JSON.stringify({ runs, peakRss: process.resourceUsage().maxRSS * 1024 }));
  } finally {
    for (const database of databases) await database.close();
    await drop();
  }
}

function measure(name) {
  const self = fileURLToPath(import.meta.url);
  const result = spawnSync(
    process.execPath,
    [self, '--child', name, '--jobs', String(JOBS), '--runs', String(RUNS), '--kept', String(KEPT)],
    {
      encoding: 'utf8',
      maxBuffer: 16 * MiB,
      env: process.env,
    },
  );
  if (result.status !== 0) throw new Error(`The ${name} setup failed:\n${result.stderr}`);
  return JSON.parse(result.stdout);
}

if (process.argv.includes('--child')) {
  // the runner's timers do not hold a process open (a server or `ninefold worker` does): this does
  const hold = setInterval(() => undefined, 60_000);
  await child(argument('--child', 'sqlite'));
  clearInterval(hold);
  process.exit(0);
}

const only = argument('--only', Object.keys(SETUPS).join(',')).split(',');
const cpuModel = cpus()[0]?.model ?? 'unknown CPU';
console.log(
  `Ninefold job runner benchmark — node ${process.version}, ${process.platform} ${process.arch}, ` +
    `${availableParallelism()} cores (${cpuModel.trim()})`,
);
console.log(
  `${JOBS} jobs a run, ${RUNS} runs a setup, ${KEPT} done jobs kept in the table; ` +
    'anchor: the same rows inserted, then updated one by one',
);
if (POSTGRES_URL === '') console.log('no BENCH_DATABASE_URL or TEST_DATABASE_URL: PostgreSQL left out');
console.log('');
const ms = (n) => `${n.toFixed(0)} ms`;
for (const name of only) {
  if (!(name in SETUPS)) throw new Error(`No setup ${name}: ${Object.keys(SETUPS).join(', ')}.`);
  if (SETUPS[name].dialect === 'postgres' && POSTGRES_URL === '') continue;
  const { runs, peakRss } = measure(name);
  const jobsRunMs = median(runs.jobs.map((r) => r.runMs));
  const jobsEnqueueMs = median(runs.jobs.map((r) => r.enqueueMs));
  const anchorRunMs = median(runs.anchor.map((r) => r.runMs));
  const anchorInsertMs = median(runs.anchor.map((r) => r.enqueueMs));
  const jobsCpu = median(runs.jobs.map((r) => r.cpuUs)) / JOBS;
  const anchorCpu = median(runs.anchor.map((r) => r.cpuUs)) / JOBS;
  const spread = (values) => `${ms(Math.min(...values))}…${ms(Math.max(...values))}`;
  console.log(
    `${name.padEnd(11)} run ${ms(jobsRunMs).padStart(8)} (${spread(runs.jobs.map((r) => r.runMs))})  ` +
      `${(JOBS / (jobsRunMs / 1000)).toFixed(0).padStart(6)} jobs/s   enqueue ${ms(jobsEnqueueMs).padStart(7)}   ` +
      `anchor: updates ${ms(anchorRunMs).padStart(7)} (${(JOBS / (anchorRunMs / 1000)).toFixed(0)} rows/s), ` +
      `insert ${ms(anchorInsertMs).padStart(6)}   run ÷ updates ${(jobsRunMs / anchorRunMs).toFixed(2)}×   ` +
      `enqueue ÷ insert ${(jobsEnqueueMs / anchorInsertMs).toFixed(2)}×   ` +
      `CPU ${jobsCpu.toFixed(0)} µs/job vs ${anchorCpu.toFixed(0)} µs/row (${(jobsCpu / anchorCpu).toFixed(2)}×)   ` +
      `peak RSS ${(peakRss / MiB).toFixed(1)} MiB`,
  );
}
