/**
 * The handler of a mail's job (`ninefold.mail`): it sends the mail through SMTP when `SMTP_URL` is
 * set, with the product's name as the sender's name, or keeps it in the development outbox
 * (`ninefold_mail_outbox`) that admins read. A failed send throws, and the runner tries again
 * later (decision 0028).
 *
 * Delivery is at least once: a send whose answer is lost is sent again. Each mail carries a
 * Message-ID made from its job's id, the same at every attempt, so that a receiver can tell a
 * repeat; the outbox keeps one mail per job.
 */
import { type Model } from '@ninefold/model';
import nodemailer from 'nodemailer';
import { type Database } from '../db/open.js';
import { newId } from '../ids.js';
import { type Job, type JobHandler } from '../jobs/job.js';
import { TABLES } from '../schema/names.js';
import { type MailContent } from './compose.js';
import { type MailSettings } from './settings.js';

/** The job kind of one mail to one address. */
export const MAIL_JOB = 'ninefold.mail';

/** What a mail's job carries: the mail, ready. */
export type MailPayload = MailContent;

/** How long a send may take to connect, greet and answer, so that a stuck server fails the attempt. */
const SMTP_TIMEOUT_MS = 30_000;

/**
 * The mail job's handler for a product.
 *
 * @example const handlers = { [MAIL_JOB]: mailHandler({ model, database, settings, now }) };
 */
export function mailHandler(context: {
  readonly model: Model;
  readonly database: Database;
  readonly settings: MailSettings;
  readonly now: () => Date;
}): JobHandler {
  const { model, database, settings, now } = context;
  const transport =
    settings.smtpUrl === null
      ? null
      : nodemailer.createTransport({
          url: settings.smtpUrl,
          connectionTimeout: SMTP_TIMEOUT_MS,
          greetingTimeout: SMTP_TIMEOUT_MS,
          socketTimeout: SMTP_TIMEOUT_MS,
        });
  return async (job) => {
    const mail = job.payload as MailPayload;
    if (transport === null) {
      await keepInOutbox(database, job, mail, now());
      return;
    }
    await transport.sendMail({
      from: { name: model.product.name, address: settings.from },
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
      messageId: `<${job.id}@ninefold>`,
    });
  };
}

async function keepInOutbox(database: Database, job: Job, mail: MailPayload, now: Date): Promise<void> {
  await database.db
    .insertInto(TABLES.mailOutbox)
    .values({
      id: newId(),
      job_id: job.id,
      to_address: mail.to,
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
      created_at: now.toISOString(),
    })
    .onConflict((oc) => oc.columns(['job_id']).doNothing())
    .execute();
}
