/**
 * A record as its reader may see it: masked by their read rules, with the transitions they may fire
 * now (`_actions`), and its version as an `etag`.
 */
import { availableTransitions, maskRecord } from '@ninefold/engine';
import { ACTIONS_KEY, type Value, SYSTEM_FIELDS } from '@ninefold/model';
import { type Caller, type Vars, activation, mayRead } from './caller.js';
import { type EntityResource } from './resource.js';

/**
 * The record as its reader may see it, with the transitions they may fire now. The record's keys
 * are the table's columns in their order (`decodeRow`'s records, or `inColumns`), so that the
 * answer lists them in that order whatever the mask leaves out.
 *
 * The record must be this request's own object (decoded from a row, or built by `inColumns`): when
 * nothing is masked it is answered as it is, without a copy, `_actions` added once every rule
 * about it has been decided. `readable`: the caller has just decided with `vars` that the user
 * may read the record (`decideRead`), which an unmasked record then need not decide again.
 */
export function present(
  resource: EntityResource,
  record: Record<string, Value>,
  caller: Caller,
  vars: Vars = activation(resource, record, caller),
  readable = false,
): Record<string, Value> {
  const { model, entity } = resource;
  const { user, now, today } = caller;
  const masked = caller.unmasked
    ? readable || mayRead(resource, record, caller, vars)
      ? record
      : null
    : maskRecord(model, user, entity, record, { now, today, vars });
  if (masked === null) {
    const shown = pick(record, SYSTEM_FIELDS);
    shown[ACTIONS_KEY] = [];
    return shown;
  }
  // decided before the record gains a key: its activation reads it while the transitions are
  const actions = availableTransitions(model, user, entity, record, { now, today, vars });
  masked[ACTIONS_KEY] = actions.map((t) => t.name);
  return masked;
}

/** A record's version as its `etag`. */
export function etag(record: Readonly<Record<string, Value>>): string {
  return `"${String(record['version'])}"`;
}

function pick(record: Readonly<Record<string, Value>>, keys: readonly string[]): Record<string, Value> {
  const out: Record<string, Value> = {};
  for (const k of keys) if (record[k] !== undefined) out[k] = record[k];
  return out;
}
