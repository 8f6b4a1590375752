/**
 * The field-type table: everything the packages need to know about a field type, in one entry per
 * type. The compiler reads which constraints a type accepts, the engine how its values are stored
 * and seen in CEL, the server its JSON Schema, filters and sort, the client its input, cell and
 * filter. Adding a type to FIELD_TYPES without an entry here is a type error; what a type does that
 * no other type shares (how it is validated, formatted, invented for demo data) stays in the module
 * concerned, in a switch or a `Record<FieldType, …>` that is exhaustive.
 */
import { FILE_CEL_TYPE } from './files-protocol.js';
import { FIELD_TYPES, type Field, type FieldType } from './model.js';
import { humanize } from './names.js';
import { type FilterOperator } from './protocol.js';

/**
 * A field of a type and nothing more: no constraint, no default, no help, labelled from its name.
 * What the compiler fills in before a field's own keys, and the shape of a system field (`state`,
 * `createdAt`…) where a screen shows one.
 *
 * @example const title: Field = { ...plainField('title', 'string'), required: true };
 */
export function plainField(name: string, type: FieldType): Field {
  return {
    name,
    type,
    label: humanize(name),
    help: '',
    required: false,
    unique: false,
    readonly: false,
    default: null,
    min: null,
    max: null,
    minLength: null,
    maxLength: null,
    pattern: null,
    values: null,
    currency: null,
    scale: null,
    precision: null,
    to: null,
    many: false,
    onDelete: type === 'ref' ? 'restrict' : null,
    computed: null,
    maxSize: null,
    accept: type === 'image' ? DEFAULT_IMAGE_ACCEPT : null,
  };
}

/**
 * The label of one value of an enum field, as every place that shows or offers it reads it: the
 * field's `valueLabels` (the spec's label, translated), else the value humanised.
 *
 * @example enumLabel(priority, 'urgent') // 'Urgent!' (or, for a French reader, 'Urgente !')
 */
export function enumLabel(field: Pick<Field, 'valueLabels'> | undefined, value: string): string {
  const labels = field?.valueLabels;
  return labels !== undefined && Object.hasOwn(labels, value) ? labels[value]! : humanize(value);
}

/** The labels of all the values of an enum: `labels`' for those it names, the rest humanised. */
export function valueLabelsOf(
  values: readonly string[],
  labels: Readonly<Record<string, string>> = {},
): Record<string, string> {
  return Object.fromEntries(values.map((v) => [v, Object.hasOwn(labels, v) ? labels[v]! : humanize(v)]));
}

/** Keys of a field's notation that only some types accept (beyond label, help, required, …). */
export const FIELD_CONSTRAINTS = [
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
  'unique',
  'onDelete',
  'maxSize',
  'accept',
] as const;
export type FieldConstraint = (typeof FIELD_CONSTRAINTS)[number];

/**
 * The CEL type of a single value of the field (a `many` field is a `list<…>` of it). A file is a
 * `ninefold.File`, a message of its `FileInfo` (`receipt.size`, `receipt.type`, `receipt.name`;
 * `FILE_CEL_TYPE`, decision 0051).
 */
export type CelType =
  'int' | 'double' | 'bool' | 'string' | 'google.protobuf.Timestamp' | 'dyn' | typeof FILE_CEL_TYPE;

/**
 * How a value is stored (decision 0004): `integer` the number; `minor-units` an exact decimal as an
 * integer of the field's scale; `boolean`; `instant` UTC ISO 8601 text with milliseconds; `text`
 * the wire string as it is; `json` JSON text.
 */
export type StorageEncoding = 'integer' | 'minor-units' | 'boolean' | 'instant' | 'text' | 'json';

export interface FieldStorage {
  readonly encoding: StorageEncoding;
  readonly sqlite: 'INTEGER' | 'TEXT';
  readonly postgres: 'BIGINT' | 'BOOLEAN' | 'TEXT';
}

/** A value as JSON (and OpenAPI) describes it. */
export interface JsonType {
  /** `file`: a `FileInfo` object when read; its id (or that object) when written (decision 0050). */
  readonly type: 'string' | 'integer' | 'boolean' | 'any' | 'file';
  readonly format?: 'date' | 'date-time' | 'email' | 'uri';
  /** A regular expression every value the server sends matches. */
  readonly pattern?: string;
  /** The server also accepts a JSON number for it (exact decimals: sent back as strings). */
  readonly acceptsNumber?: boolean;
  readonly description?: string;
}

