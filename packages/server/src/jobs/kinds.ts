/**
 * The job kinds a product runs: what `ninefold start` and `ninefold worker` give their runners.
 * Each effect of a spec (a timed transition, a notification, a webhook delivery — issue 17) is a
 * kind, registered here with its handler. A runner claims only the kinds it has handlers of, so a
 * job written by a newer version waits for a runner of that version, never run by the wrong one.
 */
import { type Model } from '@ninefold/model';
import { type Database } from '../db/open.js';
import { EFFECTS_JOB, fanOut } from '../effects/fan-out.js';
import { expireFile, removeFile } from '../files/jobs.js';
import { FILE_EXPIRE_JOB, FILE_REMOVE_JOB } from '../files/lifecycle.js';
import { type FileStore } from '../files/store.js';
import { FILE_SWEEP_JOB, sweepFiles } from '../files/sweep.js';
import { LINK_MAIL_JOB, linkMailHandler } from '../auth/identity-mail.js';
import { MAIL_JOB, mailHandler } from '../mail/send.js';
import { mailSettings } from '../mail/settings.js';
import { deliverNotification } from '../notifications/deliver.js';
import { NOTIFY_JOB } from '../notifications/enqueue.js';
import { fireTimer } from '../timers/fire.js';
import { TIMER_JOB } from '../timers/schedule.js';
import { webhookHandler } from '../webhooks/deliver.js';
import { WEBHOOK_JOB } from '../webhooks/enqueue.js';
import { type Env, resolveWebhooks } from '../webhooks/resolve.js';
import { type JobHandlers } from './job.js';

/** What a kind's handler may use. */
export interface JobContext {
  readonly model: Model;
  readonly database: Database;
  /** Where uploaded files' bytes are: the file jobs remove them, the sweep lists them (`openFileStore`). */
  readonly files: FileStore;
  /** The clock a handler reads (default the system's; tests move their own). */
  readonly now?: () => Date;
  /**
   * Where the webhooks' `${NAME}` URLs and secrets and the mail settings (`SMTP_URL`, `MAIL_FROM`,
   * `NINEFOLD_PUBLIC_URL`) are read, once (default the process's environment).
   */
  readonly env?: Env;
  /** How long a webhook's receiver has to answer (default 10 s). */
  readonly webhookTimeoutMs?: number;
}

/**
 * The handlers of a product's job kinds: `ninefold.timer`, a timed transition (`timers/`);
 * `ninefold.effects`, a change's fan-out into its notifications and deliveries (`effects/`);
 * `ninefold.notify`, a notification's delivery (`notifications/`); `ninefold.mail`, one mail
 * (`mail/`); `ninefold.link-mail`, a mail with a one-time link (`auth/identity-mail.ts`); and
 * `ninefold.webhook`, a webhook delivery (`webhooks/`); `ninefold.file-expire` and
 * `ninefold.file-remove`, the removal of an unattached or detached file, and `ninefold.file-sweep`,
 * the daily removal of bytes no row names (`files/`). The settings they read from
 * the environment are read here, once: a webhook that cannot be sent (a `WebhookConfigError` naming
 * it) or a malformed mail setting throws, so the server or worker that builds its runner does not
 * start.
 *
 * @example const runner = new JobRunner({ database, handlers: productJobHandlers({ model, database, files }) });
 */
export function productJobHandlers(context: JobContext): JobHandlers {
  const now = context.now ?? (() => new Date());
  const env = context.env ?? process.env;
  const webhooks = resolveWebhooks(context.model, env);
  const settings = mailSettings(env);
  const { model, database, files } = context;
  return {
    [TIMER_JOB]: async (job) => void (await fireTimer(context, job, now())),
    [EFFECTS_JOB]: async (job) => void (await fanOut({ model, database }, job, now())),
    [NOTIFY_JOB]: async (job) => void (await deliverNotification({ model, database, settings }, job, now())),
    [MAIL_JOB]: mailHandler({ model, database, settings, now }),
    [LINK_MAIL_JOB]: linkMailHandler({ model, database, settings, now }),
    [WEBHOOK_JOB]: webhookHandler({
      database,
      webhooks,
      now,
      ...(context.webhookTimeoutMs === undefined ? {} : { timeoutMs: context.webhookTimeoutMs }),
    }),
    [FILE_EXPIRE_JOB]: async (job) => void (await expireFile({ database, files }, job)),
    [FILE_REMOVE_JOB]: async (job) => void (await removeFile({ database, files }, job)),
    [FILE_SWEEP_JOB]: async (_job, signal) => void (await sweepFiles({ database, files }, now(), signal)),
  };
}
