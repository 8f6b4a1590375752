/**
 * A job runner as a process of its own, for `jobs.faults.ts` to kill with SIGKILL mid-way: it runs
 * the `effect` jobs of DATABASE_URL, each writing its effect once, keyed by its job's id (the
 * idempotent handler runner.ts asks for), and logging every attempt. It runs the built server
 * (`npx tsc -b`).
 */
import { JobRunner, openDatabase } from '@ninefold/server';
import { setInterval } from 'node:timers';
import { setTimeout as sleep } from 'node:timers/promises';

const database = await openDatabase(process.env['DATABASE_URL'] ?? '');
const runner = new JobRunner({
  database,
  pollMs: 20,
  concurrency: 4,
  leaseMs: Number(process.env['LEASE_MS'] ?? 1000),
  handlers: {
    effect: async (job) => {
      await database.db
        .insertInto('job_attempts')
        .values({ job_id: job.id, attempt: job.attempts })
        .execute();
      await sleep(10 + Math.random() * 20);
      await database.db
        .insertInto('job_effects')
        .values({ job_id: job.id })
        .onConflict((oc) => oc.column('job_id').doNothing())
        .execute();
    },
  },
});
runner.start();
// the runner's timers do not hold a process open (a server holds it): this one is only a runner, so
// it holds itself open as `ninefold worker` does, until the test kills it
setInterval(() => undefined, 60 * 60_000);
process.stdout.write('running\n');
