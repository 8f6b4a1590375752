/**
 * One field's value: its JSON type, its format, its constraints, and its normal form.
 */
import {
  type Bound,
  type BuiltinErrorCode,
  type Field,
  type FieldType,
  type Value,
  compareDecimal,
  decimalScale,
  fileAccepts,
  fromMinorUnits,
  isFileInfo,
  isDate,
  isBlank,
  isDateTime,
  isColor,
  isEmail,
  isPhone,
  isTime,
  isUrl,
  parseDecimal,
  toDecimalString,
  toMinorUnits,
  normalizeColor,
  normalizeTime,
  PHONE_MIN_DIGITS,
} from '@ninefold/model';
import { type FieldError } from './field-error.js';

/** The checked and normalised value, or the first error that makes it invalid. */
export type FieldCheck =
  { readonly ok: true; readonly value: Value } | { readonly ok: false; readonly error: FieldError };

/**
 * Whether a wire value means "no value" for a field: null, undefined, blank text (empty, or only
 * white space and invisible characters: `isBlank`), or an empty list. Forms send "" for a cleared
 * input; a validated record holds null instead, so storage never holds blank text (decision 0026).
 * A `json` field's string is data, never blank.
 *
 * @example isEmptyValue(titleField, ' \u200b') // true
 */
export function isEmptyValue(field: Pick<Field, 'many' | 'type'>, value: Value | undefined): boolean {
  if (value === null || value === undefined) return true;
  if (typeof value === 'string') return field.type !== 'json' && isBlank(value);
  return field.many && Array.isArray(value) && value.length === 0;
}

/**
 * A write's input with every field's blank text as null, so that what reads it (a transition's
 * `set`, `has()`) sees no value where the record will hold none. Other keys are left as they are.
 *
 * @example withoutBlanks(entity.fields, { title: ' ', note: 'x' }) // { title: null, note: 'x' }
 */
export function withoutBlanks<T extends Value | undefined>(
  fields: Readonly<Record<string, Pick<Field, 'many' | 'type'>>>,
  input: Readonly<Record<string, T>>,
): Record<string, T | null> {
  const out: Record<string, T | null> = {};
  for (const [key, value] of Object.entries(input)) {
    const field = Object.hasOwn(fields, key) ? fields[key] : undefined;
    out[key] = typeof value === 'string' && field !== undefined && isEmptyValue(field, value) ? null : value;
  }
  return out;
}

/**
 * Checks a present value against its field's type and constraints and returns it in normal form:
 * datetimes as UTC ISO with milliseconds, decimals with exactly the field's scale.
 * JSON types are strict: `"12"` is not an integer, `1` is not a boolean.
 *
 * @example checkFieldValue(amountField, '12.5') // { ok: true, value: '12.50' }
 * @example checkFieldValue(countField, '12') // { ok: false, error: { code: 'E_TYPE', … } }
 */
export function checkFieldValue(field: Field, value: Value): FieldCheck {
  const fail = (code: BuiltinErrorCode, params: Record<string, Value> = {}): FieldCheck => ({
    ok: false,
    error: { code, field: field.name, params: { field: field.label, value, ...params } },
  });
  if (field.many) return checkList(field, value, fail);
  return CHECKS[field.type](field, value, fail);
}

type Fail = (code: BuiltinErrorCode, params?: Record<string, Value>) => FieldCheck;
type Check = (field: Field, value: Value, fail: Fail) => FieldCheck;

