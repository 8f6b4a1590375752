/**
 * The job kinds a product runs: what `ninefold start` and `ninefold worker` give their runners.
 * Each effect of a spec (a timed transition, a notification, a webhook delivery — issue 17) is a
 * kind, registered here with its handler. A runner claims only the kinds it has handlers of, so a
 * job written by a newer version waits for a runner of that version, never run by the wrong one.
 */
import { type Model } from '@ninefold/model';
import { type Database } from '../db/open.js';
import { MAIL_JOB, mailHandler } from '../mail/send.js';
import { mailSettings } from '../mail/settings.js';
import { deliverNotification } from '../notifications/deliver.js';
import { NOTIFY_JOB } from '../notifications/enqueue.js';
import { fireTimer } from '../timers/fire.js';
import { TIMER_JOB } from '../timers/schedule.js';
import { type JobHandlers } from './job.js';

/** What a kind's handler may use. */
export interface JobContext {
  readonly model: Model;
  readonly database: Database;
  /** The clock a handler reads (default the system's; tests move their own). */
  readonly now?: () => Date;
  /**
   * Where the mail settings are read (`SMTP_URL`, `MAIL_FROM`, `NINEFOLD_PUBLIC_URL`; default the
   * process's environment): a malformed one throws here, at start.
   */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/**
 * The handlers of a product's job kinds: `ninefold.timer`, a timed transition (`timers/`);
 * `ninefold.notify`, a notification's delivery (`notifications/`); `ninefold.mail`, one mail
 * (`mail/`).
 *
 * @example const runner = new JobRunner({ database, handlers: productJobHandlers({ model, database }) });
 */
export function productJobHandlers(context: JobContext): JobHandlers {
  const now = context.now ?? (() => new Date());
  const settings = mailSettings(context.env ?? process.env);
  const { model, database } = context;
  return {
    [TIMER_JOB]: async (job) => void (await fireTimer(context, job, now())),
    [NOTIFY_JOB]: async (job) => void (await deliverNotification({ model, database, settings }, job, now())),
    [MAIL_JOB]: mailHandler({ model, database, settings, now }),
  };
}
