/**
 * Validating a record: every field against its type and constraints, then the spec's rules that
 * apply to the operation. The same function runs as the user types and, authoritatively, on the server.
 */
import { type Model, type Rule, type RuleTrigger, type Value, SYSTEM_FIELDS } from '@ninefold/model';
import { entityOf, holds, lazyActivation, violated } from './expressions.js';
import { type Checked, type FieldError } from './field-error.js';
import { checkFieldValue, isEmptyValue } from './field-value.js';
import { type Clock, type UserContext, type WireRecord, lookup } from './record.js';

/** What a write does: create a record, update one, or fire a transition on one. */
export type Operation = 'create' | 'update' | { readonly transition: string };

export interface ValidateOptions extends Clock {
  readonly operation: Operation;
  /** The record as it is before an update or a transition; the input is applied over it. */
  readonly old?: WireRecord | null;
  readonly user: UserContext | null;
}

const SYSTEM = new Set<string>(SYSTEM_FIELDS);

/**
 * Validates a record. For `create` the input is the whole record (defaults applied); for an update
 * or a transition it is a patch over `old`. Returns the whole record normalised — every field of
 * the entity, null when it has no value — or every error found: field errors, then the errors of
 * the rules that apply to the operation (a rule whose assertion errors because a value is absent is
 * not violated; decision 0003).
 *
 * @example
 * validateRecord(model, 'Claim', { title: 'Taxi', amount: '12.5' }, { operation: 'create', user, now })
 * // { ok: true, record: { title: 'Taxi', amount: '12.50', … } }
 */
export function validateRecord(
  model: Model,
  entity: string,
  input: WireRecord,
  options: ValidateOptions,
): Checked<Record<string, Value>> {
  const def = entityOf(model, entity);
  const errors: FieldError[] = [];
  const merged: Record<string, Value | undefined> =
    options.operation === 'create' ? { ...input } : { ...(options.old ?? {}), ...input };

  for (const key of Object.keys(input)) {
    if (lookup(def.fields, key) === undefined && !SYSTEM.has(key)) {
      errors.push({ code: 'E_UNKNOWN_FIELD', field: key, params: { field: key, entity: def.label } });
    }
  }

  const record: Record<string, Value> = {};
  for (const key of SYSTEM_FIELDS) {
    const value = merged[key];
    if (value !== undefined) record[key] = value;
  }
  const valid: Record<string, Value> = { ...record }; // only the values that passed, for the rules
  for (const field of Object.values(def.fields)) {
    const value = merged[field.name];
    if (isEmptyValue(field, value)) {
      record[field.name] = null;
      if (field.required) {
        errors.push({ code: 'E_REQUIRED', field: field.name, params: { field: field.label } });
      }
      continue;
    }
    const checked = checkFieldValue(field, value as Value);
    if (checked.ok) {
      record[field.name] = checked.value;
      valid[field.name] = checked.value;
    } else {
      record[field.name] = value as Value;
      errors.push(checked.error);
    }
  }

  const vars = lazyActivation(model, entity, valid, {
    user: options.user,
    now: options.now,
    ...(options.today === undefined ? {} : { today: options.today }),
    old: options.old ?? null,
  });
  for (const rule of rulesFor(model, entity, options.operation)) {
    if (rule.when !== null && !holds(model, entity, rule.when, vars)) continue;
    if (!violated(model, entity, rule.assert, vars)) continue;
    errors.push(...ruleErrors(model, rule, valid));
  }
  return errors.length === 0 ? { ok: true, record } : { ok: false, errors };
}

/**
 * The rules of an entity that apply to an operation.
 *
 * @example rulesFor(model, 'Claim', { transition: 'submit' }).map((r) => r.id) // ['receipt-over-threshold']
 */
export function rulesFor(model: Model, entity: string, operation: Operation): Rule[] {
  return model.rules.filter(
    (rule) => rule.entity === entity && rule.on.some((t) => sameTrigger(t, operation)),
  );
}

function sameTrigger(trigger: RuleTrigger, operation: Operation): boolean {
  if (typeof trigger === 'string' || typeof operation === 'string') return trigger === operation;
  return trigger.transition === operation.transition;
}

/** One error per field the rule marks (one for the record when it marks none), with the constants and values. */
function ruleErrors(model: Model, rule: Rule, record: Readonly<Record<string, Value>>): FieldError[] {
  const entity = model.entities[rule.entity];
  const base: Record<string, Value> = { ...model.constants, ...record, rule: rule.id };
  const fields = rule.fields.length > 0 ? rule.fields : [null];
  return fields.map((field) => ({
    code: rule.error,
    field,
    params: field === null ? base : { ...base, field: entity?.fields[field]?.label ?? field },
  }));
}
