/**
 * Dates and times as the reader writes them (issue 15): `25/12/2026` in en-GB and French,
 * `25.12.2026` in German, `2026/12/25` in Japanese — the order and the mark learnt from `Intl`
 * (`formatToParts`), not listed by hand. The client has no date library (neither dayjs nor
 * `@mantine/dates`), and browsers' own date inputs follow the browser's language, not the app's;
 * so the inputs are text, read here. Pure functions: a text that is not a date stays as typed, for
 * the engine's check to refuse in the catalogue's words; the wire values stay canonical
 * (`2026-12-25`, `09:30:00`, ISO instants in UTC).
 */
import { type Value } from '@ninefold/model';

/** The parts of a date in the locale's order, and the mark between them. */
export interface DateOrder {
  readonly order: readonly ('day' | 'month' | 'year')[];
  readonly separator: string;
}

const orders = new Map<string, DateOrder>();
const periods = new Map<string, { am: string; pm: string; h12: boolean }>();

// right-to-left and letter marks Intl puts around Arabic dates: not part of what is typed
const MARKS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** Digits in other scripts (Arabic-Indic, Persian, full-width) read as 0-9. */
function latinDigits(text: string): string {
  return text.replace(/[\u0660-\u0669\u06f0-\u06f9\uff10-\uff19]/g, (digit) => {
    const code = digit.charCodeAt(0);
    const zero = code >= 0xff10 ? 0xff10 : code >= 0x06f0 ? 0x06f0 : 0x0660;
    return String(code - zero);
  });
}

/**
 * The order of day, month and year in a locale, and the mark between them.
 *
 * @example dateOrder('de-DE') // { order: ['day', 'month', 'year'], separator: '.' }
 */
export function dateOrder(locale: string): DateOrder {
  let found = orders.get(locale);
  if (found === undefined) {
    let parts: Intl.DateTimeFormatPart[] = [];
    try {
      parts = new Intl.DateTimeFormat(locale, {
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        calendar: 'gregory',
        numberingSystem: 'latn',
        timeZone: 'UTC',
      }).formatToParts(Date.UTC(2026, 11, 25));
    } catch {
      // an unknown locale: ISO's order
    }
    const order = parts
      .map((part) => part.type)
      .filter(
        (type): type is 'day' | 'month' | 'year' => type === 'day' || type === 'month' || type === 'year',
      );
    const literal = parts
      .find((part) => part.type === 'literal')
      ?.value.replace(MARKS, '')
      .trim();
    found =
      order.length === 3
        ? { order, separator: literal === undefined || literal === '' ? '/' : literal }
        : { order: ['year', 'month', 'day'], separator: '-' };
    orders.set(locale, found);
  }
  return found;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/**
 * A wire date (`2026-12-25`) as the locale writes it.
 *
 * @example dateToText('2026-12-25', 'fr-FR') // '25/12/2026'
 */
export function dateToText(value: Value | undefined, locale: string): string {
  if (typeof value !== 'string') return '';
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (match === null) return value;
  const [, year = '', month = '', day = ''] = match;
  const { order, separator } = dateOrder(locale);
  const of = { day, month, year };
  return order.map((part) => of[part]).join(separator);
}

/**
 * A date typed in the locale's order as the wire's `yyyy-mm-dd`; `null` when empty. ISO's own
 * `2026-12-25` is read in every locale; text that is no date comes back as typed.
 *
 * @example dateFromText('25.12.2026', 'de-DE') // '2026-12-25'
 */
export function dateFromText(text: string, locale: string): string | null {
  const typed = latinDigits(text.replace(MARKS, '')).trim();
  if (typed === '') return null;
  const iso = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(typed);
  const numbers = iso !== null ? iso.slice(1).map(Number) : null;
  let day: number | undefined;
  let month: number | undefined;
  let year: number | undefined;
  if (numbers !== null) [year, month, day] = numbers;
  else {
    const pieces = typed.split(/[^\d]+/).filter((piece) => piece !== '');
    if (pieces.length !== 3) return text.trim();
    const { order } = dateOrder(locale);
    const of: Partial<Record<'day' | 'month' | 'year', string>> = {};
    order.forEach((part, index) => (of[part] = pieces[index] ?? ''));
    if (of.year?.length !== 4 || (of.day?.length ?? 3) > 2 || (of.month?.length ?? 3) > 2) return text.trim();
    [day, month, year] = [Number(of.day), Number(of.month), Number(of.year)];
  }
  if (day === undefined || month === undefined || year === undefined) return text.trim();
  const date = new Date(Date.UTC(year, month - 1, day));
  // 31/02 rolls over into March: not a date
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day)
    return text.trim();
  return `${pad(year, 4)}-${pad(month)}-${pad(day)}`;
}

