/**
 * Which refs point at an entity (decision 0043): every field of every entity whose `to` is it, with
 * what deleting one of its records does through that field. The server's delete acts on each; the
 * references endpoint counts them; the app reads the same list.
 */
import { type Model, type OnDelete } from '@ninefold/model';

/** One ref field that points at an entity. */
export interface RefPointer {
  /** The referring entity. */
  readonly entity: string;
  /** Its ref field. */
  readonly field: string;
  /** A list of refs (`many: true`) rather than one. */
  readonly many: boolean;
  readonly onDelete: OnDelete;
}

/**
 * The ref fields of the model that point at `entity`, in the model's order (entities, then fields);
 * a self-reference included.
 *
 * @example refsTo(model, 'Category') // [{ entity: 'Product', field: 'category', many: false, onDelete: 'restrict' }]
 */
export function refsTo(model: Model, entity: string): readonly RefPointer[] {
  const pointers: RefPointer[] = [];
  for (const referring of Object.values(model.entities)) {
    for (const field of Object.values(referring.fields)) {
      if (field.type !== 'ref' || field.to !== entity) continue;
      pointers.push({
        entity: referring.name,
        field: field.name,
        many: field.many,
        onDelete: field.onDelete ?? 'restrict',
      });
    }
  }
  return pointers;
}
