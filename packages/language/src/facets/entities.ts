import { type Span } from '../diagnostics/diagnostic.js';
import { own } from '../own.js';
import { suggestion } from '../diagnostics/suggest.js';
import {
  FIELD_TYPES,
  SYSTEM_FIELDS,
  type Bound,
  type Entity,
  FIELD_CONSTRAINTS,
  FIELD_TYPE_INFO,
  type BoundFormat,
  type ChildRelation,
  type Field,
  type FieldConstraint,
  type FieldDefault,
  type FieldType,
  ON_DELETE,
  type OnDelete,
  type Value,
  fieldTypesWhere,
  humanize,
  plainField,
} from '@ninefold/model';
import { describe, type YEntry, type YNode } from '../source/yaml.js';
import {
  currencyScale,
  decimalPrecision,
  decimalScale,
  isColor,
  isCurrency,
  isDate,
  isDateTime,
  isEmail,
  isPhone,
  isTime,
  isUrl,
  normalizeColor,
  normalizeTime,
  toDecimalString,
} from '@ninefold/model';
import { CONTEXT_NAMES } from '@ninefold/model';
import { type CompileContext } from './context.js';
import {
  type PendingChildren,
  type PendingComputed,
  isChildrenEntry,
  readChildRelation,
  readComputed,
} from './computed.js';
import { capital, checkName, mapOf, pluralize } from './reader.js';

export const ENTITY_KEYS = [
  'label',
  'plural',
  'description',
  'owner',
  'display',
  'search',
  'fields',
] as const;
export const FIELD_KEYS = [
  'type',
  'label',
  'help',
  'required',
  'unique',
  'readonly',
  'default',
  'min',
  'max',
  'minLength',
  'maxLength',
  'pattern',
  'values',
  'currency',
  'scale',
  'precision',
  'to',
  'many',
  'computed',
  'onDelete',
] as const;
type Constraint = (typeof FIELD_KEYS)[number];

/**
 * Whether a type-specific key applies to a field: what its type accepts (the field-type table),
 * with length bounds on every list too, and uniqueness on single values only.
 */
export function constraintApplies(key: FieldConstraint, f: { type: FieldType; many: boolean }): boolean {
  const accepted = FIELD_TYPE_INFO[f.type].constraints.includes(key);
  if (key === 'minLength' || key === 'maxLength') return accepted || f.many;
  if (key === 'unique') return accepted && !f.many;
  return accepted;
}

const isConstraint = (key: string): key is FieldConstraint =>
  (FIELD_CONSTRAINTS as readonly string[]).includes(key);

/** Largest total digits of a decimal: 15 keeps every value exact as a double in expressions. */
export const MAX_PRECISION = 15;

/** A field whose default is still an expression to check once all entities are known. */
export interface PendingDefault {
  readonly entity: string;
  readonly field: string;
  readonly source: string;
  readonly span: Span;
}

export interface EntitiesResult {
  readonly entities: Record<string, Entity>;
  readonly pendingDefaults: PendingDefault[];
  readonly pendingComputed: PendingComputed[];
  readonly pendingChildren: PendingChildren[];
  /** Where each entity and field was declared, for later diagnostics. */
  readonly spans: Map<string, Span>;
}

/** The built-in `User` entity; a spec may add fields to it but not redefine these. */
export function builtinUser(roleNames: readonly string[]): Entity {
  const field = (name: string, type: FieldType, extra: Partial<Field> = {}): Field => ({
    ...plainField(name, type),
    ...extra,
  });
  return {
    name: 'User',
    label: 'User',
    pluralLabel: 'Users',
    resource: 'users',
    description: 'A person who signs in, with the roles that decide what they may do.',
    owner: null,
    display: 'name',
    search: ['name', 'email'],
    builtin: true,
    children: {},
    fields: {
      email: field('email', 'email', {
        required: true,
        unique: true,
        maxLength: { value: 254, constant: null },
      }),
      name: field('name', 'string', { required: true, maxLength: { value: 120, constant: null } }),
      roles: field('roles', 'enum', { many: true, values: [...roleNames], required: true }),
      disabled: field('disabled', 'boolean', { default: { value: false } }),
    },
  };
}

