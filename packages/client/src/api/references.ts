/**
 * What refers to a record (`GET <resource>/<id>/references`, decision 0043): asked when a delete
 * is about to be offered, so that a refusal or what else goes with the record is said before the
 * user confirms. Read afresh each time it is asked: children change without the parent.
 */
import {
  type Entity,
  type Model,
  type ReferenceCount,
  type ReferencesAnswer,
  REFERENCES_PATH,
} from '@ninefold/model';
import { useQuery } from '@tanstack/react-query';
import { useRuntime } from '../runtime/runtime';

/**
 * The references of a record, while `enabled`.
 *
 * @example const references = useReferences(entity, record.id, opened);
 */
export function useReferences(entity: Entity, id: string, enabled: boolean) {
  const { http } = useRuntime();
  return useQuery({
    queryKey: ['records', entity.name, 'references', id] as const,
    queryFn: ({ signal }) =>
      http.get<ReferencesAnswer>(`${entity.resource}/${encodeURIComponent(id)}/${REFERENCES_PATH}`, {
        signal,
      }),
    enabled,
    staleTime: 0,
    gcTime: 0,
  });
}

/** `4 products` / `1 product`: a count of an entity's records in words. */
function counted(model: Model, reference: ReferenceCount): string {
  const entity = model.entities[reference.entity];
  const noun =
    reference.count === 1 ? (entity?.label ?? reference.entity) : (entity?.pluralLabel ?? reference.entity);
  return `${reference.count} ${noun.toLowerCase()}`;
}

/** What a delete would do, in sentences: why it is refused, or what goes and changes with it. */
export interface DeleteConsequences {
  /** Why the delete would be refused (a `restrict` ref that holds), or null. */
  readonly refusal: string | null;
  /** What else the delete does: the records `cascade` deletes, the refs `setNull` empties. */
  readonly also: readonly string[];
}

/**
 * The sentences of a references answer, about a record of `entity`.
 *
 * @example deleteConsequences(model, category, answer).refusal // '4 products are in this category (through “Category”). …'
 */
export function deleteConsequences(
  model: Model,
  entity: Entity,
  answer: ReferencesAnswer,
): DeleteConsequences {
  const held = answer.data.filter((r) => r.count > 0);
  const blocking = held.find((r) => r.onDelete === 'restrict');
  const fieldLabel = (r: ReferenceCount) => model.entities[r.entity]?.fields[r.field]?.label ?? r.field;
  const refusal =
    blocking === undefined
      ? answer.deletable
        ? null
        : 'Records deleted with it are still referred to elsewhere: delete or change those first.'
      : `${capitalized(counted(model, blocking))} ${blocking.count === 1 ? 'is' : 'are'} in this ${entity.label.toLowerCase()} (through “${fieldLabel(blocking)}”). Delete or change ${blocking.count === 1 ? 'it' : 'them'} first.`;
  const also = held.flatMap((r) => {
    if (r.onDelete === 'cascade') return [`This also deletes ${counted(model, r)}.`];
    if (r.onDelete === 'setNull')
      return [`${capitalized(counted(model, r))} will lose their “${fieldLabel(r)}”.`];
    return [];
  });
  return { refusal, also };
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
