/**
 * A create form opened from a parent's page (`/comments/new?ticket=<id>`, decision 0047): the
 * parent's ref set in the new record, and the parent's page to come back to once it is saved. The
 * server still checks the ref like any other value.
 */
import { type Entity, type Model, type Value } from '@ninefold/model';
import { detailPath } from '../../runtime/paths';

export interface PresetParents {
  /** The refs named in the address, as the form's first values. */
  readonly values: Readonly<Record<string, Value>>;
  /** The page of the first parent named, or null. */
  readonly returnTo: string | null;
}

/**
 * The entity's ref fields named in the address's query, with their ids (a list of one for a
 * `many` ref); anything else in the query is left alone.
 *
 * @example presetParents(model, comment, new URLSearchParams('ticket=t1'))
 * // { values: { ticket: 't1' }, returnTo: '/tickets/t1' }
 */
export function presetParents(model: Model, entity: Entity, search: URLSearchParams): PresetParents {
  const values: Record<string, Value> = {};
  let returnTo: string | null = null;
  for (const [name, id] of search) {
    const field = Object.prototype.hasOwnProperty.call(entity.fields, name) ? entity.fields[name] : undefined;
    if (field === undefined || field.type !== 'ref' || field.to === null || id === '') continue;
    if (values[name] !== undefined) continue;
    values[name] = field.many ? [id] : id;
    returnTo ??= detailPath(model, field.to, id);
  }
  return { values, returnTo };
}
