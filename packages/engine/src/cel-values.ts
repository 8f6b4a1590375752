/**
 * Conversions between wire values (JSON) and the values CEL computes with.
 *
 * integer → bigint, decimal and money → double (decision 0006), datetime → Date, lists of
 * strings stay arrays, json stays as it is (its numbers are doubles, as in google.protobuf.Struct),
 * a file is its `FileInfo` with `size` a bigint (an int, decision 0051).
 */
import {
  FIELD_TYPE_INFO,
  FILE_CEL_TYPE,
  type FileInfo,
  isFileInfo,
  type Field,
  type Value,
  fromMinorUnits,
  isDateTime,
  parseDecimal,
  toMinorUnits,
} from '@ninefold/model';

/**
 * A wire value as CEL sees it for a variable of the given CEL type, or `undefined` when the value
 * is absent or is not of that type: such a variable is left unbound, so reading it is an error.
 *
 * @example toCel('int', 12) // 12n
 * @example toCel('double', '12.50') // 12.5
 */
export function toCel(celType: string, value: Value | undefined): unknown {
  if (value === null || value === undefined) return undefined;
  switch (celType) {
    case 'int':
      return typeof value === 'number' && Number.isSafeInteger(value) ? BigInt(value) : undefined;
    case 'double':
      if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
      return typeof value === 'string' && parseDecimal(value) !== null ? Number(value) : undefined;
    case 'bool':
      return typeof value === 'boolean' ? value : undefined;
    case 'string':
      return typeof value === 'string' ? value : undefined;
    case 'google.protobuf.Timestamp':
      return typeof value === 'string' && isDateTime(value) ? new Date(value) : undefined;
    case 'list<string>':
      return Array.isArray(value) && value.every((v) => typeof v === 'string') ? value : undefined;
    case FILE_CEL_TYPE:
      return celFile(value);
    case `list<${FILE_CEL_TYPE}>`: {
      if (!Array.isArray(value)) return undefined;
      const files = value.map(celFile);
      return files.every((f) => f !== undefined) ? files : undefined;
    }
    default:
      return value;
  }
}

/** A file as CEL reads it: its members, `size` an int; undefined for anything else (an id not yet saved). */
function celFile(value: Value): (Omit<FileInfo, 'size'> & { size: bigint }) | undefined {
  if (!isFileInfo(value) || !Number.isSafeInteger(value.size)) return undefined;
  return { id: value.id, name: value.name, size: BigInt(value.size), type: value.type };
}

/**
 * A CEL result as the wire value of a field, or `undefined` when it cannot be one.
 * Doubles become decimal strings rounded to the field's scale; instants become UTC ISO strings.
 *
 * @example fromCel(amountField, 12.5) // '12.50'
 * @example fromCel(countField, 3n) // 3
 */
export function fromCel(field: Pick<Field, 'type' | 'many' | 'scale'>, value: unknown): Value | undefined {
  if (value === null || value === undefined) return null;
  if (field.many) {
    return Array.isArray(value) && value.every((v) => typeof v === 'string')
      ? (value as string[])
      : undefined;
  }
  const celType = FIELD_TYPE_INFO[field.type].cel;
  switch (celType) {
    case 'int':
      if (typeof value === 'bigint') {
        const n = Number(value);
        return Number.isSafeInteger(n) ? n : undefined;
      }
      return typeof value === 'number' && Number.isSafeInteger(value) ? value : undefined;
    case 'double': {
      const scale = field.scale ?? 2;
      if (typeof value === 'bigint') return fromMinorUnits(value * 10n ** BigInt(scale), scale);
      if (typeof value !== 'number' || !Number.isFinite(value) || Math.abs(value) >= 1e21) return undefined;
      const units = toMinorUnits(value.toFixed(scale), scale);
      return units === null ? undefined : fromMinorUnits(units, scale);
    }
    case 'bool':
      return typeof value === 'boolean' ? value : undefined;
    case 'google.protobuf.Timestamp':
      if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : value.toISOString();
      return typeof value === 'string' && isDateTime(value) ? new Date(value).toISOString() : undefined;
    case 'dyn':
    case FILE_CEL_TYPE:
      return toJson(value);
    case 'string':
      return typeof value === 'string' ? value : undefined;
    default:
      return celType satisfies never;
  }
}

/** A CEL value as plain JSON: bigints become numbers, instants ISO strings, maps objects. */
function toJson(value: unknown): Value | undefined {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'bigint') return Number(value);
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) {
    const items = value.map(toJson);
    return items.every((v) => v !== undefined) ? (items as Value[]) : undefined;
  }
  const entries = value instanceof Map ? [...value.entries()] : Object.entries(value as object);
  const out: Record<string, Value> = {};
  for (const [k, v] of entries) {
    const j = toJson(v);
    if (j === undefined) return undefined;
    out[String(k)] = j;
  }
  return out;
}
