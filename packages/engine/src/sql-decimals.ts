/**
 * A decimal or money column compared with a number known now, for sql.ts: in the column's exact
 * minor units rather than as a double, so an index serves it and the answer is the one CEL gives on
 * the double (decision 0006).
 */
import { fromMinorUnits } from '@ninefold/model';

/** Beyond any stored minor-unit value (precision ≤ 15 digits). */
const UNITS_LIMIT = 10n ** 15n + 1n;

/** A condition on the column, without parameters. */
export interface BoolSql {
  readonly sql: string;
  readonly params: readonly unknown[];
  readonly type: 'bool';
}

/**
 * A decimal column against a number known now, in exact minor units: the doubles of m / 10^scale
 * increase strictly with m, so `amount > v` is `units >= g` for the least g whose double exceeds v.
 *
 * @example compareUnits('>', { column: '"amount"', scale: 2 }, 10) // { sql: '("amount" >= 1001)', … }
 */
export function compareUnits(op: string, d: { column: string; scale: number }, v: number): BoolSql {
  const col = d.column;
  const nullTrue = { sql: `(${col} = ${col})`, params: [], type: 'bool' as const };
  const nullFalse = { sql: `(${col} <> ${col})`, params: [], type: 'bool' as const };
  if (Number.isNaN(v)) return op === '!=' ? nullTrue : nullFalse;
  const ge = leastUnits(d.scale, (x) => x >= v); // least units whose value is ≥ v
  const gt = leastUnits(d.scale, (x) => x > v); // least units whose value is > v
  const at = (cmp: string, units: bigint) => ({
    sql: `(${col} ${cmp} ${units < 0n ? `(${units})` : units})`,
    params: [],
    type: 'bool' as const,
  });
  switch (op) {
    case '>=':
      return at('>=', ge);
    case '>':
      return at('>=', gt);
    case '<':
      return at('<', ge);
    case '<=':
      return at('<', gt);
    case '==':
      return ge < gt ? at('=', ge) : nullFalse;
    default:
      return ge < gt ? at('<>', ge) : nullTrue;
  }
}

/** The least minor-unit count m (clamped beyond stored values) for which pred(m / 10^scale as a double) holds. */
function leastUnits(scale: number, pred: (x: number) => boolean): bigint {
  const value = (m: bigint) => Number(fromMinorUnits(m, scale));
  const limit = UNITS_LIMIT;
  if (pred(value(-limit))) return -limit;
  if (!pred(value(limit))) return limit;
  let lo = -limit; // pred false
  let hi = limit; // pred true
  while (hi - lo > 1n) {
    const mid = (lo + hi) / 2n;
    if (pred(value(mid))) hi = mid;
    else lo = mid;
  }
  return hi;
}
