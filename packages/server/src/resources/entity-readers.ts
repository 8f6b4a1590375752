/**
 * What reading one record of an entity takes, outside the records' own routes: its resource, its
 * callers (who is asking, as a read condition sees them) and its record reader, built once per
 * entity and kept. The file download (`files/read-access.ts`) and the events stream
 * (`events/access.ts`) decide a read of one record with them, as the record's own GET does.
 */
import { type Callers, callers } from './caller.js';
import { type RecordReader, recordReader } from './record-read.js';
import { type EntityResource, type ResourceContext, entityResource } from './resource.js';

/** The pieces that read one entity's records. */
export interface EntityReader {
  readonly resource: EntityResource;
  readonly callers: Callers;
  readonly reader: RecordReader;
}

/**
 * The readers of a context's entities, each made when first asked for; null for a name the model
 * has no entity of (a file or an event an older spec wrote).
 *
 * @example const readers = entityReaders(context); const claim = readers('Claim');
 */
export function entityReaders(context: ResourceContext): (entityName: string) => EntityReader | null {
  const made = new Map<string, EntityReader>();
  return (entityName) => {
    const known = made.get(entityName);
    if (known !== undefined) return known;
    const model = context.model;
    const entity = Object.hasOwn(model.entities, entityName) ? model.entities[entityName] : undefined;
    if (entity === undefined) return null;
    const resource = entityResource(context, entity);
    const reader = { resource, callers: callers(resource), reader: recordReader(resource) };
    made.set(entityName, reader);
    return reader;
  };
}
