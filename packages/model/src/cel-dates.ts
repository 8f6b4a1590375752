/**
 * Durations and `date` arithmetic in expressions (decision 0064), shared by the compiler (which
 * type-checks with these operators and reads duration literals) and the engine (which evaluates
 * with them and translates them to SQL), so that the browser, the server and the database agree.
 *
 * A `date` is zone-less `YYYY-MM-DD` text in CEL; these operators give it CEL's timestamp
 * arithmetic in whole days: `dueOn + duration('14d')`, `returnedOn - borrowedOn`.
 */
export const DAY_MS = 86_400_000;

/**
 * Duration literal units: CEL's own (`h`, `m`, `s`, `ms`) and `d`, a day of exactly 24 hours,
 * which CEL's standard lacks and people write. `us` and `ns` are refused: instants are kept to the
 * millisecond, so a finer duration would not mean the same in SQL.
 */
const UNIT_MS: Readonly<Record<string, number>> = { d: DAY_MS, h: 3_600_000, m: 60_000, s: 1000, ms: 1 };
const LITERAL = /^(-?)((?:\d+(?:\.\d+)?(?:d|h|ms|m|s))+)$/;
const PART = /(\d+(?:\.\d+)?)(d|h|ms|m|s)/g;

/** Why a duration literal is refused, or null with its length in milliseconds. */
export type DurationReading = { readonly ms: number } | { readonly problem: string };

/**
 * Reads a duration literal as people write it.
 *
 * @example readDuration('1h30m') // { ms: 5_400_000 }
 * @example readDuration('28d')   // { ms: 2_419_200_000 }
 */
export function readDuration(text: string): DurationReading {
  if (/(?:us|µs|ns)$|\d(?:us|µs|ns)/.test(text))
    return { problem: 'microseconds and nanoseconds are finer than an instant is kept (a millisecond)' };
  const match = LITERAL.exec(text);
  if (match === null) return { problem: 'it is not a number with a unit, like `24h`, `1h30m` or `28d`' };
  let ms = 0;
  for (const [, amount, unit] of match[2]!.matchAll(PART)) ms += Number(amount) * UNIT_MS[unit!]!;
  if (!Number.isInteger(ms)) return { problem: 'it is not a whole number of milliseconds' };
  // CEL's limit: about 10,000 years either way
  if (ms > 315_576_000_000_000) return { problem: 'it is longer than 10,000 years' };
  return { ms: match[1] === '-' ? -ms : ms };
}

/**
 * The standard CEL text of a duration literal: days become hours, so that any CEL reads it.
 *
 * @example standardDuration(2_419_200_000) // '2419200s' (28 days)
 */
export function standardDuration(ms: number): string {
  if (ms % 1000 === 0) return `${ms / 1000}s`;
  return `${ms}ms`;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Midnight UTC of a `YYYY-MM-DD` date in milliseconds; an error for any other text. */
export function dateMs(text: string): number {
  const match = DATE.exec(text);
  const ms = match === null ? Number.NaN : Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  if (Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== text || match![1] === '0000')
    throw new Error(`'${text}' is not a date (YYYY-MM-DD)`);
  return ms;
}

/** The `YYYY-MM-DD` date of midnight UTC `ms`; an error outside years 1 to 9999. */
export function dateText(ms: number): string {
  const iso = Number.isFinite(ms) ? new Date(ms).toISOString() : '';
  if (!/^\d{4}-/.test(iso) || iso.startsWith('0000')) throw new Error('the date is out of range');
  return iso.slice(0, 10);
}

/** The length of a CEL duration in milliseconds (`seconds` is a bigint, `nanos` a number). */
export function durationMs(duration: { readonly seconds: bigint; readonly nanos: number }): number {
  return Number(duration.seconds) * 1000 + duration.nanos / 1_000_000;
}

function shift(date: string, duration: { seconds: bigint; nanos: number }, sign: 1 | -1): string {
  const ms = durationMs(duration);
  if (ms % DAY_MS !== 0) throw new Error('a date moves by whole days');
  return dateText(dateMs(date) + sign * ms);
}

/** An operator overload as both the compiler and the engine register it. */
export interface CelOperator {
  readonly signature: string;
  readonly handler: (left: unknown, right: unknown) => unknown;
}

/**
 * `date + duration`, `date - duration` (whole days, else an error) and `date - date` (a duration).
 * `makeDuration` builds the CEL library's own duration from milliseconds.
 */
export function dateOperators(makeDuration: (ms: number) => unknown): readonly CelOperator[] {
  type D = { seconds: bigint; nanos: number };
  return [
    {
      signature: 'string + google.protobuf.Duration: string',
      handler: (date, d) => shift(date as string, d as D, 1),
    },
    {
      signature: 'string - google.protobuf.Duration: string',
      handler: (date, d) => shift(date as string, d as D, -1),
    },
    {
      signature: 'string - string: google.protobuf.Duration',
      handler: (a, b) => makeDuration(dateMs(a as string) - dateMs(b as string)),
    },
  ];
}
