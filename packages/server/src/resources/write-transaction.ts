/**
 * A write's transaction and what it refuses: a unique index's refusal becomes E_UNIQUE with its
 * field, a taken Idempotency-Key becomes `KeyTaken`, and an update of a record written since it was
 * read becomes E_CONFLICT. A keyed write takes its key before anything else, so that a repeat of it
 * in flight waits on the key for the first to commit or roll back (`replay.ts`).
 */
import { type WireRecord } from '@ninefold/engine';
import { isForeignKeyViolation, isUniqueViolation } from '../db/dialect.js';
import { ApiError } from '../http/errors.js';
import { type IdempotencyKey, type KeptOutcome, isKeyTaken, keepOutcome } from '../http/idempotency.js';
import { type Db, type EntityTable, encodeFields } from './records.js';
import { writeLists } from './list-refs.js';
import { KeyTaken } from './replay.js';
import { type EntityResource } from './resource.js';

/** The Idempotency-Key a write is sent with (null without one) and the outcome it keeps. */
export interface KeyedOutcome {
  readonly key: IdempotencyKey | null;
  readonly outcome: KeptOutcome;
  readonly now: Date;
}

/**
 * Runs a write in one transaction; with a key, the transaction takes it first (`keepOutcome`).
 *
 * A foreign key's refusal (a ref to a record deleted meanwhile) is answered with `onForeignKey`'s
 * error, E_CONFLICT by default.
 *
 * @example await inTransaction(resource, { key, outcome: { status: 200, recordId }, now }, async (tx) => { … });
 */
export async function inTransaction(
  resource: EntityResource,
  { key, outcome, now }: KeyedOutcome,
  work: (tx: Db) => Promise<void>,
  onForeignKey: () => Promise<ApiError> = async () => new ApiError('E_CONFLICT'),
): Promise<void> {
  try {
    await resource.db.transaction().execute(async (tx) => {
      // first: a repeat racing this write waits here, on the key's unique index, not on the record
      if (key !== null) await keepOutcome(tx, key, outcome, now);
      await work(tx);
    });
  } catch (error) {
    // a foreign key refused the commit (decision 0043): the caller says why, after the rollback
    if (isForeignKeyViolation(error)) throw await onForeignKey();
    if (!isUniqueViolation(error)) throw error;
    // another request with the same Idempotency-Key committed first: `once` answers its outcome
    if (isKeyTaken(error)) throw new KeyTaken(error);
    const field = uniqueFieldOf(resource.info, error);
    throw new ApiError(
      'E_UNIQUE',
      { field: field?.label ?? 'value' },
      field === undefined
        ? {}
        : { errors: [{ field: field.name, code: 'E_UNIQUE', params: { field: field.label } }] },
    );
  }
}

/**
 * Writes `columns` of `record` over the row of its id, and its lists of refs that differ from
 * `before`'s (decision 0044), if its version is still `version`; otherwise
 * E_CONFLICT (someone else wrote the record since it was read: nothing is overwritten).
 */
export async function updateRow(
  resource: EntityResource,
  tx: Db,
  record: WireRecord,
  columns: readonly string[],
  version: number,
  before: WireRecord,
): Promise<void> {
  const result = await tx
    .updateTable(resource.info.table)
    .set(encodeFields(resource.info, record, [...new Set(columns)], resource.database.dialect))
    .where('id', '=', String(record['id']))
    .where('version', '=', version)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) throw new ApiError('E_CONFLICT');
  await writeLists(tx, resource.info, before, record);
}

/** The unique field a database's violation names (the index in PostgreSQL, the column in SQLite). */
function uniqueFieldOf(info: EntityTable, error: unknown) {
  const { constraint, message } = error as { constraint?: unknown; message?: unknown };
  const text = `${typeof constraint === 'string' ? constraint : ''} ${typeof message === 'string' ? message : ''}`;
  return Object.values(info.entity.fields).find(
    (f) =>
      f.unique &&
      (text.includes(`${info.table}.${f.name}`) || text.includes(`${info.table}_${f.name.toLowerCase()}_ux`)),
  );
}
