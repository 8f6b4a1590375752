/**
 * What a committed change of a record sets going, written in the change's own transaction (the
 * outbox, decision 0028): its timers (`timers/`), its row in the log of changes that the live
 * events stream sends (`events/`, decision 0056), and — when a notification or webhook of the
 * spec's section 7 listens to it — one fan-out job (`fan-out.ts`) that later writes those
 * notifications and webhook deliveries. Every write of a record — by a person through the API or
 * by the clock — ends by calling `recordEffects` once, so each effect is written if and only if its
 * change commits.
 */
import { type Model, type RecordEvent, type Value } from '@ninefold/model';
import { logRecordChange } from '../events/log.js';
import { type Db } from '../resources/records.js';
import { syncTimers } from '../timers/schedule.js';
import { type WebhookActor } from '../webhooks/enqueue.js';
import { enqueueFanOut, listensTo } from './fan-out.js';

export { listensTo };

/** A record as its effects see it: every stored field, the system fields included. */
export type RecordValues = Readonly<Record<string, Value | undefined>>;

/** One committed-to-be change of one record. */
export interface RecordChange {
  readonly entity: string;
  /** `created`, `updated` (an edit), `deleted`, or `transition` (then `transition` names it). */
  readonly kind: RecordEvent['kind'];
  readonly transition: string | null;
  /** The record before (null for a create) and after (null for a delete). */
  readonly before: RecordValues | null;
  readonly after: RecordValues | null;
  /** Who made it: a user's id, or null for the system (a timed transition). */
  readonly actor: string | null;
  /**
   * Who made it as a webhook's receiver is told (id, name, e-mail): the signed-in user, whom the
   * writer already has. Absent, the fan-out reads the user.
   */
  readonly actorSummary?: WebhookActor | null;
  readonly now: Date;
}

/**
 * Writes the effects of a change; call it in the change's transaction, after the record's row.
 *
 * @example await recordEffects(tx, model, { entity, kind: 'created', transition: null, before: null, after: record, actor: user.id, now });
 */
export async function recordEffects(tx: Db, model: Model, change: RecordChange): Promise<void> {
  await syncTimers(tx, model, change);
  await enqueueFanOut(tx, model, change);
  await logRecordChange(tx, change);
}
