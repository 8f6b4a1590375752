/**
 * Value formats of the model, shared by the compiler (defaults, bounds) and the engine (records).
 * Pure functions over strings and numbers: no parser, no I/O, safe in the browser.
 */

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME = /^([01]\d|2[0-3]):([0-5]\d)(?::([0-5]\d)(?:\.\d{1,3})?)?$/;
const DATETIME =
  /^\d{4}-\d{2}-\d{2}T([01]\d|2[0-3]):[0-5]\d(?::[0-5]\d(?:\.\d{1,9})?)?(?:Z|[+-](?:[01]\d|2[0-3]):[0-5]\d)$/;
const DECIMAL = /^(-)?(\d+)(?:\.(\d+))?$/;
const EMAIL = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:".]{2,}$/;
const PHONE = /^\+?\(?[0-9](?:[0-9 ().-]*[0-9])?$/;
/** Unicode white space and the characters that are not drawn (zero-width space, joiners, BOM…). */
const BLANK = /^[\p{White_Space}\p{Default_Ignorable_Code_Point}]*$/u;
const COLOR = /^#[0-9a-f]{6}$/i;

/** A calendar date `YYYY-MM-DD` that exists (no 31 February). */
export function isDate(value: string): boolean {
  const m = DATE.exec(value);
  if (m === null) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (mo < 1 || mo > 12 || d < 1) return false;
  return d <= new Date(Date.UTC(y, mo, 0)).getUTCDate();
}

/** A wall-clock time `HH:MM`, `HH:MM:SS` or `HH:MM:SS.sss`. */
export function isTime(value: string): boolean {
  return TIME.test(value);
}

/**
 * The canonical form of a time: `HH:MM:SS`, with milliseconds only when not zero, so that equal
 * times are equal strings and compare in order inside expressions.
 *
 * @example normalizeTime('09:30') // '09:30:00'
 */
export function normalizeTime(value: string): string {
  const m = TIME.exec(value);
  if (m === null) return value;
  const ms = (value.split('.')[1] ?? '').padEnd(3, '0');
  return `${m[1]}:${m[2]}:${m[3] ?? '00'}${/^0*$/.test(ms) ? '' : `.${ms}`}`;
}

/** An ISO 8601 instant with a zone designator (`Z` or an offset): no floating local times. */
export function isDateTime(value: string): boolean {
  return DATETIME.test(value) && isDate(value.slice(0, 10)) && !Number.isNaN(Date.parse(value));
}

/** An instant normalised to UTC with milliseconds: `2026-11-23T09:30:00.000Z`. */
export function normalizeDateTime(value: string): string {
  return new Date(value).toISOString();
}

export function isEmail(value: string): boolean {
  return value.length <= 254 && EMAIL.test(value);
}

/** An absolute http or https URL. */
export function isUrl(value: string): boolean {
  if (!/^https?:\/\//i.test(value)) return false;
  try {
    return new URL(value).hostname.length > 0;
  } catch {
    return false;
  }
}

/** The fewest digits a phone number has: the shortest national numbers in use. */
export const PHONE_MIN_DIGITS = 5;

/**
 * A phone number: an optional leading `+`, then digits with spaces, dots, hyphens or brackets
 * between them (an opening bracket may come first), at least {@link PHONE_MIN_DIGITS} digits in
 * all. How long it may be is the field's `maxLength` (32 by default).
 *
 * @example isPhone('+44 20 7946 0958') // true
 * @example isPhone('112') // false: three digits
 */
export function isPhone(value: string): boolean {
  return PHONE.test(value) && value.replace(/\D/g, '').length >= PHONE_MIN_DIGITS;
}

/**
 * Whether text is blank: nothing once Unicode white space (`\p{White_Space}`) and the characters
 * that are never drawn (`\p{Default_Ignorable_Code_Point}`: U+200B ZERO WIDTH SPACE, the joiners
 * U+200C/D, U+2060 WORD JOINER, U+FEFF, soft hyphens, variation selectors…) are taken away. Blank
 * text is no value at all (decision 0026).
 *
 * @example isBlank(' \u200b\u00a0') // true
 * @example isBlank(' a ') // false
 */
export function isBlank(value: string): boolean {
  return BLANK.test(value);
}

/** A CSS hex colour `#rrggbb`, in either case. */
export function isColor(value: string): boolean {
  return COLOR.test(value);
}

/**
 * The canonical form of a colour: lower case, so that equal colours are equal strings.
 *
 * @example normalizeColor('#1E90FF') // '#1e90ff'
 */
export function normalizeColor(value: string): string {
  return value.toLowerCase();
}

/** An exact decimal as written: optional `-`, digits, optional fraction. */
export interface DecimalParts {
  readonly negative: boolean;
  readonly integer: string;
  readonly fraction: string;
}

/** Parses an exact decimal string ("-12.50"); null when it is not one. Leading zeros are dropped. */
export function parseDecimal(value: string): DecimalParts | null {
  const m = DECIMAL.exec(value);
  if (m === null) return null;
  const integer = m[2]!.replace(/^0+(?=\d)/, '');
  const fraction = (m[3] ?? '').replace(/0+$/, '');
  const isZero = /^0*$/.test(integer) && fraction === '';
  return { negative: m[1] === '-' && !isZero, integer, fraction };
}

/** A number or numeric string as an exact decimal string, if it is one: 12 → "12", "0.10" → "0.1". */
export function toDecimalString(value: number | string): string | null {
  const text = typeof value === 'number' ? (Number.isFinite(value) ? numberToPlain(value) : '') : value;
  const parts = parseDecimal(text);
  if (parts === null) return null;
  return `${parts.negative ? '-' : ''}${parts.integer}${parts.fraction === '' ? '' : `.${parts.fraction}`}`;
}

function numberToPlain(n: number): string {
  const s = String(n);
  if (!/e/i.test(s)) return s;
  // 1e21 and 1e-7 print in exponent form; these are out of any money range, so the check fails
  return '';
}

/** Digits after the decimal point. */
export function decimalScale(value: string): number {
  return parseDecimal(value)?.fraction.length ?? 0;
}

/** Total significant digits, integer and fraction together. */
export function decimalPrecision(value: string): number {
  const p = parseDecimal(value);
  if (p === null) return 0;
  return (p.integer === '0' ? 0 : p.integer.length) + p.fraction.length;
}

/** Compares two exact decimal strings: -1, 0 or 1. Both must be valid decimals. */
export function compareDecimal(a: string, b: string): -1 | 0 | 1 {
  const x = parseDecimal(a);
  const y = parseDecimal(b);
  if (x === null || y === null) throw new TypeError(`not a decimal: ${x === null ? a : b}`);
  if (x.negative !== y.negative) return x.negative ? -1 : 1;
  const sign = x.negative ? -1 : 1;
  if (x.integer.length !== y.integer.length)
    return (x.integer.length > y.integer.length ? sign : -sign) as -1 | 1;
  if (x.integer !== y.integer) return (x.integer > y.integer ? sign : -sign) as -1 | 1;
  const width = Math.max(x.fraction.length, y.fraction.length);
  const fx = x.fraction.padEnd(width, '0');
  const fy = y.fraction.padEnd(width, '0');
  if (fx === fy) return 0;
  return (fx > fy ? sign : -sign) as -1 | 1;
}

/**
 * An exact decimal in minor units of the given scale, as a bigint: ("12.5", 2) → 1250n.
 * Null when the value has more fraction digits than the scale allows.
 */
export function toMinorUnits(value: string, scale: number): bigint | null {
  const p = parseDecimal(value);
  if (p === null || p.fraction.length > scale) return null;
  const units = BigInt(p.integer + p.fraction.padEnd(scale, '0'));
  return p.negative ? -units : units;
}

/** The inverse of toMinorUnits: (1250n, 2) → "12.50". */
export function fromMinorUnits(units: bigint, scale: number): string {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(scale + 1, '0');
  const integer = digits.slice(0, digits.length - scale);
  const fraction = digits.slice(digits.length - scale);
  return `${negative ? '-' : ''}${integer}${scale > 0 ? `.${fraction}` : ''}`;
}

let currencies: Set<string> | null = null;

/** An ISO 4217 code the platform knows, like `EUR`. */
export function isCurrency(code: string): boolean {
  if (!/^[A-Z]{3}$/.test(code)) return false;
  currencies ??= new Set(Intl.supportedValuesOf('currency'));
  return currencies.has(code);
}

/** Minor-unit digits of a currency: EUR 2, JPY 0, BHD 3. */
export function currencyScale(code: string): number {
  let scale = currencyScales.get(code);
  if (scale === undefined) {
    // an Intl.NumberFormat is costly to build: once per currency
    const options = new Intl.NumberFormat('en', { style: 'currency', currency: code }).resolvedOptions();
    scale = options.maximumFractionDigits ?? 2;
    currencyScales.set(code, scale);
  }
  return scale;
}
const currencyScales = new Map<string, number>();

/** Whether a BCP 47 locale tag is well-formed and known to the platform. */
export function isLocale(tag: string): boolean {
  try {
    return Intl.getCanonicalLocales(tag).length === 1;
  } catch {
    return false;
  }
}
