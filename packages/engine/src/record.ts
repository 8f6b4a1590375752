/**
 * The shapes the engine works on: records and users as they travel in JSON.
 */
import { type Value } from '@ninefold/model';

/** A record as it travels in JSON: field name → wire value; absent, `undefined` and `null` mean "no value". */
export type WireRecord = Readonly<Record<string, Value | undefined>>;

/** The signed-in user, as the rules see them, with the names of their roles. */
export interface UserContext {
  readonly id: string;
  readonly roles: readonly string[];
  readonly [field: string]: Value | undefined;
}

/** The moment a request is decided at; `today` defaults to the UTC date of `now`. */
export interface Clock {
  readonly now: Date;
  readonly today?: string;
}

/** Whether a wire value counts as "no value". */
export function isAbsent(value: Value | undefined): value is null | undefined {
  return value === null || value === undefined;
}

const DAY_MS = 86_400_000;
/** The last day `utcDate` formatted (days since the epoch) and its text: requests ask all day long. */
let lastDay = Number.NaN;
let lastDate = '';

/**
 * The date of an instant in UTC, `YYYY-MM-DD`. The text of the last day asked for is kept, so that
 * the requests of one day format it once.
 *
 * @example utcDate(new Date('2026-11-23T18:00:00Z')) // '2026-11-23'
 */
export function utcDate(now: Date): string {
  const day = Math.floor(now.getTime() / DAY_MS);
  if (day === lastDay) return lastDate;
  // an invalid date throws here, as it always did (NaN never equals lastDay)
  const date = now.toISOString().slice(0, 10);
  lastDay = day;
  lastDate = date;
  return date;
}

/**
 * `record[key]` only when the record itself holds the key: names reach the engine from URLs and
 * sessions, and a plain lookup of `constructor` would find the object's prototype instead.
 *
 * @example lookup(model.entities, 'toString') // undefined
 */
export function lookup<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.prototype.hasOwnProperty.call(record, key) ? record[key] : undefined;
}
