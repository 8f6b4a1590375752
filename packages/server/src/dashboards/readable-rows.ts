/**
 * The rows of an entity a dashboard's viewer may read, as SQL: exactly the list's permission filter
 * (`toSqlFilter` of the viewer's read access, decision 0046), narrowed by a widget's fixed condition.
 */
import { type UserContext, accessFor, toSqlFilter } from '@ninefold/engine';
import { type Model, type Widget } from '@ninefold/model';
import { type RawBuilder, sql } from 'kysely';
import { type Database } from '../db/open.js';
import { type EntityTable, entityTable } from '../resources/records.js';
import { engineFilter } from '../resources/sql.js';

/** Who asks, and when. */
export interface Viewer {
  readonly user: UserContext;
  readonly now: Date;
}

/** The tables of a model's entities, made once per server. */
export type Tables = (entity: string) => EntityTable;

/**
 * The table of each entity of a model, made on first use.
 *
 * @example const tables = entityTables(model); tables('Claim').table // 'claims'
 */
export function entityTables(model: Model): Tables {
  const made = new Map<string, EntityTable>();
  return (name) => {
    let info = made.get(name);
    if (info === undefined) {
      info = entityTable(model, model.entities[name]!);
      made.set(name, info);
    }
    return info;
  };
}

/**
 * The conditions on the rows a viewer may read of an entity, with a fixed condition more; null when
 * they may read none.
 *
 * @example readableRows(model, 'Claim', viewer, 'sqlite', widget.where)
 */
export function readableRows(
  model: Model,
  entity: string,
  viewer: Viewer,
  dialect: Database['dialect'],
  where: Widget['where'] = null,
): RawBuilder<unknown> | null {
  const access = accessFor(model, viewer.user, 'read', entity);
  if (access === false) return null;
  const options = { user: viewer.user, now: viewer.now, dialect };
  const conditions = [sql`(${engineFilter(toSqlFilter(model, entity, access, options))})`];
  // the widget's condition only narrows what the permission allows, as a list screen's does
  if (where !== null)
    conditions.push(sql`(${engineFilter(toSqlFilter(model, entity, { any: [where] }, options))})`);
  return sql.join(conditions, sql` and `);
}