/** The format of `min`/`max` bounds, or null when the type takes none. */
export type BoundFormat = 'integer' | 'decimal' | 'date' | 'time' | 'datetime';

/**
 * How a list may be ordered by the field: `ordered` means something to a reader, `opaque` the
 * server can do but the order says nothing (ids, colour codes), `null` not at all.
 */
export type SortKind = 'ordered' | 'opaque' | null;

/** The control of a form that enters a value. */
export type InputKind =
  | 'text'
  | 'textarea'
  | 'email'
  | 'url'
  | 'tel'
  | 'integer'
  | 'decimal'
  | 'switch'
  | 'date'
  | 'time'
  | 'datetime'
  | 'select'
  | 'ref'
  | 'json'
  | 'color'
  | 'file';

/**
 * How a value is shown for reading: as formatted text, a link, a record's title, a swatch, a file's
 * name (a download link), an image's thumbnail.
 */
export type CellKind = 'text' | 'link' | 'mailto' | 'ref' | 'swatch' | 'file' | 'thumbnail';

/**
 * The filter a list screen offers for the field: any of some `values`, `yes-no`, a `range` (from
 * and to, the input's kind), `contains` some text, any of some `records`, one `exact` value,
 * whether there is one at all (`present`: a file).
 */
export type FilterKind = 'values' | 'yes-no' | 'range' | 'contains' | 'records' | 'exact' | 'present';

export interface FieldTypeInfo {
  /** What JSON and OpenAPI say a value is. */
  readonly json: JsonType;
  readonly cel: CelType;
  readonly storage: FieldStorage;
  /** The notation keys the type accepts beyond the universal ones. */
  readonly constraints: readonly FieldConstraint[];
  /** Keys a field of the type cannot do without. */
  readonly requires: readonly FieldConstraint[];
  /** The format of `min` and `max`; null exactly when `constraints` has neither. */
  readonly bounds: BoundFormat | null;
  /** The `maxLength` a single value gets when the spec gives none. */
  readonly defaultMaxLength: number | null;
  /** A string default that is not a literal of the type is read as an expression (`now`, `user.id`). */
  readonly expressionDefaults: boolean;
  readonly sort: SortKind;
  /** The operators a list filter on a single value of it accepts; none: it is not filterable. */
  readonly operators: readonly FilterOperator[];
  /** Searched by a list's `?q=` (the entity's `search` may name it). */
  readonly search: boolean;
  /** Shown as a column when a list names none, and on a generated list screen. */
  readonly listed: boolean;
  /** Offered as a filter on a generated list screen. */
  readonly defaultFilter: boolean;
  /** May be an entity's `display` field when the spec names none. */
  readonly display: boolean;
  /** Filtered and sorted on often enough to deserve an index of its own. */
  readonly indexed: boolean;
  /** Takes the detail page's whole row: long values. */
  readonly wide: boolean;
  readonly input: InputKind;
  readonly cell: CellKind;
  readonly filter: FilterKind | null;
}

const PRESENCE = ['isNull'] as const satisfies readonly FilterOperator[];
const EQUALITY = ['eq', 'ne', 'in', 'isNull'] as const satisfies readonly FilterOperator[];
const ORDERED = [...EQUALITY, 'lt', 'lte', 'gt', 'gte'] as const satisfies readonly FilterOperator[];
const TEXTUAL = [...ORDERED, 'contains'] as const satisfies readonly FilterOperator[];
const TEXT_CONSTRAINTS = ['minLength', 'maxLength', 'pattern', 'unique'] as const;
const DECIMAL_CONSTRAINTS = ['min', 'max', 'scale', 'precision', 'unique'] as const;
const CALENDAR_CONSTRAINTS = ['min', 'max', 'unique'] as const;

const TEXT: FieldStorage = { encoding: 'text', sqlite: 'TEXT', postgres: 'TEXT' };
const INSTANT: FieldStorage = { encoding: 'instant', sqlite: 'TEXT', postgres: 'TEXT' };
const JSON_TEXT: FieldStorage = { encoding: 'json', sqlite: 'TEXT', postgres: 'TEXT' };
const INTEGER: FieldStorage = { encoding: 'integer', sqlite: 'INTEGER', postgres: 'BIGINT' };
const MINOR_UNITS: FieldStorage = { encoding: 'minor-units', sqlite: 'INTEGER', postgres: 'BIGINT' };
const BOOLEAN: FieldStorage = { encoding: 'boolean', sqlite: 'INTEGER', postgres: 'BOOLEAN' };

