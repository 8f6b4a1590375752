/**
 * Computing a record's computed fields (decision 0045): each from the record's own fields and its
 * children, in the order they read each other. The server keeps the values it computes here in the
 * record's columns, within the transaction of every write that can change them.
 */
import {
  type ChildRelation,
  type Entity,
  type Model,
  type Value,
  computedOrder,
  recordSchema,
} from '@ninefold/model';
import { fromCel, toCel } from './cel-values.js';
import { activation, entityOf, evaluate } from './expressions.js';
import { type WireRecord, lookup } from './record.js';

/** The rows of each child relation a record's computed fields read, by relation name. */
export type ChildRows = Readonly<Record<string, readonly WireRecord[]>>;

/** A moment no computed value can read (the compiler refuses `now`, NF407): activations need one. */
const NO_TIME = new Date(0);

/**
 * The child relations that an entity's computed fields read (but those named in `except`, whose
 * values are known otherwise): what must be loaded to compute them.
 *
 * @example relationsRead(order) // [{ name: 'lines', entity: 'OrderLine', via: 'order', … }]
 */
export function relationsRead(entity: Entity, except: ReadonlySet<string> = new Set()): ChildRelation[] {
  const fields = computedOrder(entity).filter((f) => !except.has(f.name));
  const names = new Set(fields.flatMap((f) => f.computed?.names ?? []));
  return Object.values(entity.children).filter((r) => names.has(r.name));
}

/**
 * The record with every computed field set from its own fields and `children` (the rows of each
 * relation in `relationsRead`). A value that cannot be computed — it reads an absent value, it
 * averages no rows, it does not fit the field — is null. The values in `known` (computed already,
 * by SQL) are taken as they are. The record itself is not changed.
 *
 * @example computeValues(model, 'OrderLine', { quantity: 2, unitPrice: '9.95' }, {}) // { …, amount: '19.90' }
 */
export function computeValues(
  model: Model,
  entity: string,
  record: WireRecord,
  children: ChildRows,
  known: Readonly<Record<string, Value>> = {},
): Record<string, Value> {
  const def = entityOf(model, entity);
  const out: Record<string, Value> = { ...(record as Record<string, Value>) };
  const order = computedOrder(def);
  if (order.length === 0) return out;
  const lists = childLists(model, def, children);
  for (const field of order) {
    if (field.name in known) {
      out[field.name] = known[field.name] ?? null;
      continue;
    }
    const vars = { ...activation(model, entity, out, { user: null, now: NO_TIME }), ...lists };
    const outcome = evaluate(model, entity, field.computed!, vars);
    const value = outcome.ok ? fromCel(field, outcome.value) : undefined;
    out[field.name] = value === undefined ? null : value;
  }
  return out;
}

/**
 * The fields whose computed values differ between two versions of a record.
 *
 * @example changedComputed(order, before, after) // ['total', 'lineCount']
 */
export function changedComputed(
  entity: Entity,
  before: Readonly<Record<string, Value>>,
  after: Readonly<Record<string, Value>>,
): string[] {
  return computedOrder(entity)
    .map((f) => f.name)
    .filter((name) => JSON.stringify(before[name] ?? null) !== JSON.stringify(after[name] ?? null));
}

/** Each relation's rows as CEL sees them: a list of records of the child's fields. */
function childLists(model: Model, entity: Entity, children: ChildRows): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const relation of Object.values(entity.children)) {
    const child = lookup(model.entities, relation.entity);
    if (child === undefined) continue;
    const schema = Object.entries(recordSchema(child, lookup(model.states, child.name)));
    out[relation.name] = (children[relation.name] ?? []).map((row) => {
      const cel: Record<string, unknown> = {};
      for (const [name, type] of schema) {
        const value = toCel(type, row[name]);
        if (value !== undefined) cel[name] = value;
      }
      return cel;
    });
  }
  return out;
}
