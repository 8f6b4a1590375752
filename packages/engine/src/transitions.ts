/**
 * State machines: which transitions a user may fire on a record now, and what firing one does.
 * A transition is the only way a record's state changes.
 */
import { type Model, type Transition, type Value } from '@ninefold/model';
import { fromCel } from './cel-values.js';
import { entityOf, evaluate, holds, lazyActivation } from './expressions.js';
import { type Checked, type FieldError } from './field-error.js';
import { isEmptyValue, withoutBlanks } from './field-value.js';
import { can } from './permissions.js';
import { type Clock, type UserContext, type WireRecord, lookup } from './record.js';
import { validateRecord } from './validate.js';
import { checkWrite } from './write-check.js';

/**
 * Whether the user's roles may fire a transition: one of their roles, or a role it inherits from,
 * is listed; with no list, whoever may update the record. No one fires a timed transition (`after`
 * or `at`): the system does, through `applyTimedTransition`.
 */
export function mayFire(
  model: Model,
  user: UserContext | null,
  entity: string,
  transition: Transition,
  record: WireRecord,
  clock: Clock,
): boolean {
  if (user === null || transition.timer !== null) return false;
  if (transition.roles === null) return can(model, user, 'update', entity, record, clock);
  const listed = transition.roles;
  return user.roles.some((name) => {
    const role = lookup(model.roles, name);
    return (
      role !== undefined && (listed.includes(name) || role.inherits.some((parent) => listed.includes(parent)))
    );
  });
}

/**
 * The transitions the user may fire on the record now: they leave its state, the user's role may
 * fire them, and their guard holds (a guard that errors does not).
 *
 * @example availableTransitions(model, manager, 'Claim', claim, { now }).map((t) => t.name) // ['approve', 'reject']
 */
export function availableTransitions(
  model: Model,
  user: UserContext | null,
  entity: string,
  record: WireRecord,
  clock: Clock & { readonly vars?: Record<string, unknown> },
): Transition[] {
  entityOf(model, entity);
  const machine = lookup(model.states, entity);
  if (machine === undefined) return [];
  const state = record['state'];
  // the caller's activation of this record, when it built one (see `RecordOptions` in permissions.ts)
  const vars = clock.vars ?? lazyActivation(model, entity, record, { user, ...clock });
  return Object.values(machine.transitions).filter(
    (t) =>
      typeof state === 'string' &&
      t.from.includes(state) &&
      mayFire(model, user, entity, t, record, clock) &&
      (t.when === null || holds(model, entity, t.when, vars)),
  );
}

/**
 * Fires a transition: checks it is available (E_TRANSITION_NOT_ALLOWED for the wrong state,
 * E_FORBIDDEN for the wrong role, and for a guard that does not hold the transition's `error`, or
 * E_TRANSITION_GUARD naming the condition), applies the input (only the fields it requires or the
 * user may write; blank text as no value), checks its required fields, evaluates its `set`
 * expressions over the record with the input applied, moves the record to the target state, and
 * validates the result with the rules that apply to this transition.
 *
 * @example applyTransition(model, manager, 'Claim', claim, 'reject', { rejectionReason: 'No receipt' }, { now })
 * // { ok: true, record: { …claim, rejectionReason: 'No receipt', state: 'rejected' } }
 */
export function applyTransition(
  model: Model,
  user: UserContext | null,
  entity: string,
  record: WireRecord,
  name: string,
  input: WireRecord,
  clock: Clock,
): Checked<Record<string, Value>> {
  return fire(model, { user }, entity, record, name, input, clock);
}

/**
 * Fires a timed transition (`after` or `at`) as the system: no user, so no role check and no input;
 * its guard is evaluated at this moment with no `user` (a guard that reads `user` does not hold),
 * then its `set` and the rules apply as for any transition. A transition without a timer is not
 * the system's to fire (E_FORBIDDEN).
 *
 * @example applyTimedTransition(model, 'Ticket', ticket, 'autoClose', { now })
 */
