/**
 * Defaults: what a new record holds before the user says otherwise.
 */
import { type Model, type Value } from '@ninefold/model';
import { fromCel } from './cel-values.js';
import { activation, entityOf, evaluate } from './expressions.js';
import { type Clock, type UserContext, type WireRecord, lookup } from './record.js';

export interface DefaultsOptions extends Clock {
  readonly user: UserContext | null;
}

/**
 * The input with every absent field that has a default filled in: literal defaults as they are,
 * expression defaults (`user.id`, `now`, `today`, constants) evaluated now. A field the input sets,
 * even to null, keeps its value; an expression that errors (a guest's `user.id`) leaves it absent.
 * A record of an entity with a state machine starts in the initial state.
 *
 * @example applyDefaults(model, 'Claim', { title: 'Taxi' }, { user, now }) // { title: 'Taxi', submittedBy: user.id, state: 'draft' }
 */
export function applyDefaults(
  model: Model,
  entity: string,
  input: WireRecord,
  options: DefaultsOptions,
): Record<string, Value> {
  const def = entityOf(model, entity);
  const out: Record<string, Value> = {};
  for (const [key, value] of Object.entries(input)) if (value !== undefined) out[key] = value;
  let vars: Record<string, unknown> | null = null;
  for (const field of Object.values(def.fields)) {
    if (field.default === null || input[field.name] !== undefined) continue;
    if ('value' in field.default) {
      out[field.name] = field.default.value;
      continue;
    }
    vars ??= activation(model, null, null, options);
    const outcome = evaluate(model, null, field.default.expr, vars);
    if (!outcome.ok) continue;
    const value = fromCel(field, outcome.value);
    if (value !== undefined && value !== null) out[field.name] = value;
  }
  const machine = lookup(model.states, entity);
  if (machine !== undefined && out['state'] === undefined) out['state'] = machine.initial;
  return out;
}
