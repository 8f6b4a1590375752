/**
 * What an upload may be (decision 0050): a signed-in user may upload only what some file field
 * they may write would hold. Aimed at a field (`?entity=Claim&field=receipt`), that field's
 * `maxSize` and `accept` decide; aimed at none, the largest `maxSize` and every `accept` among the
 * file fields the user may write when creating or changing a record. Decided from the roles alone,
 * before a byte of the body is read.
 */
import { grantedFields, type UserContext } from '@ninefold/engine';
import { type Entity, type Field, type Model } from '@ninefold/model';
import { ApiError } from '../http/errors.js';

/** The bounds of one upload. */
export interface UploadScope {
  /** The most bytes the file may have. */
  readonly limit: number;
  /** The media types it may be; null for any. */
  readonly accept: readonly string[] | null;
  /** What the refusal of a type names: the field's label, or the labels of every writable file field. */
  readonly fieldLabel: string;
}

/** A file field and its entity. */
interface FileField {
  readonly entity: Entity;
  readonly field: Field;
}

/**
 * The bounds of an upload by `user`, aimed at `query`'s entity and field when it names them.
 * E_BAD_REQUEST for a field that is not a file field, E_FORBIDDEN when the user may write no file
 * field (or not the one named).
 *
 * @example uploadScope(model, user, { entity: 'Claim', field: 'receipt' }).limit // 1048576
 */
export function uploadScope(model: Model, user: UserContext, query: Record<string, unknown>): UploadScope {
  const entityName = query['entity'];
  const fieldName = query['field'];
  if (entityName === undefined && fieldName === undefined) return scopeOfAll(model, user);
  if (typeof entityName !== 'string' || typeof fieldName !== 'string') {
    throw new ApiError('E_BAD_REQUEST', { reason: 'name both an entity and a field, once each, or neither' });
  }
  const entity = Object.hasOwn(model.entities, entityName) ? model.entities[entityName] : undefined;
  const field =
    entity !== undefined && Object.hasOwn(entity.fields, fieldName) ? entity.fields[fieldName] : undefined;
  if (entity === undefined || field === undefined || !isFileField(field)) {
    throw new ApiError('E_BAD_REQUEST', {
      reason: `${JSON.stringify(entityName)}.${JSON.stringify(fieldName)} is not a file or image field`,
    });
  }
  if (!mayWrite(model, user, { entity, field })) throw new ApiError('E_FORBIDDEN');
  return { limit: sizeLimit(model, field), accept: field.accept, fieldLabel: field.label };
}

/**
 * Every file and image field the user may write when creating or changing a record.
 *
 * @example writableFileFields(model, employee).map((f) => f.field.name) // ['receipt']
 */
export function writableFileFields(model: Model, user: UserContext): FileField[] {
  const out: FileField[] = [];
  for (const entity of Object.values(model.entities)) {
    for (const field of Object.values(entity.fields)) {
      if (isFileField(field) && mayWrite(model, user, { entity, field })) out.push({ entity, field });
    }
  }
  return out;
}

function scopeOfAll(model: Model, user: UserContext): UploadScope {
  const fields = writableFileFields(model, user);
  if (fields.length === 0) throw new ApiError('E_FORBIDDEN');
  const accepts = fields.map(({ field }) => field.accept);
  return {
    limit: Math.max(...fields.map(({ field }) => sizeLimit(model, field))),
    accept: accepts.some((a) => a === null) ? null : [...new Set(accepts.flatMap((a) => a ?? []))],
    fieldLabel: [...new Set(fields.map(({ field }) => field.label))].join(', '),
  };
}

function isFileField(field: Field): boolean {
  return (field.type === 'file' || field.type === 'image') && field.computed === null;
}

/**
 * Whether some role of the user lets them write the field when creating or changing a record
 * (`grantedFields` is null only when a role that grants the action lets it write every field).
 */
function mayWrite(model: Model, user: UserContext, { entity, field }: FileField): boolean {
  if (field.readonly) return false;
  return (['create', 'update'] as const).some((action) => {
    const granted = grantedFields(model, user, entity.name, action, 'writeFields');
    return granted === null || granted.includes(field.name);
  });
}

function sizeLimit(model: Model, field: Field): number {
  return field.maxSize ?? model.limits.maxUploadSize;
}
