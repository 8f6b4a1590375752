/**
 * Computed values and child relations (decision 0045): `computed: "<CEL>"` on a field, and a
 * virtual field `{ type: children, entity: OrderLine, via: order }` that names the records pointing
 * at this one. Read with the entities; their expressions and `via` are checked once all are known.
 */
import { type ChildRelation, type Entity, type Field, celTypeOf, humanize } from '@ninefold/model';
import { type Span } from '../diagnostics/diagnostic.js';
import { suggestion } from '../diagnostics/suggest.js';
import { checkExpression } from '../expressions/check.js';
import { own } from '../own.js';
import { type YEntry } from '../source/yaml.js';
import { type CompileContext } from './context.js';
import { isFileField } from './field-files.js';

/** The keys of a virtual field that names a child relation (`{ type: children, entity, via }`). */
export const CHILDREN_KEYS = ['type', 'label', 'entity', 'via'] as const;

/** A computed field's expression, checked once every entity and child relation is known. */
export interface PendingComputed {
  readonly entity: string;
  readonly field: string;
  readonly source: string;
  readonly span: Span;
  /** Where `computed:` sits, for diagnostics about the field as a whole. */
  readonly keySpan: Span;
}

/** A child relation whose `via` is checked once every entity's fields are known. */
export interface PendingChildren {
  readonly entity: string;
  readonly name: string;
  readonly child: string;
  readonly via: string;
  readonly childSpan: Span;
  readonly viaSpan: Span;
}

/** Names a computed value may not read: they change without a write, so a kept value would go stale. */
const UNSTORABLE_NAMES = ['user', 'now', 'today', 'own'] as const;

/** Whether a field's entry declares a child relation (`type: children`) rather than a stored field. */
export function isChildrenEntry(entry: YEntry): boolean {
  const node = entry.value;
  if (node.kind === 'scalar') return node.value === 'children';
  if (node.kind !== 'map') return false;
  const type = node.entries.find((e) => e.key === 'type');
  return type?.value.kind === 'scalar' && type.value.value === 'children';
}

/**
 * Reads `lines: { type: children, entity: OrderLine, via: order }`. The entity must be declared;
 * whether `via` is a ref of it to this entity is checked later (`checkChildRelations`).
 */
export function readChildRelation(
  ctx: CompileContext,
  parent: string,
  entry: YEntry,
  entityNames: readonly string[],
  pending: PendingChildren[],
): ChildRelation | null {
  const { reader, bag } = ctx;
  const where = `the child relation \`${parent}.${entry.key}\``;
  const example = `${entry.key}: { type: children, entity: ${parent}Item, via: ${lowerFirst(parent)} }`;
  if (entry.value.kind !== 'map') {
    reader.missing(entry.keySpan, 'entity', where, example);
    return null;
  }
  const m = reader.map(entry.value, where, CHILDREN_KEYS);
  if (m === null) return null;
  const entityEntry = m.get('entity');
  const viaEntry = m.get('via');
  if (entityEntry === undefined) reader.missing(entry.keySpan, 'entity', where, example);
  if (viaEntry === undefined) reader.missing(entry.keySpan, 'via', where, example);
  if (entityEntry === undefined || viaEntry === undefined) return null;
  const child = reader.string(entityEntry.value, `the entity of ${where}`);
  const via = reader.string(viaEntry.value, `\`via\` of ${where}`);
  if (child === null || via === null) return null;
  if (child !== 'User' && !entityNames.includes(child)) {
    bag.report(
      'NF301',
      entityEntry.value.span,
      `\`${child}\` is not a declared entity, so ${where} cannot list its records.`,
      suggestion(child, entityNames, 'entity'),
    );
    return null;
  }
  const labelEntry = m.get('label');
  const label = labelEntry ? reader.string(labelEntry.value, `the label of ${where}`) : null;
  pending.push({
    entity: parent,
    name: entry.key,
    child,
    via,
    childSpan: entityEntry.value.span,
    viaSpan: viaEntry.value.span,
  });
  return { name: entry.key, label: label ?? humanize(entry.key), entity: child, via };
}

