/**
 * Values as people read them, in the product's locale: money with its currency, dates without a
 * time zone shift, enum values as words. Pure functions; `FieldValue` renders them.
 */
import { type Field, type Value, enumLabel, isFileInfo } from '@ninefold/model';

const numberFormats = new Map<string, Intl.NumberFormat>();
const dateFormats = new Map<string, Intl.DateTimeFormat>();

/** A formatter, made once per locale and `key` (which names `options`): making one is costly. */
function numberFormat(locale: string, key: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const id = `${locale}|${key}`;
  let format = numberFormats.get(id);
  if (format === undefined) numberFormats.set(id, (format = new Intl.NumberFormat(locale, options)));
  return format;
}

function dateFormat(locale: string, key: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const id = `${locale}|${key}`;
  let format = dateFormats.get(id);
  if (format === undefined) dateFormats.set(id, (format = new Intl.DateTimeFormat(locale, options)));
  return format;
}

/** How a locale writes a decimal of some digits (and currency), the whole part aside. */
interface DecimalPattern {
  readonly parts: readonly Intl.NumberFormatPart[];
}

const decimalPatterns = new Map<string, DecimalPattern>();

function decimalPattern(locale: string, digits: number, currency: string | null, negative: boolean) {
  const id = `${locale}|${digits}|${currency ?? ''}|${negative ? '-' : '+'}`;
  let pattern = decimalPatterns.get(id);
  if (pattern === undefined) {
    const options: Intl.NumberFormatOptions = {
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
      ...(currency === null ? {} : { style: 'currency', currency }),
    };
    const parts = new Intl.NumberFormat(locale, options).formatToParts(negative ? -1.5 : 1.5);
    decimalPatterns.set(id, (pattern = { parts }));
  }
  return pattern;
}

/**
 * A decimal string in the locale's notation, exactly: the digits are never rounded through a double.
 *
 * @example formatDecimal('1234.50', 'en-GB') // '1,234.50'
 */
export function formatDecimal(value: string, locale: string, currency?: string | null): string {
  const negative = value.startsWith('-');
  const [whole = '0', fraction = ''] = value.replace(/^[-+]/, '').split('.');
  if (!/^[0-9]+$/.test(whole) || !/^[0-9]*$/.test(fraction)) return value;
  // the locale's pattern with our own digits: marks and grouping from Intl (the whole part as a
  // BigInt, so that no digit is rounded: 1,00,000 in India, 1234 in Spain), digits exact
  const { parts } = decimalPattern(locale, fraction.length, currency ?? null, negative);
  const grouped = numberFormat(locale, 'whole', { numberingSystem: 'latn' }).format(BigInt(whole));
  let text = '';
  for (const part of parts)
    text += part.type === 'integer' ? grouped : part.type === 'fraction' ? fraction : part.value;
  return text;
}

/**
 * A whole number in the locale's notation, with the formatter every count and integer shares.
 *
 * @example formatInteger(10000, 'en-GB') // '10,000'
 */
export function formatInteger(value: number, locale: string): string {
  return numberFormat(locale, 'integer', {}).format(value);
}

/** A calendar date ("2026-11-23") in the locale, never shifted by the viewer's time zone. */
export function formatDate(value: string, locale: string): string {
  const date = new Date(`${value}T00:00:00.000Z`);
  if (Number.isNaN(date.getTime())) return value;
  return dateFormat(locale, 'date', { dateStyle: 'medium', timeZone: 'UTC' }).format(date);
}

/** An instant in the viewer's time zone. */
export function formatDateTime(value: string, locale: string): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  return dateFormat(locale, 'datetime', { dateStyle: 'medium', timeStyle: 'short' }).format(date);
}

/** "09:30:00" → "09:30". */
export function formatTime(value: string): string {
  return value.endsWith(':00') && value.length === 8 ? value.slice(0, 5) : value;
}

/**
 * A field's value as text. Refs are ids here: `FieldValue` shows their titles.
 *
 * Yes and no are the reader's words when `t` is given (the app's language store), else English's.
 *
 * @example formatValue(claim.fields.amount, '12.5', 'en-GB') // '€12.50'
 * @example formatValue(claim.fields.paid, true, 'fr-FR', i18n.t) // 'Oui'
 */
export function formatValue(
  field: Field,
  value: Value | undefined,
  locale: string,
  t?: (key: 'common.yes' | 'common.no') => string,
): string {
  if (value === null || value === undefined || value === '') return '';
  if (Array.isArray(value))
    return new Intl.ListFormat(locale, { type: 'unit' }).format(
      value.map((item) => formatValue({ ...field, many: false }, item, locale, t)),
    );
  switch (field.type) {
    case 'money':
    case 'decimal': {
      const text = typeof value === 'number' ? String(value) : String(value);
      const scaled = field.scale !== null ? padScale(text, field.scale) : text;
      return formatDecimal(scaled, locale, field.currency);
    }
    case 'integer':
      return typeof value === 'number' ? formatInteger(value, locale) : String(value);
    case 'boolean':
      if (t !== undefined) return value === true ? t('common.yes') : t('common.no');
      return value === true ? 'Yes' : 'No';
    case 'date':
      return formatDate(String(value), locale);
    case 'datetime':
      return formatDateTime(String(value), locale);
    case 'time':
      return formatTime(String(value));
    case 'enum':
      return enumLabel(field, String(value));
    case 'json':
      return JSON.stringify(value);
    case 'file':
    case 'image':
      return isFileInfo(value) ? value.name : String(value);
    case 'string':
    case 'text':
    case 'email':
    case 'url':
    case 'phone':
    case 'ref':
    case 'color':
      return String(value);
    default:
      return field.type satisfies never;
  }
}

/** "12.5" with scale 2 → "12.50". */
export function padScale(value: string, scale: number): string {
  const [whole, fraction = ''] = value.split('.');
  if (scale === 0 || fraction.length >= scale) return value;
  return `${whole}.${fraction.padEnd(scale, '0')}`;
}
