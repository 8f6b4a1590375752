/**
 * Durations and time arithmetic as SQL, for sql.ts (decision 0064): `dueAt - now < duration('24h')`,
 * `at + duration('1h') > now`, `d + duration('14d')`, `d - today`. CEL's answers, in both dialects.
 *
 * Stored instants are ISO text and compare as text; once arithmetic touches one, it becomes a number
 * of milliseconds since 1970 (`instant`), as a JavaScript date is, and a duration is milliseconds too.
 * A date (`YYYY-MM-DD` text) becomes the milliseconds of its midnight UTC; a date moved by a duration
 * is a date again, and NULL (CEL's error) when the duration is not whole days or the date leaves
 * years 1 to 9999. Text that is not a date takes no part here (it throws): the compiler refuses it (NF333).
 */
import { DAY_MS, dateMs, durationMs } from '@ninefold/model';
import { type Dialect } from './storage.js';

type TimeType = 'timestamp' | 'instant' | 'duration' | 'string' | 'bool' | 'null';

/** The parts of sql.ts's fragment that time arithmetic reads and makes. */
export interface TimeFrag {
  readonly sql: string;
  readonly params: readonly unknown[];
  readonly type: string;
  readonly folded?: { readonly value: unknown };
  readonly date?: boolean;
}

interface Made {
  readonly sql: string;
  readonly params: readonly unknown[];
  readonly type: TimeType;
  readonly date?: boolean;
}

const FIRST_DAY = Date.parse('0001-01-01T00:00:00.000Z');
const LAST_DAY = Date.parse('9999-12-31T00:00:00.000Z');
const LAST_INSTANT = Date.parse('9999-12-31T23:59:59.999Z');

/** Whether a value is a CEL duration (the library's class is not exported: its shape is). */
export function isDuration(value: unknown): value is { seconds: bigint; nanos: number } {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { seconds?: unknown }).seconds === 'bigint' &&
    typeof (value as { nanos?: unknown }).nanos === 'number'
  );
}

/** A number of milliseconds as SQL: a literal when whole, a parameter otherwise. */
function millis(ms: number, type: TimeType, dialect: Dialect): Made {
  if (Number.isSafeInteger(ms)) return { sql: ms < 0 ? `(${ms})` : `${ms}`, params: [], type };
  return { sql: dialect === 'postgres' ? 'CAST(? AS DOUBLE PRECISION)' : '?', params: [ms], type };
}

/**
 * A duration known now, or an instant outside years 1 to 9999 (whose ISO text would not order
 * as text): as milliseconds. Null for an instant that is ordinary text, which sql.ts binds as such.
 */
export function timeValue(value: Date | { seconds: bigint; nanos: number }, dialect: Dialect): Made | null {
  if (!(value instanceof Date)) return millis(durationMs(value), 'duration', dialect);
  const ms = value.getTime();
  if (Number.isNaN(ms)) return { sql: 'NULL', params: [], type: 'null' };
  return ms < FIRST_DAY || ms > LAST_INSTANT ? millis(ms, 'instant', dialect) : null;
}

/** `op` is SQL's (`=`, `<>`, `<`…). Null when neither side is a duration or an instant in milliseconds. */
export function timeComparison(op: string, l: TimeFrag, r: TimeFrag, dialect: Dialect): Made | null {
  const instants = isInstant(l) && isInstant(r) && (l.type === 'instant' || r.type === 'instant');
  const durations = l.type === 'duration' && r.type === 'duration';
  if (!instants && !durations) return null;
  const a = durations ? l : instantMs(l, dialect);
  const b = durations ? r : instantMs(r, dialect);
  return join(['(', a, ` ${op} `, b, ')'], 'bool');
}

/**
 * `+` or `-` over instants, durations and dates, or null when neither operand is one of them.
 * A result of type `null` is CEL's error known now (a text that is not a date). `duration + instant`
 * is not here: the CEL library types it as a duration, so the compiler refuses its use (NF403);
 * the instant is written first, `at + duration('1h')`.
 */
