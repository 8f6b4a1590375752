/**
 * One entity's resource as its route modules share it: the model, the database and the clock, the
 * entity's table and the path of its collection.
 */
import { type Entity, type Model } from '@ninefold/model';
import { type Database } from '../db/open.js';
import { type Env } from '../webhooks/resolve.js';
import { apiPath } from '../http/paths.js';
import { type Db, type EntityTable, entityTable } from './records.js';

/** What every resource is built from. */
export interface ResourceContext {
  readonly model: Model;
  readonly database: Database;
  readonly now: () => Date;
  /** The server's environment: the mail settings a new user's invitation is sent by. */
  readonly env?: Env;
}

/** One entity's resource. */
export interface EntityResource extends ResourceContext {
  readonly info: EntityTable;
  /** The entity's name. */
  readonly entity: string;
  /** The path of its collection (`resourcePath`). */
  readonly path: string;
  readonly db: Db;
}

/** The path of an entity's collection: the model's base path and the entity's resource. */
export function resourcePath(model: Model, entity: Entity): string {
  return apiPath(model, entity.resource);
}

/**
 * The resource of one entity.
 *
 * @example entityResource(context, model.entities['Claim']!).path // '/api/claims'
 */
export function entityResource(context: ResourceContext, entity: Entity): EntityResource {
  return {
    ...context,
    info: entityTable(context.model, entity),
    entity: entity.name,
    path: resourcePath(context.model, entity),
    db: context.database.db,
  };
}
