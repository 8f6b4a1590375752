/**
 * The row decoder compiled per table with `new Function`: the one compiled-code trick of the
 * request path. It is built from the table's column names, each written as a JSON string literal,
 * so no name is ever read as code.
 *
 * What it buys, measured (decision 0019): a row decoded as one object literal, one hidden class per
 * table, instead of a megamorphic store per column: 0.39 → 0.13 µs a row, so about 13 µs of a list
 * page of 50 rows (some 4 % of its CPU time) and a little of every get by id. The record serializer
 * compiled beside it went in decision 0021: on Node 20 it wrote a record no faster than
 * `JSON.stringify` (nor did fast-json-stringify), so Fastify's own serialization writes records.
 */
import { type ValueDecoder } from '@ninefold/engine';
import { type Value } from '@ninefold/model';

/**
 * A function that decodes a row into a record of these columns, built as one object literal: the
 * record gets its keys in one go, with one hidden class per table, where setting them one by one
 * under variable names costs a megamorphic store each (a get by id decodes a row at every request).
 * The names are the table's columns (the system fields and the spec's camelCase field names); each
 * is written as a JSON string, so no name is ever read as code.
 *
 * @example rowDecoder([['id', decodeText]])(['c1'], 0) // { id: 'c1' }
 */
export function rowDecoder(
  decoders: readonly (readonly [string, ValueDecoder])[],
): (row: readonly unknown[], offset: number) => Record<string, Value> {
  const fields = decoders.map(([name], i) => `${JSON.stringify(name)}: d[${i}](row[offset + ${i}])`);
  const build = new Function('d', 'row', 'offset', `return { ${fields.join(', ')} };`) as (
    d: readonly ValueDecoder[],
    row: readonly unknown[],
    offset: number,
  ) => Record<string, Value>;
  const functions = decoders.map(([, decode]) => decode);
  return (row, offset) => build(functions, row, offset);
}
