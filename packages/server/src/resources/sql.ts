/**
 * SQL fragments the resources share: the engine's filters as Kysely SQL, columns as the engine
 * compares them (text `COLLATE "C"` in PostgreSQL, decision 0004), and LIKE patterns.
 */
import { type SqlFilter } from '@ninefold/engine';
import { type RawBuilder, sql } from 'kysely';
import { type DialectName } from '../db/dialect.js';

/**
 * An engine filter (`?` placeholders, values in order) as a Kysely fragment whose values stay bound
 * parameters. The engine's filters hold no string literals, so every `?` is a placeholder.
 *
 * @example sql`select * from claims where ${engineFilter(toSqlFilter(model, 'Claim', access, options))}`
 */
export function engineFilter(filter: SqlFilter): RawBuilder<unknown> {
  const pieces = filter.sql.split('?');
  if (pieces.length - 1 !== filter.params.length) {
    throw new Error(`The filter has ${pieces.length - 1} placeholders for ${filter.params.length} values.`);
  }
  const parts: RawBuilder<unknown>[] = [sql.raw(pieces[0] ?? '')];
  filter.params.forEach((value, i) => {
    parts.push(sql.val(value), sql.raw(pieces[i + 1] ?? ''));
  });
  return sql.join(parts, sql``);
}

/** A column for comparisons and ordering: text in code-point order in both databases. */
export function orderedColumn(column: string, text: boolean, dialect: DialectName): RawBuilder<unknown> {
  return text && dialect === 'postgres' ? sql`${sql.ref(column)} collate "C"` : sql`${sql.ref(column)}`;
}

/**
 * A LIKE pattern matching text that contains `value` literally (`%`, `_` and `\` escaped); use with
 * `escape '\'`.
 *
 * @example containsPattern('50%') // '%50\\%%'
 */
export function containsPattern(value: string): string {
  return `%${value.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** `lower(column) like lower(pattern) escape '\'`: case-insensitive for ASCII in both databases. */
export function likeInsensitive(column: string, pattern: string): RawBuilder<unknown> {
  return sql`lower(${sql.ref(column)}) like lower(${pattern}) escape '\\'`;
}

/** Whether text contains a needle exactly (case-sensitive): a list's JSON holding `"value"`. */
export function containsExactly(column: string, needle: string, dialect: DialectName): RawBuilder<unknown> {
  return dialect === 'sqlite'
    ? sql`instr(${sql.ref(column)}, ${needle}) > 0`
    : sql`strpos(${sql.ref(column)}, ${needle}) > 0`;
}
