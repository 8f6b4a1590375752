/**
 * What a one-time link does to an account, in the transaction that uses the link (decision 0037):
 * an invitation or a reset sets the user's password (a reset also ends their sessions); a checked
 * sign-up opens the account. Each writes the User record's history, as every change of it does,
 * and says only that the password changed, never what it is.
 */
import { type Model } from '@ninefold/model';
import { type Kysely } from 'kysely';
import { recordHistory } from '../audit/history.js';
import { type DialectName, decodeInteger, encodeBoolean, isUniqueViolation } from '../db/dialect.js';
import { ApiError } from '../http/errors.js';
import { newId } from '../ids.js';
import { PASSWORD_HASH_COLUMN } from '../schema/names.js';
import { type PasswordContext } from './password-policy.js';
import { type UserSummary, endUserSessions, toSummary, usersTable } from './users.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the users table is the spec's
type Db = Kysely<any>;

/**
 * Sets a user's password hash; with `endSessions`, ends every session of theirs. A user who is gone
 * or disabled cannot be let in by a link: E_LINK_EXPIRED (ask for a new one), and nothing changes.
 *
 * @example const user = await setPasswordByLink(tx, model, link.userId, hash, now, { endSessions: true });
 */
export async function setPasswordByLink(
  tx: Db,
  model: Model,
  userId: string | null,
  passwordHash: string,
  at: Date,
  options: { readonly endSessions: boolean },
): Promise<UserSummary> {
  const table = usersTable(model);
  const row =
    userId === null
      ? undefined
      : await tx
          .selectFrom(table)
          .select(['id', 'email', 'name', 'roles', 'disabled', 'version'])
          .where('id', '=', userId)
          .executeTakeFirst();
  if (row === undefined) throw new ApiError('E_LINK_INVALID');
  const user = toSummary(row);
  if (user.disabled) throw new ApiError('E_LINK_EXPIRED');
  await tx
    .updateTable(table)
    .set({
      [PASSWORD_HASH_COLUMN]: passwordHash,
      updatedAt: at.toISOString(),
      version: decodeInteger(row['version']) + 1,
    })
    .where('id', '=', user.id)
    .execute();
  if (options.endSessions) await endUserSessions(tx, user.id);
  await recordHistory(tx, {
    entity: 'User',
    recordId: user.id,
    at,
    by: user.id,
    action: 'update',
    changes: { password: { from: null, to: '(changed)' } },
  });
  return user;
}

/**
 * Opens the account of a checked sign-up. An address taken since the sign-up (by an invitation, a
 * second sign-up checked first) is E_LINK_USED: the link's work was done by someone else.
 *
 * @example const user = await openAccount(tx, model, 'sqlite', { email, name, roles: ['customer'], passwordHash }, now);
 */
export async function openAccount(
  tx: Db,
  model: Model,
  dialect: DialectName,
  account: { email: string; name: string; roles: readonly string[]; passwordHash: string },
  at: Date,
): Promise<UserSummary> {
  const id = newId();
  const roles = [...new Set(account.roles)];
  try {
    await tx
      .insertInto(usersTable(model))
      .values({
        id,
        createdAt: at.toISOString(),
        updatedAt: at.toISOString(),
        createdBy: null,
        version: 1,
        email: account.email,
        name: account.name,
        roles: JSON.stringify(roles),
        disabled: encodeBoolean(false, dialect),
        [PASSWORD_HASH_COLUMN]: account.passwordHash,
      })
      .execute();
  } catch (error) {
    if (isUniqueViolation(error)) throw new ApiError('E_LINK_USED');
    throw error;
  }
  await recordHistory(tx, {
    entity: 'User',
    recordId: id,
    at,
    by: id,
    action: 'create',
    changes: {
      email: { from: null, to: account.email },
      name: { from: null, to: account.name },
      roles: { from: null, to: roles },
    },
  });
  return { id, email: account.email, name: account.name, roles, disabled: false };
}

/**
 * What a new password set by a link must not be built on (`checkNewPassword`'s context): the
 * product's name, the link's address and its user's name.
 *
 * @example checkNewPassword(password, 'password', await linkPasswordContext(db, model, link));
 */
export async function linkPasswordContext(
  db: Db,
  model: Model,
  link: { readonly userId: string | null; readonly email: string },
): Promise<PasswordContext> {
  const row =
    link.userId === null
      ? undefined
      : await db
          .selectFrom(usersTable(model))
          .select('name')
          .where('id', '=', link.userId)
          .executeTakeFirst();
  const name = row?.['name'];
  return {
    productName: model.product.name,
    email: link.email,
    ...(typeof name === 'string' ? { name } : {}),
  };
}
