/**
 * Which fields a user's roles let them read, write and query, before any record is looked at: like
 * `grants.ts`, no expression is evaluated. Its own entry (`@ninefold/engine/field-grants`), so that
 * the client's list screen decides its columns without the CEL evaluator, and its first page without
 * these functions.
 */
import type { Model } from '@ninefold/model';
import { type Action, grantsOf } from './grants.js';
import type { UserContext } from './record.js';

/**
 * The fields the user's roles let them read (or write) on some record, before any record is looked
 * at: null for all of them. What `readableFields` and `writableFields` answer without a record.
 *
 * @example grantedFields(model, employee, 'User', 'read', 'readFields') // ['name']
 */
export function grantedFields(
  model: Model,
  user: UserContext | null,
  entity: string,
  action: Action,
  key: 'readFields' | 'writeFields',
): readonly string[] | null {
  const out = new Set<string>();
  for (const grant of grantsOf(model, user, entity)) {
    if (grant[action] === false) continue;
    const fields = grant[key];
    if (fields === null) return null;
    for (const f of fields) out.add(f);
  }
  return [...out];
}

/**
 * The fields a user may filter, sort and search on: those readable on every record they may read
 * (the intersection of their roles' read masks), so that a filter never reveals a masked value.
 * `null` means every field. The server refuses the others; the client offers only these.
 *
 * @example queryableFields(model, auditor, 'Claim')?.has('merchant') // false
 */
export function queryableFields(
  model: Model,
  user: UserContext | null,
  entity: string,
): ReadonlySet<string> | null {
  if (user === null) return new Set();
  let out = null as Set<string> | null;
  let any = false;
  for (const grant of grantsOf(model, user, entity)) {
    if (grant.read === false) continue;
    any = true;
    if (grant.readFields === null) continue;
    const fields = new Set(grant.readFields);
    out = out === null ? fields : new Set([...out].filter((f) => fields.has(f)));
  }
  if (!any) return new Set();
  return out;
}
