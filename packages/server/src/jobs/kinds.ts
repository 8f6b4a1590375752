/**
 * The job kinds a product runs: what `ninefold start` and `ninefold worker` give their runners.
 * Each effect of a spec (a timed transition, a notification, a webhook delivery — issue 17) is a
 * kind, registered here with its handler. A runner claims only the kinds it has handlers of, so a
 * job written by a newer version waits for a runner of that version, never run by the wrong one.
 */
import { type Model } from '@ninefold/model';
import { type Database } from '../db/open.js';
import { type JobHandlers } from './job.js';

/** What a kind's handler may use. */
export interface JobContext {
  readonly model: Model;
  readonly database: Database;
}

/**
 * The handlers of a product's job kinds. No kind is declared yet: the runner starts and finds
 * nothing of its own to run.
 */
export function productJobHandlers(context: JobContext): JobHandlers {
  void context;
  return {};
}
