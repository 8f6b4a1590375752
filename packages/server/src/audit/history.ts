/**
 * The audit trail: who did what to which record, and when. Resources and transitions write it in
 * the transaction of the change; user administration writes it too.
 */
import { type HistoryAction, type Value } from '@ninefold/model';
import { CompiledQuery, type DialectAdapter, type Kysely } from 'kysely';
import { newId } from '../ids.js';
import { TABLES } from '../schema/names.js';

export interface HistoryEntry {
  readonly entity: string;
  readonly recordId: string;
  readonly at: Date;
  /** The user who acted, or null for the system (the CLI, a migration). */
  readonly by: string | null;
  readonly action: HistoryAction;
  readonly transition?: string;
  readonly fromState?: string;
  readonly toState?: string;
  /** Changed fields: their values before and after. */
  readonly changes?: Readonly<Record<string, { readonly from: Value; readonly to: Value }>>;
}

/** The history table's columns, in the order of the compiled insert's parameters. */
const COLUMNS = [
  'id',
  'entity',
  'record_id',
  'at',
  'by',
  'action',
  'transition',
  'from_state',
  'to_state',
  'changes',
] as const;

/**
 * The insert's SQL, compiled once per dialect (its adapter: one per Kysely instance, shared by its
 * transactions): the text is the same for every entry, only the placeholder style differs.
 */
const insertSql = new WeakMap<DialectAdapter, string>();

/**
 * Records one entry; call it inside the transaction of the change it describes.
 *
 * @example await recordHistory(tx, { entity: 'User', recordId: id, at: now(), by: null, action: 'create' });
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function recordHistory(db: Kysely<any>, entry: HistoryEntry): Promise<void> {
  const row = {
    id: newId(),
    entity: entry.entity,
    record_id: entry.recordId,
    at: entry.at.toISOString(),
    by: entry.by,
    action: entry.action,
    transition: entry.transition ?? null,
    from_state: entry.fromState ?? null,
    to_state: entry.toState ?? null,
    changes: entry.changes === undefined ? null : JSON.stringify(entry.changes),
  };
  const parameters = COLUMNS.map((column) => row[column]);
  const adapter = db.getExecutor().adapter;
  let text = insertSql.get(adapter);
  if (text === undefined) {
    const compiled = db.insertInto(TABLES.history).values(row).compile();
    // every column is bound, in COLUMNS' order: the text serves every later entry
    if (!parameters.every((value, i) => Object.is(value, compiled.parameters[i]))) {
      throw new Error('The history insert does not bind its columns in order.');
    }
    text = compiled.sql;
    insertSql.set(adapter, text);
  }
  await db.executeQuery(CompiledQuery.raw(text, parameters));
}