/**
 * A child relation's `via` must be a single ref of the child entity to the parent (NF325, with a
 * hint naming the refs that would do). A relation that fails is removed from its parent.
 */
export function checkChildRelations(ctx: CompileContext, pending: readonly PendingChildren[]): void {
  for (const p of pending) {
    const parent = ctx.entities[p.entity];
    const child = ctx.entities[p.child];
    if (parent === undefined || child === undefined) continue;
    const field = own(child.fields, p.via);
    if (field !== undefined && field.type === 'ref' && field.to === p.entity && !field.many) continue;
    const fits = Object.values(child.fields)
      .filter((f) => f.type === 'ref' && f.to === p.entity && !f.many)
      .map((f) => `\`${f.name}\``);
    const found =
      field === undefined
        ? `\`${p.child}\` has no field \`${p.via}\``
        : `\`${p.child}.${p.via}\` is ${field.many ? 'a list' : `a ${field.type}`}${field.to ? ` to ${field.to}` : ''}`;
    ctx.bag.report(
      'NF325',
      p.viaSpan,
      `\`via\` of \`${p.entity}.${p.name}\` must be a single ref of \`${p.child}\` to \`${p.entity}\`; ${found}.`,
      fits.length > 0
        ? `use ${fits.join(' or ')}`
        : `add \`${lowerFirst(p.entity)}: { type: ref, to: ${p.entity} }\` to \`${p.child}\` and name it here`,
    );
    const children = { ...parent.children };
    delete children[p.name];
    ctx.entities[p.entity] = { ...parent, children };
  }
}

/**
 * The source of `computed:`, or null. A computed field is never given by a person or a default, so
 * `default`, `required` and `readonly: false` beside it are refused (NF225); a list, a ref or json
 * cannot be computed (NF226).
 */
export function readComputed(
  ctx: CompileContext,
  m: ReadonlyMap<string, YEntry>,
  computed: YEntry,
  field: Field,
  where: string,
): string | null {
  const { reader, bag } = ctx;
  let ok = true;
  const dflt = m.get('default');
  if (dflt) {
    bag.report(
      'NF225',
      dflt.keySpan,
      `${capital(where)} is computed, so it cannot also have a default.`,
      'remove `default`; the expression gives the value',
    );
    ok = false;
  }
  const required = m.get('required');
  if (required && required.value.kind === 'scalar' && required.value.value === true) {
    bag.report(
      'NF225',
      required.keySpan,
      `${capital(where)} is computed, so no one is asked for it: it cannot be required.`,
      'remove `required`; to refuse a record without a value, write a rule such as `has(total)`',
    );
    ok = false;
  }
  const readonly = m.get('readonly');
  if (readonly && readonly.value.kind === 'scalar' && readonly.value.value === false) {
    bag.report(
      'NF225',
      readonly.keySpan,
      `${capital(where)} is computed, so it is always read-only.`,
      'remove `readonly: false`',
    );
    ok = false;
  }
  if (field.many || field.type === 'ref' || field.type === 'json' || isFileField(field)) {
    bag.report(
      'NF226',
      computed.keySpan,
      `${capital(where)} is ${field.many ? 'a list' : `a ${field.type}`}, which cannot be computed.`,
      'compute a number, money, text, boolean, date or enum value',
    );
    ok = false;
  }
  const source = reader.string(computed.value, `the computed value of ${where}`);
  return ok ? source : null;
}

/**
 * Type-checks every computed expression against its field's type, in a scope with the record's own
 * fields and its child relations (NF4xx), refuses those that read what changes without a write
 * (NF407), and refuses cycles between computed values (NF326). Sets `Field.computed`.
 */
