/**
 * The SQL that reads a list of refs from its join table (decision 0044): the ids of one holder, in
 * order, as JSON text — the form a `many` column held before, so one decoder reads both.
 */
import { JOIN_COLUMNS } from '@ninefold/engine';
import { type DialectName } from '../db/dialect.js';

function quote(id: string): string {
  return `"${id.replace(/"/g, '""')}"`;
}

/**
 * A scalar subquery: the holder's ids in list order as a JSON array, or NULL when it lists none.
 * One per row of a page, served by the join table's key (holder, target): measured against a second
 * query keyed by the page's ids in decision 0044.
 *
 * @example listAggregate('projects__members', '"projects"."id"', 'postgres')
 * // '(SELECT CAST(json_agg("target" ORDER BY "position") AS TEXT) FROM "projects__members" WHERE …)'
 */
export function listAggregate(table: string, holderId: string, dialect: DialectName): string {
  const t = quote(table);
  const target = quote(JOIN_COLUMNS.target);
  const order = `ORDER BY ${quote(JOIN_COLUMNS.position)}`;
  const where = `FROM ${t} WHERE ${t}.${quote(JOIN_COLUMNS.holder)} = ${holderId}`;
  return dialect === 'postgres'
    ? `(SELECT CAST(json_agg(${target} ${order}) AS TEXT) ${where})`
    : `(SELECT NULLIF(json_group_array(${target} ${order}), '[]') ${where})`;
}
