/**
 * The JSON Schema of section 3, `entities:` (for `notation-schema.ts`): each field's keys, which
 * constraints apply to which types, what a type requires, and child relations.
 */
import {
  FIELD_CONSTRAINTS,
  FIELD_TYPES,
  FIELD_TYPE_INFO,
  ON_DELETE,
  SYSTEM_FIELDS,
  type FieldConstraint,
  type FieldType,
  fieldTypesWhere,
} from '@ninefold/model';
import { CHILDREN_KEYS } from './facets/computed.js';
import { ENTITY_KEYS, FIELD_KEYS, MAX_PRECISION, USER_BUILTIN_FIELDS } from './facets/entities.js';
import { MAX_FILE_SIZE, MEDIA_TYPE_PATTERN, SIZE_PATTERN } from './facets/field-files.js';
import { NAME_RULES } from './facets/reader.js';
import {
  type JsonSchema,
  dictionary,
  expr,
  flag,
  int,
  nameOf,
  names,
  need,
  orNull,
  ref,
  strictObject,
  text,
} from './notation-schema-parts.js';

/** A string the compiler reads as a constant's name where a bound is expected. */
const CONSTANT_REF = '^[A-Z][A-Z0-9_]*$';

const bound = (description: string): JsonSchema => ({
  description,
  anyOf: [{ type: 'number' }, { type: 'string' }],
});
const lengthBound = (description: string): JsonSchema => ({
  description,
  anyOf: [{ type: 'integer' }, { type: 'string', pattern: CONSTANT_REF }],
});
const typeIn = (types: readonly FieldType[]): JsonSchema => ({ properties: { type: { enum: [...types] } } });
const isList: JsonSchema = { properties: { many: { const: true } }, required: ['many'] };

/** The field types that accept a key (the field-type table). */
const accepting = (key: FieldConstraint) => fieldTypesWhere((t) => t.constraints.includes(key));

/** Which constraints apply to which field types (the compiler's NF206), keyed by constraint. */
const APPLIES = Object.fromEntries(
  FIELD_CONSTRAINTS.map((key): [FieldConstraint, JsonSchema] => {
    switch (key) {
      case 'minLength':
      case 'maxLength':
        return [key, { anyOf: [typeIn(accepting(key)), isList] }];
      case 'unique':
        return [
          key,
          { not: { anyOf: [typeIn(fieldTypesWhere((t) => !t.constraints.includes(key))), isList] } },
        ];
      default:
        return [key, typeIn(accepting(key))];
    }
  }),
) as Readonly<Record<FieldConstraint, JsonSchema>>;
/** Keys a type cannot do without (the compiler's NF203). */
const NEEDS: readonly [FieldType, string][] = FIELD_TYPES.flatMap((type) =>
  FIELD_TYPE_INFO[type].requires.map((key): [FieldType, string] => [type, key]),
);

const fieldType: JsonSchema = {
  type: 'string',
  enum: [...FIELD_TYPES],
  description:
    'string (one line), text (several lines), integer, decimal, money (with a currency), boolean, date, datetime (an instant), time, enum (one of `values`), email, url, phone, ref (to another entity), json, color (`#rrggbb`, quoted in YAML), file (any uploaded file), image (an uploaded picture, shown as a thumbnail).',
};

