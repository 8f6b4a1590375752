/** `GET /api/<resource>/<id>`: one record as its reader may see it, with its `etag`. */
import { type Value } from '@ninefold/model';
import { type FastifyReply, type FastifyRequest } from 'fastify';
import { type Callers } from './caller.js';
import { etag, present } from './present.js';
import { type RecordReader } from './record-read.js';
import { type EntityResource } from './resource.js';

/**
 * The get route's handler of one entity's resource.
 *
 * @example app.get(`${resource.path}/:id`, getRoute(resource, callers, reader));
 */
export function getRoute(resource: EntityResource, callers: Callers, reader: RecordReader) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<Record<string, Value>> => {
    const caller = callers.of(request);
    const { record, vars } = await reader.read(request, caller);
    reply.header('etag', etag(record));
    return present(resource, record, caller, vars, true);
  };
}
