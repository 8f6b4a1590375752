/**
 * Password reset (decision 0037), unless the spec's `auth.passwordReset` is false:
 * `POST <basePath>/password-resets { email }` answers 202 `{}` whatever the address; a known,
 * enabled user is mailed a 30-minute link (their earlier unused ones stop working).
 * `POST <basePath>/password-resets/complete { token, password }` sets the password, ends every
 * session of the user (a thief signed in with the old password is out), and signs in — or, for a
 * user with a second factor (or required to turn one on), answers its challenge as a password
 * sign-in does (decision 0041).
 *
 * Rate-limited per client address and per e-mail address (`IdentityLimiter`), counted alike for
 * known and unknown addresses, so nobody can mail-bomb a user or learn who has an account. An
 * unknown address is recorded in the audit trail too, so both cost a write.
 */
import { API_PATHS, type Model } from '@ninefold/model';
import { type FastifyInstance } from 'fastify';
import { recordAuthEvent, requestOrigin } from '../audit/auth-events.js';
import { decodeBoolean } from '../db/dialect.js';
import { type Database } from '../db/open.js';
import { ApiError } from '../http/errors.js';
import { apiPath } from '../http/paths.js';
import { type MailSettings } from '../mail/settings.js';
import { enqueueLinkMail } from './identity-mail.js';
import { readTexts } from './identity-input.js';
import { IdentityLimiter } from './identity-limiter.js';
import { type CounterStore } from '../limits/counters.js';
import { linkPasswordContext, setPasswordByLink } from './link-accounts.js';
import { createLink, inspectLink, publicBase, revokeLinks, useLink } from './links.js';
import { hashPassword } from './password.js';
import { checkNewPassword } from './password-policy.js';
import { sessionCacheOf } from './session-cache.js';
import { secondStepChallenge } from './mfa/policy.js';
import { startSession } from './session-routes.js';
import { normalizeEmail, usersTable } from './users.js';

/**
 * Registers the password reset routes, unless the spec turns reset off.
 *
 * @example registerPasswordResetRoutes(api, { model, database, now, settings });
 */
export function registerPasswordResetRoutes(
  api: FastifyInstance,
  context: {
    model: Model;
    database: Database;
    now: () => Date;
    settings: MailSettings;
    counters: CounterStore;
  },
): void {
  const { model, database, now, settings } = context;
  if (!model.auth.passwordReset) return;
  const limiter = new IdentityLimiter('password-reset', now, context.counters);
  const path = apiPath(model, API_PATHS.passwordResets);

  api.post(path, async (request, reply) => {
    const email = normalizeEmail(readTexts(request.body, { email: 'Email' }, 'a password reset').email);
    await limiter.attempt({ address: request.ip, email });
    const base = publicBase(settings, request);
    const at = now();
    await database.db.transaction().execute(async (tx) => {
      const row = await tx
        .selectFrom(usersTable(model))
        .select(['id', 'disabled'])
        .where('email', '=', email)
        .executeTakeFirst();
      const userId = row === undefined || decodeBoolean(row['disabled']) ? null : String(row['id']);
      if (userId !== null) {
        await revokeLinks(tx, 'password-reset', userId, at);
        const link = await createLink(tx, { purpose: 'password-reset', userId, email }, at);
        await enqueueLinkMail(tx, { link: link.id, base }, at);
      }
      await recordAuthEvent(tx, {
        kind: 'password-reset-requested',
        at,
        userId,
        email,
        ...requestOrigin(request),
        detail: { account: userId === null ? 'none' : 'mailed' },
      });
    });
    return reply.code(202).send({});
  });

  api.post(`${path}/complete`, async (request, reply) => {
    const body = readTexts(request.body, { token: 'Token', password: 'Password' }, 'a password reset');
    // the link is checked before the password: a dead link says so, whatever the password
    const link = await inspectLink(database.db, body.token, now(), 'password-reset');
    const words = await linkPasswordContext(database.db, model, link);
    const issues = checkNewPassword(body.password, 'password', words);
    if (issues.length > 0) throw new ApiError('E_VALIDATION', {}, { errors: issues });
    const passwordHash = await hashPassword(body.password);
    const at = now();
    const user = await database.db.transaction().execute(async (tx) => {
      const link = await useLink(tx, body.token, 'password-reset', at);
      const changed = await setPasswordByLink(tx, model, link.userId, passwordHash, at, {
        endSessions: true,
      });
      // a user who never accepted their invitation has a password now: it no longer waits
      await revokeLinks(tx, 'invitation', changed.id, at);
      await recordAuthEvent(tx, {
        kind: 'password-reset-completed',
        at,
        userId: changed.id,
        email: changed.email,
        ...requestOrigin(request),
      });
      return changed;
    });
    // their cached sessions end with the rows: none of them is served again
    sessionCacheOf(database).forgetUser(user.id);
    // a reset proves the mailbox, not the second factor: it does not bypass it (ASVS 5.0 6.4.3)
    const challenge = await secondStepChallenge(context, user, 'password-reset');
    if (challenge !== null) return reply.code(202).send(challenge);
    return reply.send(await startSession(context, request, reply, user, 'password-reset'));
  });
}
