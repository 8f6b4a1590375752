/**
 * User administration, as `ninefold users add | list | set-roles | disable | reset-password` uses it.
 * Users are records of the built-in User entity; their password hash lives beside them in a column
 * the entity does not expose.
 */
import { type Model, isBlank, isEmail } from '@ninefold/model';
import { type Kysely } from 'kysely';
import { newId } from '../ids.js';
import { recordHistory } from '../audit/history.js';
import { decodeBoolean, decodeInteger, encodeBoolean, isUniqueViolation } from '../db/dialect.js';
import { type Database } from '../db/open.js';
import { ApiError, type FieldIssue } from '../http/errors.js';
import { LOCALE_COLUMN, PASSWORD_HASH_COLUMN, TABLES, tableName } from '../schema/names.js';
import { hashPassword } from './password.js';
import { checkNewPassword } from './password-policy.js';
import { sessionCacheOf } from './session-cache.js';
import { type UserSummary } from './user-summary.js';

/** A user as the server shows it: never the password hash. */
export type { UserSummary } from './user-summary.js';

export interface NewUser {
  readonly email: string;
  readonly name: string;
  readonly roles: readonly string[];
  /**
   * The user's password; absent, they have none and cannot sign in until they accept an
   * invitation (or sign in by single sign-on).
   */
  readonly password?: string;
}

export interface Clock {
  readonly now?: () => Date;
}

/** The table of the built-in User entity. */
export function usersTable(model: Model): string {
  return tableName(model.entities['User']?.resource ?? 'users');
}

/**
 * Emails are compared without case and surrounding spaces: `Ann@Example.com ` signs in as ann@example.com.
 *
 * @example normalizeEmail(' Ann@Example.COM ') // 'ann@example.com'
 */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/**
 * Adds a user. Throws E_VALIDATION (a bad email, an unknown role, a password the policy refuses) or E_UNIQUE
 * (the email is taken).
 *
 * @example await addUser(database, model, { email: 'ann@example.com', name: 'Ann', roles: ['manager'], password: '…' });
 */
