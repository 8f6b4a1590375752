/**
 * Keeping a record's timers (its timed transitions, `after:` or `at:`) in step with its writes, in
 * the write's own transaction: a record in a `from` state of a timed transition has one pending
 * job for it (keyed `<entity>/<id>/<transition>`); a record that leaves the state, or is deleted,
 * has none.
 *
 * - `after`: due that long after the record entered the state — the time of the write that moved
 *   it there (its creation, for the initial state). A transition that leaves the state unchanged
 *   (`answer: { from: open, to: open }`) does not restart it.
 * - `at`: due at the field's time; a `date` field's day starts at midnight UTC (the model has no
 *   time zone). Rescheduled when the field changes; an empty field schedules nothing.
 */
import { createHash } from 'node:crypto';
import { type Model, type Transition, type Value } from '@ninefold/model';
import { type Db } from '../resources/records.js';
import { cancelJob, scheduleJob } from '../jobs/schedule.js';

/** The job kind of a timed transition. */
export const TIMER_JOB = 'ninefold.timer';

/** What a timer's job carries: enough to find the record and the transition. */
export interface TimerPayload {
  readonly entity: string;
  readonly id: string;
  readonly transition: string;
}

/** A record as its timers see it: its id, state and fields. */
type RecordValues = Readonly<Record<string, Value | undefined>>;

/** A write of one record: what it was before (null for a create) and after (null for a delete). */
export interface RecordWrite {
  readonly entity: string;
  readonly before: RecordValues | null;
  readonly after: RecordValues | null;
  readonly now: Date;
}

/**
 * Schedules, moves or cancels the record's timers after a write; call it in the write's
 * transaction.
 *
 * @example await syncTimers(tx, model, { entity: 'Loan', before: old, after: saved, now });
 */
export async function syncTimers(tx: Db, model: Model, write: RecordWrite): Promise<void> {
  const machine = model.states[write.entity];
  if (machine === undefined) return;
  const { before, after, now } = write;
  const id = String((after ?? before)?.['id']);
  const stateOf = (record: RecordValues | null) =>
    record === null || typeof record['state'] !== 'string' ? null : record['state'];
  const entered = stateOf(before) !== stateOf(after);
  for (const transition of Object.values(machine.transitions)) {
    const timer = transition.timer;
    if (timer === null) continue;
    const key = timerKey(write.entity, id, transition.name);
    const wasIn = isFrom(transition, stateOf(before));
    const isIn = isFrom(transition, stateOf(after));
    if (!isIn) {
      if (wasIn) await cancelJob(tx, TIMER_JOB, key);
      continue;
    }
    if ('after' in timer) {
      if (!entered && wasIn) continue;
      await schedule(tx, key, write.entity, id, transition, new Date(now.getTime() + timer.after), now);
      continue;
    }
    const value = after?.[timer.at] ?? null;
    if (!entered && wasIn && before?.[timer.at] === value) continue;
    const runAt = timeOf(value);
    if (runAt === null) await cancelJob(tx, TIMER_JOB, key);
    else await schedule(tx, key, write.entity, id, transition, runAt, now);
  }
}

/** The longest job key (`enqueueJob`'s limit). */
const MAX_KEY_LENGTH = 200;

/**
 * The key of a record's timer for a transition: one pending job each. Names are not bounded in
 * length, keys are: a key that would be too long names the entity and transition by their hash.
 */
export function timerKey(entity: string, id: string, transition: string): string {
  const key = `${entity}/${id}/${transition}`;
  if (key.length <= MAX_KEY_LENGTH) return key;
  return `${id}/${createHash('sha256').update(`${entity}/${transition}`).digest('hex')}`;
}

/**
 * The time a date or datetime value stands for: a datetime's instant, a date's midnight UTC; null
 * for no value.
 */
export function timeOf(value: Value | null | undefined): Date | null {
  if (typeof value !== 'string' || value === '') return null;
  const time = new Date(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00.000Z` : value);
  return Number.isNaN(time.getTime()) ? null : time;
}

function isFrom(transition: Transition, state: string | null): boolean {
  return state !== null && transition.from.includes(state);
}

async function schedule(
  tx: Db,
  key: string,
  entity: string,
  id: string,
  transition: Transition,
  runAt: Date,
  now: Date,
): Promise<void> {
  const payload: TimerPayload = { entity, id, transition: transition.name };
  await scheduleJob(tx, { kind: TIMER_JOB, key, runAt, payload }, now);
}