/**
 * The media types an image field accepts when it names none: what browsers show and sharp reads.
 */
export const DEFAULT_IMAGE_ACCEPT: readonly string[] = [
  'image/jpeg',
  'image/png',
  'image/webp',
  'image/avif',
  'image/gif',
];

/** A stored file (decision 0050): never sorted or searched, filtered by whether there is one. */
const stored = (overrides: Pick<FieldTypeInfo, 'listed' | 'cell'>): FieldTypeInfo => ({
  json: {
    type: 'file',
    description: 'A file: `{ id, name, size, type }` when read; its id when written.',
  },
  cel: FILE_CEL_TYPE,
  storage: JSON_TEXT,
  // minLength and maxLength count the files of a `many` field, as they count any list's items
  constraints: ['many', 'maxSize', 'accept'],
  requires: [],
  bounds: null,
  defaultMaxLength: null,
  expressionDefaults: false,
  sort: null,
  operators: PRESENCE,
  search: false,
  defaultFilter: false,
  display: false,
  indexed: false,
  wide: false,
  input: 'file',
  filter: 'present',
  ...overrides,
});

/** An exact decimal as the server sends it. */
export const DECIMAL_PATTERN = '^-?[0-9]+(\\.[0-9]+)?$';
/** A colour as the server sends it: `#rrggbb`, lower case. */
export const COLOR_PATTERN = '^#[0-9a-f]{6}$';

/** Text a person writes: one line by default. */
const textual = (overrides: Partial<FieldTypeInfo>): FieldTypeInfo => ({
  json: { type: 'string' },
  cel: 'string',
  storage: TEXT,
  constraints: TEXT_CONSTRAINTS,
  requires: [],
  bounds: null,
  defaultMaxLength: null,
  expressionDefaults: false,
  sort: 'ordered',
  operators: TEXTUAL,
  search: true,
  listed: true,
  defaultFilter: false,
  display: true,
  indexed: false,
  wide: false,
  input: 'text',
  cell: 'text',
  filter: 'contains',
  ...overrides,
});

/** A number, a moment or a day: bounded, ordered, filtered by a range. */
const ranged = (overrides: Partial<FieldTypeInfo> & Pick<FieldTypeInfo, 'json' | 'cel' | 'bounds'>) =>
  ({
    storage: TEXT,
    constraints: CALENDAR_CONSTRAINTS,
    requires: [],
    defaultMaxLength: null,
    expressionDefaults: true,
    sort: 'ordered',
    operators: ORDERED,
    search: false,
    listed: true,
    defaultFilter: false,
    display: false,
    indexed: true,
    wide: false,
    input: 'text',
    cell: 'text',
    filter: 'range',
    ...overrides,
  }) satisfies FieldTypeInfo;

/**
 * Every field type, described once. Typed as a record of every FieldType (rather than `satisfies`
 * it, which would keep each entry's literal types): a type without an entry is a type error.
 */
