/**
 * Writing a record change's webhook deliveries, in the change's own transaction (the outbox,
 * decision 0028): for each webhook of the spec that listens to the change, one delivery job and its
 * row in the delivery log admins read. The job carries the whole message — its body is fixed when
 * the change commits, so every attempt and every re-send sends the same bytes, signed afresh.
 *
 * A webhook's deliveries of one record form a job sequence: they are sent in the order written, a
 * later one never before an earlier one is delivered or has failed for good (decision 0032).
 */
import { createHash } from 'node:crypto';
import { type Model, type Value, type Webhook } from '@ninefold/model';
import { usersTable } from '../auth/users.js';
import { type Backoff } from '../jobs/backoff.js';
import { enqueueJob } from '../jobs/enqueue.js';
import { type Db } from '../resources/records.js';
import { TABLES } from '../schema/names.js';

/** The job kind of a webhook delivery. */
export const WEBHOOK_JOB = 'ninefold.webhook';

/**
 * How a delivery is retried: 20 attempts, 10 s doubling to at most 6 hours between them — at least
 * 26 hours from the first attempt to the last even with the shortest jitter, as receivers expect
 * (the Standard Webhooks specification suggests retrying for a day or more).
 */
export const WEBHOOK_MAX_ATTEMPTS = 20;
export const WEBHOOK_BACKOFF: Backoff = { baseMs: 10_000, capMs: 6 * 60 * 60_000 };

/** A record as a receiver gets it: every stored field, the system fields included. */
export type RecordValues = Readonly<Record<string, Value | undefined>>;

/** The change a delivery tells of (what it needs of `recordEffects`' change). */
export interface ToldChange {
  readonly entity: string;
  readonly before: RecordValues | null;
  readonly after: RecordValues | null;
  /** A user's id, or null for the system. */
  readonly actor: string | null;
  /** Who the actor is, when the writer knows it (the signed-in user); absent, the user is read. */
  readonly actorSummary?: WebhookActor | null;
  readonly now: Date;
}

/** A webhook that listens to a change, and the event of its `on` that names it (`Claim.pay`). */
export interface ListeningWebhook {
  readonly webhook: Webhook;
  readonly event: string;
}

/** Who made the change, as a receiver is told: null for the system (a timed transition). */
export interface WebhookActor {
  readonly id: string;
  readonly name: string;
  readonly email: string;
}

/** The body a receiver gets: the Standard Webhooks form, `type` being the event as the spec writes it. */
export interface WebhookBody {
  readonly type: string;
  readonly timestamp: string;
  readonly data: {
    readonly entity: string;
    readonly id: string;
    /** Every stored field, as an admin sees it; for a delete, the record before. */
    readonly record: RecordValues;
    readonly actor: WebhookActor | null;
  };
}

/** What a delivery job carries. */
export interface WebhookPayload {
  readonly webhook: string;
  readonly event: string;
  readonly entity: string;
  readonly recordId: string;
  readonly body: WebhookBody;
}

/**
 * Writes a delivery of the change to each webhook that listens to it; call it in the change's
 * transaction (`recordEffects` does, having chosen the webhooks with `listensTo`).
 *
 * @example await enqueueWebhooks(tx, model, [{ webhook, event: 'Claim.pay' }], { entity: 'Claim', before, after, actor, now });
 */
export async function enqueueWebhooks(
  tx: Db,
  model: Model,
  listening: readonly ListeningWebhook[],
  change: ToldChange,
): Promise<void> {
  if (listening.length === 0) return;
  const record = change.after ?? change.before ?? {};
  const recordId = String(record['id']);
  const actor =
    change.actor === null
      ? null
      : change.actorSummary !== undefined
        ? change.actorSummary
        : await actorOf(tx, model, change.actor);
  for (const { webhook, event } of listening) {
    const payload: WebhookPayload = {
      webhook: webhook.name,
      event,
      entity: change.entity,
      recordId,
      body: {
        type: event,
        timestamp: change.now.toISOString(),
        data: { entity: change.entity, id: recordId, record, actor },
      },
    };
    await enqueueDelivery(tx, webhook, payload, change.now);
  }
}

/**
 * Writes one delivery of a message: its job (in its webhook's sequence for the record) and its log
 * row. Returns the delivery's id, the job's.
 *
 * @example const id = await enqueueDelivery(tx, webhook, payload, now);
 */
export async function enqueueDelivery(
  tx: Db,
  webhook: Pick<Webhook, 'name'>,
  payload: WebhookPayload & { readonly messageId?: string },
  now: Date,
): Promise<string> {
  const { id } = await enqueueJob(
    tx,
    {
      kind: WEBHOOK_JOB,
      payload,
      maxAttempts: WEBHOOK_MAX_ATTEMPTS,
      backoff: WEBHOOK_BACKOFF,
      sequence: deliverySequence(webhook.name, payload.entity, payload.recordId),
    },
    now,
  );
  const at = now.toISOString();
  await tx
    .insertInto(TABLES.webhookDeliveries)
    .values({
      id,
      webhook: webhook.name,
      event: payload.event,
      entity: payload.entity,
      record_id: payload.recordId,
      state: 'pending',
      attempts: 0,
      last_status: null,
      last_answer: null,
      message: JSON.stringify(payload),
      created_at: at,
      updated_at: at,
    })
    .execute();
  return id;
}

/**
 * The job sequence of a webhook's deliveries of one record: its names hashed, so that long names
 * stay within a sequence's 200 characters.
 *
 * @example deliverySequence('accounting', 'Claim', id) // 'webhook/3f1c…'
 */
export function deliverySequence(webhook: string, entity: string, recordId: string): string {
  const hash = createHash('sha256')
    .update(JSON.stringify([webhook, entity, recordId]))
    .digest('hex');
  return `webhook/${hash}`;
}

/** The user who made a change, as the receiver is told of them (null when the user is gone). */
async function actorOf(tx: Db, model: Model, userId: string): Promise<WebhookActor | null> {
  const row = (await tx
    .selectFrom(usersTable(model))
    .select(['id', 'name', 'email'])
    .where('id', '=', userId)
    .executeTakeFirst()) as Record<string, Value> | undefined;
  if (row === undefined) return null;
  return { id: String(row['id']), name: String(row['name'] ?? ''), email: String(row['email'] ?? '') };
}