export function checkComputed(ctx: CompileContext, pending: readonly PendingComputed[], text: string): void {
  const spans = new Map<string, Span>();
  for (const p of pending) {
    const entity = ctx.entities[p.entity];
    const field = entity?.fields[p.field];
    if (entity === undefined || field === undefined) continue;
    const what = `the computed value of \`${p.entity}.${p.field}\``;
    const expr = checkExpression(ctx, ctx.envs, {
      source: p.source,
      span: p.span,
      raw: text.slice(p.span.start, p.span.end),
      scope: { entity, old: false, children: true },
      expect: celTypeOf(field),
      sql: false,
      what,
    });
    if (expr === null) continue;
    const unstorable = expr.names.filter((n) => (UNSTORABLE_NAMES as readonly string[]).includes(n));
    if (unstorable.length > 0) {
      ctx.bag.report(
        'NF407',
        p.span,
        `${capital(what)} reads \`${unstorable[0]}\`, which changes without any write, so the kept value would go stale.`,
        'compute from the record’s fields and its children only; compare with `now` or `user` in a rule or a list’s `where` instead',
      );
      continue;
    }
    spans.set(`${p.entity}.${p.field}`, p.keySpan);
    setComputed(ctx, p.entity, p.field, expr);
    reportTransitionsWriting(ctx, p);
  }
  reportCycles(ctx, spans);
}

/** NF227 for each transition that sets or requires a computed field: only its expression gives it. */
function reportTransitionsWriting(ctx: CompileContext, p: PendingComputed): void {
  for (const t of Object.values(ctx.states[p.entity]?.transitions ?? {})) {
    const how = p.field in t.set ? 'sets' : t.require.includes(p.field) ? 'requires' : null;
    if (how === null) continue;
    ctx.bag.report(
      'NF227',
      p.keySpan,
      `\`${p.entity}.${p.field}\` is computed, but transition \`${t.name}\` ${how} it.`,
      `remove \`${p.field}\` from the \`${how === 'sets' ? 'set' : 'require'}\` of \`${t.name}\`; the expression gives its value`,
    );
  }
}

function setComputed(ctx: CompileContext, entity: string, name: string, computed: Field['computed']): void {
  const def = ctx.entities[entity]!;
  ctx.entities[entity] = { ...def, fields: { ...def.fields, [name]: { ...def.fields[name]!, computed } } };
}

/**
 * The computed fields a computed field reads, as `Entity.field`: the record's own computed fields it
 * names, and every computed field of the children of each relation it names.
 */
function dependencies(entities: Readonly<Record<string, Entity>>, entity: Entity, field: Field): string[] {
  const out: string[] = [];
  for (const name of field.computed?.names ?? []) {
    const own_ = entity.fields[name];
    if (own_?.computed) out.push(`${entity.name}.${name}`);
    const relation = entity.children[name];
    const child = relation === undefined ? undefined : entities[relation.entity];
    for (const f of Object.values(child?.fields ?? {})) if (f.computed) out.push(`${child!.name}.${f.name}`);
  }
  return out;
}

/** One NF326 per cycle between computed values, at the first of its fields met, and unsets them. */
function reportCycles(ctx: CompileContext, spans: ReadonlyMap<string, Span>): void {
  const state = new Map<string, 'visiting' | 'done'>();
  const inCycle = new Set<string>();
  const visit = (key: string, path: string[]): void => {
    if (state.get(key) === 'done') return;
    if (state.get(key) === 'visiting') {
      const cycle = path.slice(path.indexOf(key));
      if (!cycle.some((k) => inCycle.has(k))) {
        ctx.bag.report(
          'NF326',
          spans.get(key) ?? spans.get(cycle[0]!)!,
          `Computed values read each other in a cycle: ${[...cycle, key].map((k) => `\`${k}\``).join(' → ')}.`,
          'compute one of them from stored fields only, so that the chain has a start',
        );
      }
      for (const k of cycle) inCycle.add(k);
      return;
    }
    state.set(key, 'visiting');
    const [entityName, fieldName] = key.split('.') as [string, string];
    const entity = ctx.entities[entityName]!;
    for (const next of dependencies(ctx.entities, entity, entity.fields[fieldName]!))
      visit(next, [...path, key]);
    state.set(key, 'done');
  };
  for (const key of spans.keys()) visit(key, []);
  for (const key of inCycle) {
    const [entityName, fieldName] = key.split('.') as [string, string];
    setComputed(ctx, entityName, fieldName, null);
  }
}

function capital(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}