export const USER_BUILTIN_FIELDS = ['email', 'name', 'roles', 'disabled'] as const;
/**
 * Names a field cannot take because every expression has them already: the context variables,
 * CEL's keywords and reserved words, and its type names (a field `int` would hide `int(x)`).
 */
export const EXPRESSION_NAMES = [
  ...CONTEXT_NAMES,
  ...['in', 'null', 'true', 'false', 'as', 'break', 'const', 'continue', 'else', 'for', 'function', 'if'],
  ...['import', 'let', 'loop', 'package', 'namespace', 'return', 'var', 'void', 'while'],
  ...[
    'int',
    'uint',
    'double',
    'bool',
    'string',
    'bytes',
    'list',
    'map',
    'type',
    'null_type',
    'dyn',
    'google',
  ],
  'optional',
] as const;

/** Reads `entities:` into the model's entities; references between them are checked afterwards. */
export function readEntities(ctx: CompileContext, entries: readonly YEntry[]): EntitiesResult {
  const { reader, bag } = ctx;
  const entities: Record<string, Entity> = {};
  const pendingDefaults: PendingDefault[] = [];
  const pendingComputed: PendingComputed[] = [];
  const pendingChildren: PendingChildren[] = [];
  const spans = new Map<string, Span>();
  const declared = entries.map((e) => e.key);

  for (const entry of entries) {
    if (!checkName(bag, 'entity', entry)) continue;
    const name = entry.key;
    spans.set(name, entry.keySpan);
    const m = reader.map(entry.value, `entity \`${name}\``, ENTITY_KEYS);
    if (m === null) continue;
    const isUser = name === 'User';

    const fields: Record<string, Field> = {};
    const children: Record<string, ChildRelation> = {};
    const fieldsEntry = m.get('fields');
    if (fieldsEntry === undefined && !isUser) {
      reader.missing(entry.keySpan, 'fields', `entity \`${name}\``, 'fields: { title: { type: string } }');
    }
    for (const f of fieldsEntry ? reader.dict(fieldsEntry.value, `the fields of \`${name}\``) : []) {
      if (!checkName(bag, 'field', f)) continue;
      if ((SYSTEM_FIELDS as readonly string[]).includes(f.key)) {
        bag.report(
          'NF209',
          f.keySpan,
          `\`${f.key}\` is a system field that every record already has.`,
          `remove it, or choose another name; system fields are ${SYSTEM_FIELDS.join(', ')}`,
        );
        continue;
      }
      if ((EXPRESSION_NAMES as readonly string[]).includes(f.key)) {
        bag.report(
          'NF209',
          f.keySpan,
          `\`${f.key}\` is a name that expressions already use, so no field can be called that.`,
          `choose another name; expressions reserve ${EXPRESSION_NAMES.slice(0, 6).join(', ')} and CEL's keywords and type names`,
        );
        continue;
      }
      if (isUser && (USER_BUILTIN_FIELDS as readonly string[]).includes(f.key)) {
        bag.report(
          'NF209',
          f.keySpan,
          `\`User.${f.key}\` is built in and cannot be redefined.`,
          'add fields to User under other names',
        );
        continue;
      }
      spans.set(`${name}.${f.key}`, f.keySpan);
      if (isChildrenEntry(f)) {
        const relation = readChildRelation(ctx, name, f, declared, pendingChildren);
        if (relation !== null) children[f.key] = relation;
        continue;
      }
      const field = readField(ctx, name, f, declared, pendingDefaults, pendingComputed);
      if (field !== null) fields[f.key] = field;
    }

    const label = optionalString(ctx, m.get('label'), `the label of \`${name}\``) ?? humanize(name);
    const pluralLabel = optionalString(ctx, m.get('plural'), `the plural of \`${name}\``) ?? pluralize(label);
    const entity: Entity = {
      name,
      label,
      pluralLabel,
      resource: resourceName(name),
      description: optionalString(ctx, m.get('description'), `the description of \`${name}\``) ?? '',
      owner: null,
      display: '',
      search: [],
      builtin: false,
      fields,
      children,
    };
    entities[name] = entity;
    ctx.pendingEntityKeys.set(name, m);
  }
  return { entities, pendingDefaults, pendingComputed, pendingChildren, spans };
}

