/**
 * The job kinds a product runs: what `ninefold start` and `ninefold worker` give their runners.
 * Each effect of a spec (a timed transition, a notification, a webhook delivery — issue 17) is a
 * kind, registered here with its handler. A runner claims only the kinds it has handlers of, so a
 * job written by a newer version waits for a runner of that version, never run by the wrong one.
 */
import { type Model } from '@ninefold/model';
import { type Database } from '../db/open.js';
import { fireTimer } from '../timers/fire.js';
import { TIMER_JOB } from '../timers/schedule.js';
import { type JobHandlers } from './job.js';

/** What a kind's handler may use. */
export interface JobContext {
  readonly model: Model;
  readonly database: Database;
  /** The clock a handler reads (default the system's; tests move their own). */
  readonly now?: () => Date;
}

/**
 * The handlers of a product's job kinds: `ninefold.timer`, a timed transition (`timers/`).
 */
export function productJobHandlers(context: JobContext): JobHandlers {
  const now = context.now ?? (() => new Date());
  return {
    [TIMER_JOB]: async (job) => void (await fireTimer(context, job, now())),
  };
}
