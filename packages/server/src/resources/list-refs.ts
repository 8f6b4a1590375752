/**
 * Lists of refs in their join tables (decision 0044): writing a record's lists. Who lists a record,
 * when it is deleted, is the delete path's business (`referrers.ts`, `delete-plan.ts`).
 *
 * A record carries a list as a JSON array of ids; an empty list is no value (null), as it reads.
 */
import { JOIN_COLUMNS, type WireRecord } from '@ninefold/engine';
import { type Value } from '@ninefold/model';
import { type Db, type EntityTable } from './records.js';

/**
 * The record with each list of refs as stored: each id once, in the order first written, and an
 * empty list as no value.
 *
 * @example storedLists(info, { members: ['u2', 'u1', 'u2'] }) // { members: ['u2', 'u1'] }
 */
export function storedLists<R extends WireRecord>(info: EntityTable, record: R): R {
  let out: R | null = null;
  for (const name of info.lists.keys()) {
    const value = record[name];
    if (!Array.isArray(value)) continue;
    const ids = [...new Set(value.map(String))];
    if (ids.length === value.length && ids.length > 0) continue;
    out ??= { ...record };
    (out as Record<string, Value>)[name] = ids.length === 0 ? null : ids;
  }
  return out ?? record;
}

/**
 * Writes the lists of refs of `after` whose ids differ from `before`'s (null: a new record): the
 * holder's rows are replaced, in the write's transaction. An unchanged list writes nothing.
 */
export async function writeLists(
  tx: Db,
  info: EntityTable,
  before: WireRecord | null,
  after: WireRecord,
): Promise<void> {
  const holder = String(after['id']);
  for (const [name, table] of info.lists) {
    const next = idsOf(after[name]);
    const previous = before === null ? [] : idsOf(before[name]);
    if (next.join('\u0000') === previous.join('\u0000')) continue;
    if (before !== null) await tx.deleteFrom(table).where(JOIN_COLUMNS.holder, '=', holder).execute();
    if (next.length === 0) continue;
    await tx
      .insertInto(table)
      .values(next.map((target, position) => ({ holder, target, position })))
      .execute();
  }
}

function idsOf(value: Value | undefined): string[] {
  return Array.isArray(value) ? [...new Set(value.map(String))] : [];
}