/** Whether a locale writes times on a twelve-hour clock, and its words for morning and afternoon. */
function clockOf(locale: string): { am: string; pm: string; h12: boolean } {
  let found = periods.get(locale);
  if (found === undefined) {
    const period = (hour: number) => {
      try {
        const format = new Intl.DateTimeFormat(locale, {
          hour: 'numeric',
          minute: '2-digit',
          timeZone: 'UTC',
          numberingSystem: 'latn',
        });
        const parts = format.formatToParts(Date.UTC(2026, 0, 1, hour));
        return {
          h12: format.resolvedOptions().hour12 === true,
          word: parts.find((p) => p.type === 'dayPeriod')?.value ?? '',
        };
      } catch {
        return { h12: false, word: '' };
      }
    };
    const morning = period(9);
    const afternoon = period(21);
    found = { h12: morning.h12, am: morning.word || 'AM', pm: afternoon.word || 'PM' };
    periods.set(locale, found);
  }
  return found;
}

/**
 * A wire time (`21:30:00`) as the locale's clock shows it: `21:30` in French, `9:30 PM` in US
 * English; seconds only when there are some.
 */
export function timeToText(value: Value | undefined, locale: string): string {
  if (typeof value !== 'string') return '';
  const match = /^(\d{2}):(\d{2})(?::(\d{2}))?(?:\.\d+)?$/.exec(value);
  if (match === null) return value;
  const [, h = '00', m = '00', s = '00'] = match;
  const seconds = s === '00' ? '' : `:${s}`;
  const clock = clockOf(locale);
  if (!clock.h12) return `${h}:${m}${seconds}`;
  const hour = Number(h);
  return `${hour % 12 === 0 ? 12 : hour % 12}:${m}${seconds} ${hour < 12 ? clock.am : clock.pm}`;
}

/**
 * A time typed on either clock as the wire's `HH:MM:SS`; `null` when empty. `9:30`, `09.30`,
 * `9h30`, `9:30 pm` and the locale's own words for morning and afternoon are read.
 *
 * @example timeFromText('9:30 PM', 'en-US') // '21:30:00'
 */
export function timeFromText(text: string, locale: string): string | null {
  const typed = latinDigits(text.replace(MARKS, '')).trim();
  if (typed === '') return null;
  const clock = clockOf(locale);
  const lower = typed.toLowerCase();
  const period = (word: string) => lower.includes(word.toLowerCase().replace(/\./g, ''));
  const bare = lower.replace(/\./g, '');
  const pm = /\bpm\b|p$/.test(bare) || (clock.pm !== '' && period(clock.pm.replace(/\./g, '')));
  const am = !pm && (/\bam\b|a$/.test(bare) || (clock.am !== '' && period(clock.am.replace(/\./g, ''))));
  const match = /(\d{1,2})\s*[:.hH]\s*(\d{2})(?:\s*[:.]\s*(\d{2}))?/.exec(typed);
  if (match === null) return text.trim();
  let hour = Number(match[1]);
  const minute = Number(match[2]);
  const second = Number(match[3] ?? '0');
  if (pm || am) {
    if (hour < 1 || hour > 12) return text.trim();
    hour = (hour % 12) + (pm ? 12 : 0);
  }
  if (hour > 23 || minute > 59 || second > 59) return text.trim();
  return `${pad(hour)}:${pad(minute)}:${pad(second)}`;
}

/**
 * An instant as the reader's wall clock writes it, in the locale's order: `25/12/2026 09:30`.
 *
 * @example dateTimeToText('2026-12-25T08:30:00.000Z', 'fr-FR') // '25/12/2026 09:30' in Paris
 */
export function dateTimeToText(value: Value | undefined, locale: string): string {
  if (typeof value !== 'string' || value === '') return '';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  const day = `${pad(date.getFullYear(), 4)}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
  const time = `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
  return `${dateToText(day, locale)} ${timeToText(time, locale)}`;
}

/**
 * A date and a time typed in the locale's order (the reader's wall clock) as an ISO instant in
 * UTC; `null` when empty. ISO's `2026-12-25T09:30` is read too.
 */
export function dateTimeFromText(text: string, locale: string): string | null {
  const typed = latinDigits(text.replace(MARKS, '')).trim();
  if (typed === '') return null;
  const split = /^(\S+?)(?:,?\s+|T)(.+)$/.exec(typed);
  if (split === null) return text.trim();
  const day = dateFromText(split[1] ?? '', locale);
  const time = timeFromText(split[2] ?? '', locale);
  const dayMatch = day === null ? null : /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  const timeMatch = time === null ? null : /^(\d{2}):(\d{2}):(\d{2})$/.exec(time);
  if (dayMatch === null || timeMatch === null) return text.trim();
  const [y, mo, d] = dayMatch.slice(1).map(Number);
  const [h, mi, s] = timeMatch.slice(1).map(Number);
  const date = new Date(y ?? 0, (mo ?? 1) - 1, d, h, mi, s);
  return Number.isNaN(date.getTime()) ? text.trim() : date.toISOString();
}
