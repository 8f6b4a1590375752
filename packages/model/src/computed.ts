/**
 * Computed values and child relations (decision 0045): the aggregate functions their expressions
 * may call, the CEL type of a child's row, and the order in which a record's computed fields are
 * brought up to date. Shared by the compiler (type-checking) and the engine (evaluation).
 */
import { recordSchema } from './cel-types.js';
import { type Entity, type Expr, type Field, type StateMachine } from './model.js';

/** A CEL function as both the compiler and the engine register it. */
export interface CelFunction {
  readonly signature: string;
  readonly handler: (...args: never[]) => unknown;
}

/** The largest or smallest of a list's items; an empty list has neither, so the value is absent. */
function extreme<T extends number | bigint>(items: readonly T[], larger: boolean): T {
  if (items.length === 0) throw new Error('no values to compare');
  let out = items[0]!;
  for (const item of items) if (larger ? item > out : item < out) out = item;
  return out;
}

function sumOf(items: readonly number[]): number {
  let total = 0;
  for (const item of items) total += item;
  return total;
}

function bigSum(items: readonly bigint[]): bigint {
  let total = 0n;
  for (const item of items) total += item;
  return total;
}

/**
 * `sum`, `avg`, `min` and `max` over a list of numbers (`sum(lines.map(l, l.amount))`); `size`,
 * `exists`, `all`, `filter` and `map` are CEL's own. The sum of no items is 0; the average, the
 * smallest and the largest of none are absent (the computed value is then null).
 */
export const AGGREGATE_FUNCTIONS: readonly CelFunction[] = [
  { signature: 'sum(list<int>): int', handler: (items: bigint[]) => bigSum(items) },
  { signature: 'sum(list<double>): double', handler: (items: number[]) => sumOf(items) },
  {
    signature: 'avg(list<int>): double',
    handler: (items: bigint[]) => {
      if (items.length === 0) throw new Error('no values to average');
      return Number(bigSum(items)) / items.length;
    },
  },
  {
    signature: 'avg(list<double>): double',
    handler: (items: number[]) => {
      if (items.length === 0) throw new Error('no values to average');
      return sumOf(items) / items.length;
    },
  },
  { signature: 'min(list<int>): int', handler: (items: bigint[]) => extreme(items, false) },
  { signature: 'min(list<double>): double', handler: (items: number[]) => extreme(items, false) },
  { signature: 'max(list<int>): int', handler: (items: bigint[]) => extreme(items, true) },
  { signature: 'max(list<double>): double', handler: (items: number[]) => extreme(items, true) },
];

/**
 * The CEL type of one child row inside a parent's computed expression: a record of the child's
 * fields, named so that it cannot meet an entity's or CEL's own type names.
 *
 * @example childRowType('OrderLine') // 'ninefold.rows.OrderLine'
 */
export function childRowType(entity: string): string {
  return `ninefold.rows.${entity}`;
}

/** The fields of a child row type with their CEL types: the child's record schema. */
export function childRowFields(
  child: Entity,
  machine: StateMachine | undefined | boolean,
): Record<string, string> {
  return recordSchema(child, machine);
}

/** The computed fields of an entity (a model recorded before computed values has none). */
export function computedFields(entity: Entity): Field[] {
  return Object.values(entity.fields).filter((f) => f.computed !== null && f.computed !== undefined);
}

/**
 * An entity's computed fields in the order they are brought up to date: each after the computed
 * fields of the same record it reads (the compiler refuses cycles, NF326). A field is returned once.
 *
 * @example computedOrder(order).map((f) => f.name) // ['subtotal', 'total'] when total reads subtotal
 */
export function computedOrder(entity: Entity): Field[] {
  const out: Field[] = [];
  const seen = new Set<string>();
  const visit = (field: Field, path: Set<string>) => {
    if (seen.has(field.name) || path.has(field.name)) return;
    path.add(field.name);
    for (const name of (field.computed as Expr).names) {
      const read = entity.fields[name];
      if (read?.computed) visit(read, path);
    }
    seen.add(field.name);
    out.push(field);
  };
  for (const field of computedFields(entity)) visit(field, new Set());
  return out;
}

/** A parent whose computed fields read one of its child relations. */
export interface ComputedParent {
  /** The parent entity. */
  readonly entity: string;
  /** The child's ref field that points at the parent. */
  readonly via: string;
}

/**
 * The parents whose computed values a write of `child` can change: every entity with a computed
 * field that reads a child relation of `child`. Each is brought up to date after the write.
 *
 * @example computedParents(entities, 'OrderLine') // [{ entity: 'Order', via: 'order' }]
 */
export function computedParents(entities: Readonly<Record<string, Entity>>, child: string): ComputedParent[] {
  const out: ComputedParent[] = [];
  for (const parent of Object.values(entities)) {
    const read = new Set(computedFields(parent).flatMap((f) => (f.computed as Expr).names));
    for (const relation of Object.values(parent.children)) {
      if (relation.entity !== child || !read.has(relation.name)) continue;
      if (!out.some((p) => p.entity === parent.name && p.via === relation.via))
        out.push({ entity: parent.name, via: relation.via });
    }
  }
  return out;
}
