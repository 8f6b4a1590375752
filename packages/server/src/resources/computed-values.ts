/**
 * Keeping computed values (decision 0045). A computed field is a column of its record's table; its
 * value is computed by the engine (`computeValues`) before the record's own writes are validated,
 * and brought up to date in the transaction of every write of one of its children: the child's
 * create, update (both parents when it moves), transition and delete. A parent's rule that reads a
 * changed value is checked then, and refuses the child's write as a whole.
 */
import {
  type ChildRows,
  type FieldError,
  type UserContext,
  type WireRecord,
  changedComputed,
  computeValues,
  holds,
  lazyActivation,
  relationsRead,
  rulesFor,
  violated,
} from '@ninefold/engine';
import {
  type ComputedParent,
  type Entity,
  type Model,
  type Value,
  computedOrder,
  computedParents,
} from '@ninefold/model';
import { type DialectName } from '../db/dialect.js';
import { type SqlAggregate, aggregateValues, sqlAggregates } from './computed-sql.js';
import { writeProblem } from './issues.js';
import { type Db, type EntityTable, columnValues, decodeRow, encodeFields, entityTable } from './records.js';

/** What keeping computed values needs: the model and the database's dialect. */
export interface ComputedContext {
  readonly model: Model;
  readonly database: { readonly dialect: DialectName };
}

/** Who writes and when: a parent's rules are checked as the writer of the child. */
export interface Writer {
  readonly user: UserContext;
  readonly now: Date;
}

const tables = new WeakMap<Model, Map<string, EntityTable>>();

/** An entity's table, built once per model. */
function tableOf(model: Model, entity: string): EntityTable {
  let byName = tables.get(model);
  if (byName === undefined) tables.set(model, (byName = new Map()));
  let info = byName.get(entity);
  if (info === undefined) byName.set(entity, (info = entityTable(model, model.entities[entity]!)));
  return info;
}

/** Whether an entity has computed fields at all: every other write skips this module. */
export function hasComputed(entity: Entity): boolean {
  return computedOrder(entity).length > 0;
}

/**
 * The rows of each child relation the entity's computed fields read, of the record `id` (none for
 * a record not written yet), read through `db` (a write's transaction sees its own writes).
 */
export async function loadChildren(
  model: Model,
  db: Db,
  entity: Entity,
  id: string | null,
  except: ReadonlySet<string> = new Set(),
): Promise<ChildRows> {
  const out: Record<string, WireRecord[]> = {};
  for (const relation of relationsRead(entity, except)) {
    if (id === null) {
      out[relation.name] = [];
      continue;
    }
    const info = tableOf(model, relation.entity);
    const rows = (await db
      .selectFrom(info.table)
      .select([...info.columns])
      .where(relation.via, '=', id)
      .execute()) as Record<string, unknown>[];
    out[relation.name] = rows.map((row) => decodeRow(info, columnValues(info, row)));
  }
  return out;
}

/**
 * The computed values of a record about to be written, by field name, from the record as it will
 * be (`record`) and its children as they are: what the write's validation and rules then read.
 *
 * @example await computedOf(context, db, order, { ...old, ...input }) // { total: '120.00', lineCount: 2 }
 */
export async function computedOf(
  context: ComputedContext,
  db: Db,
  entity: Entity,
  record: WireRecord,
): Promise<Record<string, Value>> {
  const order = computedOrder(entity);
  if (order.length === 0) return {};
  const id = typeof record['id'] === 'string' ? record['id'] : null;
  const all = await valuesOf(context.model, db, entity, record, id);
  const out: Record<string, Value> = {};
  for (const field of order) out[field.name] = all[field.name] ?? null;
  return out;
}

const parentsByModel = new WeakMap<Model, Map<string, ComputedParent[]>>();

/** `computedParents` of an entity, found once per model: every write of every entity asks. */
function parentsOf(model: Model, child: string): ComputedParent[] {
  let byEntity = parentsByModel.get(model);
  if (byEntity === undefined) parentsByModel.set(model, (byEntity = new Map()));
  let found = byEntity.get(child);
  if (found === undefined) byEntity.set(child, (found = computedParents(model.entities, child)));
  return found;
}

const aggregatesByModel = new WeakMap<Model, Map<string, Map<string, SqlAggregate>>>();

/** The entity's computed fields that SQL computes (`computed-sql.ts`), found once per model. */
function aggregatesOf(model: Model, entity: Entity): Map<string, SqlAggregate> {
  let byEntity = aggregatesByModel.get(model);
  if (byEntity === undefined) aggregatesByModel.set(model, (byEntity = new Map()));
  let found = byEntity.get(entity.name);
  if (found === undefined) byEntity.set(entity.name, (found = sqlAggregates(model, entity)));
  return found;
}

