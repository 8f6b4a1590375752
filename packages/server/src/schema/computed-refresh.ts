/**
 * Computed values across a migration (decision 0045): a computed field added to a table that has
 * rows, or whose expression (or that of a child value it reads) changed, is recomputed for every
 * row in the migration's transaction, children before their parents.
 */
import { type Entity, type Model, computedOrder, computedParents } from '@ninefold/model';
import { relationsRead } from '@ninefold/engine';
import { type DialectName } from '../db/dialect.js';
import { type Db, entityTable } from '../resources/records.js';
import { recompute } from '../resources/computed-values.js';

/** What an entity's computed values are computed from: their sources and those they read of children. */
function signature(model: Model, entity: Entity): string {
  const own = computedOrder(entity).map((f) => [f.name, f.computed?.source ?? '']);
  // a model recorded before child relations has none
  const children = (own.length === 0 || entity.children === undefined ? [] : relationsRead(entity)).map(
    (r) => {
      const child = model.entities[r.entity];
      return [r.name, r.entity, r.via, child === undefined ? [] : signature(model, child)];
    },
  );
  return JSON.stringify([own, children]);
}

/**
 * The entities whose computed values must be recomputed for every row when the database moves from
 * `before` (the model of the last migration, null for none) to `after`, each after the children
 * it reads.
 *
 * @example computedChanges(null, model) // ['OrderLine', 'Order']
 */
export function computedChanges(before: Model | null, after: Model): string[] {
  const changed = Object.values(after.entities).filter((e) => {
    if (computedOrder(e).length === 0) return false;
    const old = before?.entities[e.name];
    return old === undefined || signature(before!, old) !== signature(after, e);
  });
  // a child before its parents: the parent's values read the child's
  const depth = (name: string, seen: Set<string> = new Set()): number => {
    if (seen.has(name)) return 0;
    seen.add(name);
    const parents = computedParents(after.entities, name);
    return parents.length === 0 ? 0 : 1 + Math.max(...parents.map((p) => depth(p.entity, seen)));
  };
  return changed.sort((a, b) => depth(b.name) - depth(a.name)).map((e) => e.name);
}

/** Recomputes the computed values of every row of each entity, in order, inside the migration. */
export async function recomputeEntities(
  tx: Db,
  dialect: DialectName,
  model: Model,
  entities: readonly string[],
): Promise<void> {
  const context = { model, database: { dialect } };
  for (const name of entities) {
    const info = entityTable(model, model.entities[name]!);
    const rows = (await tx.selectFrom(info.table).select('id').execute()) as { id: unknown }[];
    for (const row of rows) await recompute(context, tx, name, String(row.id), null);
  }
}
