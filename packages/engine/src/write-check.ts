/**
 * Mass-assignment defence: a write names only fields the user may set. Unknown, system, read-only
 * and forbidden fields are rejected, never silently dropped, so a client learns what it did wrong.
 */
import { type Model, SYSTEM_FIELDS } from '@ninefold/model';
import { entityOf } from './expressions.js';
import { type FieldError } from './field-error.js';
import { writableFields } from './permissions.js';
import { type Clock, type UserContext, type WireRecord, lookup } from './record.js';
import { type Operation } from './validate.js';

export interface WriteCheckOptions extends Partial<Clock> {
  readonly operation: Operation;
  /** The record being updated or transitioned: decides which of the user's roles apply. */
  readonly record?: WireRecord | null;
}

const SYSTEM = new Set<string>(SYSTEM_FIELDS);

/**
 * The errors of a write's keys: E_UNKNOWN_FIELD for a name the entity lacks, E_READONLY_FIELD for a
 * system field, a read-only field, or one the user's roles may not write. A transition may also set
 * the fields it requires. An empty list means the write may proceed to validation.
 *
 * @example checkWrite(model, employee, 'Claim', { paidOn: '2026-01-01' }, { operation: 'update' })
 * // [{ code: 'E_READONLY_FIELD', field: 'paidOn', params: { field: 'Paid on' } }]
 */
export function checkWrite(
  model: Model,
  user: UserContext | null,
  entity: string,
  input: WireRecord,
  options: WriteCheckOptions,
): FieldError[] {
  const def = entityOf(model, entity);
  const action = options.operation === 'create' ? 'create' : 'update';
  const allowed = writableFields(model, user, entity, action, options.record, options);
  const required =
    typeof options.operation === 'object'
      ? (lookup(lookup(model.states, entity)?.transitions ?? {}, options.operation.transition)?.require ?? [])
      : [];
  const errors: FieldError[] = [];
  for (const key of Object.keys(input)) {
    const field = lookup(def.fields, key);
    if (SYSTEM.has(key)) {
      errors.push({ code: 'E_READONLY_FIELD', field: key, params: { field: key } });
    } else if (field === undefined) {
      errors.push({ code: 'E_UNKNOWN_FIELD', field: key, params: { field: key, entity: def.label } });
    } else if (field.computed !== null) {
      // a computed value is the expression's, never a person's: not even a transition's `require`
      errors.push({ code: 'E_READONLY_FIELD', field: key, params: { field: field.label } });
    } else if (required.includes(key)) {
      continue;
    } else if (field.readonly || (allowed !== null && !allowed.includes(key))) {
      errors.push({ code: 'E_READONLY_FIELD', field: key, params: { field: field.label } });
    }
  }
  return errors;
}
