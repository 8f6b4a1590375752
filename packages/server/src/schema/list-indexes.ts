/**
 * The indexes the spec's lists need (decision 0048): for every declared list screen, the columns its
 * query compares with `=` (the equalities of its `where` and of a role's read condition, such as the
 * owner of `read: own`), then its sort key and `id` in the order the query sorts; for every child
 * list a parent's detail page shows, the ref to the parent, then `createdAt` and `id`. An index of
 * that shape serves the page without a sort step: the database walks it from one end and stops after
 * the page.
 */
import { environment } from '@ninefold/engine';
import { type Access, type Entity, FIELD_TYPE_INFO, type Model, type Screen } from '@ninefold/model';

/** What one query needs of an index: the columns it compares with `=`, then those it sorts by. */
export interface IndexNeed {
  /**
   * Columns compared with `=`, in a canonical order (any order serves an equality). PostgreSQL indexes
   * them in the column's own collation: the collation of the engine's `=` (decision 0048).
   */
  readonly equal: readonly string[];
  /** Columns in the order the query sorts by, ending with `id`; text ones are compared `COLLATE "C"`. */
  readonly ordered: readonly string[];
}

/**
 * The index needs of an entity's list screens: one per screen and distinct read condition of the
 * roles that may open it (a role that reads all, one that reads `own`, …).
 *
 * @example
 * listScreenIndexes(model, model.entities['Claim']!)
 * // [{ equal: ['submittedBy'], ordered: ['spentOn', 'id'] }, { equal: [], ordered: ['spentOn', 'id'] }]
 */
export function listScreenIndexes(model: Model, entity: Entity): IndexNeed[] {
  const needs: IndexNeed[] = [];
  for (const screen of model.screens) {
    if (screen.kind !== 'list' || screen.entity !== entity.name) continue;
    const fixed = screen.where === null ? [] : equalities(model, entity, screen.where.source);
    const ordered = sortColumns(screen.sort);
    for (const read of readConditions(model, entity, screen)) {
      // several conditions, of which any suffices (an OR), share no equality an index could lead with
      const granted =
        read === true || read.any.length !== 1 ? [] : equalities(model, entity, read.any[0]!.source);
      const equal = canonical(entity, [...granted, ...fixed]);
      needs.push({ equal, ordered: ordered.filter((c) => !equal.includes(c)) });
    }
  }
  return needs;
}

/**
 * The index needs of the child lists parents' detail pages show (`?<ref>=<id>`, newest first): one
 * per single ref of the entity whose parent has a detail screen that shows it (every child relation
 * when the screen names none, decision 0046's `related`).
 *
 * @example childListIndexes(model, model.entities['Comment']!) // [{ equal: ['ticket'], ordered: ['createdAt', 'id'] }]
 */
export function childListIndexes(model: Model, entity: Entity): IndexNeed[] {
  const needs: IndexNeed[] = [];
  for (const field of Object.values(entity.fields)) {
    if (field.type !== 'ref' || field.many || field.to === null || model.entities[field.to] === undefined)
      continue;
    const shown = model.screens.some(
      (s) =>
        s.kind === 'detail' &&
        s.entity === field.to &&
        (s.related === null || s.related.some((r) => r.entity === entity.name && r.via === field.name)),
    );
    if (shown) needs.push({ equal: [field.name], ordered: ['createdAt', 'id'] });
  }
  return needs;
}

/** The columns a list's sort orders by: the screen's sort, else the API's default (`createdAt`), then `id`. */
function sortColumns(sort: string | null): string[] {
  const field = (sort ?? 'createdAt').replace(/^-/, '');
  return field === 'id' ? ['id'] : [field, 'id'];
}

/**
 * The distinct read conditions of the roles that may open a screen: `true` for a role that reads
 * every record, the condition otherwise. A spec whose roles grant no read here yields `true`, the
 * list of whoever reads it without a condition.
 */
function readConditions(model: Model, entity: Entity, screen: Screen): Exclude<Access, false>[] {
  const out = new Map<string, Exclude<Access, false>>();
  for (const role of Object.values(model.roles)) {
    if (screen.roles !== null && !screen.roles.includes(role.name)) continue;
    const read = role.entities[entity.name]?.read ?? false;
    if (read === false) continue;
    out.set(read === true ? '' : read.any.map((e) => e.source).join('\u0000'), read);
  }
  return out.size === 0 ? [true] : [...out.values()];
}

/** A CEL node as the parser gives it: an operator and its arguments. */
interface Node {
  readonly op: string;
  readonly args: unknown;
}

function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && 'op' in value;
}

/**
 * The columns a condition holds equal to a value known before the query (a literal, `user.id`, a
 * constant) in every row it admits: the equalities among its top-level `&&` parts on a state or a
 * single field that can be filtered with `=`, and the owner for `own`.
 *
 * @example equalities(model, claim, "own && state == 'draft'") // ['submittedBy', 'state']
 */
export function equalities(model: Model, entity: Entity, source: string): string[] {
  let ast: unknown;
  try {
    ast = environment(model, entity.name).parse(source).ast;
  } catch {
    return []; // the compiler checked every condition: not reached
  }
  const equalColumn = (name: string): boolean => {
    if (name === 'state') return model.states[entity.name] !== undefined;
    const field = entity.fields[name];
    return field !== undefined && !field.many && FIELD_TYPE_INFO[field.type].operators.includes('eq');
  };
  const readsRow = (node: unknown): boolean => {
    if (Array.isArray(node)) return node.some(readsRow);
    if (!isNode(node)) return false;
    if (node.op === 'id') {
      const name = node.args as string;
      return name === 'self' || name === 'own' || name === 'old' || name === 'state' || name in entity.fields;
    }
    return node.op !== 'value' && readsRow(node.args);
  };
  const column = (node: unknown): string | null => {
    if (!isNode(node)) return null;
    if (node.op === 'id') return typeof node.args === 'string' && equalColumn(node.args) ? node.args : null;
    if (node.op === '.') {
      const [target, name] = node.args as [unknown, unknown];
      if (isNode(target) && target.op === 'id' && target.args === 'self' && typeof name === 'string')
        return equalColumn(name) ? name : null;
    }
    return null;
  };
  const out: string[] = [];
  const visit = (node: unknown): void => {
    if (!isNode(node)) return;
    if (node.op === '&&') {
      for (const part of node.args as unknown[]) visit(part);
    } else if (node.op === 'id' && node.args === 'own') {
      if (entity.owner !== null) out.push(entity.owner);
    } else if (node.op === '==') {
      const [left, right] = node.args as [unknown, unknown];
      const col = column(left) ?? column(right);
      const other = column(left) === null ? left : right;
      if (col !== null && !readsRow(other)) out.push(col);
    }
  };
  visit(ast);
  return out;
}

/** Columns once each, in the table's order (system columns first, then fields as declared). */
function canonical(entity: Entity, columns: readonly string[]): string[] {
  const order = ['createdBy', 'state', ...Object.keys(entity.fields)];
  return [...new Set(columns)].sort((a, b) => order.indexOf(a) - order.indexOf(b));
}