/** `PurchaseOrder` → `purchase-orders`. */
export function resourceName(entity: string): string {
  return pluralize(entity.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase());
}

function optionalString(ctx: CompileContext, entry: YEntry | undefined, where: string): string | null {
  if (entry === undefined) return null;
  return ctx.reader.string(entry.value, where);
}

function readField(
  ctx: CompileContext,
  entity: string,
  entry: YEntry,
  entityNames: readonly string[],
  pendingDefaults: PendingDefault[],
  pendingComputed: PendingComputed[],
): Field | null {
  const { reader, bag } = ctx;
  const where = `field \`${entity}.${entry.key}\``;
  // shorthand: `title: string` is `title: { type: string }`
  const node: YNode =
    entry.value.kind === 'scalar' && typeof entry.value.value === 'string'
      ? mapOf([{ key: 'type', keySpan: entry.value.span, value: entry.value }], entry.value.span)
      : entry.value;
  const m = reader.map(node, where, FIELD_KEYS);
  if (m === null) return null;
  const typeEntry = m.get('type');
  if (typeEntry === undefined) {
    reader.missing(entry.keySpan, 'type', where, `type: string`);
    return null;
  }
  const typeName = reader.string(typeEntry.value, `the type of ${where}`);
  if (typeName === null) return null;
  if (!(FIELD_TYPES as readonly string[]).includes(typeName)) {
    bag.report(
      'NF205',
      typeEntry.value.span,
      `\`${typeName}\` is not a field type.`,
      // an alias from another language (`int`, `bool`) is suggested as the type it means
      suggestion(typeName, [...FIELD_TYPES, ...Object.keys(TYPE_ALIASES)], 'type').replace(
        /`(\w+)`/,
        (_, t: string) => `\`${TYPE_ALIASES[t] ?? t}\``,
      ),
    );
    return null;
  }
  const type = typeName as FieldType;
  const manyEntry = m.get('many');
  const many = manyEntry ? (reader.boolean(manyEntry.value, `\`many\` of ${where}`) ?? false) : false;

  for (const [key, e] of m) {
    if (isConstraint(key) && !constraintApplies(key, { type, many })) {
      bag.report(
        'NF206',
        e.keySpan,
        `\`${key}\` does not apply to ${many ? `a list of ${type}` : article(type)} field.`,
        hintFor(key as Constraint),
      );
    }
  }

  const flag = (key: 'required' | 'unique' | 'readonly') => {
    const e = m.get(key);
    return e ? (reader.boolean(e.value, `\`${key}\` of ${where}`) ?? false) : false;
  };
  const field: { -readonly [K in keyof Field]: Field[K] } = {
    ...plainField(entry.key, type),
    many,
    required: flag('required'),
    unique: constraintApplies('unique', { type, many }) && flag('unique'),
    readonly: flag('readonly'),
  };
  const label = m.get('label');
  if (label) field.label = reader.string(label.value, `the label of ${where}`) ?? field.label;
  const help = m.get('help');
  if (help) field.help = reader.string(help.value, `the help of ${where}`) ?? '';

  const info = FIELD_TYPE_INFO[type];
  if (info.constraints.includes('values')) {
    const values = m.get('values');
    if (values === undefined) reader.missing(entry.keySpan, 'values', where, 'values: [low, medium, high]');
    else field.values = readEnumValues(ctx, values.value, where);
  }
  if (info.constraints.includes('currency')) {
    const cur = m.get('currency');
    if (cur === undefined) reader.missing(entry.keySpan, 'currency', where, 'currency: EUR');
    else {
      const code = reader.string(cur.value, `the currency of ${where}`);
      if (code !== null && !isCurrency(code)) {
        bag.report(
          'NF207',
          cur.value.span,
          `\`${code}\` is not an ISO 4217 currency code.`,
          'use a code like `EUR`, `USD` or `JPY`',
        );
      } else if (code !== null) field.currency = code;
    }
  }
  if (info.constraints.includes('scale')) {
    const fallbackScale = field.currency !== null ? currencyScale(field.currency) : 2;
    const scaleEntry = m.get('scale');
    field.scale = scaleEntry
      ? (reader.integer(scaleEntry.value, `the scale of ${where}`, 0, 10) ?? fallbackScale)
      : fallbackScale;
    const precisionEntry = m.get('precision');
    field.precision = precisionEntry
      ? (reader.integer(precisionEntry.value, `the precision of ${where}`, 1, MAX_PRECISION) ?? MAX_PRECISION)
      : MAX_PRECISION;
    if (field.scale >= field.precision) {
      bag.report(
        'NF207',
        (scaleEntry ?? precisionEntry ?? typeEntry).value.span,
        `The scale ${field.scale} of ${where} leaves no integer digits within precision ${field.precision}.`,
        'make the precision larger than the scale',
      );
    }
  }
  if (info.constraints.includes('to')) {
    const to = m.get('to');
    if (to === undefined) reader.missing(entry.keySpan, 'to', where, 'to: User');
    else {
      const target = reader.string(to.value, `\`to\` of ${where}`);
      if (target !== null && target !== 'User' && !entitySet(entityNames).has(target)) {
        bag.report(
          'NF301',
          to.value.span,
          `\`${target}\` is not a declared entity, so ${where} cannot refer to it.`,
          suggestion(target, ['User', ...entityNames], 'entity'),
        );
      } else field.to = target;
    }
  }

  const onDelete = m.get('onDelete');
  if (onDelete && constraintApplies('onDelete', { type, many })) {
    field.onDelete = readOnDelete(ctx, onDelete, field, where);
  }

  for (const key of ['minLength', 'maxLength'] as const) {
    const e = m.get(key);
    if (e && constraintApplies(key, { type, many }))
      field[key] = readBound(ctx, e.value, `\`${key}\` of ${where}`, 'integer');
  }
  if (info.defaultMaxLength !== null && field.maxLength === null && !many) {
    field.maxLength = { value: info.defaultMaxLength, constant: null };
  }
  for (const key of ['min', 'max'] as const) {
    const e = m.get(key);
    if (e && info.bounds !== null && constraintApplies(key, { type, many }))
      field[key] = readBound(ctx, e.value, `\`${key}\` of ${where}`, info.bounds, field);
  }
  if (info.bounds !== null)
    checkOrder(ctx, m.get('min') ?? m.get('max'), field.min, field.max, where, info.bounds);
  checkOrder(
    ctx,
    m.get('minLength') ?? m.get('maxLength'),
    field.minLength,
    field.maxLength,
    where,
    'integer',
  );

  const pattern = m.get('pattern');
  if (pattern && constraintApplies('pattern', { type, many })) {
    const source = reader.string(pattern.value, `the pattern of ${where}`);
    if (source !== null) {
      try {
        new RegExp(source, 'u');
        field.pattern = source;
      } catch (error) {
        bag.report(
          'NF207',
          pattern.value.span,
          `The pattern of ${where} is not a valid regular expression: ${(error as Error).message}.`,
          'write an ECMAScript regular expression; it must match the whole value',
        );
      }
    }
  }

  const computed = m.get('computed');
  if (computed) {
    const source = readComputed(ctx, m, computed, field, where);
    if (source !== null) {
      pendingComputed.push({
        entity,
        field: entry.key,
        source,
        span: computed.value.span,
        keySpan: computed.keySpan,
      });
      // never written by a person: read-only whatever the spec says (NF225 refuses `readonly: false`)
      field.readonly = true;
    }
    return field;
  }

  const dflt = m.get('default');
  if (dflt) {
    const d = readDefault(ctx, dflt.value, field, where);
    if (d !== null && 'pending' in d) {
      pendingDefaults.push({ entity, field: entry.key, source: d.pending, span: d.span });
    } else field.default = d;
  }
  return field;
}

