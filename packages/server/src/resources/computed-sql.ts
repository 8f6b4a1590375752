/**
 * The computed values SQL computes exactly, without loading the children (decision 0045): a field
 * whose whole expression is `size(R)`, or `sum`, `min` or `max` of `R.map(x, x.f)` where `f` is an
 * integer, decimal or money field of the child. A sum of money is a sum of minor units: exact. Every
 * other expression is computed by the engine over the loaded children.
 */
import { fromCel, storageEncoding } from '@ninefold/engine';
import {
  type ChildRelation,
  type Entity,
  type Field,
  type Model,
  type Value,
  computedOrder,
  fromMinorUnits,
} from '@ninefold/model';
import { sql } from 'kysely';
import { type Db, entityTable } from './records.js';

/** An aggregate of a child relation that SQL computes. */
export interface SqlAggregate {
  readonly field: Field;
  readonly relation: ChildRelation;
  readonly fn: 'count' | 'sum' | 'min' | 'max';
  /** The child's field aggregated; null for a count. */
  readonly of: Field | null;
}

const SIZE = /^\s*size\(\s*([A-Za-z_]\w*)\s*\)\s*$/;
const FOLD =
  /^\s*(sum|min|max)\(\s*([A-Za-z_]\w*)\.map\(\s*([A-Za-z_]\w*)\s*,\s*\3\.([A-Za-z_]\w*)\s*\)\s*\)\s*$/;
const NUMERIC = new Set(['integer', 'decimal', 'money']);

/**
 * The computed fields of an entity that SQL computes, by field name.
 *
 * @example sqlAggregates(model, order) // Map { 'total' => { fn: 'sum', … }, 'lineCount' => { fn: 'count', … } }
 */
export function sqlAggregates(model: Model, entity: Entity): Map<string, SqlAggregate> {
  const out = new Map<string, SqlAggregate>();
  for (const field of computedOrder(entity)) {
    const source = field.computed!.source;
    const size = SIZE.exec(source);
    const fold = size === null ? FOLD.exec(source) : null;
    const relation = entity.children[(size ?? fold)?.[size ? 1 : 2] ?? ''];
    if (relation === undefined) continue;
    if (size !== null) {
      if (field.type === 'integer') out.set(field.name, { field, relation, fn: 'count', of: null });
      continue;
    }
    const of = model.entities[relation.entity]?.fields[fold![4]!];
    if (of === undefined || of.many || !NUMERIC.has(of.type)) continue;
    // an integer sum into an integer field, a decimal one into a decimal or money field
    if ((of.type === 'integer') !== (field.type === 'integer')) continue;
    out.set(field.name, { field, relation, fn: fold![1] as SqlAggregate['fn'], of });
  }
  return out;
}

/**
 * The values of the aggregates for the record `id`, read through `db` (a write's transaction).
 * As in CEL: a sum of no rows is 0, the smallest or largest of none is null, and an aggregate over
 * rows of which one lacks the value is null (reading it would be an error).
 */
export async function aggregateValues(
  model: Model,
  db: Db,
  aggregates: ReadonlyMap<string, SqlAggregate>,
  id: string,
): Promise<Record<string, Value>> {
  const out: Record<string, Value> = {};
  for (const [name, a] of aggregates) {
    const table = entityTable(model, model.entities[a.relation.entity]!).table;
    const column = a.of === null ? null : sql.ref(a.of.name);
    const expression =
      column === null
        ? sql<unknown>`count(*)`
        : a.fn === 'sum'
          ? sql<unknown>`sum(${column})`
          : a.fn === 'min'
            ? sql<unknown>`min(${column})`
            : sql<unknown>`max(${column})`;
    const row = (await db
      .selectFrom(table)
      .select([
        expression.as('value'),
        sql<unknown>`count(*)`.as('n'),
        (column === null ? sql<unknown>`count(*)` : sql<unknown>`count(${column})`).as('present'),
      ])
      .where(a.relation.via, '=', id)
      .executeTakeFirst()) as { value: unknown; n: unknown; present: unknown } | undefined;
    out[name] = valueOf(a, row);
  }
  return out;
}

function valueOf(a: SqlAggregate, row: { value: unknown; n: unknown; present: unknown } | undefined): Value {
  const n = Number(row?.n ?? 0);
  if (a.fn === 'count') return n;
  if (Number(row?.present ?? 0) !== n) return null;
  if (n === 0) return a.fn === 'sum' ? (fromCel(a.field, a.of!.type === 'integer' ? 0n : 0) ?? null) : null;
  const raw = row?.value;
  if (raw === null || raw === undefined) return null;
  const units = BigInt(typeof raw === 'number' ? Math.trunc(raw) : String(raw).replace(/\..*$/, ''));
  if (storageEncoding(a.of!) === 'minor-units') {
    // exact: the sum of minor units, written as a decimal and brought to the field's scale
    return fromCel(a.field, Number(fromMinorUnits(units, a.of!.scale ?? 2))) ?? null;
  }
  return fromCel(a.field, units) ?? null;
}