export function applyTimedTransition(
  model: Model,
  entity: string,
  record: WireRecord,
  name: string,
  clock: Clock,
): Checked<Record<string, Value>> {
  return fire(model, 'system', entity, record, name, {}, clock);
}

/** Who fires a transition: a person (or no one signed in), or the system firing a timed one. */
type Firer = { readonly user: UserContext | null } | 'system';

function fire(
  model: Model,
  firer: Firer,
  entity: string,
  record: WireRecord,
  name: string,
  input: WireRecord,
  clock: Clock,
): Checked<Record<string, Value>> {
  const user = firer === 'system' ? null : firer.user;
  const def = entityOf(model, entity);
  const machine = lookup(model.states, entity);
  const transition = machine === undefined ? undefined : lookup(machine.transitions, name);
  const state = typeof record['state'] === 'string' ? record['state'] : '';
  const params = {
    transition: transition?.label ?? name,
    state: (machine === undefined ? undefined : lookup(machine.states, state))?.label ?? state,
    entity: def.label,
  };
  if (machine === undefined || transition === undefined || !transition.from.includes(state))
    return { ok: false, errors: [{ code: 'E_TRANSITION_NOT_ALLOWED', field: null, params }] };
  const allowed =
    firer === 'system' ? transition.timer !== null : mayFire(model, user, entity, transition, record, clock);
  if (!allowed) {
    return {
      ok: false,
      errors: [{ code: 'E_FORBIDDEN', field: null, params: { transition: transition.label } }],
    };
  }
  const before = lazyActivation(model, entity, record, { user, ...clock });
  if (transition.when !== null && !holds(model, entity, transition.when, before)) {
    // the state is right: what stands in the way is the guard, so the answer is the guard's own —
    // the spec's code for it, or the built-in one naming the condition — with the record's values
    const values: Record<string, Value> = {};
    for (const field of Object.keys(def.fields)) {
      const value = record[field];
      if (value !== undefined && value !== null) values[field] = value;
    }
    const guard = { ...values, ...params, condition: transition.when.source };
    const code = transition.error ?? 'E_TRANSITION_GUARD';
    return { ok: false, errors: [{ code, field: null, params: guard }] };
  }

  const writeErrors = checkWrite(model, user, entity, input, {
    operation: { transition: name },
    record,
    ...clock,
  });
  if (writeErrors.length > 0) return { ok: false, errors: writeErrors };

  const next: Record<string, Value | undefined> = { ...record, ...withoutBlanks(def.fields, input) };
  const missing: FieldError[] = [];
  for (const field of transition.require) {
    const f = def.fields[field];
    if (f !== undefined && isEmptyValue(f, next[field])) {
      missing.push({ code: 'E_REQUIRED', field, params: { field: f.label } });
    }
  }
  if (missing.length > 0) return { ok: false, errors: missing };

  const vars = lazyActivation(model, entity, next, { user, ...clock });
  const effects: Record<string, Value> = {};
  for (const [field, expr] of Object.entries(transition.set)) {
    const f = def.fields[field];
    if (f === undefined) continue;
    const outcome = evaluate(model, entity, expr, vars);
    // a `set` that errors (it reads an absent value) leaves the field without a value
    effects[field] = outcome.ok ? (fromCel(f, outcome.value) ?? null) : null;
  }
  const result: Record<string, Value | undefined> = { ...next, ...effects, state: transition.to };
  const patch: Record<string, Value | undefined> = { ...input, ...effects, state: transition.to };
  const checked = validateRecord(model, entity, patch, {
    operation: { transition: name },
    old: record,
    user,
    ...clock,
  });
  if (!checked.ok) return checked;
  return { ok: true, record: { ...stripUndefined(result), ...checked.record } };
}

function stripUndefined(record: Record<string, Value | undefined>): Record<string, Value> {
  const out: Record<string, Value> = {};
  for (const [k, v] of Object.entries(record)) if (v !== undefined) out[k] = v;
  return out;
}
