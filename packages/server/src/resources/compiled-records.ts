/**
 * Record codecs compiled per table with `new Function`: the performance trick of a get by id, in
 * one place. Both are built from the table's column names, each written as a JSON string literal,
 * so no name is ever read as code.
 *
 * What they buy, measured (decision 0019; callgrind, instructions per request of a get by id):
 * - `rowDecoder`: a row decoded as one object literal, one hidden class per table, instead of a
 *   megamorphic store per column: 0.39 → 0.13 µs a row; with the smaller costs of its round,
 *   157.7k → 153.8k instructions per request.
 * - `recordSerializer`: a presented record written as JSON without `JSON.stringify`'s walk of its
 *   keys: 153.8k → 152.5k instructions per request (about 1 %). A Fastify response schema
 *   (fast-json-stringify) would compile the same kind of function per entity but drops or coerces
 *   what the schema does not say; it was not measured against this one (decision 0021).
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

/** Characters a JSON string must escape, and lone surrogates, which `JSON.stringify` escapes too. */
// eslint-disable-next-line no-control-regex -- the control characters are what must be escaped
const NEEDS_ESCAPE = /[\u0000-\u001f"\\\ud800-\udfff]/;

/** One value as `JSON.stringify` writes it: the common cases without a call into it. */
function jsonValue(value: unknown): string {
  if (typeof value === 'string') return NEEDS_ESCAPE.test(value) ? JSON.stringify(value) : `"${value}"`;
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (value === null) return 'null';
  return JSON.stringify(value);
}

/**
 * A function that writes a record as JSON, exactly as `JSON.stringify` does for a record whose keys
 * are among `keys`, in their order, with values of a record (text, numbers, booleans, null, lists
 * and JSON): a key whose value is undefined is left out, as `JSON.stringify` leaves it out. Built as
 * one function per list of keys, which reads each key by its name: a get by id writes its record
 * at every request, and `JSON.stringify` walks the object's keys and checks each value's kind.
 * Like `rowDecoder`, each name is written as a JSON string, never read as code.
 *
 * @example recordSerializer(['id', 'title'])({ id: 'c1', title: null }) // '{"id":"c1","title":null}'
 */
export function recordSerializer(
  keys: readonly string[],
): (record: Readonly<Record<string, unknown>>) => string {
  const parts = keys.map((key) => {
    const name = JSON.stringify(key);
    return `x = r[${name}]; if (x !== undefined) out += ${JSON.stringify(`,${name}:`)} + v(x);`;
  });
  const write = new Function(
    'r',
    'v',
    `let out = ''; let x; ${parts.join(' ')} return out === '' ? '{}' : '{' + out.slice(1) + '}';`,
  ) as (record: Readonly<Record<string, unknown>>, value: (value: unknown) => string) => string;
  return (record) => write(record, jsonValue);
}
