/**
 * The handler of a timer's job: fires the timed transition as the system, in one transaction.
 *
 * It reads the record afresh and does nothing (the job is done) when the record is gone, is no
 * longer in a `from` state, or — for `at` — its field no longer says now or earlier. Otherwise it
 * evaluates the transition at this moment with no user (`applyTimedTransition`): a guard that does
 * not hold, or a result the rules refuse, fires nothing. A fired transition writes the record under
 * its version (a record written meanwhile makes the attempt fail, to be retried and decided again),
 * its history with no user (the system), and its effects (`recordEffects`: the timers of
 * the new state, its notifications and webhooks).
 *
 * Delivery is at least once: a second delivery finds the record out of the `from` state and does
 * nothing.
 */
import { applyTimedTransition } from '@ninefold/engine';
import { type Model, type Value } from '@ninefold/model';
import { recordHistory } from '../audit/history.js';
import { type Database } from '../db/open.js';
import { type Job } from '../jobs/job.js';
import {
  changeSet,
  changedFields,
  columnValues,
  decodeRow,
  encodeFields,
  entityTable,
  isSystemField,
  selectColumns,
} from '../resources/records.js';
import { recordEffects } from '../effects/record-effects.js';
import { writeLists } from '../resources/list-refs.js';
import { holdFiles } from '../files/holdings.js';
import { type TimerPayload, timeOf } from './schedule.js';

/** What fired, or why nothing did: for tests and logs. */
export type TimerOutcome = 'fired' | 'gone' | 'left' | 'moved' | 'refused';

/**
 * Runs one timer's job at `now`.
 *
 * @example await fireTimer({ model, database }, job, new Date()) // 'fired'
 */
export async function fireTimer(
  context: { readonly model: Model; readonly database: Database },
  job: Job,
  now: Date,
): Promise<TimerOutcome> {
  const { model, database } = context;
  const { entity, id, transition: name } = job.payload as TimerPayload;
  const definition = model.entities[entity];
  const transition = model.states[entity]?.transitions[name];
  // the spec changed since the job was written: its entity or timed transition is no more
  if (definition === undefined || transition === undefined || transition.timer === null) return 'gone';
  const info = entityTable(model, definition);
  return database.db.transaction().execute(async (tx) => {
    const row = await tx
      .selectFrom(info.table)
      .select(selectColumns(info, database.dialect))
      .where('id', '=', id)
      .executeTakeFirst();
    if (row === undefined) return 'gone';
    const record = decodeRow(info, columnValues(info, row as Record<string, unknown>));
    const state = record['state'];
    if (typeof state !== 'string' || !transition.from.includes(state)) return 'left';
    if ('at' in transition.timer!) {
      const due = timeOf(record[transition.timer.at]);
      if (due === null || due.getTime() > now.getTime()) return 'moved';
    }
    const result = applyTimedTransition(model, entity, record, name, {
      now,
      today: now.toISOString().slice(0, 10),
    });
    if (!result.ok) return 'refused';
    const next: Record<string, Value> = { ...record };
    for (const [field, value] of Object.entries(result.record))
      if (info.stored.has(field) && !isSystemField(field)) next[field] = value;
    next['state'] = result.record['state'] ?? null;
    const version = Number(record['version']);
    const saved: Record<string, Value> = { ...next, updatedAt: now.toISOString(), version: version + 1 };
    const changed = changedFields(info, record, saved);
    const columns = [...new Set([...changed, 'state', 'updatedAt', 'version'])];
    const updated = await tx
      .updateTable(info.table)
      .set(encodeFields(info, saved, columns, database.dialect))
      .where('id', '=', id)
      .where('version', '=', version)
      .executeTakeFirst();
    // written since it was read: this attempt fails, and the next decides again
    if (Number(updated.numUpdatedRows) !== 1)
      throw new Error(`${entity} ${id} was written while its timer fired.`);
    await writeLists(tx, info, record, saved);
    // a file the transition's `set` emptied goes (decision 0054)
    await holdFiles(tx, definition, record, saved, now);
    await recordHistory(tx, {
      entity,
      recordId: id,
      at: now,
      by: null,
      action: 'transition',
      transition: name,
      fromState: state,
      toState: String(saved['state']),
      changes: changeSet(changed, record, saved),
    });
    await recordEffects(tx, model, {
      entity,
      kind: 'transition',
      transition: name,
      before: record,
      after: saved,
      actor: null,
      now,
    });
    return 'fired';
  });
}