/**
 * A ref's `onDelete` (decision 0043): one of `ON_DELETE`; `setNull` only where no value is allowed
 * (NF222); `cascade` on a list deletes every record whose list holds the deleted one (NF223, a warning).
 */
function readOnDelete(ctx: CompileContext, entry: YEntry, field: Field, where: string): OnDelete {
  const { reader, bag } = ctx;
  const value = reader.string(entry.value, `\`onDelete\` of ${where}`);
  if (value === null) return 'restrict';
  if (!(ON_DELETE as readonly string[]).includes(value)) {
    bag.report(
      'NF207',
      entry.value.span,
      `\`${value}\` is not what deleting a referenced record can do to ${where}.`,
      suggestion(value, ON_DELETE, 'value'),
    );
    return 'restrict';
  }
  const chosen = value as OnDelete;
  if (chosen === 'setNull' && field.required) {
    bag.report(
      'NF222',
      entry.value.span,
      `${capital(where)} is required, so \`onDelete: setNull\` would leave it without a value.`,
      'use `onDelete: cascade` to delete the record with the one it refers to, `restrict` to refuse the delete, or drop `required`',
    );
    return 'restrict';
  }
  if (chosen === 'cascade' && field.many) {
    bag.report(
      'NF223',
      entry.value.span,
      `Deleting a ${field.to ?? 'record'} would delete every record whose ${where} holds it, not only take it out of the list.`,
      'use `onDelete: setNull` to take the deleted record out of the list',
    );
  }
  return chosen;
}

