/**
 * Reading one record by id for a route: the record of the `:id` parameter, or E_NOT_FOUND when no
 * row has it or the caller may not read it (the two are not told apart). A parameter that is not
 * id-shaped (`isRecordId`) is E_NOT_FOUND before any query.
 */
import { type Value } from '@ninefold/model';
import { type FastifyRequest } from 'fastify';
import { ApiError } from '../http/errors.js';
import { isRecordId } from '../ids.js';
import { type Caller, type Vars, activation, mayRead } from './caller.js';
import { decodeRow, selectColumns } from './records.js';
import { type EntityResource } from './resource.js';

/** A readable record with the activation that decided it, for `present` to reuse. */
export interface ReadRecord {
  readonly record: Record<string, Value>;
  readonly vars: Vars;
}

/** How a resource reads its records by id. */
export interface RecordReader {
  /** The record of `id`, read now; null when no row has it. */
  byId(id: string): Promise<Record<string, Value> | null>;
  /** The record of the request's `:id`, or E_NOT_FOUND when it is missing or the caller may not read it. */
  read(request: FastifyRequest, caller: Caller): Promise<ReadRecord>;
  /** A record found by id (null: none), or E_NOT_FOUND when the caller may not read it. */
  decide(record: Record<string, Value> | null, caller: Caller): ReadRecord;
  /** The answer for a record that is missing or not the caller's to read. */
  notFound(): ApiError;
  /** The request's `:id` parameter, or undefined when it has none or it is not id-shaped. */
  idOf(request: FastifyRequest): string | undefined;
}

/**
 * The record reader of one entity's resource; its SELECT by id is compiled once.
 *
 * @example const { record } = await recordReader(resource).read(request, caller);
 */
export function recordReader(resource: EntityResource): RecordReader {
  const { info } = resource;
  let byIdSql: string | null = null;
  const notFound = () => new ApiError('E_NOT_FOUND', { entity: info.entity.label });
  const reader: RecordReader = {
    async byId(id) {
      byIdSql ??= resource.db
        .selectFrom(info.table)
        .select(selectColumns(info, resource.database.dialect))
        .where('id', '=', '')
        .compile().sql;
      const [row] = await resource.database.selectValues(byIdSql, [id]);
      return row === undefined ? null : decodeRow(info, row);
    },
    async read(request, caller) {
      const id = reader.idOf(request);
      if (id === undefined) throw notFound();
      return reader.decide(await reader.byId(id), caller);
    },
    decide(record, caller) {
      if (record === null) throw notFound();
      const vars = activation(resource, record, caller);
      if (!mayRead(resource, record, caller, vars)) throw notFound();
      return { record, vars };
    },
    notFound,
    idOf(request) {
      const id = (request.params as { id?: unknown }).id;
      return typeof id === 'string' && isRecordId(id) ? id : undefined;
    },
  };
  return reader;
}
