/**
 * The audit trail: who did what to which record, and when. Resources and transitions write it in
 * the transaction of the change; user administration writes it too.
 */
import { type Value } from '@ninefold/spec/model';
import { type Kysely } from 'kysely';
import { uuidv7 } from 'uuidv7';
import { TABLES } from '../schema/names.js';

export interface HistoryEntry {
  readonly entity: string;
  readonly recordId: string;
  readonly at: Date;
  /** The user who acted, or null for the system (the CLI, a migration). */
  readonly by: string | null;
  readonly action: 'create' | 'update' | 'delete' | 'transition';
  readonly transition?: string;
  readonly fromState?: string;
  readonly toState?: string;
  /** Changed fields: their values before and after. */
  readonly changes?: Readonly<Record<string, { readonly from: Value; readonly to: Value }>>;
}

/**
 * Records one entry; call it inside the transaction of the change it describes.
 *
 * @example await recordHistory(tx, { entity: 'User', recordId: id, at: now(), by: null, action: 'create' });
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function recordHistory(db: Kysely<any>, entry: HistoryEntry): Promise<void> {
  await db
    .insertInto(TABLES.history)
    .values({
      id: uuidv7(),
      entity: entry.entity,
      record_id: entry.recordId,
      at: entry.at.toISOString(),
      by: entry.by,
      action: entry.action,
      transition: entry.transition ?? null,
      from_state: entry.fromState ?? null,
      to_state: entry.toState ?? null,
      changes: entry.changes === undefined ? null : JSON.stringify(entry.changes),
    })
    .execute();
}
