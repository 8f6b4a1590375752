/**
 * `GET /api/<resource>/<id>/references` (decision 0043): the records that refer to one record,
 * counted by entity and ref field, and whether a delete would be refused by a `restrict` ref —
 * asked by the app before it offers a delete. E_NOT_FOUND unless the caller may read the record.
 * Counts take in every referring record, readable or not: a delete is refused by all of them.
 */
import { type ReferencesAnswer } from '@ninefold/model';
import { type FastifyRequest } from 'fastify';
import { type Callers } from './caller.js';
import { planDelete } from './delete-plan.js';
import { type RecordReader } from './record-read.js';
import { type EntityResource } from './resource.js';

/**
 * The references route's handler of one entity's resource.
 *
 * @example app.get(`${resource.path}/:id/references`, referencesRoute(resource, callers, reader));
 */
export function referencesRoute(resource: EntityResource, callers: Callers, reader: RecordReader) {
  const { model, entity } = resource;
  return async (request: FastifyRequest): Promise<ReferencesAnswer> => {
    const caller = callers.of(request);
    const { record } = await reader.read(request, caller);
    const plan = await planDelete(
      resource.db,
      model,
      { entity, record },
      { user: caller.user, now: caller.now, checkPermissions: false, dialect: resource.database.dialect },
    );
    return { data: plan.direct, deletable: plan.blocking === null };
  };
}
