/**
 * What a committed change of a record sets going, written in the change's own transaction (the
 * outbox, decision 0028): its timers (`timers/`), and the notifications and webhook deliveries of
 * the spec's section 7 that listen to it. Every write of a record — by a person through the API or
 * by the clock — ends by calling `recordEffects` once, so each effect is written if and only if its
 * change commits.
 */
import { type Model, type RecordEvent, type Value } from '@ninefold/model';
import { type Db } from '../resources/records.js';
import { enqueueNotifications } from '../notifications/enqueue.js';
import { syncTimers } from '../timers/schedule.js';
import { enqueueWebhooks } from '../webhooks/enqueue.js';

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
  readonly now: Date;
}

/**
 * Writes the effects of a change; call it in the change's transaction, after the record's row.
 *
 * @example await recordEffects(tx, model, { entity, kind: 'created', transition: null, before: null, after: record, actor: user.id, now });
 */
export async function recordEffects(tx: Db, model: Model, change: RecordChange): Promise<void> {
  await syncTimers(tx, model, change);
  const webhooks = Object.values(model.webhooks).flatMap((webhook) => {
    const event = webhook.on.find((candidate) => listensTo(candidate, change));
    return event === undefined ? [] : [{ webhook, event: event.name }];
  });
  await enqueueWebhooks(tx, model, webhooks, change);
  await enqueueNotifications(tx, model, change, (event) => listensTo(event, change));
}

/**
 * Whether an event of the spec names this change.
 *
 * @example listensTo({ entity: 'Claim', kind: 'transition', transition: 'pay', name: 'Claim.pay' }, change)
 */
export function listensTo(event: RecordEvent, change: RecordChange): boolean {
  return (
    event.entity === change.entity &&
    event.kind === change.kind &&
    (event.kind !== 'transition' || event.transition === change.transition)
  );
}