export function timeArithmetic(op: string, a: TimeFrag, b: TimeFrag, dialect: Dialect): Made | null {
  if (op !== '+' && op !== '-') return null;
  if (isInstant(a) && b.type === 'duration')
    return join(['(', instantMs(a, dialect), ` ${op} `, b, ')'], 'instant');
  if (op === '-' && isInstant(a) && isInstant(b))
    return join(['(', instantMs(a, dialect), ' - ', instantMs(b, dialect), ')'], 'duration');
  if (a.type === 'duration' && b.type === 'duration') return join(['(', a, ` ${op} `, b, ')'], 'duration');
  if (a.type === 'string' && b.type === 'duration') {
    const day = dayMs(a, dialect);
    if (day === null) return { sql: 'NULL', params: [], type: 'null' };
    return dateOf(join(['(', day, ` ${op} `, b, ')'], 'duration'), dialect);
  }
  if (op === '-' && a.type === 'string' && b.type === 'string') {
    const [x, y] = [dayMs(a, dialect), dayMs(b, dialect)];
    if (x === null || y === null) return { sql: 'NULL', params: [], type: 'null' };
    return join(['(', x, ' - ', y, ')'], 'duration');
  }
  return null;
}

function isInstant(f: TimeFrag): boolean {
  return f.type === 'timestamp' || f.type === 'instant';
}

/** An instant as milliseconds since 1970: stored ISO text is read by the database's own clock functions. */
function instantMs(f: TimeFrag, dialect: Dialect): TimeFrag {
  if (f.type === 'instant') return f;
  const value = f.folded?.value;
  if (value instanceof Date) return millis(value.getTime(), 'instant', dialect);
  const sql =
    dialect === 'postgres'
      ? `CAST(ROUND(EXTRACT(EPOCH FROM CAST(${f.sql} AS TIMESTAMPTZ)) * 1000) AS BIGINT)`
      : `CAST(ROUND((julianday(${f.sql}) - 2440587.5) * 86400000.0) AS INTEGER)`;
  return { sql, params: f.params, type: 'instant' };
}

/** A date's midnight UTC in milliseconds; null for text known now that is not a date. */
function dayMs(f: TimeFrag, dialect: Dialect): TimeFrag | null {
  const value = f.folded?.value;
  if (f.folded !== undefined && value === null) return null;
  if (typeof value === 'string') {
    try {
      return millis(dateMs(value), 'duration', dialect);
    } catch {
      return null;
    }
  }
  if (f.date !== true) throw new Error('date arithmetic needs a date field or a date written out');
  const sql =
    dialect === 'postgres'
      ? `((CAST(${f.sql} AS DATE) - DATE '1970-01-01') * CAST(${DAY_MS} AS BIGINT))`
      : `CAST(ROUND((julianday(${f.sql}) - 2440587.5) * 86400000.0) AS INTEGER)`;
  return { sql, params: f.params, type: 'duration' };
}

/** The date at a number of milliseconds: NULL unless it is a whole day within years 1 to 9999. */
function dateOf(ms: Made, dialect: Dialect): Made {
  const text =
    dialect === 'postgres'
      ? ["to_char(DATE '1970-01-01' + CAST(", ms, ` / ${DAY_MS} AS INTEGER), 'YYYY-MM-DD')`]
      : ["strftime('%Y-%m-%d', ", ms, " / 1000, 'unixepoch')"];
  const made = join(
    [
      '(CASE WHEN ',
      ms,
      ` % ${DAY_MS} = 0 AND `,
      ms,
      ` BETWEEN (${FIRST_DAY}) AND ${LAST_DAY} THEN `,
      ...text,
      ' END)',
    ],
    'string',
  );
  return { ...made, date: true };
}

function join(parts: readonly (string | TimeFrag)[], type: TimeType): Made {
  let sql = '';
  const params: unknown[] = [];
  for (const p of parts) {
    if (typeof p === 'string') sql += p;
    else {
      sql += p.sql;
      params.push(...p.params);
    }
  }
  return { sql, params, type };
}