const ENTITY_SETS = new WeakMap<readonly string[], ReadonlySet<string>>();
/** The declared entity names as a Set, built once per compile. */
function entitySet(names: readonly string[]): ReadonlySet<string> {
  let set = ENTITY_SETS.get(names);
  if (set === undefined) ENTITY_SETS.set(names, (set = new Set(names)));
  return set;
}

const TYPE_ALIASES: Readonly<Record<string, string>> = {
  str: 'string',
  int: 'integer',
  number: 'decimal',
  float: 'decimal',
  double: 'decimal',
  bool: 'boolean',
  timestamp: 'datetime',
  reference: 'ref',
  currency: 'money',
  textarea: 'text',
  object: 'json',
};

function hintFor(key: Constraint): string {
  switch (key) {
    case 'min':
    case 'max':
      return `use \`min\`/\`max\` on ${orList(fieldTypesWhere((t) => t.bounds !== null))} fields, and \`minLength\`/\`maxLength\` on text`;
    case 'minLength':
    case 'maxLength':
      return 'use `minLength`/`maxLength` on text fields or lists, and `min`/`max` on numbers';
    case 'currency':
      return 'only money fields have a currency: use `type: money`';
    case 'to':
      return 'only ref fields point to an entity: use `type: ref`';
    case 'values':
      return 'only enum fields list their values: use `type: enum`';
    case 'many':
      return 'lists are for ref and enum fields';
    case 'onDelete':
      return 'only ref fields say what deleting the record they point at does: use `type: ref`';
    case 'unique':
      return 'unique applies to single values that can be compared: not text, json, boolean or lists';
    default:
      return `remove \`${key}\` from this field`;
  }
}