const fieldObject = strictObject(
  FIELD_KEYS,
  {
    type: fieldType,
    label: text('The label shown beside the input and as a column header. Defaults to the name in words.'),
    help: text('A line of help shown under the input.'),
    required: flag('Whether a value must be given.'),
    unique: flag('Whether no two records may hold the same value. Not for text, json, boolean or lists.'),
    readonly: flag('Never written by a client: set by a default, a transition’s `set`, or the system.'),
    default: {
      description:
        'The value of a new record: a literal of the field’s type, an expression such as `user.id` or `now` where a literal could not be text, or `{ expr: "…" }`.',
      anyOf: [
        { not: { type: 'object' } },
        strictObject(
          ['expr'] as const,
          { expr: expr('Evaluated when the record is created.') },
          { required: ['expr'] },
        ),
      ],
    },
    min: bound(
      'Smallest allowed value (inclusive) of a number, money, date, datetime or time field; or a constant’s name.',
    ),
    max: bound(
      'Largest allowed value (inclusive) of a number, money, date, datetime or time field; or a constant’s name.',
    ),
    minLength: lengthBound(
      'Fewest characters of a text field, or fewest items of a list; a whole number or a constant’s name.',
    ),
    maxLength: lengthBound(
      'Most characters of a text field, or most items of a list; a whole number or a constant’s name.',
    ),
    pattern: text('An ECMAScript regular expression that the whole value must match (text fields).'),
    values: {
      type: 'array',
      description: 'The allowed values of an enum field, in display order.',
      items: { type: ['string', 'number'] },
      minItems: 1,
      uniqueItems: true,
    },
    valueLabels: {
      type: 'object',
      description:
        'The label of each value of an enum field that should not read as its name humanised, by value: `valueLabels: { urgent: Urgent! }`. Translated as `entities.<Entity>.fields.<field>.values.<value>`.',
      additionalProperties: { type: 'string' },
    },
    currency: text('The ISO 4217 currency of a money field, like `EUR`.', { pattern: '^[A-Z]{3}$' }),
    scale: int(
      'Digits after the decimal point of a decimal or money field. Defaults to the currency’s, or 2.',
      0,
      10,
    ),
    precision: int(
      `Total significant digits of a decimal or money field, at most ${MAX_PRECISION}.`,
      1,
      MAX_PRECISION,
    ),
    to: text('The entity a ref field points to, like `User`.', { pattern: NAME_RULES.entity.pattern.source }),
    onDelete: {
      type: 'string',
      enum: [...ON_DELETE],
      description:
        'What deleting the record a ref points at does to this one: `restrict` (the default) refuses the delete, `cascade` deletes this record too, `setNull` empties the ref (not for a required field).',
    },
    many: flag('A list of refs, of enum values or of files rather than a single one.'),
    maxSize: {
      description:
        'The largest file a file or image field holds: `10MB`, `512KB`, `1.5GB` (KB, MB and GB are powers of 1024) or a whole number of bytes. Defaults to `limits.maxUploadSize`.',
      anyOf: [
        { type: 'integer', minimum: 1, maximum: MAX_FILE_SIZE },
        { type: 'string', pattern: SIZE_PATTERN },
      ],
    },
    accept: {
      type: 'array',
      description:
        'The media types a file or image field takes, sniffed from the content: `type/subtype` or `type/*` (`[application/pdf, image/*]`). Any file when absent; an image takes only images (`image/jpeg, image/png, image/webp, image/avif, image/gif` when absent).',
      items: { type: 'string', pattern: MEDIA_TYPE_PATTERN },
      minItems: 1,
      uniqueItems: true,
    },
    computed: expr(
      'A value derived from the record’s fields and its child relations (`sum(lines.map(l, l.amount))`): read-only, kept up to date on every write of the record or of a child.',
    ),
  },
  {
    required: ['type'],
    allOf: [
      ...Object.entries(APPLIES).map(([key, then]) => ({ if: need(key), then })),
      ...NEEDS.map(([type, key]) => ({
        if: { properties: { type: { const: type } } },
        then: need(key),
      })),
    ],
  },
);

const childRelation = strictObject(
  CHILDREN_KEYS,
  {
    type: { const: 'children', description: 'A child relation: not stored, read by computed values.' },
    label: text('The name of the relation in words. Defaults to its name.'),
    entity: text('The child entity, like `OrderLine`.', { pattern: NAME_RULES.entity.pattern.source }),
    via: text('The child’s single ref to this entity, like `order`.', {
      pattern: NAME_RULES.field.pattern.source,
    }),
  },
  { required: ['type', 'entity', 'via'] },
);

export const field: JsonSchema = {
  title: 'Field',
  description:
    'A field: its type alone (`title: string`), a mapping with `type` and constraints, or a child relation (`{ type: children, entity, via }`).',
  anyOf: [fieldType, fieldObject, childRelation],
};

export const fieldName = (description: string): JsonSchema =>
  text(description, { pattern: NAME_RULES.field.pattern.source });

export const entity = strictObject(
  ENTITY_KEYS,
  {
    label: text('The name of one record, shown in titles. Defaults to the entity name in words.'),
    plural: text('The name of several records, shown on lists. Defaults to the label plus `s`.'),
    description: text('What the records are, for the help page.'),
    owner: fieldName('The ref-to-User field that makes a record "own" for a user, for `own` in permissions.'),
    display: fieldName('The field shown as the record’s title in lists, pickers and breadcrumbs.'),
    search: names('The text fields searched by the list’s search box.', nameOf('field')),
    fields: orNull(
      dictionary('field', ref('field'), {
        description: `The fields, camelCase, each with a type. Every record also has ${SYSTEM_FIELDS.join(', ')}.`,
        propertyNames: { not: { enum: [...SYSTEM_FIELDS] } },
      }),
    ),
  },
  { title: 'Entity', description: 'A kind of record the product keeps.' },
);

export const entities: JsonSchema = {
  title: 'Entities',
  description:
    'Section 3: the records the product keeps, by PascalCase name. `User` is built in; a spec may add fields to it.',
  type: 'object',
  propertyNames: nameOf('entity'),
  properties: {
    User: {
      description: `The built-in user entity. Its fields ${USER_BUILTIN_FIELDS.join(', ')} exist already; add others.`,
      type: 'object',
      allOf: [ref('entity')],
      properties: {
        fields: {
          description: 'Fields added to the built-in user.',
          type: ['object', 'null'],
          propertyNames: { type: 'string', not: { enum: [...USER_BUILTIN_FIELDS] } },
        },
      },
    },
  },
  additionalProperties: { allOf: [ref('entity'), need('fields')] },
};