/** How each type checks a single value: its JSON type, its format, its constraints. */
const CHECKS: Readonly<Record<FieldType, Check>> = {
  string: (field, value, fail) => checkText(field, value, fail, null),
  text: (field, value, fail) => checkText(field, value, fail, null),
  email: (field, value, fail) =>
    checkText(field, value, fail, [isEmail, 'an email address like name@example.com']),
  url: (field, value, fail) =>
    checkText(field, value, fail, [isUrl, 'a web address starting with http:// or https://']),
  phone: (field, value, fail) =>
    checkText(field, value, fail, [
      isPhone,
      `a phone number of at least ${PHONE_MIN_DIGITS} digits, like +44 20 7946 0958`,
    ]),
  integer: (field, value, fail) => {
    if (typeof value !== 'number' || !Number.isInteger(value))
      return fail('E_TYPE', { expected: 'a whole number' });
    if (!Number.isSafeInteger(value))
      return fail(
        value < 0 ? 'E_TOO_SMALL' : 'E_TOO_LARGE',
        value < 0 ? { min: Number.MIN_SAFE_INTEGER } : { max: Number.MAX_SAFE_INTEGER },
      );
    if (field.min !== null && value < Number(field.min.value))
      return fail('E_TOO_SMALL', { min: bound(field.min) });
    if (field.max !== null && value > Number(field.max.value))
      return fail('E_TOO_LARGE', { max: bound(field.max) });
    return { ok: true, value };
  },
  decimal: checkDecimal,
  money: checkDecimal,
  boolean: (_field, value, fail) =>
    typeof value === 'boolean' ? { ok: true, value } : fail('E_TYPE', { expected: 'true or false' }),
  date: (field, value, fail) => {
    if (typeof value !== 'string') return fail('E_TYPE', { expected: 'a date like 2026-01-31' });
    if (!isDate(value)) return fail('E_FORMAT', { expected: 'a date like 2026-01-31' });
    return checkOrdered(field, value, value, (b) => String(b), fail);
  },
  time: (field, value, fail) => {
    if (typeof value !== 'string') return fail('E_TYPE', { expected: 'a time like 09:30' });
    if (!isTime(value)) return fail('E_FORMAT', { expected: 'a time like 09:30' });
    return checkOrdered(field, normalizeTime(value), timeKey(value), (b) => timeKey(String(b)), fail);
  },
  datetime: (field, value, fail) => {
    const expected = 'an instant like 2026-01-31T09:30:00Z';
    if (typeof value !== 'string') return fail('E_TYPE', { expected });
    if (!isDateTime(value)) return fail('E_FORMAT', { expected });
    const normal = new Date(value).toISOString();
    return checkOrdered(field, normal, normal, (b) => new Date(String(b)).toISOString(), fail);
  },
  enum: (field, value, fail) => {
    if (typeof value !== 'string') return fail('E_TYPE', { expected: 'text' });
    return (field.values ?? []).includes(value)
      ? { ok: true, value }
      : fail('E_NOT_ONE_OF', { values: (field.values ?? []).join(', ') });
  },
  ref: (field, value, fail) =>
    typeof value === 'string'
      ? { ok: true, value }
      : fail('E_TYPE', { expected: `the id of a ${field.to ?? 'record'}` }),
  json: (_field, value) => ({ ok: true, value }),
  color: (_field, value, fail) => {
    const expected = 'a colour like #1e90ff';
    if (typeof value !== 'string') return fail('E_TYPE', { expected });
    if (!isColor(value)) return fail('E_FORMAT', { expected });
    return { ok: true, value: normalizeColor(value) };
  },
  file: checkFile,
  image: checkFile,
};

/**
 * A file, as the server has resolved its id (or the app holds its upload's answer): a `FileInfo`
 * whose sniffed type the field accepts and whose size is within its `maxSize` (decision 0050).
 */
function checkFile(field: Field, value: Value, fail: Fail): FieldCheck {
  if (!isFileInfo(value)) return fail('E_TYPE', { expected: 'a file' });
  if (!fileAccepts(field.accept, value.type))
    return fail('E_FILE_TYPE', { type: value.type, accept: (field.accept ?? []).join(', ') });
  if (field.maxSize !== null && value.size > field.maxSize)
    return fail('E_FILE_TOO_LARGE', { limit: field.maxSize });
  const { id, name, size, type } = value;
  return { ok: true, value: { id, name, size, type } };
}

/** Text: its format when it has one, then its length in code points and its pattern. */
function checkText(
  field: Field,
  value: Value,
  fail: Fail,
  format: readonly [(text: string) => boolean, string] | null,
): FieldCheck {
  if (typeof value !== 'string') return fail('E_TYPE', { expected: 'text' });
  if (format !== null && !format[0](value)) return fail('E_FORMAT', { expected: format[1] });
  const length = [...value].length; // code points, as CEL's size() and SQL's LENGTH count them
  if (field.minLength !== null && length < Number(field.minLength.value))
    return fail('E_TOO_SHORT', { min: Number(field.minLength.value) });
  if (field.maxLength !== null && length > Number(field.maxLength.value))
    return fail('E_TOO_LONG', { max: Number(field.maxLength.value) });
  if (field.pattern !== null && !wholeMatch(field.pattern, value)) return fail('E_PATTERN');
  return { ok: true, value };
}

