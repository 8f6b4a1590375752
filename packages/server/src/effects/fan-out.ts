/**
 * The outbox of a change's notifications and webhooks: ONE job (`ninefold.effects`) per change,
 * written in the change's transaction, fanned out later into the notify jobs and webhook deliveries
 * the change sets going (decision 0028, amended). A create that carries effects pays for one job row
 * instead of a job per effect, a delivery-log row per webhook and a read of the actor — the cost the
 * outbox bench (`bench/outbox`) measured at 0.64× of a plain create.
 *
 * The fan-out writes exactly what the change's transaction wrote before (the same enqueue
 * functions), and settles its own job done in the same transaction (`markDoneWithin`), so a second
 * run of it — a runner that took it over when the first one's lease ran out — writes nothing. The
 * fan-outs of one record form a job sequence, so they run in the order their changes were written,
 * and each webhook's deliveries of the record keep that order.
 */
import { type Transaction } from 'kysely';
import { createHash } from 'node:crypto';
import { type Model, type RecordEvent } from '@ninefold/model';
import { type Database } from '../db/open.js';
import { enqueueJob } from '../jobs/enqueue.js';
import { type Job } from '../jobs/job.js';
import { markDoneWithin } from '../jobs/store.js';
import { enqueueNotifications } from '../notifications/enqueue.js';
import { type Db } from '../resources/records.js';
import { TABLES } from '../schema/names.js';
import {
  type ListeningWebhook,
  type RecordValues,
  type WebhookActor,
  enqueueWebhooks,
} from '../webhooks/enqueue.js';

/** The job kind of a change's fan-out. */
export const EFFECTS_JOB = 'ninefold.effects';

/** The longest sequence a job may have (jobs/enqueue.ts). */
const MAX_SEQUENCE_LENGTH = 200;

/** A change as its fan-out needs it (what `recordEffects` has). */
export interface FannedChange {
  readonly entity: string;
  readonly kind: RecordEvent['kind'];
  readonly transition: string | null;
  readonly before: RecordValues | null;
  readonly after: RecordValues | null;
  readonly actor: string | null;
  /** Who made it, as a webhook's receiver is told; absent when unknown (then read at fan-out). */
  readonly actorSummary?: WebhookActor | null;
  readonly now: Date;
}

/** What a fan-out job carries: the change, its record as it left it (as it was, for a delete). */
export interface EffectsPayload {
  readonly entity: string;
  readonly kind: RecordEvent['kind'];
  readonly transition: string | null;
  readonly record: RecordValues;
  readonly actor: string | null;
  /** Absent: not known when written (the fan-out reads the user); null: the system or no user. */
  readonly actorSummary?: WebhookActor | null;
  /** When the change was made (ISO 8601). */
  readonly at: string;
}

/** What a fan-out did: for tests and logs. */
export type FanOutOutcome = { readonly status: 'fanned-out' } | { readonly status: 'done-before' };

/**
 * Writes the change's fan-out job when at least one notification or webhook listens to it; call it
 * in the change's transaction (`recordEffects` does).
 *
 * @example await enqueueFanOut(tx, model, change);
 */
export async function enqueueFanOut(tx: Db, model: Model, change: FannedChange): Promise<void> {
  const record = change.after ?? change.before;
  if (record === null) return;
  const listens = (event: RecordEvent): boolean => listensTo(event, change);
  const heard =
    Object.values(model.webhooks).some((webhook) => webhook.on.some(listens)) ||
    Object.values(model.notifications).some((notification) => notification.on.some(listens));
  if (!heard) return;
  const payload: EffectsPayload = {
    entity: change.entity,
    kind: change.kind,
    transition: change.transition,
    record,
    actor: change.actor,
    ...(change.actorSummary === undefined ? {} : { actorSummary: change.actorSummary }),
    at: change.now.toISOString(),
  };
  const sequence = fanOutSequence(change.entity, String(record['id']));
  await enqueueJob(tx, { kind: EFFECTS_JOB, payload, sequence }, change.now);
}

/**
 * Fans one change's job out into its notify jobs and webhook deliveries, and settles the job done,
 * all in one transaction.
 *
 * @example await fanOut({ model, database }, job, new Date()) // { status: 'fanned-out' }
 */
export async function fanOut(
  context: { readonly model: Model; readonly database: Database },
  job: Job,
  now: Date,
): Promise<FanOutOutcome> {
  const { model, database } = context;
  const change = changeOf(job.payload as EffectsPayload);
  const fanned = await database.db.transaction().execute(async (trx) => {
    if (!(await markDoneWithin(trx, job, now))) return false;
    await writeEffects(trx, model, change);
    return true;
  });
  if (fanned) return { status: 'fanned-out' };
  const row = await database.db
    .selectFrom(TABLES.jobs)
    .select('state')
    .where('id', '=', job.id)
    .executeTakeFirst();
  if (row?.state === 'done') return { status: 'done-before' };
  throw new Error('Another runner took this change over; it fans it out.');
}

/**
 * Whether an event of the spec names this change.
 *
 * @example listensTo({ entity: 'Claim', kind: 'transition', transition: 'pay', name: 'Claim.pay' }, change)
 */
export function listensTo(
  event: RecordEvent,
  change: Pick<FannedChange, 'entity' | 'kind' | 'transition'>,
): boolean {
  return (
    event.entity === change.entity &&
    event.kind === change.kind &&
    (event.kind !== 'transition' || event.transition === change.transition)
  );
}

/**
 * The job sequence of one record's fan-outs: `effects/<entity>/<id>`, hashed when that is too long.
 *
 * @example fanOutSequence('Claim', id) // 'effects/Claim/0190…'
 */
export function fanOutSequence(entity: string, recordId: string): string {
  const plain = `effects/${entity}/${recordId}`;
  if (plain.length <= MAX_SEQUENCE_LENGTH) return plain;
  return `effects/${createHash('sha256')
    .update(JSON.stringify([entity, recordId]))
    .digest('hex')}`;
}

/** The notify jobs and webhook deliveries of a change, as its transaction wrote them before. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the server's own tables
async function writeEffects(trx: Transaction<any>, model: Model, change: FannedChange): Promise<void> {
  const webhooks: ListeningWebhook[] = Object.values(model.webhooks).flatMap((webhook) => {
    const event = webhook.on.find((candidate) => listensTo(candidate, change));
    return event === undefined ? [] : [{ webhook, event: event.name }];
  });
  await enqueueWebhooks(trx, model, webhooks, change);
  await enqueueNotifications(trx, model, change, (event) => listensTo(event, change));
}

/** The change a fan-out job carries. */
function changeOf(payload: EffectsPayload): FannedChange {
  const deleted = payload.kind === 'deleted';
  return {
    entity: payload.entity,
    kind: payload.kind,
    transition: payload.transition,
    before: deleted ? payload.record : null,
    after: deleted ? null : payload.record,
    actor: payload.actor,
    ...(payload.actorSummary === undefined ? {} : { actorSummary: payload.actorSummary }),
    now: new Date(payload.at),
  };
}