export async function addUser(
  database: Database,
  model: Model,
  user: NewUser,
  clock: Clock = {},
): Promise<UserSummary> {
  const email = normalizeEmail(user.email);
  const issues = [
    ...checkEmail(email),
    ...checkRoles(model, user.roles),
    ...(user.password === undefined
      ? []
      : checkNewPassword(user.password, 'password', {
          productName: model.product.name,
          email,
          name: user.name,
        })),
    ...(isBlank(user.name) // blank as the engine means it: white space and invisible characters
      ? [{ field: 'name', code: 'E_REQUIRED' as const, params: { field: 'Name' } }]
      : []),
  ];
  if (issues.length > 0) throw new ApiError('E_VALIDATION', {}, { errors: issues });
  const passwordHash = user.password === undefined ? null : await hashPassword(user.password);
  const at = (clock.now ?? (() => new Date()))();
  const id = newId();
  const roles = [...new Set(user.roles)];
  try {
    await database.db.transaction().execute(async (tx) => {
      await tx
        .insertInto(usersTable(model))
        .values({
          id,
          createdAt: at.toISOString(),
          updatedAt: at.toISOString(),
          createdBy: null,
          version: 1,
          email,
          name: user.name.trim(),
          roles: JSON.stringify(roles),
          disabled: encodeBoolean(false, database.dialect),
          [PASSWORD_HASH_COLUMN]: passwordHash,
        })
        .execute();
      await recordHistory(tx, {
        entity: 'User',
        recordId: id,
        at,
        by: null,
        action: 'create',
        changes: {
          email: { from: null, to: email },
          name: { from: null, to: user.name.trim() },
          roles: { from: null, to: roles },
        },
      });
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new ApiError('E_UNIQUE', { field: 'Email' });
    throw error;
  }
  return { id, email, name: user.name.trim(), roles, disabled: false };
}

/**
 * Every user, by email.
 *
 * @example (await listUsers(database, model)).map((u) => u.email)
 */
export async function listUsers(database: Database, model: Model): Promise<UserSummary[]> {
  const rows = await database.db
    .selectFrom(usersTable(model))
    .select(['id', 'email', 'name', 'roles', 'disabled'])
    .orderBy('email')
    .execute();
  return rows.map(toSummary);
}

/**
 * A user by email, or null.
 *
 * @example await findUser(database, model, 'ann@example.com')
 */
export async function findUser(database: Database, model: Model, email: string): Promise<UserSummary | null> {
  const row = await database.db
    .selectFrom(usersTable(model))
    .select(['id', 'email', 'name', 'roles', 'disabled'])
    .where('email', '=', normalizeEmail(email))
    .executeTakeFirst();
  return row === undefined ? null : toSummary(row);
}

/**
 * Replaces a user's roles; their sessions carry the new roles from the next request.
 *
 * @example await setRoles(database, model, 'ann@example.com', ['manager', 'finance']);
 */
export async function setRoles(
  database: Database,
  model: Model,
  email: string,
  roles: readonly string[],
  clock: Clock = {},
): Promise<UserSummary> {
  const issues = checkRoles(model, roles);
  if (issues.length > 0) throw new ApiError('E_VALIDATION', {}, { errors: issues });
  const unique = [...new Set(roles)];
  return updateUser(database, model, email, clock, (old) => ({
    values: { roles: JSON.stringify(unique) },
    changes: { roles: { from: [...old.roles], to: unique } },
  }));
}

/**
 * Disables a user and ends all their sessions at once. `enabled: true` enables them again.
 *
 * @example await disableUser(database, model, 'ann@example.com');
 */
export async function disableUser(
  database: Database,
  model: Model,
  email: string,
  clock: Clock & { readonly enabled?: boolean } = {},
): Promise<UserSummary> {
  const disabled = clock.enabled !== true;
  return updateUser(database, model, email, clock, (old) => ({
    values: { disabled: encodeBoolean(disabled, database.dialect) },
    changes: { disabled: { from: old.disabled, to: disabled } },
    endSessions: disabled,
  }));
}

/**
 * Sets a new password and ends the user's sessions.
 *
 * @example await resetPassword(database, model, 'ann@example.com', 'a new long password');
 */
export async function resetPassword(
  database: Database,
  model: Model,
  email: string,
  password: string,
  clock: Clock = {},
): Promise<UserSummary> {
  const issues = checkNewPassword(password, 'password', { productName: model.product.name, email });
  if (issues.length > 0) throw new ApiError('E_VALIDATION', {}, { errors: issues });
  const passwordHash = await hashPassword(password);
  return updateUser(database, model, email, clock, () => ({
    values: { [PASSWORD_HASH_COLUMN]: passwordHash },
    // the audit trail says that the password changed, never what it is
    changes: { password: { from: null, to: '(changed)' } },
    endSessions: true,
  }));
}

interface UserChange {
  readonly values: Record<string, unknown>;
  readonly changes: NonNullable<Parameters<typeof recordHistory>[1]['changes']>;
  readonly endSessions?: boolean;
}

async function updateUser(
  database: Database,
  model: Model,
  email: string,
  clock: Clock,
  change: (old: UserSummary) => UserChange,
): Promise<UserSummary> {
  const at = (clock.now ?? (() => new Date()))();
  const table = usersTable(model);
  const updated = await database.db.transaction().execute(async (tx) => {
    const row = await tx
      .selectFrom(table)
      .select(['id', 'email', 'name', 'roles', 'disabled', 'version'])
      .where('email', '=', normalizeEmail(email))
      .executeTakeFirst();
    if (row === undefined)
      throw new ApiError('E_NOT_FOUND', { entity: 'User' }, { detail: `No user has the email ${email}.` });
    const old = toSummary(row);
    const { values, changes, endSessions } = change(old);
    await tx
      .updateTable(table)
      .set({ ...values, updatedAt: at.toISOString(), version: decodeInteger(row.version) + 1 })
      .where('id', '=', old.id)
      .execute();
    if (endSessions === true) await endUserSessions(tx, old.id);
    await recordHistory(tx, { entity: 'User', recordId: old.id, at, by: null, action: 'update', changes });
    const updated = await tx
      .selectFrom(table)
      .select(['id', 'email', 'name', 'roles', 'disabled'])
      .where('id', '=', old.id)
      .executeTakeFirstOrThrow();
    return toSummary(updated);
  });
  // their cached sessions carry the old roles, state or record: read afresh at their next request
  sessionCacheOf(database).forgetUser(updated.id);
  return updated;
}

/** Ends every session of a user. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function endUserSessions(db: Kysely<any>, userId: string): Promise<void> {
  await db.deleteFrom(TABLES.sessions).where('user_id', '=', userId).execute();
}

/** A users row as a summary. */
export function toSummary(row: Record<string, unknown>): UserSummary {
  return {
    id: String(row['id']),
    email: String(row['email']),
    name: String(row['name'] ?? ''),
    roles: parseRoles(row['roles']),
    disabled: decodeBoolean(row['disabled']),
    locale: typeof row[LOCALE_COLUMN] === 'string' ? row[LOCALE_COLUMN] : null,
  };
}

function parseRoles(raw: unknown): string[] {
  try {
    const value = typeof raw === 'string' ? (JSON.parse(raw) as unknown) : raw;
    return Array.isArray(value) ? value.filter((r): r is string => typeof r === 'string') : [];
  } catch {
    return [];
  }
}

function checkEmail(email: string): FieldIssue[] {
  return isEmail(email)
    ? []
    : [{ field: 'email', code: 'E_FORMAT', params: { field: 'Email', expected: 'an email address' } }];
}

function checkRoles(model: Model, roles: readonly string[]): FieldIssue[] {
  const known = Object.keys(model.roles);
  if (roles.length === 0) return [{ field: 'roles', code: 'E_REQUIRED', params: { field: 'Roles' } }];
  const unknown = roles.filter((r) => !known.includes(r));
  if (unknown.length === 0) return [];
  return [
    {
      field: 'roles',
      code: 'E_NOT_ONE_OF',
      params: { field: 'Roles', value: unknown.join(', '), values: known.join(', ') },
    },
  ];
}
