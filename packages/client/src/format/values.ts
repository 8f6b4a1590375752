/**
 * Values as people read them, in the product's locale: money with its currency, dates without a
 * time zone shift, enum values as words. Pure functions; `FieldValue` renders them.
 */
import { type Field, type Value } from '@ninefold/spec/model';

const numberFormats = new Map<string, Intl.NumberFormat>();
const dateFormats = new Map<string, Intl.DateTimeFormat>();

function numberFormat(locale: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `${locale}|${JSON.stringify(options)}`;
  let format = numberFormats.get(key);
  if (format === undefined) numberFormats.set(key, (format = new Intl.NumberFormat(locale, options)));
  return format;
}

function dateFormat(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale}|${JSON.stringify(options)}`;
  let format = dateFormats.get(key);
  if (format === undefined) dateFormats.set(key, (format = new Intl.DateTimeFormat(locale, options)));
  return format;
}

/** `travelExpenses` → `Travel expenses`; `in_progress` → `In progress`. */
export function humanize(name: string): string {
  const words = name
    .replace(/[_-]+/g, ' ')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .trim()
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * A decimal string in the locale's notation, exactly: the digits are never rounded through a double.
 *
 * @example formatDecimal('1234.50', 'en-GB') // '1,234.50'
 */
export function formatDecimal(value: string, locale: string, currency?: string | null): string {
  const negative = value.startsWith('-');
  const [whole = '0', fraction = ''] = value.replace(/^[-+]/, '').split('.');
  const parts = numberFormat(locale, {
    minimumFractionDigits: fraction.length,
    maximumFractionDigits: fraction.length,
    ...(currency == null ? {} : { style: 'currency', currency }),
  }).formatToParts(negative ? -1.5 : 1.5);
  // the locale's pattern with our own digits: grouping and decimal marks from Intl, digits exact
  const group = numberFormat(locale, { useGrouping: true })
    .formatToParts(1000)
    .find((p) => p.type === 'group');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, group?.value ?? ',');
  return parts
    .map((part) => {
      if (part.type === 'integer') return grouped;
      if (part.type === 'fraction') return fraction;
      return part.value;
    })
    .join('');
}

/**
 * A whole number in the locale's notation, with the formatter every count and integer shares.
 *
 * @example formatInteger(10000, 'en-GB') // '10,000'
 */
export function formatInteger(value: number, locale: string): string {
  return numberFormat(locale, {}).format(value);
}

/** A calendar date ("2026-11-23") in the locale, never shifted by the viewer's time zone. */
export function formatDate(value: string, locale: string): string {
  const date = new Date(`${value}T00:00:00.000Z`);
  if (Number.isNaN(date.getTime())) return value;
  return dateFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' }).format(date);
}

/** An instant in the viewer's time zone. */
export function formatDateTime(value: string, locale: string): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  return dateFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(date);
}

/** "09:30:00" → "09:30". */
export function formatTime(value: string): string {
  return value.endsWith(':00') && value.length === 8 ? value.slice(0, 5) : value;
}

/**
 * A field's value as text. Refs are ids here: `FieldValue` shows their titles.
 *
 * @example formatValue(claim.fields.amount, '12.5', 'en-GB') // '€12.50'
 */
export function formatValue(field: Field, value: Value | undefined, locale: string): string {
  if (value === null || value === undefined || value === '') return '';
  if (Array.isArray(value))
    return value.map((item) => formatValue({ ...field, many: false }, item, locale)).join(', ');
  switch (field.type) {
    case 'money':
    case 'decimal': {
      const text = typeof value === 'number' ? String(value) : String(value);
      const scaled = field.scale !== null ? padScale(text, field.scale) : text;
      return formatDecimal(scaled, locale, field.type === 'money' ? field.currency : null);
    }
    case 'integer':
      return typeof value === 'number' ? formatInteger(value, locale) : String(value);
    case 'boolean':
      return value === true ? 'Yes' : 'No';
    case 'date':
      return formatDate(String(value), locale);
    case 'datetime':
      return formatDateTime(String(value), locale);
    case 'time':
      return formatTime(String(value));
    case 'enum':
      return humanize(String(value));
    case 'json':
      return JSON.stringify(value);
    default:
      return String(value);
  }
}

/** "12.5" with scale 2 → "12.50". */
export function padScale(value: string, scale: number): string {
  const [whole, fraction = ''] = value.split('.');
  if (scale === 0 || fraction.length >= scale) return value;
  return `${whole}.${fraction.padEnd(scale, '0')}`;
}
