/**
 * Writing a change's notifications: one job (`ninefold.notify`) per notification of the spec that
 * listens to the change, in the change's own transaction (decision 0028), so that a change that
 * rolls back tells no one and one that commits cannot lose its notification in a crash. The job
 * carries what its delivery needs without reading the record again: the record as the change left
 * it (as it was, for a delete), who made the change, and when.
 */
import { type Model, type RecordEvent, type Value } from '@ninefold/model';
import { enqueueJob } from '../jobs/enqueue.js';
import { type Db } from '../resources/records.js';

/** The job kind of a notification's delivery. */
export const NOTIFY_JOB = 'ninefold.notify';

/** A record as its notifications see it: every stored field, the system fields included. */
type RecordValues = Readonly<Record<string, Value | undefined>>;

/** A change of one record, as `recordEffects` has it. */
export interface NotifiedChange {
  readonly entity: string;
  readonly before: RecordValues | null;
  readonly after: RecordValues | null;
  readonly actor: string | null;
  readonly now: Date;
}

/** What a notification's job carries. */
export interface NotifyPayload {
  /** The spec's name of the notification. */
  readonly notification: string;
  readonly entity: string;
  readonly recordId: string;
  /** The record after the change; before it, for a delete. */
  readonly record: RecordValues;
  /** Who made the change: a user's id, or null for the system (a timed transition). */
  readonly actor: string | null;
  /** When the change was made (ISO 8601). */
  readonly at: string;
}

/**
 * Writes a job for each notification whose `on` names the change; call it in the change's
 * transaction (`recordEffects` does).
 *
 * @example await enqueueNotifications(tx, model, change, (event) => listensTo(event, change));
 */
export async function enqueueNotifications(
  tx: Db,
  model: Model,
  change: NotifiedChange,
  listens: (event: RecordEvent) => boolean,
): Promise<void> {
  const record = change.after ?? change.before;
  if (record === null) return;
  for (const notification of Object.values(model.notifications)) {
    if (!notification.on.some(listens)) continue;
    const payload: NotifyPayload = {
      notification: notification.name,
      entity: change.entity,
      recordId: String(record['id']),
      record,
      actor: change.actor,
      at: change.now.toISOString(),
    };
    await enqueueJob(tx, { kind: NOTIFY_JOB, payload }, change.now);
  }
}
