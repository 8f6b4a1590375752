/**
 * Jobs in a given state, made through the server's own outbox and runner, for tests of what admins
 * see of them (the client's admin pages): a dead one whose only attempt failed, and one that waits.
 */
import { JobRunner, enqueueJob } from '@ninefold/server';
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
