/**
 * One keyset page of a list: the rows after a cursor in the sort's order, and whether more follow.
 * A list and its CSV export read their rows through it.
 */
import { type Value } from '@ninefold/model';
import { type RawBuilder, sql } from 'kysely';
import { CompiledSql } from './compiled-sql.js';
import { type SortKey, orderBy } from './list-query.js';
import { columnSql, decodeRow } from './records.js';
import { type EntityResource } from './resource.js';

/** A page's SQL shape: a key naming its conditions' text and sort, and their parameters in order. */
export interface PageShape {
  readonly key: string;
  readonly parameters: readonly unknown[];
}

/** Reads one page (`pageReader`). */
export type PageReader = (
  conditions: readonly RawBuilder<unknown>[],
  after: RawBuilder<unknown> | null,
  sort: readonly SortKey[],
  limit: number,
  shape?: PageShape | null,
) => Promise<{ shown: Record<string, Value>[]; more: boolean }>;

/**
 * The page reader of one entity's resource. With a `shape`, the SELECT is compiled once per shape
 * (`CompiledSql`) and run with this request's values.
 *
 * @example const { shown, more } = await pageReader(resource)(conditions, null, sort, 50);
 */
export function pageReader(resource: EntityResource): PageReader {
  const { info } = resource;
  const pages = new CompiledSql();
  return async (conditions, after, sort, limit, shape = null) => {
    const compile = () => {
      const page = sql.join(after === null ? conditions : [...conditions, after], sql` and `);
      const table = sql.table(info.table);
      const dialect = resource.database.dialect;
      // each under its own name: a driver reading rows as objects keeps one value per name
      const columns = sql.join(
        info.columns.map((c) => sql`${sql.raw(columnSql(info, c, dialect, info.table))} as ${sql.ref(c)}`),
      );
      return sql`select ${columns} from ${table} where ${page}
        order by ${orderBy(sort)} limit ${limit + 1}`.compile(resource.db);
    };
    const query =
      shape === null ? compile() : pages.query(shape.key, [...shape.parameters, limit + 1], compile);
    const rows = await resource.database.selectValues(query.sql, query.parameters);
    const records = rows.map((row) => decodeRow(info, row));
    const more = records.length > limit;
    return { shown: more ? records.slice(0, limit) : records, more };
  };
}
