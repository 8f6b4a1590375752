/**
 * The REST resources of a model (DESIGN.md, "HTTP API conventions"): for every entity, the routes
 * below, each in a module of its own. Every rule is decided by the engine; reads are filtered in
 * SQL; every write and its history entry share one transaction.
 */
import { REFERENCES_PATH } from '@ninefold/model';
import { type FastifyInstance } from 'fastify';
import { callers } from './caller.js';
import { getRoute } from './get.js';
import { historyRoute } from './history.js';
import { listRoute } from './list.js';
import { recordReader } from './record-read.js';
import { referencesRoute } from './references.js';
import { type ResourceContext, entityResource } from './resource.js';
import { writeRoutes } from './writes.js';

export { resourcePath, type ResourceContext } from './resource.js';

/**
 * Registers the routes of every entity.
 *
 * @example registerResources(app, { model, database, now: () => new Date() });
 */
export function registerResources(app: FastifyInstance, context: ResourceContext): void {
  for (const entity of Object.values(context.model.entities)) {
    const resource = entityResource(context, entity);
    const caller = callers(resource);
    const reader = recordReader(resource);
    const writes = writeRoutes(resource, caller, reader);
    const { path } = resource;

    app.get(path, listRoute(resource, caller)); // list.ts (and csv-export.ts)
    app.post(path, writes.create); // writes.ts
    app.get(`${path}/:id`, getRoute(resource, caller, reader)); // get.ts
    app.patch(`${path}/:id`, writes.update);
    app.delete(`${path}/:id`, writes.remove);
    app.get(`${path}/:id/history`, historyRoute(resource, caller, reader)); // history.ts
    app.get(`${path}/:id/${REFERENCES_PATH}`, referencesRoute(resource, caller, reader)); // references.ts
    for (const name of Object.keys(context.model.states[entity.name]?.transitions ?? {})) {
      app.post(`${path}/:id/transitions/${name}`, writes.transition(name));
    }
  }
}
