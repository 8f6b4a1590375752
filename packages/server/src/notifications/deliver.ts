/**
 * The handler of a notification's job (`ninefold.notify`): who is told, and what each is told.
 *
 * The recipients (`recipients.ts`) lose the person who made the change — no one is told of their
 * own change — and everyone who turned the notification off, unless it is mandatory. Then the key
 * rule: a user who may not read the record (their roles, its row conditions) is never told, and
 * each user's subject and message are rendered, in the language they saved on their account (else
 * the spec's default), with only the fields they may read, as the read
 * path masks them (`maskRecord`) — a hidden field renders as empty text. `user.*` (the actor) is
 * rendered likewise with what the recipient may read of the actor's User record.
 *
 * An outside address (an email field that holds no user's address) has no roles to decide with. It
 * is told by e-mail only (when the notification has that channel), rendered with the fields that
 * every role that reads the entity may read: all of them when no role hides a field, otherwise
 * only those no role hides (`fieldsForEveryone`).
 *
 * A ref field renders as the referenced record's title, for a recipient who may read that record,
 * and as empty text otherwise (`ref-labels.ts`).
 *
 * Exactly once: the in-app rows, the mail jobs and the job's own end (done) are written in one
 * transaction (`markDoneWithin`). A second run of the job — a runner that took it over when the
 * first one's lease ran out — finds it no longer its own and writes nothing; the in-app rows are
 * also unique per job and user.
 */
import { type Transaction } from 'kysely';
import { createHash } from 'node:crypto';
import { maskRecord } from '@ninefold/engine';
import { type Model, type Notification, type Value, SYSTEM_FIELDS } from '@ninefold/model';
import { decodeBoolean } from '../db/dialect.js';
import { type Database } from '../db/open.js';
import { enqueueJob } from '../jobs/enqueue.js';
import { type Job } from '../jobs/job.js';
import { markDoneWithin } from '../jobs/store.js';
import { newId } from '../ids.js';
import { composeMail, recordLink } from '../mail/compose.js';
import { MAIL_JOB, type MailPayload } from '../mail/send.js';
import { type MailSettings } from '../mail/settings.js';
import { TABLES } from '../schema/names.js';
import { type NotifyPayload } from './enqueue.js';
import { modelIn, savedLocale } from '../http/reader-locale.js';
import { type RecipientUser, findRecipients, userById } from './recipients.js';
import { loadReferences, withRefLabels } from './ref-labels.js';
import { type RenderValues, renderTemplate } from './render.js';

type RecordValues = Readonly<Record<string, Value | undefined>>;

/** What a delivery did: for tests and logs. */
export type DeliveryOutcome =
  | { readonly status: 'delivered'; readonly users: number; readonly mails: number }
  /** The spec no longer has the notification. */
  | { readonly status: 'gone' }
  /** Another run of the job delivered it already. */
  | { readonly status: 'done-before' };

/** One rendered notification for one recipient. */
interface Told {
  readonly userId: string | null;
  readonly email: string;
  readonly subject: string;
  readonly message: string;
}

/**
 * Delivers one notification's job at `now`.
 *
 * @example await deliverNotification({ model, database, settings }, job, new Date()) // { status: 'delivered', … }
 */
export async function deliverNotification(
  context: { readonly model: Model; readonly database: Database; readonly settings: MailSettings },
  job: Job,
  now: Date,
): Promise<DeliveryOutcome> {
  const { model, database, settings } = context;
  const payload = job.payload as NotifyPayload;
  const notification = Object.hasOwn(model.notifications, payload.notification)
    ? model.notifications[payload.notification]
    : undefined;
  if (notification === undefined || model.entities[payload.entity] === undefined) {
    return finish(database, job, now, async () => ({ status: 'gone' }));
  }
  const told = await whoIsTold(context, notification, payload, now);
  const app = notification.channels.includes('app');
  const email = notification.channels.includes('email');
  const link = recordLink(model, settings.publicUrl, payload.entity, payload.recordId);
  return finish(database, job, now, async (trx) => {
    let users = 0;
    let mails = 0;
    for (const one of told) {
      if (app && one.userId !== null) {
        await trx
          .insertInto(TABLES.notifications)
          .values({
            id: newId(),
            user_id: one.userId,
            notification: notification.name,
            entity: payload.entity,
            record_id: payload.recordId,
            subject: one.subject,
            message: one.message,
            created_at: payload.at,
            read_at: null,
            job_id: job.id,
          })
          .onConflict((oc) => oc.columns(['job_id', 'user_id']).doNothing())
          .execute();
        users += 1;
      }
      if (email) {
        const mail: MailPayload = composeMail({
          to: one.email,
          subject: one.subject,
          message: one.message,
          link,
        });
        await enqueueJob(trx, { kind: MAIL_JOB, payload: mail, key: mailKey(job.id, one.email) }, now);
        mails += 1;
      }
    }
    return { status: 'delivered', users, mails };
  });
}

