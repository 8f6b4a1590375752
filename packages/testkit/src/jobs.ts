/**
 * Jobs in a given state, made through the server's own outbox and runner, for tests of what admins
 * see of them (the client's admin pages): a dead one whose only attempt failed, one that waits, and
 * the product's own jobs (timers, notifications, webhook deliveries) run as its server runs them.
 */
import { EFFECTS_JOB, type JobHandlers, JobRunner, enqueueJob, productJobHandlers } from '@ninefold/server';
import { type TestServer } from './server.js';

/**
 * A job of `kind` whose one attempt failed with `error`: dead, as admins see it and retry it. The
 * runner runs every due job, so make it before any job that must stay pending.
 *
 * @example const { id } = await givenDeadJob(server, 'deliver', 'receiver down');
 */
export async function givenDeadJob(server: TestServer, kind: string, error: string): Promise<{ id: string }> {
  const { database, clock } = server;
  const job = await enqueueJob(database.db, { kind, payload: {}, maxAttempts: 1 }, clock.now());
  const runner = new JobRunner({
    database,
    now: clock.now,
    handlers: { [kind]: () => Promise.reject(new Error(error)) },
  });
  if ((await runner.runDue()) !== 1) throw new Error(`the ${kind} job did not run`);
  return { id: job.id };
}

/**
 * A job of `kind` due in `inMs` milliseconds: pending until then.
 *
 * @example await givenWaitingJob(server, 'later', 3_600_000);
 */
export async function givenWaitingJob(
  server: TestServer,
  kind: string,
  inMs: number,
): Promise<{ id: string }> {
  const { database, clock } = server;
  const runAt = new Date(clock.now().getTime() + inMs);
  const job = await enqueueJob(database.db, { kind, payload: {}, runAt }, clock.now());
  return { id: job.id };
}

/** How many rounds `runProductJobs` runs at most: a job that keeps writing due jobs is a bug. */
const MAX_ROUNDS = 20;

/**
 * Runs the product's due jobs until none is due, with the handlers its server runs them with, on
 * the test's clock (a change's fan-out writes its deliveries, which are due at once); `env` stands
 * for the environment (webhook URLs and secrets, SMTP_URL). Returns how many jobs ran.
 *
 * @example await runProductJobs(server, { HOOK_URL: receiver.url, NINEFOLD_WEBHOOKS_ALLOW_PRIVATE: '1' });
 */
export async function runProductJobs(server: TestServer, env: Record<string, string> = {}): Promise<number> {
  const { model, database, clock, files } = server;
  const handlers = productJobHandlers({ model, database, files, now: clock.now, env });
  const runner = new JobRunner({ database, now: clock.now, handlers });
  let total = 0;
  for (let round = 0; round < MAX_ROUNDS; round += 1) {
    const ran = await runner.runDue();
    if (ran === 0) return total;
    total += ran;
  }
  throw new Error(`the product's jobs were still due after ${MAX_ROUNDS} rounds`);
}

/** What a test drives: one round of due jobs at a time, counting the jobs that ran. */
export interface RoundRunner {
  runDue(): Promise<number>;
  /** Fans out the changes written since the last round, only: returns how many it fanned out. */
  fanOut(): Promise<number>;
}

/**
 * A runner whose every round first fans out the changes written since the last one (their
 * `ninefold.effects` jobs, until none is due), then runs one round of every other kind: a test
 * counts the notifications and deliveries a round runs as it did before changes were fanned out.
 *
 * @example const runner = fanningOutFirst(server, productJobHandlers({ model, database, files, now })); expect(await runner.runDue()).toBe(1);
 */
export function fanningOutFirst(
  server: Pick<TestServer, 'database' | 'clock'>,
  handlers: JobHandlers,
): RoundRunner {
  const { database, clock } = server;
  const { [EFFECTS_JOB]: fanOut, ...others } = handlers;
  const fanOuts = new JobRunner({
    database,
    now: clock.now,
    handlers: fanOut === undefined ? {} : { [EFFECTS_JOB]: fanOut },
  });
  const rest = new JobRunner({ database, now: clock.now, handlers: others });
  const fanOutAll = async (): Promise<number> => {
    let total = 0;
    for (let round = 0; round < MAX_ROUNDS; round += 1) {
      const ran = await fanOuts.runDue();
      if (ran === 0) return total;
      total += ran;
    }
    throw new Error(`changes were still fanned out after ${MAX_ROUNDS} rounds`);
  };
  return {
    async runDue() {
      await fanOutAll();
      return rest.runDue();
    },
    fanOut: fanOutAll,
  };
}
