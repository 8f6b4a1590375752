/**
 * How field values are stored in SQLite and PostgreSQL (decision 0004). The server writes and reads
 * columns with these functions, and the SQL filters of sql.ts compare against exactly this encoding.
 *
 * Each type's column and encoding is its `storage` in the field-type table (@ninefold/model):
 *
 * | encoding    | SQLite        | PostgreSQL | value                                       |
 * | ----------- | ------------- | ---------- | ------------------------------------------- |
 * | integer     | INTEGER       | BIGINT     | the number                                  |
 * | minor-units | INTEGER       | BIGINT     | an exact decimal in minor units of its scale |
 * | boolean     | INTEGER (0/1) | BOOLEAN    |                                             |
 * | instant     | TEXT          | TEXT       | UTC ISO 8601 with milliseconds              |
 * | text        | TEXT          | TEXT       | as on the wire                              |
 * | json        | TEXT          | TEXT       | JSON text (not filterable)                  |
 *
 * A `many` enum is JSON text. A `many` ref is no column at all: its ids are rows of a join table of
 * their own, in order (decision 0044, `isJoinList`); a record still carries it as a JSON array of ids.
 */
import {
  FIELD_TYPE_INFO,
  type Field,
  type StorageEncoding,
  type SystemField,
  type Value,
  fromMinorUnits,
  isDateTime,
  parseDecimal,
  toDecimalString,
  toMinorUnits,
} from '@ninefold/model';

export type Dialect = 'sqlite' | 'postgres';
export const DIALECTS: readonly Dialect[] = ['sqlite', 'postgres'];

/**
 * Whether a field is a list of refs, stored in a join table rather than a column (decision 0044).
 *
 * @example isJoinList({ type: 'ref', many: true }) // true
 */
export function isJoinList(field: Pick<Field, 'type' | 'many'>): boolean {
  return field.many && field.type === 'ref';
}

/** What storage needs to know about a field. */
export type StoredField = Pick<Field, 'type' | 'many' | 'scale'>;

/** The field-like description of a system column. */
export function systemField(name: SystemField): StoredField {
  switch (name) {
    case 'createdAt':
    case 'updatedAt':
      return { type: 'datetime', many: false, scale: null };
    case 'version':
      return { type: 'integer', many: false, scale: null };
    default:
      return { type: 'string', many: false, scale: null };
  }
}

/**
 * The column type of a field.
 *
 * @example columnType({ type: 'money', many: false, scale: 2 }, 'postgres') // 'BIGINT'
 */
export function columnType(field: StoredField, dialect: Dialect): 'INTEGER' | 'BIGINT' | 'BOOLEAN' | 'TEXT' {
  if (field.many) return 'TEXT';
  return FIELD_TYPE_INFO[field.type].storage[dialect];
}

/** How a field's column encodes its values: its type's, or JSON for a list. */
export function storageEncoding(field: Pick<StoredField, 'type' | 'many'>): StorageEncoding {
  return field.many ? 'json' : FIELD_TYPE_INFO[field.type].storage.encoding;
}

/**
 * A wire value (already validated) as the column value to bind. Absent → null.
 *
 * @example encodeValue({ type: 'money', many: false, scale: 2 }, '12.5', 'sqlite') // 1250
 * @example encodeValue({ type: 'boolean', many: false, scale: null }, true, 'sqlite') // 1
 */
export function encodeValue(
  field: StoredField,
  value: Value | undefined,
  dialect: Dialect,
): string | number | boolean | null {
  if (value === null || value === undefined) return null;
  const encoding = storageEncoding(field);
  switch (encoding) {
    case 'json':
      return JSON.stringify(value);
    case 'integer':
      if (typeof value !== 'number' || !Number.isSafeInteger(value))
        throw new TypeError(`not an integer: ${String(value)}`);
      return value;
    case 'minor-units': {
      const text =
        typeof value === 'number' ? toDecimalString(value) : typeof value === 'string' ? value : null;
      const units = text === null ? null : toMinorUnits(text, field.scale ?? 2);
      if (units === null) throw new TypeError(`not a decimal of scale ${field.scale ?? 2}: ${String(value)}`);
      // precision ≤ 15 keeps minor units within Number's exact integers
      return Number(units);
    }
    case 'boolean':
      if (typeof value !== 'boolean') throw new TypeError(`not a boolean: ${String(value)}`);
      return dialect === 'sqlite' ? (value ? 1 : 0) : value;
    case 'instant':
      if (typeof value !== 'string' || !isDateTime(value))
        throw new TypeError(`not an instant: ${String(value)}`);
      return new Date(value).toISOString();
    case 'text':
      if (typeof value !== 'string') throw new TypeError(`not text: ${String(value)}`);
      return value;
    default:
      return unknownEncoding(encoding);
  }
}

