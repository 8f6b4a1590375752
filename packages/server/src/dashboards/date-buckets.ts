/**
 * Date buckets of a dashboard widget grouped by a date or datetime (decision 0046): each row goes
 * to the first day of its day, ISO week (from Monday) or month, in UTC — a date column holds
 * `2026-11-26`, a datetime column UTC ISO text, so its first ten characters are its UTC day. The
 * bucket is computed in SQL on both dialects, and the buckets with no rows between the first and
 * the last are filled in (`fillBuckets`), so a line over time never skips a month silently.
 */
import { type DateBucket } from '@ninefold/model';
import { type RawBuilder, sql } from 'kysely';
import { type DialectName } from '../db/dialect.js';
import { serverWords } from '../http/server-words.js';

/** Beyond this many buckets between the first and the last, the empty ones are not filled in. */
export const MAX_FILLED_BUCKETS = 1000;

/**
 * The SQL of a row's bucket: the ISO date (`YYYY-MM-DD`) of its first day, as text.
 *
 * @example bucketSql('spentOn', 'month', 'sqlite') // strftime('%Y-%m-01', substr("spentOn", 1, 10))
 */
export function bucketSql(column: string, bucket: DateBucket, dialect: DialectName): RawBuilder<unknown> {
  const day = sql`substr(${sql.ref(column)}, 1, 10)`;
  if (bucket === 'day') return day;
  if (dialect === 'sqlite') {
    return bucket === 'month' ? sql`strftime('%Y-%m-01', ${day})` : sql`date(${day}, 'weekday 0', '-6 days')`;
  }
  const unit = sql.lit(bucket);
  return sql`to_char(date_trunc(${unit}, cast(${day} as date)), 'YYYY-MM-DD')`;
}

/** The first day of the bucket after `key`'s. */
export function nextBucket(key: string, bucket: DateBucket): string {
  const date = new Date(`${key}T00:00:00Z`);
  if (bucket === 'day') date.setUTCDate(date.getUTCDate() + 1);
  else if (bucket === 'week') date.setUTCDate(date.getUTCDate() + 7);
  else date.setUTCMonth(date.getUTCMonth() + 1);
  return date.toISOString().slice(0, 10);
}

/**
 * Every bucket from the first key to the last, in order: the keys given and the empty ones between
 * them (`empty(key)` makes those), or the keys as given when that would exceed `MAX_FILLED_BUCKETS`.
 * `keys` are ascending bucket keys.
 *
 * @example fillBuckets(['2026-01-01', '2026-03-01'], 'month', …) // Jan, Feb (empty), Mar
 */
export function fillBuckets<T>(
  present: readonly { key: string; item: T }[],
  bucket: DateBucket,
  empty: (key: string) => T,
): T[] {
  const first = present[0];
  const last = present.at(-1);
  if (first === undefined || last === undefined) return [];
  const byKey = new Map(present.map((p) => [p.key, p.item]));
  const out: T[] = [];
  for (let key = first.key; key <= last.key; key = nextBucket(key, bucket)) {
    if (out.length >= MAX_FILLED_BUCKETS) return present.map((p) => p.item);
    out.push(byKey.get(key) ?? empty(key));
  }
  return out;
}

/**
 * A bucket as a reader reads it, in their locale and UTC: `26 Nov 2026` for a day,
 * `Week of 23 Nov 2026` for a week, `November 2026` for a month (`novembre 2026` in `fr-FR`).
 *
 * @example bucketLabel('2026-11-01', 'month', 'en-GB') // 'November 2026'
 */
export function bucketLabel(key: string, bucket: DateBucket, locale: string): string {
  const date = new Date(`${key}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) return key;
  if (bucket === 'month') {
    return new Intl.DateTimeFormat(locale, { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(date);
  }
  const day = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' }).format(date);
  return bucket === 'week' ? serverWords(locale).weekOf(day) : day;
}