export const FIELD_TYPE_INFO: Readonly<Record<FieldType, FieldTypeInfo>> = {
  string: textual({ defaultMaxLength: 255 }),
  text: textual({
    constraints: ['minLength', 'maxLength', 'pattern'],
    listed: false,
    display: false,
    wide: true,
    input: 'textarea',
  }),
  email: textual({
    json: { type: 'string', format: 'email' },
    defaultMaxLength: 254,
    input: 'email',
    cell: 'mailto',
  }),
  url: textual({
    json: { type: 'string', format: 'uri' },
    defaultMaxLength: 2048,
    input: 'url',
    cell: 'link',
  }),
  phone: textual({ defaultMaxLength: 32, input: 'tel' }),
  integer: ranged({
    json: { type: 'integer' },
    cel: 'int',
    bounds: 'integer',
    storage: INTEGER,
    constraints: ['min', 'max', 'unique'],
    defaultFilter: true,
    display: true,
    input: 'integer',
  }),
  decimal: ranged({
    json: {
      type: 'string',
      pattern: DECIMAL_PATTERN,
      acceptsNumber: true,
      description: 'An exact decimal, as a string.',
    },
    cel: 'double',
    bounds: 'decimal',
    storage: MINOR_UNITS,
    constraints: DECIMAL_CONSTRAINTS,
    input: 'decimal',
  }),
  money: ranged({
    json: {
      type: 'string',
      pattern: DECIMAL_PATTERN,
      acceptsNumber: true,
      description: 'An exact decimal, as a string.',
    },
    cel: 'double',
    bounds: 'decimal',
    storage: MINOR_UNITS,
    constraints: [...DECIMAL_CONSTRAINTS, 'currency'],
    requires: ['currency'],
    defaultFilter: true,
    input: 'decimal',
  }),
  date: ranged({
    json: { type: 'string', format: 'date' },
    cel: 'string',
    bounds: 'date',
    defaultFilter: true,
    display: true,
    input: 'date',
  }),
  datetime: ranged({
    json: { type: 'string', format: 'date-time' },
    cel: 'google.protobuf.Timestamp',
    bounds: 'datetime',
    storage: INSTANT,
    input: 'datetime',
  }),
  time: ranged({
    json: { type: 'string', pattern: '^[0-9]{2}:[0-9]{2}(:[0-9]{2})?$' },
    cel: 'string',
    bounds: 'time',
    indexed: false,
    input: 'time',
  }),
  boolean: {
    json: { type: 'boolean' },
    cel: 'bool',
    storage: BOOLEAN,
    constraints: [],
    requires: [],
    bounds: null,
    defaultMaxLength: null,
    expressionDefaults: true,
    sort: 'ordered',
    operators: ORDERED,
    search: false,
    listed: true,
    defaultFilter: true,
    display: false,
    indexed: false,
    wide: false,
    input: 'switch',
    cell: 'text',
    filter: 'yes-no',
  },
  enum: {
    json: { type: 'string' },
    cel: 'string',
    storage: TEXT,
    constraints: ['values', 'valueLabels', 'many', 'unique'],
    requires: ['values'],
    bounds: null,
    defaultMaxLength: null,
    expressionDefaults: false,
    sort: 'ordered',
    operators: ORDERED,
    search: false,
    listed: true,
    defaultFilter: true,
    display: true,
    indexed: true,
    wide: false,
    input: 'select',
    cell: 'text',
    filter: 'values',
  },
  ref: {
    json: { type: 'string' },
    cel: 'string',
    storage: TEXT,
    constraints: ['to', 'many', 'unique', 'onDelete'],
    requires: ['to'],
    bounds: null,
    defaultMaxLength: null,
    expressionDefaults: true,
    sort: 'opaque',
    operators: ORDERED,
    search: false,
    listed: true,
    defaultFilter: true,
    display: false,
    indexed: true,
    wide: false,
    input: 'ref',
    cell: 'ref',
    filter: 'records',
  },
  json: {
    json: { type: 'any' },
    cel: 'dyn',
    storage: JSON_TEXT,
    constraints: [],
    requires: [],
    bounds: null,
    defaultMaxLength: null,
    expressionDefaults: false,
    sort: null,
    operators: [],
    search: false,
    listed: false,
    defaultFilter: false,
    display: false,
    indexed: false,
    wide: true,
    input: 'json',
    cell: 'text',
    filter: null,
  },
  color: {
    json: { type: 'string', pattern: COLOR_PATTERN, description: 'A colour, `#rrggbb`.' },
    cel: 'string',
    storage: TEXT,
    constraints: ['unique'],
    requires: [],
    bounds: null,
    defaultMaxLength: null,
    expressionDefaults: false,
    sort: 'opaque',
    operators: EQUALITY,
    search: false,
    listed: true,
    defaultFilter: false,
    display: false,
    indexed: false,
    wide: false,
    input: 'color',
    cell: 'swatch',
    filter: 'exact',
  },
  file: stored({ listed: false, cell: 'file' }),
  image: stored({ listed: true, cell: 'thumbnail' }),
};

/**
 * The table's entry of a field's type.
 *
 * @example fieldTypeInfo({ type: 'money' }).storage.postgres // 'BIGINT'
 */
export function fieldTypeInfo(field: Pick<{ type: FieldType }, 'type'>): FieldTypeInfo {
  return FIELD_TYPE_INFO[field.type];
}

/** The field types whose entry passes a test, in FIELD_TYPES order. */
export function fieldTypesWhere(test: (info: FieldTypeInfo) => boolean): FieldType[] {
  return FIELD_TYPES.filter((type) => test(FIELD_TYPE_INFO[type]));
}