/**
 * A column value read from the database as the wire value. NULL → null.
 *
 * @example decodeValue({ type: 'money', many: false, scale: 2 }, '1250', 'postgres') // '12.50'
 */
export function decodeValue(field: StoredField, raw: unknown, _dialect: Dialect): Value {
  return valueDecoder(field)(raw);
}

/** Decodes one column's values: what `decodeValue` does for a field, without deciding per value. */
export type ValueDecoder = (raw: unknown) => Value;

/**
 * The decoder of a field's column, chosen once: a server decoding every row of a page asks for it
 * once per column instead of switching on the field's type per value.
 *
 * @example valueDecoder({ type: 'money', many: false, scale: 2 })(1250) // '12.50'
 */
export function valueDecoder(field: StoredField): ValueDecoder {
  const encoding = storageEncoding(field);
  switch (encoding) {
    case 'json':
      return decodeJson;
    case 'integer':
      return decodeInteger;
    case 'minor-units':
      return minorUnitsDecoder(field.scale ?? 2);
    case 'boolean':
      return decodeBoolean;
    case 'instant':
      return decodeDateTime;
    case 'text':
      return decodeText;
    default:
      return unknownEncoding(encoding);
  }
}

/** A switch over the encodings that missed one: a type error at build time, a TypeError at run time. */
function unknownEncoding(encoding: never): never {
  throw new TypeError(`no storage encoding ${String(encoding)}`);
}

function decodeJson(raw: unknown): Value {
  if (raw === null || raw === undefined) return null;
  return (typeof raw === 'string' ? JSON.parse(raw) : raw) as Value;
}

function decodeInteger(raw: unknown): Value {
  if (raw === null || raw === undefined) return null;
  return Number(raw as number | bigint | string);
}

function decodeBoolean(raw: unknown): Value {
  if (raw === null || raw === undefined) return null;
  return raw === true || raw === 1 || raw === 1n || raw === 't' || raw === 'true';
}

function decodeDateTime(raw: unknown): Value {
  if (raw === null || raw === undefined) return null;
  return raw instanceof Date ? raw.toISOString() : String(raw as string);
}

function decodeText(raw: unknown): Value {
  if (raw === null || raw === undefined) return null;
  return String(raw as string);
}

/** One decoder per scale: a model has a handful of scales, and its columns share them. */
const minorUnitsDecoders = new Map<number, ValueDecoder>();

function minorUnitsDecoder(scale: number): ValueDecoder {
  let decoder = minorUnitsDecoders.get(scale);
  if (decoder === undefined) {
    decoder = (raw) => decodeMinorUnits(raw, scale);
    minorUnitsDecoders.set(scale, decoder);
  }
  return decoder;
}

function decodeMinorUnits(raw: unknown, scale: number): Value {
  if (raw === null || raw === undefined) return null;
  // SQLite's INTEGER arrives as a number: exact, so no parse and no bigint
  if (typeof raw === 'number' && Number.isSafeInteger(raw)) return formatMinorUnits(raw, scale);
  const text = String(raw as number | bigint | string);
  const p = parseDecimal(text);
  if (p === null || p.fraction !== '') throw new TypeError(`not minor units: ${text}`);
  return fromMinorUnits(BigInt(text), scale);
}

/**
 * `fromMinorUnits` of an exact integer number: (1250, 2) → "12.50". By arithmetic rather than by
 * slicing the digits: `%` of integers is exact, and so is dividing the remainder's exact multiple.
 */
function formatMinorUnits(units: number, scale: number): string {
  const negative = units < 0;
  const magnitude = negative ? -units : units;
  if (scale === 0) return `${negative ? '-' : ''}${magnitude}`;
  const unit = 10 ** scale;
  const fraction = magnitude % unit;
  const digits = String(fraction);
  const padded = digits.length === scale ? digits : '0'.repeat(scale - digits.length) + digits;
  return `${negative ? '-' : ''}${(magnitude - fraction) / unit}.${padded}`;
}
