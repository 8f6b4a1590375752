import { type Span } from '../diagnostics/diagnostic.js';

import { suggestion } from '../diagnostics/suggest.js';
import {
  FIELD_TYPES,
  SYSTEM_FIELDS,
  type Entity,
  FIELD_CONSTRAINTS,
  FIELD_TYPE_INFO,
  type ChildRelation,
  type Field,
  type FieldConstraint,
  type FieldType,
  ON_DELETE,
  type OnDelete,
  humanize,
  pluralLabel as englishPlural,
  plainField,
  valueLabelsOf,
} from '@ninefold/model';
import { type YEntry, type YNode } from '../source/yaml.js';
import { currencyScale, isCurrency } from '@ninefold/model';
import { BUILTIN_USER_WORDS, CONTEXT_NAMES, isShadowedName } from '@ninefold/model';
import { type CompileContext } from './context.js';
import {
  type PendingChildren,
  type PendingComputed,
  isChildrenEntry,
  readChildRelation,
  readComputed,
} from './computed.js';
import { article, capital, checkName, mapOf, pluralize } from './reader.js';
import {
  MAX_PRECISION,
  checkOrder,
  readBound,
  readDefault,
  readEnumValues,
  readValueLabels,
} from './field-values.js';
import { readFileKeys } from './field-files.js';
import { TYPE_ALIASES, hintFor } from './field-hints.js';

export { MAX_PRECISION, literal } from './field-values.js';

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
  'valueLabels',
  'currency',
  'scale',
  'precision',
  'to',
  'many',
  'computed',
  'onDelete',
  'maxSize',
  'accept',
] as const;

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
  const words = BUILTIN_USER_WORDS;
  return {
    name: 'User',
    label: words['User.label'],
    pluralLabel: words['User.pluralLabel'],
    resource: 'users',
    description: words['User.description'],
    owner: null,
    display: 'name',
    search: ['name', 'email'],
    builtin: true,
    children: {},
    fields: {
      email: field('email', 'email', {
        label: words['User.fields.email.label'],
        required: true,
        unique: true,
        maxLength: { value: 254, constant: null },
      }),
      name: field('name', 'string', {
        label: words['User.fields.name.label'],
        required: true,
        maxLength: { value: 120, constant: null },
      }),
      roles: field('roles', 'enum', {
        label: words['User.fields.roles.label'],
        many: true,
        values: [...roleNames],
        // the roles' own labels once they are read (`withRoleLabels`)
        valueLabels: valueLabelsOf(roleNames),
        required: true,
      }),
      disabled: field('disabled', 'boolean', {
        label: words['User.fields.disabled.label'],
        default: { value: false },
      }),
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
      // `user`, `now`, `type`…: allowed, and reached as `self.user` in expressions (decision 0064)
      if ((EXPRESSION_NAMES as readonly string[]).includes(f.key) && !isShadowedName(f.key)) {
        bag.report(
          'NF209',
          f.keySpan,
          `\`${f.key}\` is a name that expressions already use, so no field can be called that.`,
          "choose another name; expressions reserve `self` and CEL's keywords (`in`, `null`, `true`, `if`…)",
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
    const pluralLabel =
      optionalString(ctx, m.get('plural'), `the plural of \`${name}\``) ?? englishPlural(label);
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
        hintFor(key),
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
    const labels = readValueLabels(ctx, m.get('valueLabels')?.value, field.values, where);
    if (labels !== null) field.valueLabels = labels;
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

  if (info.constraints.includes('accept')) readFileKeys(ctx, m, field, where);
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