/** A list of files: each a file the field takes, none twice, as many as its bounds allow. */
function checkFiles(field: Field, items: readonly Value[], fail: Fail): FieldCheck {
  const files: Value[] = [];
  const seen = new Set<string>();
  for (const item of items) {
    const check = checkFile(field, item, fail);
    if (!check.ok) return check;
    const file = check.value as { readonly id: string };
    if (!seen.has(file.id)) files.push(check.value);
    seen.add(file.id);
  }
  if (field.minLength !== null && files.length < Number(field.minLength.value))
    return fail('E_TOO_FEW', { min: Number(field.minLength.value) });
  if (field.maxLength !== null && files.length > Number(field.maxLength.value))
    return fail('E_TOO_MANY', { max: Number(field.maxLength.value) });
  return { ok: true, value: files };
}

function bound(b: Bound): number | string {
  return b.value;
}

function wholeMatch(pattern: string, value: string): boolean {
  try {
    return new RegExp(`^(?:${pattern})$`, 'u').test(value);
  } catch {
    return false; // the compiler checked the pattern; a model edited by hand fails closed
  }
}

/** HH:MM:SS.sss, so that 09:30 and 09:30:00 compare equal and order correctly. */
function timeKey(value: string): string {
  const [hm = '', sec = '00'] = [value.slice(0, 5), value.slice(6)];
  const [s = '00', ms = ''] = sec.split('.');
  return `${hm}:${s.padStart(2, '0')}.${ms.padEnd(3, '0')}`;
}

function checkOrdered(
  field: Field,
  normal: string,
  key: string,
  keyOf: (b: number | string) => string,
  fail: Fail,
): FieldCheck {
  if (field.min !== null && key < keyOf(field.min.value))
    return fail('E_TOO_SMALL', { min: bound(field.min) });
  if (field.max !== null && key > keyOf(field.max.value))
    return fail('E_TOO_LARGE', { max: bound(field.max) });
  return { ok: true, value: normal };
}

function checkDecimal(field: Field, value: Value, fail: Fail): FieldCheck {
  const expected = 'a number like 12.50';
  let text: string | null;
  if (typeof value === 'number') text = toDecimalString(value);
  else if (typeof value === 'string') text = parseDecimal(value) === null ? null : value;
  else return fail('E_TYPE', { expected });
  if (text === null) return fail('E_FORMAT', { expected });
  const scale = field.scale ?? 2;
  if (decimalScale(text) > scale) return fail('E_PRECISION', { scale });
  const units = toMinorUnits(text, scale)!;
  const normal = fromMinorUnits(units, scale);
  if (field.precision !== null) {
    const largest = fromMinorUnits(10n ** BigInt(field.precision) - 1n, scale);
    if (compareDecimal(normal, largest) > 0) return fail('E_TOO_LARGE', { max: largest });
    if (compareDecimal(normal, `-${largest}`) < 0) return fail('E_TOO_SMALL', { min: `-${largest}` });
  }
  if (field.min !== null && compareDecimal(normal, String(field.min.value)) < 0)
    return fail('E_TOO_SMALL', { min: bound(field.min) });
  if (field.max !== null && compareDecimal(normal, String(field.max.value)) > 0)
    return fail('E_TOO_LARGE', { max: bound(field.max) });
  return { ok: true, value: normal };
}

function checkList(field: Field, value: Value, fail: Fail): FieldCheck {
  if (!Array.isArray(value)) return fail('E_TYPE', { expected: 'a list' });
  const items = value as readonly Value[];
  if (field.type === 'file' || field.type === 'image') return checkFiles(field, items, fail);
  for (const item of items) {
    if (typeof item !== 'string') return fail('E_TYPE', { expected: 'a list of text values' });
    if (field.type === 'enum' && !(field.values ?? []).includes(item))
      return fail('E_NOT_ONE_OF', { values: (field.values ?? []).join(', ') });
  }
  // items, not characters: a list's bounds have codes whose messages count items
  const unique = [...new Set(items as readonly string[])];
  if (field.minLength !== null && unique.length < Number(field.minLength.value))
    return fail('E_TOO_FEW', { min: Number(field.minLength.value) });
  if (field.maxLength !== null && unique.length > Number(field.maxLength.value))
    return fail('E_TOO_MANY', { max: Number(field.maxLength.value) });
  return { ok: true, value: unique };
}
