/**
 * `GET /api/<resource>`: a keyset page of the records the caller may read, narrowed by the query's
 * filters and the screen's condition, in the sort asked for (or the whole list as CSV).
 */
import { toSqlFilter } from '@ninefold/engine';
import { type Value } from '@ninefold/model';
import { type FastifyReply, type FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { ApiError } from '../http/errors.js';
import { listTableOf } from '../schema/names.js';
import { type Callers } from './caller.js';
import { exportCsv } from './csv-export.js';
import { pageReader } from './list-page.js';
import { encodeCursor, parseListQuery, sortSignature } from './list-query.js';
import { present } from './present.js';
import { type EntityResource } from './resource.js';
import { engineFilter } from './sql.js';

/**
 * The list route's handler of one entity's resource.
 *
 * @example app.get(resource.path, listRoute(resource, callers(resource)));
 */
export function listRoute(resource: EntityResource, callers: Callers) {
  const { model, entity, info } = resource;
  const page = pageReader(resource);
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const caller = callers.of(request);
    const access = caller.read;
    if (access === false) throw new ApiError('E_FORBIDDEN');
    const dialect = resource.database.dialect;
    const query = parseListQuery(model, info, request.query as Record<string, unknown>, caller.user, dialect);
    // lists of refs are their join tables (decision 0044)
    const options = { user: caller.user, now: caller.now, dialect, listTable: listTableOf(model) };
    const permission = toSqlFilter(model, entity, access, options);
    const conditions = [sql`(${engineFilter(permission)})`, ...query.conditions];
    const fixed = query.screen?.where ?? null;
    if (fixed !== null) {
      // a screen's condition is a view, never a grant: it only narrows what the permission allows
      const view = { any: [fixed] };
      const filter = toSqlFilter(model, entity, view, options);
      conditions.push(sql`(${engineFilter(filter)})`);
    }
    if (query.format !== 'json')
      return exportCsv(resource, page, reply, caller, conditions, query.sort, query.format === 'csv-raw');

    // a page of the permission alone (no filter or screen; after a cursor or not) has one text per
    // permission filter, sort and cursor shape
    const after = query.after;
    const shape =
      query.conditions.length === 0 && fixed === null
        ? {
            key: `${permission.sql}\u0000${sortSignature(query.sort)}\u0000${after?.shape ?? ''}`,
            parameters: [...permission.params, ...(after?.parameters ?? [])],
          }
        : null;
    const { shown, more } = await page(conditions, after?.condition ?? null, query.sort, query.limit, shape);
    const last = shown.at(-1);
    const body: { data: Record<string, Value>[]; nextCursor: string | null; total?: number } = {
      data: shown.map((record) => present(resource, record, caller)),
      nextCursor: more && last !== undefined ? encodeCursor(query.sort, last) : null,
    };
    if (query.total) {
      const where = sql.join(conditions, sql` and `);
      const counted = await sql<{
        n: unknown;
      }>`select count(*) as n from ${sql.table(info.table)} where ${where}`.execute(resource.db);
      body.total = Number(counted.rows[0]?.n ?? 0);
    }
    return body;
  };
}
