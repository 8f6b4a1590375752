/**
 * The SQL of a file field (decision 0051), for sql.ts: its column holds the `FileInfo` as JSON text
 * (a JSON array of them when `many`), so `receipt.size`, `receipt.type`, `receipt.name` and
 * `receipt.id` read a member out of the JSON, and `size(photos)` counts the array. SQLite reads JSON
 * with `json_extract`, PostgreSQL with `->>` on the text cast to `jsonb`.
 *
 * A record without a file holds NULL, as CEL leaves its variable unbound: a member of it is NULL
 * here where CEL errors, so a comparison of it excludes the row, as an erroring permission denies.
 */
import { FILE_CEL_FIELDS, type Entity, type Field } from '@ninefold/model';
import { type Dialect } from './storage.js';

/** A member of a file as SQL reads it: its type decides how sql.ts compares it. */
export interface FileMemberSql {
  readonly sql: string;
  readonly type: 'int' | 'string';
}

/**
 * The file field an expression node names, `receipt` or `self.receipt`, or undefined.
 *
 * @example fileFieldNamed(claim, { op: 'id', args: 'receipt' }) // the field `receipt`
 */
export function fileFieldNamed(
  entity: Entity,
  node: { readonly op: string; readonly args: unknown },
): Field | undefined {
  const name =
    node.op === 'id' && typeof node.args === 'string'
      ? node.args
      : node.op === '.' &&
          Array.isArray(node.args) &&
          isSelf(node.args[0]) &&
          typeof node.args[1] === 'string'
        ? node.args[1]
        : undefined;
  const field = name === undefined || !Object.hasOwn(entity.fields, name) ? undefined : entity.fields[name];
  return field !== undefined && (field.type === 'file' || field.type === 'image') ? field : undefined;
}

function isSelf(node: unknown): boolean {
  const n = node as { op?: unknown; args?: unknown } | null;
  return n?.op === 'id' && n.args === 'self';
}

/**
 * One member of the file a column holds; undefined for a name a file does not have. The member is
 * one of four fixed names, never the spec's text, so it is written into the SQL as it is.
 *
 * @example fileMemberSql('"receipt"', 'size', 'sqlite') // { sql: 'json_extract("receipt", \'$.size\')', type: 'int' }
 * @example fileMemberSql('"receipt"', 'size', 'postgres') // { sql: 'CAST(CAST("receipt" AS JSONB) ->> \'size\' AS BIGINT)', type: 'int' }
 */
export function fileMemberSql(column: string, member: string, dialect: Dialect): FileMemberSql | undefined {
  if (!Object.hasOwn(FILE_CEL_FIELDS, member)) return undefined;
  const type = member === 'size' ? 'int' : 'string';
  if (dialect === 'sqlite') return { sql: `json_extract(${column}, '$.${member}')`, type };
  const text = `CAST(${column} AS JSONB) ->> '${member}'`;
  return { sql: type === 'int' ? `CAST(${text} AS BIGINT)` : `(${text})`, type };
}

/**
 * How many files a `many` column holds: `size(photos)`; NULL when it holds none at all.
 *
 * @example fileCountSql('"photos"', 'postgres') // 'jsonb_array_length(CAST("photos" AS JSONB))'
 */
export function fileCountSql(column: string, dialect: Dialect): string {
  return dialect === 'sqlite'
    ? `json_array_length(${column})`
    : `jsonb_array_length(CAST(${column} AS JSONB))`;
}
