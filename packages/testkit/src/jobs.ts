/**
 * Jobs in a given state, made through the server's own outbox and runner, for tests of what admins
 * see of them (the client's admin pages): a dead one whose only attempt failed, one that waits, and
 * the product's own jobs (timers, notifications, webhook deliveries) run as its server runs them.
 */
import { JobRunner, enqueueJob, productJobHandlers } from '@ninefold/server';
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

/**
 * Runs the product's due jobs once, with the handlers its server runs them with, on the test's
 * clock; `env` stands for the environment (webhook URLs and secrets, SMTP_URL).
 *
 * @example await runProductJobs(server, { HOOK_URL: receiver.url, NINEFOLD_WEBHOOKS_ALLOW_PRIVATE: '1' });
 */
export async function runProductJobs(server: TestServer, env: Record<string, string> = {}): Promise<number> {
  const { model, database, clock } = server;
  const handlers = productJobHandlers({ model, database, now: clock.now, env });
  return new JobRunner({ database, now: clock.now, handlers }).runDue();
}
