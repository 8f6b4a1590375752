/**
 * Who a notification names, as people and addresses: the users its ref-to-User fields hold (one or
 * many), every active user holding one of its roles, and the addresses its email fields hold. An
 * address that belongs to a user is that user — their rules, their settings and both channels
 * apply to them, so no one is told by way of their address what they may not read — and an address
 * of no user is an outside recipient, told by e-mail only. Disabled users are told nothing.
 *
 * Whether each may read the record, and whether they turned the notification off, is decided by
 * the delivery (`deliver.ts`); this module only finds them.
 */
import { sql } from 'kysely';
import { type UserContext } from '@ninefold/engine';
import { type Model, type Notification, type Value } from '@ninefold/model';
import { normalizeEmail, toSummary, usersTable } from '../auth/users.js';
import { type Database } from '../db/open.js';
import { LOCALE_COLUMN } from '../schema/names.js';
import { columnSql, columnValues, decodeRow, entityTable } from '../resources/records.js';

/** A user to tell, as the rules see them. */
export interface RecipientUser {
  readonly id: string;
  readonly email: string;
  readonly context: UserContext;
  /** The locale they saved on their account (decision 0067), or null for the spec's default. */
  readonly locale: string | null;
}

/** The people and outside addresses a notification names for a record. */
export interface Recipients {
  readonly users: readonly RecipientUser[];
  /** Addresses of no user, normalized: told by e-mail only. */
  readonly addresses: readonly string[];
}

type RecordValues = Readonly<Record<string, Value | undefined>>;

/**
 * The recipients of a notification for a record, without the user who made the change.
 *
 * @example const { users, addresses } = await findRecipients(database, model, notification, record, actorId);
 */
export async function findRecipients(
  database: Database,
  model: Model,
  notification: Notification,
  record: RecordValues,
  actor: string | null,
): Promise<Recipients> {
  const ids = new Set<string>();
  const roles = new Set<string>();
  const addresses = new Set<string>();
  for (const recipient of notification.to) {
    if (recipient.kind === 'role') roles.add(recipient.role);
    else if (recipient.kind === 'user') for (const id of valuesOf(record[recipient.field])) ids.add(id);
    else for (const address of valuesOf(record[recipient.field])) addresses.add(normalizeEmail(address));
  }
  const found = await usersMatching(database, model, [...ids], [...roles], [...addresses]);
  const users = new Map<string, RecipientUser>();
  const owned = new Set<string>();
  for (const { user, disabled } of found) {
    owned.add(user.email);
    const named =
      ids.has(user.id) || addresses.has(user.email) || user.context.roles.some((role) => roles.has(role));
    if (named && !disabled && user.id !== actor) users.set(user.id, user);
  }
  return { users: [...users.values()], addresses: [...addresses].filter((address) => !owned.has(address)) };
}

/**
 * A user by id as the rules see them (their User record, id and roles), or null when there is none.
 *
 * @example const actor = await userById(database, model, payload.actor);
 */
export async function userById(database: Database, model: Model, id: string): Promise<RecipientUser | null> {
  const [found] = await usersMatching(database, model, [id], [], []);
  return found?.user ?? null;
}

/**
 * The users with the given ids as the rules see them, disabled ones included.
 *
 * @example const [assignee] = await usersByIds(database, model, [record.assignee]);
 */
export async function usersByIds(
  database: Database,
  model: Model,
  ids: readonly string[],
): Promise<RecipientUser[]> {
  const found = await usersMatching(database, model, ids, [], []);
  return found.map(({ user }) => user);
}

/** The users whose id, role or email is one of those given, disabled ones included (and marked). */
async function usersMatching(
  database: Database,
  model: Model,
  ids: readonly string[],
  roles: readonly string[],
  emails: readonly string[],
): Promise<{ user: RecipientUser; disabled: boolean }[]> {
  if (ids.length === 0 && roles.length === 0 && emails.length === 0) return [];
  const entity = model.entities['User'];
  const info = entity === undefined ? null : entityTable(model, entity);
  const columns = [
    ...new Set(['id', 'email', 'name', 'roles', 'disabled', LOCALE_COLUMN, ...(info?.columns ?? [])]),
  ];
  // lists of refs from their join tables (decision 0044)
  const table = usersTable(model);
  const selections = columns.map((c) =>
    info?.lists.has(c) === true ? sql.raw(columnSql(info, c, database.dialect, table)).as(c) : c,
  );
  const rows = (await database.db
    .selectFrom(table)
    .select(selections)
    .where((eb) =>
      eb.or([
        ...(ids.length > 0 ? [eb('id', 'in', ids)] : []),
        ...(emails.length > 0 ? [eb('email', 'in', emails)] : []),
        // roles are a JSON list in text: a coarse match, made exact below
        ...roles.map((role) => eb('roles', 'like', `%${JSON.stringify(role)}%`)),
      ]),
    )
    .execute()) as Record<string, unknown>[];
  return rows.map((row) => {
    const summary = toSummary(row);
    const base = { id: summary.id, roles: [...summary.roles] };
    const context: UserContext =
      info === null ? base : { ...decodeRow(info, columnValues(info, row)), ...base };
    return {
      user: { id: summary.id, email: summary.email, context, locale: summary.locale ?? null },
      disabled: summary.disabled,
    };
  });
}

/** The texts a field holds: one, many, or none. */
function valuesOf(value: Value | undefined): string[] {
  if (typeof value === 'string' && value !== '') return [value];
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string' && v !== '');
  return [];
}
