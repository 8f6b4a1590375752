/**
 * Which account a person signing in by single sign-on gets (decision 0039): the one their provider
 * identity (issuer and subject) was linked to; else the one with their e-mail address, linked now,
 * but only when the provider has verified that address; else a new one, when `auth.signUp` is set or
 * their groups map to roles. The provider is the source of truth for the roles it maps: they are
 * set again at every sign-in. A disabled account stays shut.
 */
import { type Model } from '@ninefold/model';
import { recordAuthEvent } from '../audit/auth-events.js';
import { type Database } from '../db/open.js';
import { isUniqueViolation } from '../db/dialect.js';
import { ApiError } from '../http/errors.js';
import { newId } from '../ids.js';
import { TABLES } from '../schema/names.js';
import { type OidcClaims, mappedRoles } from './oidc.js';
import { type UserSummary, addUser, findUser, setRoles, toSummary, usersTable } from './users.js';

/** Why single sign-on found no account to sign in to; recorded in the audit trail as the reason. */
export type SsoRefusal =
  'no-email' | 'email-not-verified' | 'no-account' | 'account-disabled' | 'account-not-created';

/** The account to sign in to, or why there is none. */
export type SsoAccount =
  | { readonly ok: true; readonly user: UserSummary; readonly linked: boolean; readonly created: boolean }
  | { readonly ok: false; readonly reason: SsoRefusal };

/** Where the request came from, for the audit trail. */
export interface SsoOrigin {
  readonly address: string | null;
  readonly userAgent: string | null;
}

/**
 * The account of a person the provider vouched for, linking or creating it as the rules say.
 *
 * @example const account = await ssoAccount({ model, database, now }, claims, origin);
 */
export async function ssoAccount(
  context: { readonly model: Model; readonly database: Database; readonly now: () => Date },
  claims: OidcClaims,
  origin: SsoOrigin,
): Promise<SsoAccount> {
  const { model, database } = context;
  const oidc = model.auth.oidc;
  const roles = mappedRoles(model, oidc?.roles ?? null, claims.groups);
  const clock = { now: context.now };
  let user = await linkedUser(context, claims);
  let linked = false;
  let created = false;
  if (user === null) {
    // an address the provider has not checked is anyone's to claim: it neither links nor opens an account
    if (claims.email === null) return { ok: false, reason: 'no-email' };
    if (!claims.emailVerified) return { ok: false, reason: 'email-not-verified' };
    user = await findUser(database, model, claims.email);
    if (user !== null) {
      linked = true;
    } else {
      const signUp = model.auth.signUp;
      const newRoles = roles.length > 0 ? roles : signUp === null ? [] : [signUp];
      if (newRoles.length === 0) return { ok: false, reason: 'no-account' };
      try {
        user = await addUser(
          database,
          model,
          { email: claims.email, name: claims.name ?? claims.email.split('@')[0]!, roles: newRoles },
          clock,
        );
        created = true;
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        // the address was taken a moment ago, by this person's other sign-in or an admin: theirs it is
        user = await findUser(database, model, claims.email);
        if (user === null) return { ok: false, reason: 'account-not-created' };
        linked = true;
      }
    }
    if (!(await link(context, user, claims))) {
      // the same person's other sign-in linked it a moment ago: theirs is the link
      user = await linkedUser(context, claims);
      if (user === null) return { ok: false, reason: 'account-not-created' };
      linked = false;
    } else if (linked) {
      await recordAuthEvent(database.db, {
        kind: 'sso-linked',
        at: context.now(),
        userId: user.id,
        email: user.email,
        ...origin,
        detail: { issuer: claims.issuer, subject: claims.subject },
      });
    }
  }
  if (user.disabled) return { ok: false, reason: 'account-disabled' };
  if (roles.length > 0 && !sameRoles(user.roles, roles))
    user = await setRoles(database, model, user.email, roles, clock);
  await database.db
    .updateTable(TABLES.identities)
    .set({ last_sign_in_at: context.now().toISOString(), email: claims.email })
    .where('issuer', '=', claims.issuer)
    .where('subject', '=', claims.subject)
    .execute();
  return { ok: true, user, linked, created };
}

/** The user a provider identity is linked to, or null. */
async function linkedUser(
  context: { readonly model: Model; readonly database: Database },
  claims: OidcClaims,
): Promise<UserSummary | null> {
  const { model, database } = context;
  const row = await database.db
    .selectFrom(`${TABLES.identities} as identity`)
    .innerJoin(`${usersTable(model)} as account`, 'account.id', 'identity.user_id')
    .select(['account.id', 'account.email', 'account.name', 'account.roles', 'account.disabled'])
    .where('identity.issuer', '=', claims.issuer)
    .where('identity.subject', '=', claims.subject)
    .executeTakeFirst();
  return row === undefined ? null : toSummary(row);
}

/** Links a provider identity to a user; false when it was linked already (a race). */
async function link(
  context: { readonly database: Database; readonly now: () => Date },
  user: UserSummary,
  claims: OidcClaims,
): Promise<boolean> {
  try {
    await context.database.db
      .insertInto(TABLES.identities)
      .values({
        id: newId(),
        user_id: user.id,
        issuer: claims.issuer,
        subject: claims.subject,
        email: claims.email,
        created_at: context.now().toISOString(),
        last_sign_in_at: null,
      })
      .execute();
    return true;
  } catch (error) {
    if (isUniqueViolation(error)) return false;
    throw error;
  }
}

function sameRoles(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((role) => b.includes(role));
}
