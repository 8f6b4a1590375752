/**
 * A widget's aggregates as figures on the wire (decision 0046): counts as numbers; sums, minima and
 * maxima of decimal and money fields as exact decimal strings (their columns hold minor units), of
 * integers as numbers; averages as decimal strings, rounded half away from zero to the field's
 * scale (two places for an integer). Null over no rows, as SQL says.
 */
import { type StoredField } from '@ninefold/engine';
import { type FigureValue, type WidgetMeasure, fromMinorUnits } from '@ninefold/model';

/** The digits after the point of an integer's average. */
export const INTEGER_AVERAGE_SCALE = 2;

/** What one SQL row of a widget holds for its measure: `n` the rows, `s` the sum or extreme, `c` the values. */
export interface Aggregates {
  /** `count(*)`. */
  readonly n: unknown;
  /** `sum`, `min` or `max` of the column; for `avg`, its sum. Absent for `count`. */
  readonly s?: unknown;
  /** `count(column)`: how many values an average divides by. Only for `avg`. */
  readonly c?: unknown;
}

/** A database integer (a number, a bigint, or PostgreSQL's text of one) as a bigint; null as null. */
function integerOf(raw: unknown): bigint | null {
  if (raw === null || raw === undefined) return null;
  if (typeof raw === 'bigint') return raw;
  if (typeof raw === 'number') return BigInt(Math.trunc(raw));
  return BigInt(String(raw as string).replace(/\.0*$/, ''));
}

/**
 * The figure of a measure over one group of rows (or all of them).
 *
 * @example figureValue({ kind: 'sum', field: 'amount' }, { type: 'money', many: false, scale: 2 }, { n: 3, s: 4250 }) // '42.50'
 */
export function figureValue(measure: WidgetMeasure, field: StoredField | null, row: Aggregates): FigureValue {
  if (measure.kind === 'count' || field === null) return Number(integerOf(row.n) ?? 0n);
  const total = integerOf(row.s);
  if (total === null) return null;
  const scale = field.type === 'integer' ? 0 : (field.scale ?? 2);
  if (measure.kind === 'avg') {
    const values = integerOf(row.c) ?? 0n;
    if (values === 0n) return null;
    const out = field.type === 'integer' ? INTEGER_AVERAGE_SCALE : scale;
    return fromMinorUnits(divideRounded(total * 10n ** BigInt(out - scale), values), out);
  }
  if (field.type === 'integer') return Number(total);
  return fromMinorUnits(total, scale);
}

/**
 * `a / b` rounded half away from zero, for b > 0.
 *
 * @example divideRounded(5n, 2n) // 3n; divideRounded(-5n, 2n) // -3n
 */
export function divideRounded(a: bigint, b: bigint): bigint {
  const negative = a < 0n;
  const magnitude = negative ? -a : a;
  const q = (magnitude * 2n + b) / (2n * b);
  return negative ? -q : q;
}