function readEnumValues(ctx: CompileContext, node: YNode, where: string): string[] | null {
  const items = ctx.reader.list(node, `the values of ${where}`);
  if (items.length === 0) {
    ctx.bag.report(
      'NF207',
      node.span,
      `${capital(where)} lists no values.`,
      'list at least one, for example `values: [low, high]`',
    );
    return null;
  }
  const seen = new Set<string>();
  const out: string[] = [];
  for (const item of items) {
    const value =
      item.kind === 'scalar' && (typeof item.value === 'string' || typeof item.value === 'number')
        ? String(item.value)
        : null;
    if (value === null) {
      ctx.reader.wrongType(item, `each value of ${where} must be text`);
      continue;
    }
    if (seen.has(value)) {
      ctx.bag.report(
        'NF210',
        item.span,
        `The value \`${value}\` is listed twice in ${where}.`,
        'remove one of them',
      );
      continue;
    }
    seen.add(value);
    out.push(value);
  }
  return out;
}

/** A bound: a literal of the field's kind, or the name of a constant holding one. */
function readBound(
  ctx: CompileContext,
  node: YNode,
  where: string,
  kind: BoundFormat,
  field?: Field,
): Bound | null {
  if (node.kind !== 'scalar') {
    ctx.reader.wrongType(node, `${where} must be a value or a constant's name`);
    return null;
  }
  let constant: string | null = null;
  let raw: string | number | boolean | null = node.value;
  let rawText = node.raw;
  if (typeof raw === 'string' && /^[A-Z][A-Z0-9_]*$/.test(raw)) {
    constant = raw;
    const c = ctx.constants[raw];
    if (c === undefined) {
      ctx.bag.report(
        'NF306',
        node.span,
        `\`${raw}\` is not a declared constant.`,
        suggestion(raw, Object.keys(ctx.constants), 'constant'),
      );
      return null;
    }
    raw = c;
    rawText = String(c);
  }
  const fail = (expected: string) => {
    ctx.bag.report(
      'NF207',
      node.span,
      `${capital(where)} must be ${expected}, found ${describe(node)}.`,
      null,
    );
    return null;
  };
  switch (kind) {
    case 'integer':
      if (typeof raw !== 'number' || !Number.isSafeInteger(raw)) return fail('a whole number');
      return { value: raw, constant };
    case 'decimal': {
      const text = typeof raw === 'number' ? (/^-?\d+(\.\d+)?$/.test(rawText) ? rawText : String(raw)) : null;
      const dec = text === null ? null : toDecimalString(text);
      if (dec === null) return fail('a number');
      if (field?.scale !== null && field?.scale !== undefined && decimalScale(dec) > field.scale) {
        return fail(`a number with at most ${field.scale} decimal places`);
      }
      if (decimalPrecision(dec) > MAX_PRECISION) return fail(`a number of at most ${MAX_PRECISION} digits`);
      return { value: dec, constant };
    }
    case 'date':
      return typeof raw === 'string' && isDate(raw)
        ? { value: raw, constant }
        : fail('a date like 2026-01-31');
    case 'time':
      return typeof raw === 'string' && isTime(raw)
        ? { value: normalizeTime(raw), constant }
        : fail('a time like 09:30');
    case 'datetime':
      return typeof raw === 'string' && isDateTime(raw)
        ? { value: new Date(raw).toISOString(), constant }
        : fail('an instant like 2026-01-31T09:30:00Z');
    default:
      return kind satisfies never;
  }
}

function checkOrder(
  ctx: CompileContext,
  at: YEntry | undefined,
  lo: Bound | null,
  hi: Bound | null,
  where: string,
  kind: BoundFormat,
) {
  if (lo === null || hi === null || at === undefined) return;
  const less =
    typeof lo.value === 'number' && typeof hi.value === 'number'
      ? lo.value <= hi.value
      : kind === 'integer' || kind === 'decimal'
        ? Number(lo.value) <= Number(hi.value)
        : String(lo.value) <= String(hi.value);
  if (!less) {
    ctx.bag.report(
      'NF207',
      at.value.span,
      `${capital(where)} has a lower bound ${lo.value} above its upper bound ${hi.value}.`,
      'swap the bounds',
    );
  }
}

