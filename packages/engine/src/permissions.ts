/**
 * Who may do what: actions on records, and which fields they read and write. A user's grants are
 * the union of their roles' grants; a role the model does not know grants nothing, and so does no role.
 */
import { type Access, type Model, type Value, SYSTEM_FIELDS } from '@ninefold/model';
import { entityOf, holds, lazyActivation } from './expressions.js';
import { grantedFields } from './field-grants.js';
import { type Action, accessFor, grantsOf } from './grants.js';
import { type Clock, type UserContext, type WireRecord } from './record.js';

/**
 * A clock, and optionally the record's activation (`lazyActivation(model, entity, record, { user, now })`)
 * when the caller already built it: a list row is checked by `can`, `maskRecord` and
 * `availableTransitions`, and converting it to CEL once serves all three.
 */
export interface RecordOptions extends Partial<Clock> {
  /** The activation of the record these options come with, built with the same user and clock. */
  readonly vars?: Record<string, unknown>;
}

export interface CanOptions extends RecordOptions {
  /** For `update`: the record before the change. Both it and the new record must be allowed. */
  readonly old?: WireRecord | null;
}

/**
 * Whether an access holds for a record: `true`, or one of its conditions evaluates to `true`
 * (a condition that errors does not hold).
 *
 * @example accessHolds(model, 'Claim', { any: [ownExpr] }, claim, { user, now }) // true for the owner
 */
export function accessHolds(
  model: Model,
  entity: string,
  access: Access,
  record: WireRecord,
  ctx: { readonly user: UserContext | null } & Clock,
  prepared?: Record<string, unknown>,
): boolean {
  if (typeof access === 'boolean') return access;
  const vars = prepared ?? lazyActivation(model, entity, record, ctx);
  return access.any.some((expr) => holds(model, entity, expr, vars));
}

/**
 * Whether the user may perform an action on a record of an entity. Without a record, whether they
 * may perform it on some record (their roles grant more than `false`): enough to show a button, never
 * to authorise a write. An update must be allowed on the record before (`options.old`) and after.
 *
 * @example can(model, user, 'update', 'Claim', next, { old: claim, now })
 */
export function can(
  model: Model,
  user: UserContext | null,
  action: Action,
  entity: string,
  record?: WireRecord | null,
  options: CanOptions = {},
): boolean {
  entityOf(model, entity);
  const access = accessFor(model, user, action, entity);
  if (access === false) return false;
  if (record === undefined || record === null) return true;
  const ctx = {
    user,
    now: options.now ?? new Date(),
    ...(options.today === undefined ? {} : { today: options.today }),
  };
  if (action === 'update' && options.old !== undefined && options.old !== null) {
    if (!accessHolds(model, entity, access, options.old, ctx)) return false;
  }
  return accessHolds(model, entity, access, record, ctx, options.vars);
}

/**
 * The fields the user may read: null for all of them. With a record, only the roles that may read
 * that record count; without one, every role that may read some record.
 *
 * @example readableFields(model, employee, 'User') // ['name']
 */
export function readableFields(
  model: Model,
  user: UserContext | null,
  entity: string,
  record?: WireRecord | null,
  clock: RecordOptions = {},
): readonly string[] | null {
  return fieldUnion(model, user, entity, 'read', 'readFields', record, clock);
}

/**
 * The fields the user may write when creating (or updating) a record: null for every field that is
 * not read-only. Read-only and system fields are never writable, whatever this says.
 *
 * @example writableFields(model, employee, 'Claim', 'update', claim) // null
 */
export function writableFields(
  model: Model,
  user: UserContext | null,
  entity: string,
  action: 'create' | 'update' = 'update',
  record?: WireRecord | null,
  clock: Partial<Clock> = {},
): readonly string[] | null {
  return fieldUnion(model, user, entity, action, 'writeFields', record, clock);
}

function fieldUnion(
  model: Model,
  user: UserContext | null,
  entity: string,
  action: Action,
  key: 'readFields' | 'writeFields',
  record: WireRecord | null | undefined,
  clock: RecordOptions,
): readonly string[] | null {
  if (record === undefined || record === null) return grantedFields(model, user, entity, action, key);
  const out = new Set<string>();
  const ctx = {
    user,
    now: clock.now ?? new Date(),
    ...(clock.today === undefined ? {} : { today: clock.today }),
  };
  for (const grant of grantsOf(model, user, entity)) {
    const access = grant[action];
    if (access === false) continue;
    if (!accessHolds(model, entity, access, record, ctx, clock.vars)) continue;
    const fields = grant[key];
    if (fields === null) return null;
    for (const f of fields) out.add(f);
  }
  return [...out];
}

/**
 * The record as the user may see it: without the fields they may not read (system fields stay),
 * or null when they may not read the record at all.
 *
 * @example maskRecord(model, employee, 'User', someone) // { id, name, createdAt, … }
 */
export function maskRecord(
  model: Model,
  user: UserContext | null,
  entity: string,
  record: WireRecord,
  clock: RecordOptions = {},
): Record<string, Value> | null {
  if (!can(model, user, 'read', entity, record, clock)) return null;
  const fields = readableFields(model, user, entity, record, clock);
  const out: Record<string, Value> = {};
  const visible = fields === null ? null : new Set<string>([...SYSTEM_FIELDS, ...fields]);
  for (const [key, value] of Object.entries(record)) {
    if (value === undefined) continue;
    if (visible === null || visible.has(key)) out[key] = value;
  }
  return out;
}
