/**
 * What deleting a record does to the records that refer to it (decision 0043), decided and carried
 * out in the delete's transaction: every ref that points at it acts per its `onDelete` —
 * `restrict` refuses the delete (409 E_REFERENCED), `cascade` deletes the referring records (and
 * theirs, cycles included), `setNull` empties their ref. The database's foreign keys are the
 * backstop: whatever this module missed (a record created since it looked) fails the commit.
 */
import { type UserContext, type WireRecord, can, refsTo } from '@ninefold/engine';
import { type Model, type OnDelete, type Value } from '@ninefold/model';
import { recordHistory } from '../audit/history.js';
import { type DialectName, deferForeignKeys } from '../db/dialect.js';
import { recordEffects } from '../effects/record-effects.js';
import { ApiError } from '../http/errors.js';
import { type WebhookActor } from '../webhooks/enqueue.js';
import { type Db, changeSet, encodeFields } from './records.js';
import { writeLists } from './list-refs.js';
import { referrers, tableOf } from './referrers.js';

/** A record of an entity. */
export interface EntityRecord {
  readonly entity: string;
  readonly record: Readonly<Record<string, Value>>;
}

/** A restrict ref that still holds the record: how many records of `entity` refer through `field`. */
export interface Blocking {
  readonly entity: string;
  readonly field: string;
  readonly count: number;
}

/** Everything a delete would do beyond deleting its record, found before anything is written. */
export interface DeletePlan {
  /** The record deleted; `carryOut` leaves its own row to the caller. */
  readonly root: EntityRecord;
  /** The records `cascade` deletes, each after those that cascade from it. */
  readonly deletes: readonly EntityRecord[];
  /** The records `setNull` changes, with the ref fields emptied of a deleted record. */
  readonly emptied: readonly (EntityRecord & { readonly fields: readonly string[] })[];
  /** The first `restrict` ref that still holds a record of the delete, or null. */
  readonly blocking: Blocking | null;
  /** Records referring to the deleted one directly, by entity, field and onDelete, in model order. */
  readonly direct: readonly { entity: string; field: string; onDelete: OnDelete; count: number }[];
}

/** Who deletes, when, and (for the permission check of `cascade`) whether to check them at all. */
export interface DeleteActor {
  readonly user: UserContext;
  readonly now: Date;
  /** Refuse the whole delete (E_FORBIDDEN) if the user may not delete a record `cascade` reaches. */
  readonly checkPermissions: boolean;
  readonly dialect: DialectName;
}

const key = (entity: string, id: Value | undefined) => `${entity}\u0000${String(id)}`;

/**
 * The plan of deleting `root`: walks the refs that point at it, and at every record `cascade`
 * reaches, once each. Throws E_FORBIDDEN when `checkPermissions` and the user may not delete one of
 * the cascaded records; a `restrict` that holds is returned in `blocking`, not thrown.
 *
 * @example const plan = await planDelete(tx, model, { entity: 'Ticket', record }, { user, now, checkPermissions: true });
 */
export async function planDelete(
  tx: Db,
  model: Model,
  root: EntityRecord,
  actor: DeleteActor,
): Promise<DeletePlan> {
  const deleted = new Map<string, EntityRecord>([[key(root.entity, root.record['id']), root]]);
  const deletes: EntityRecord[] = [];
  const restricted: { entity: string; field: string; record: Readonly<Record<string, Value>> }[] = [];
  const toEmpty: { entity: string; field: string; record: Readonly<Record<string, Value>> }[] = [];
  const direct: DeletePlan['direct'][number][] = [];

  const visit = async (target: EntityRecord, isRoot: boolean): Promise<void> => {
    const id = String(target.record['id']);
    for (const pointer of refsTo(model, target.entity)) {
      const rows = await referrers(tx, model, actor.dialect, pointer, id);
      if (isRoot)
        direct.push({
          entity: pointer.entity,
          field: pointer.field,
          onDelete: pointer.onDelete,
          count: rows.length,
        });
      for (const record of rows) {
        const row = { entity: pointer.entity, field: pointer.field, record };
        if (pointer.onDelete === 'restrict') restricted.push(row);
        else if (pointer.onDelete === 'setNull') toEmpty.push(row);
        else {
          const k = key(pointer.entity, record['id']);
          if (deleted.has(k)) continue;
          if (
            actor.checkPermissions &&
            !can(model, actor.user, 'delete', pointer.entity, record, { now: actor.now })
          )
            throw new ApiError('E_FORBIDDEN');
          const child = { entity: pointer.entity, record };
          deleted.set(k, child);
          await visit(child, false);
          deletes.push(child);
        }
      }
    }
  };
  await visit(root, true);

  const survives = (row: { entity: string; record: Readonly<Record<string, Value>> }) =>
    !deleted.has(key(row.entity, row.record['id']));
  return {
    root,
    deletes,
    emptied: mergeEmptied(toEmpty.filter(survives)),
    blocking: firstBlocking(restricted.filter(survives)),
    direct,
  };
}