type DefaultResult = FieldDefault | { pending: string; span: Span } | null;

/**
 * A default is a literal of the field's type. Where a literal could not be a string (numbers,
 * booleans, refs, calendar values), a string that is not a valid literal is an expression —
 * `default: user.id`, `default: now`. `default: { expr: "…" }` is always an expression.
 */
function readDefault(ctx: CompileContext, node: YNode, field: Field, where: string): DefaultResult {
  const isExprForm = node.kind === 'map' && node.entries.length === 1 && node.entries[0]!.key === 'expr';
  if (node.kind === 'map' && (field.type !== 'json' || isExprForm)) {
    const m = ctx.reader.map(node, `the default of ${where}`, ['expr']);
    const e = m?.get('expr');
    if (e === undefined) return null;
    const source = ctx.reader.string(e.value, `the default expression of ${where}`);
    return source === null ? null : { pending: source, span: e.value.span };
  }
  if (field.many) {
    if (node.kind !== 'seq') return badDefault(ctx, node, where, 'a list');
    const values: Value[] = [];
    for (const item of node.items) {
      const v = literal(item, { ...field, many: false });
      if (v === undefined) return badDefault(ctx, item, where, `a list of ${field.type} values`);
      values.push(v);
    }
    return { value: values };
  }
  const v = literal(node, field);
  if (v !== undefined) return { value: v };
  if (
    node.kind === 'scalar' &&
    typeof node.value === 'string' &&
    FIELD_TYPE_INFO[field.type].expressionDefaults
  ) {
    return { pending: node.value, span: node.span };
  }
  return badDefault(ctx, node, where, expectedLiteral(field));
}

function badDefault(ctx: CompileContext, node: YNode, where: string, expected: string): null {
  ctx.bag.report(
    'NF208',
    node.span,
    `The default of ${where} must be ${expected}, found ${describe(node)}.`,
    null,
  );
  return null;
}