/**
 * The record with its computed values: the aggregates SQL computes, then the rest by the engine
 * over the children it reads (loaded only for those). A record not written yet has no children.
 */
async function valuesOf(
  model: Model,
  db: Db,
  entity: Entity,
  record: WireRecord,
  id: string | null,
): Promise<Record<string, Value>> {
  const aggregates = id === null ? new Map<string, SqlAggregate>() : aggregatesOf(model, entity);
  const known = id === null ? {} : await aggregateValues(model, db, aggregates, id);
  const children = await loadChildren(model, db, entity, id, new Set(aggregates.keys()));
  return computeValues(model, entity.name, record, children, known);
}

/**
 * After a write of a record of `child` (`before` null for a create, `after` null for a delete),
 * brings up to date every parent whose computed values read it: the parent it points at, and the
 * one it pointed at before when it moved. Call it inside the write's transaction, once per written
 * child — a cascade delete calls it for each child it deletes. Throws the parent rule's error
 * (422, the rule's code) when a changed value breaks it: the transaction then writes nothing.
 *
 * @example await refreshParents(resource, tx, 'OrderLine', oldLine, savedLine, caller)
 */
export async function refreshParents(
  context: ComputedContext,
  tx: Db,
  child: string,
  before: WireRecord | null,
  after: WireRecord | null,
  writer: Writer,
): Promise<void> {
  for (const parent of parentsOf(context.model, child)) {
    const ids = new Set<string>();
    for (const row of [before, after]) {
      const id = row?.[parent.via];
      if (typeof id === 'string') ids.add(id);
    }
    for (const id of ids) await recompute(context, tx, parent.entity, id, writer);
  }
}

/**
 * Recomputes one record's computed values from its stored fields and its children; when any
 * changed, checks the record's rules that read them, writes them with a new version and goes on to
 * the record's own parents. Without a writer (a migration that recomputes every row, parents after
 * their children), only the values are written: no rule, no new version.
 */
export async function recompute(
  context: ComputedContext,
  tx: Db,
  entity: string,
  id: string,
  writer: Writer | null,
): Promise<void> {
  const { model } = context;
  const info = tableOf(model, entity);
  const row = (await tx
    .selectFrom(info.table)
    .select([...info.columns])
    .where('id', '=', id)
    .executeTakeFirst()) as Record<string, unknown> | undefined;
  if (row === undefined) return; // deleted in the same transaction (a cascade from this parent)
  const old = decodeRow(info, columnValues(info, row));
  const next = await valuesOf(model, tx, info.entity, old, id);
  const changed = changedComputed(info.entity, old, next);
  if (changed.length === 0) return;
  if (writer === null) {
    await tx
      .updateTable(info.table)
      .set(encodeFields(info, next, changed, context.database.dialect))
      .where('id', '=', id)
      .execute();
    return;
  }
  const errors = brokenRules(model, entity, old, next, changed, writer);
  if (errors.length > 0) throw writeProblem(model, errors);
  const saved: Record<string, Value> = {
    ...next,
    updatedAt: writer.now.toISOString(),
    version: Number(old['version']) + 1,
  };
  await tx
    .updateTable(info.table)
    .set(encodeFields(info, saved, [...changed, 'updatedAt', 'version'], context.database.dialect))
    .where('id', '=', id)
    .execute();
  await refreshParents(context, tx, entity, saved, saved, writer);
}

/**
 * The errors of the record's update rules that read a changed computed value and no longer hold:
 * a change of a child is an update of the parent's values.
 */
function brokenRules(
  model: Model,
  entity: string,
  old: WireRecord,
  next: Record<string, Value>,
  changed: readonly string[],
  writer: Writer,
): FieldError[] {
  const reads = (names: readonly string[]) => names.some((n) => changed.includes(n) || n === 'self');
  const vars = lazyActivation(model, entity, next, { user: writer.user, now: writer.now, old });
  const errors: FieldError[] = [];
  for (const rule of rulesFor(model, entity, 'update')) {
    if (!reads(rule.assert.names) && !reads(rule.when?.names ?? [])) continue;
    if (rule.when !== null && !holds(model, entity, rule.when, vars)) continue;
    if (!violated(model, entity, rule.assert, vars)) continue;
    const params: Record<string, Value> = { ...model.constants, ...next, rule: rule.id };
    const label = (f: string) => model.entities[entity]?.fields[f]?.label ?? f;
    if (rule.fields.length === 0) errors.push({ code: rule.error, field: null, params });
    for (const f of rule.fields)
      errors.push({ code: rule.error, field: f, params: { ...params, field: label(f) } });
  }
  return errors;
}