/** One entry per record, with every field of it to empty. */
function mergeEmptied(
  rows: readonly { entity: string; field: string; record: Readonly<Record<string, Value>> }[],
) {
  const byRecord = new Map<string, EntityRecord & { fields: string[] }>();
  for (const row of rows) {
    const k = key(row.entity, row.record['id']);
    const entry = byRecord.get(k) ?? { entity: row.entity, record: row.record, fields: [] };
    if (!entry.fields.includes(row.field)) entry.fields.push(row.field);
    byRecord.set(k, entry);
  }
  return [...byRecord.values()];
}

/** The first restrict relation that holds, with the number of distinct records it holds by. */
function firstBlocking(
  rows: readonly { entity: string; field: string; record: Readonly<Record<string, Value>> }[],
): Blocking | null {
  const first = rows[0];
  if (first === undefined) return null;
  const ids = new Set(
    rows
      .filter((r) => r.entity === first.entity && r.field === first.field)
      .map((r) => String(r.record['id'])),
  );
  return { entity: first.entity, field: first.field, count: ids.size };
}

/**
 * The 409 a blocking restrict answers: "4 Products refer to this record through “Category”".
 *
 * @example throw referencedError(model, plan.blocking);
 */
export function referencedError(model: Model, blocking: Blocking): ApiError {
  const entity = model.entities[blocking.entity];
  return new ApiError('E_REFERENCED', {
    count: blocking.count,
    label: entity?.label ?? blocking.entity,
    plural: entity?.pluralLabel ?? blocking.entity,
    field: entity?.fields[blocking.field]?.label ?? blocking.field,
  });
}

/** Who a change is by, for history and effects. */
export interface DeleteAuthor {
  readonly user: UserContext;
  readonly now: Date;
  readonly actorSummary: WebhookActor | null;
  /** Called in the transaction for each record changed or deleted: its parents' computed values follow. */
  readonly touched: (tx: Db, entity: string, before: WireRecord, after: WireRecord | null) => Promise<void>;
}

/**
 * Carries out a plan in the delete's transaction, before the record itself is deleted: empties the
 * `setNull` refs (a new version and a history entry each) and deletes the `cascade`d records (a
 * history entry and their effects each). Foreign keys are checked at commit, so the order within
 * the transaction does not matter to them.
 *
 * @example await carryOut(tx, model, 'sqlite', plan, { user, now, actorSummary });
 */
export async function carryOut(
  tx: Db,
  model: Model,
  dialect: DialectName,
  plan: DeletePlan,
  author: DeleteAuthor,
): Promise<void> {
  if (plan.deletes.length > 0) await deferForeignKeys(tx, dialect);
  // ids are unique across entities (`newId`)
  const gone = new Set([plan.root, ...plan.deletes].map((d) => String(d.record['id'])));
  for (const { entity, record, fields } of plan.emptied) {
    const info = tableOf(model, entity);
    const next: Record<string, Value> = { ...record };
    for (const field of fields) {
      const value = record[field];
      next[field] = Array.isArray(value) ? value.filter((id) => !gone.has(String(id))) : null;
    }
    const version = Number(record['version']);
    const saved = { ...next, updatedAt: author.now.toISOString(), version: version + 1 };
    const result = await tx
      .updateTable(info.table)
      .set(encodeFields(info, saved, [...fields, 'updatedAt', 'version'], dialect))
      .where('id', '=', String(record['id']))
      .where('version', '=', version)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) throw new ApiError('E_CONFLICT');
    // a list of refs loses the item in its join table (decision 0044)
    await writeLists(tx, info, record, saved);
    await author.touched(tx, entity, record, saved);
    await recordHistory(tx, {
      entity,
      recordId: String(record['id']),
      at: author.now,
      by: author.user.id,
      action: 'update',
      changes: changeSet(fields, record, saved),
    });
    await recordEffects(tx, model, change(entity, 'updated', record, saved, author));
  }
  for (const { entity, record } of plan.deletes) {
    const info = tableOf(model, entity);
    const result = await tx
      .deleteFrom(info.table)
      .where('id', '=', String(record['id']))
      .where('version', '=', Number(record['version']))
      .executeTakeFirst();
    if (Number(result.numDeletedRows) !== 1) throw new ApiError('E_CONFLICT');
    await author.touched(tx, entity, record, null);
    const fields = info.columns.filter((c) => c in info.entity.fields && record[c] !== null);
    await recordHistory(tx, {
      entity,
      recordId: String(record['id']),
      at: author.now,
      by: author.user.id,
      action: 'delete',
      changes: changeSet(fields, record, null),
    });
    await recordEffects(tx, model, change(entity, 'deleted', record, null, author));
  }
}

function change(
  entity: string,
  kind: 'updated' | 'deleted',
  before: Readonly<Record<string, Value>>,
  after: Readonly<Record<string, Value>> | null,
  author: DeleteAuthor,
) {
  return {
    entity,
    kind,
    transition: null,
    before,
    after,
    actor: author.user.id,
    actorSummary: author.actorSummary,
    now: author.now,
  };
}
