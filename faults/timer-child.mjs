/**
 * A process that runs a product's jobs, for `timers.faults.ts` to run two of against one PostgreSQL
 * database: the spec at SPEC_FILE, the database at DATABASE_URL, the product's own job handlers
 * (`productJobHandlers`, as `ninefold worker` runs them), on the system clock. It prints `ran <job
 * id>` for every job its runner ran, so that the test sees which process ran what. It runs the built
 * server (`npx tsc -b`).
 */
import { readFileSync } from 'node:fs';
import { setInterval } from 'node:timers';
import { compile } from '@ninefold/language';
import { JobRunner, openDatabase, productJobHandlers } from '@ninefold/server';

const file = process.env['SPEC_FILE'] ?? '';
const compiled = compile(readFileSync(file, 'utf8'), { file });
if (!compiled.ok) throw new Error(`The spec ${file} does not compile.`);
const model = compiled.model;
const database = await openDatabase(process.env['DATABASE_URL'] ?? '');
const handlers = productJobHandlers({ model, database });
const runner = new JobRunner({
  database,
  // a minute: between the polls, only another process's NOTIFY wakes this runner
  pollMs: 60_000,
  concurrency: 4,
  handlers: Object.fromEntries(
    Object.entries(handlers).map(([kind, handler]) => [
      kind,
      async (job, signal) => {
        await handler(job, signal);
        process.stdout.write(`ran ${job.id}\n`);
      },
    ]),
  ),
});
runner.start();
const listening = await runner.hearsOtherProcesses();
// the runner's timers do not hold a process open: this one is only a runner, so it holds itself
// open as `ninefold worker` does, until the test kills it
setInterval(() => undefined, 60 * 60_000);
process.stdout.write(listening ? 'listening\n' : 'not listening\n');
