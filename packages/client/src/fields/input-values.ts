/**
 * What an input's text means as a wire value, and back. Pure functions: a value that cannot be
 * read stays as the text typed, so that the engine's check says what is wrong with it in the
 * catalogue's words, and nothing exact ever passes through a binary float.
 */
import { FIELD_TYPE_INFO, type Field, type Value, parseDecimal } from '@ninefold/model';

const separators = new Map<string, { decimal: string; group: string }>();

/** The decimal and grouping marks of a locale: `de-DE` → `,` and `.`. */
export function numberMarks(locale: string): { decimal: string; group: string } {
  let marks = separators.get(locale);
  if (marks === undefined) {
    const parts = new Intl.NumberFormat(locale).formatToParts(12345.6);
    marks = {
      decimal: parts.find((p) => p.type === 'decimal')?.value ?? '.',
      group: parts.find((p) => p.type === 'group')?.value ?? ',',
    };
    separators.set(locale, marks);
  }
  return marks;
}

/**
 * A decimal typed in the locale's notation as an exact decimal string; `null` when empty. Text
 * that is not a number comes back as it was typed.
 *
 * @example decimalFromText('1.234,5', 'de-DE') // '1234.5'
 */
export function decimalFromText(text: string, locale: string): string | null {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  const { decimal } = numberMarks(locale);
  const other = decimal === ',' ? '.' : ',';
  // spaces and apostrophes group digits; the other mark does too, but only where a group can be
  // (so "1,5" in English is refused rather than read as fifteen)
  let plain = trimmed.replace(/[\s\u00a0\u202f'’]/g, '');
  if (plain.includes(other)) {
    const [whole = '', ...rest] = plain.split(decimal);
    if (rest.length > 1 || !grouped(whole, other)) return trimmed;
    plain = [whole.split(other).join(''), ...rest].join(decimal);
  }
  if (decimal === ',') plain = plain.replace(',', '.');
  return parseDecimal(plain) === null ? trimmed : plain;
}

/** Whether `whole` is digits grouped by threes with `mark`: `1,234,567`. */
function grouped(whole: string, mark: string): boolean {
  const [first = '', ...groups] = whole.replace(/^[-+]/, '').split(mark);
  return /^\d{1,3}$/.test(first) && groups.every((group) => /^\d{3}$/.test(group));
}

/** A decimal string as the locale writes it, without grouping: `'12.50'` → `'12,50'` in de-DE. */
export function decimalToText(value: Value | undefined, locale: string): string {
  if (value === null || value === undefined) return '';
  const text = String(value);
  if (parseDecimal(text) === null) return text;
  const { decimal } = numberMarks(locale);
  return decimal === '.' ? text : text.replace('.', decimal);
}

/** `'12.5'` → `'12.50'` for a field of scale 2; a value with more digits is left for the check. */
export function padToScale(value: string, scale: number): string {
  if (parseDecimal(value) === null) return value;
  // the digits as written: "10.00" has two, though the number's own scale is zero
  const digits = value.includes('.') ? (value.split('.')[1] ?? '').length : 0;
  if (digits >= scale) return value;
  return `${value}${digits === 0 ? '.' : ''}${'0'.repeat(scale - digits)}`;
}

/**
 * A whole number typed as text; `null` when empty. Anything else stays text, which the engine
 * refuses as "must be a whole number".
 */
export function integerFromText(text: string): number | string | null {
  const trimmed = text.trim().replace(/[\s\u00a0\u202f'’]/g, '');
  if (trimmed === '') return null;
  return /^[-+]?\d+$/.test(trimmed) ? Number(trimmed) : text.trim();
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/**
 * An instant as a `datetime-local` input shows it: the viewer's wall-clock time, to the minute
 * (seconds only when there are some).
 *
 * @example dateTimeToLocalText('2026-11-23T08:30:00.000Z') // '2026-11-23T09:30' in Paris
 */
export function dateTimeToLocalText(value: Value | undefined): string {
  if (typeof value !== 'string' || value === '') return '';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  const base = `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
  const seconds = date.getSeconds();
  return seconds === 0 ? base : `${base}:${pad(seconds)}`;
}

/** A `datetime-local` input's text (the viewer's wall clock) as an ISO instant in UTC. */
export function dateTimeFromLocalText(text: string): string | null {
  if (text === '') return null;
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?$/.exec(text);
  if (match === null) return text;
  const [, y, mo, d, h, mi, s = '0', ms = '0'] = match;
  const date = new Date(
    Number(y),
    Number(mo) - 1,
    Number(d),
    Number(h),
    Number(mi),
    Number(s),
    Number(ms.padEnd(3, '0')),
  );
  return Number.isNaN(date.getTime()) ? text : date.toISOString();
}

/** A `time` input's text as the API's `HH:MM:SS`. */
export function timeFromText(text: string): string | null {
  if (text === '') return null;
  return /^\d{2}:\d{2}$/.test(text) ? `${text}:00` : text;
}

/** `'09:30:00'` → `'09:30'` for a `time` input; seconds stay when there are some. */
export function timeToText(value: Value | undefined): string {
  if (typeof value !== 'string') return '';
  return /^\d{2}:\d{2}:00(\.0+)?$/.test(value) ? value.slice(0, 5) : value;
}

/** A JSON value as the text of its editor, indented. */
export function jsonToText(value: Value | undefined): string {
  if (value === undefined || value === null) return '';
  return JSON.stringify(value, null, 2);
}

/** The JSON a text holds: `{ ok: false }` when it is not JSON. */
export function jsonFromText(text: string): { ok: true; value: Value } | { ok: false } {
  if (text.trim() === '') return { ok: true, value: null };
  try {
    return { ok: true, value: JSON.parse(text) as Value };
  } catch {
    return { ok: false };
  }
}

/** The bound of a date or time field as an input's `min`/`max` attribute. */
export function boundText(field: Field, which: 'min' | 'max'): string | undefined {
  const bound = field[which];
  if (bound === null) return undefined;
  const format = FIELD_TYPE_INFO[field.type].bounds;
  if (format === 'time') return timeToText(String(bound.value));
  if (format === 'date') return String(bound.value);
  return undefined;
}

/** Whether two wire values are the same value (lists and objects compared by content). */
export function sameValue(a: Value | undefined, b: Value | undefined): boolean {
  if (a === b) return true;
  if (a === undefined || b === undefined) return false;
  return JSON.stringify(a) === JSON.stringify(b);
}
