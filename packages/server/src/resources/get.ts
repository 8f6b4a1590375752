/**
 * `GET /api/<resource>/<id>`: one record as its reader may see it, with its `etag`, written as JSON
 * by the entity's own serializer.
 */
import { type FastifyReply, type FastifyRequest } from 'fastify';
import { type Callers, type Caller } from './caller.js';
import { etag, present } from './present.js';
import { type ReadRecord, type RecordReader } from './record-read.js';
import { recordSerializer } from './compiled-records.js';
import { ACTIONS_KEY, type EntityResource } from './resource.js';

/** What Fastify says of the JSON it writes itself: a record written by its serializer says the same. */
const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/**
 * The get route's handler of one entity's resource.
 *
 * @example app.get(`${resource.path}/:id`, getRoute(resource, callers, reader));
 */
export function getRoute(resource: EntityResource, callers: Callers, reader: RecordReader) {
  /** A presented record (its columns in order, some left out by a mask, then `_actions`) as JSON. */
  const serialize = recordSerializer([...resource.info.columns, ACTIONS_KEY]);
  const shown = (reply: FastifyReply, caller: Caller, { record, vars }: ReadRecord): string => {
    const presented = present(resource, record, caller, vars, true);
    reply.header('etag', etag(record)).header('content-type', JSON_CONTENT_TYPE);
    return serialize(presented);
  };
  return async (request: FastifyRequest, reply: FastifyReply): Promise<string> => {
    const caller = callers.of(request);
    return shown(reply, caller, await reader.read(request, caller));
  };
}