function expectedLiteral(field: Field): string {
  if (field.type === 'enum') return `one of ${(field.values ?? []).map((v) => `\`${v}\``).join(', ')}`;
  return `a ${field.type} value`;
}

/** The node as a literal value of the field, or undefined when it is not one. */
export function literal(node: YNode, field: Field): Value | undefined {
  if (field.type === 'json') return toPlain(node);
  if (node.kind !== 'scalar') return undefined;
  const v = node.value;
  if (v === null) return null;
  switch (field.type) {
    case 'boolean':
      return typeof v === 'boolean' ? v : undefined;
    case 'integer':
      return typeof v === 'number' && Number.isSafeInteger(v) ? v : undefined;
    case 'decimal':
    case 'money': {
      if (typeof v !== 'number') return undefined;
      const dec = toDecimalString(/^-?\d+(\.\d+)?$/.test(node.raw) ? node.raw : String(v));
      return dec !== null && decimalScale(dec) <= (field.scale ?? 2) ? dec : undefined;
    }
    case 'enum':
      return typeof v === 'string' && (field.values ?? []).includes(v) ? v : undefined;
    case 'date':
      return typeof v === 'string' && isDate(v) ? v : undefined;
    case 'time':
      return typeof v === 'string' && isTime(v) ? normalizeTime(v) : undefined;
    case 'datetime':
      return typeof v === 'string' && isDateTime(v) ? new Date(v).toISOString() : undefined;
    case 'email':
      return typeof v === 'string' && isEmail(v) ? v : undefined;
    case 'url':
      return typeof v === 'string' && isUrl(v) ? v : undefined;
    case 'phone':
      return typeof v === 'string' && isPhone(v) ? v : undefined;
    case 'color':
      return typeof v === 'string' && isColor(v) ? normalizeColor(v) : undefined;
    case 'ref':
      return undefined;
    case 'string':
    case 'text':
      return typeof v === 'string' ? v : undefined;
    default:
      return field.type satisfies never;
  }
}

function toPlain(node: YNode): Value {
  if (node.kind === 'scalar') return node.value;
  if (node.kind === 'seq') return node.items.map(toPlain);
  const out: Record<string, Value> = {};
  for (const e of node.entries) out[e.key] = toPlain(e.value);
  return out;
}

const SEARCHABLE = fieldTypesWhere((t) => t.search);

/**
 * The second pass over entities: `owner`, `display` and `search` name fields, which are all known
 * now. Returns the entities with those keys resolved.
 */
export function finishEntities(ctx: CompileContext): void {
  const { reader, bag } = ctx;
  for (const [name, entity] of Object.entries(ctx.entities)) {
    const m = ctx.pendingEntityKeys.get(name);
    const fieldNames = Object.keys(entity.fields);
    const fieldRef = (e: YEntry, what: string): string | null => {
      const f = reader.string(e.value, `the ${what} of \`${name}\``);
      if (f === null) return null;
      if (own(entity.fields, f) === undefined && !['id', 'createdAt', 'updatedAt'].includes(f)) {
        bag.report(
          'NF302',
          e.value.span,
          `\`${name}\` has no field \`${f}\` to use as its ${what}.`,
          suggestion(f, fieldNames, 'field'),
        );
        return null;
      }
      return f;
    };

    let owner: string | null = null;
    const ownerEntry = m?.get('owner');
    if (ownerEntry) {
      owner = fieldRef(ownerEntry, 'owner');
      const f = owner === null ? undefined : own(entity.fields, owner);
      if (owner !== null && (f === undefined || f.type !== 'ref' || f.to !== 'User' || f.many)) {
        bag.report(
          'NF309',
          ownerEntry.value.span,
          `The owner of \`${name}\` must be a single ref to User; \`${owner}\` is ${f ? (f.many ? `a list of ${f.type}` : `a ${f.type}${f.to ? ` to ${f.to}` : ''}`) : 'a system field'}.`,
          `declare it as \`${owner}: { type: ref, to: User, default: user.id, readonly: true }\``,
        );
        owner = null;
      }
    }

    let display =
      fieldNames.find((f) => entity.fields[f]!.type === 'string') ??
      fieldNames.find((f) => FIELD_TYPE_INFO[entity.fields[f]!.type].display && !entity.fields[f]!.many) ??
      'id';
    const displayEntry = m?.get('display');
    if (displayEntry) display = fieldRef(displayEntry, 'display field') ?? display;

    let search = fieldNames.filter((f) => SEARCHABLE.includes(entity.fields[f]!.type) && f === display);
    const searchEntry = m?.get('search');
    if (searchEntry) {
      search = [];
      for (const { name: f, span } of reader.names(searchEntry.value, `the search fields of \`${name}\``)) {
        const field = own(entity.fields, f);
        if (field === undefined) {
          bag.report(
            'NF302',
            span,
            `\`${name}\` has no field \`${f}\` to search.`,
            suggestion(f, fieldNames, 'field'),
          );
        } else if (!SEARCHABLE.includes(field.type)) {
          bag.report(
            'NF313',
            span,
            `\`${name}.${f}\` is ${article(field.type)} field; only text fields can be searched.`,
            `search fields of type ${SEARCHABLE.join(', ')}`,
          );
        } else search.push(f);
      }
    }
    ctx.entities[name] = { ...entity, owner, display, search };
  }
}

/** `integer` → `an integer`, `string` → `a string`. */
function article(word: string): string {
  return /^[aeiou]/.test(word) ? `an ${word}` : `a ${word}`;
}

/** `a`, `a or b`, `a, b or c`. */
function orList(words: readonly string[]): string {
  return words.length <= 1 ? words.join('') : `${words.slice(0, -1).join(', ')} or ${words.at(-1)}`;
}