/** Everyone told, each with the subject and message rendered for them. */
async function whoIsTold(
  context: { readonly model: Model; readonly database: Database },
  notification: Notification,
  payload: NotifyPayload,
  now: Date,
): Promise<Told[]> {
  const { model, database } = context;
  const { entity, record } = payload;
  const recipients = await findRecipients(database, model, notification, record, payload.actor);
  const off = notification.mandatory
    ? new Set<string>()
    : await turnedOff(database, notification, recipients.users);
  // without a User entity there are no rules to read a user by: `user.*` stays empty
  const actor =
    payload.actor === null || model.entities['User'] === undefined
      ? null
      : await userById(database, model, payload.actor);
  const references = await loadReferences(database, model, entity, record);
  // in the recipient's language (decision 0067): the spec's template as its translation file words
  // it, with that locale's numbers and dates; the model of each locale is made once and kept
  const render = (values: RenderValues, locale: string) => {
    const shown = modelIn(model, locale);
    const words = shown.notifications[notification.name] ?? notification;
    return {
      subject: renderTemplate(shown, words.subject, values),
      message: renderTemplate(shown, words.message, values),
    };
  };
  const told: Told[] = [];
  for (const user of recipients.users) {
    if (off.has(user.id)) continue;
    const readable = maskRecord(model, user.context, entity, record, { now });
    if (readable === null) continue; // may not read the record: never told
    const actorValues =
      actor === null ? null : maskRecord(model, user.context, 'User', actor.context, { now });
    told.push({
      userId: user.id,
      email: user.email,
      ...render(
        {
          record: withRefLabels(model, user.context, entity, readable, references, now),
          user: actorFields(actorValues),
        },
        savedLocale(model, user.locale),
      ),
    });
  }
  if (notification.channels.includes('email') && recipients.addresses.length > 0) {
    const values = {
      // an outside address may read no referenced record: its refs render as empty
      record: withRefLabels(
        model,
        null,
        entity,
        pick(record, fieldsForEveryone(model, entity)),
        references,
        now,
      ),
      user: actorFields(actor === null ? null : pick(actor.context, fieldsForEveryone(model, 'User'))),
    };
    // an outside address has no saved language: the spec's default
    const rendered = render(values, model.product.locale);
    for (const address of recipients.addresses) told.push({ userId: null, email: address, ...rendered });
  }
  return told;
}

/**
 * The fields of an entity that every role reading it may read: null (all of them) when no such
 * role hides a field, otherwise those none of them hides. What an outside recipient may be told.
 *
 * @example fieldsForEveryone(model, 'Ticket') // ['subject', 'state'] when one role reads only those
 */
export function fieldsForEveryone(model: Model, entity: string): ReadonlySet<string> | null {
  const readers = Object.values(model.roles)
    .map((role) => (Object.hasOwn(role.entities, entity) ? role.entities[entity] : undefined))
    .filter((access) => access !== undefined && access.read !== false);
  if (readers.length === 0) return new Set();
  const masks = readers.flatMap((access) => (access?.readFields == null ? [] : [access.readFields]));
  if (masks.length === 0) return null;
  const [first = [], ...others] = masks;
  return new Set(first.filter((field) => others.every((mask) => mask.includes(field))));
}

/** The record with only the system fields and the given ones (all, for null). */
function pick(record: RecordValues, fields: ReadonlySet<string> | null): RecordValues {
  if (fields === null) return record;
  const out: Record<string, Value | undefined> = {};
  for (const [key, value] of Object.entries(record))
    if (fields.has(key) || (SYSTEM_FIELDS as readonly string[]).includes(key)) out[key] = value;
  return out;
}

/** `user.id`, `user.name` and `user.email` of the actor, as far as the recipient may read them. */
function actorFields(actor: RecordValues | null): RecordValues {
  if (actor === null) return {};
  return { id: actor['id'], name: actor['name'], email: actor['email'] };
}

/** The users among those given who turned the notification off. */
async function turnedOff(
  database: Database,
  notification: Notification,
  users: readonly RecipientUser[],
): Promise<Set<string>> {
  if (users.length === 0) return new Set();
  const rows = await database.db
    .selectFrom(TABLES.notificationSettings)
    .select(['user_id', 'enabled'])
    .where('notification', '=', notification.name)
    .where(
      'user_id',
      'in',
      users.map((user) => user.id),
    )
    .execute();
  return new Set(rows.filter((row) => !decodeBoolean(row['enabled'])).map((row) => String(row['user_id'])));
}

/** One mail job per notification job and address, while unfinished (`enqueueJob`'s key). */
function mailKey(jobId: string, address: string): string {
  return `${jobId}/${createHash('sha256').update(address).digest('hex').slice(0, 32)}`;
}

/**
 * Ends the job and runs the delivery's writes, in one transaction. The job's end comes first: on
 * PostgreSQL its row stays locked until the commit, so a second run waits for the first and then
 * finds the job done. A job that is no longer this run's writes nothing: done by another run, it
 * was delivered; otherwise this run lost its lease, and fails.
 */
async function finish(
  database: Database,
  job: Job,
  now: Date,
  writes: (trx: Transaction<any>) => Promise<DeliveryOutcome>, // eslint-disable-line @typescript-eslint/no-explicit-any -- the server's own tables
): Promise<DeliveryOutcome> {
  const outcome = await database.db.transaction().execute(async (trx) => {
    if (!(await markDoneWithin(trx, job, now))) return null;
    return writes(trx);
  });
  if (outcome !== null) return outcome;
  const row = await database.db
    .selectFrom(TABLES.jobs)
    .select('state')
    .where('id', '=', job.id)
    .executeTakeFirst();
  if (row?.state === 'done') return { status: 'done-before' };
  throw new Error('Another runner took this notification over; it delivers it.');
}
