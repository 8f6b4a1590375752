/**
 * Sign-up (decision 0037), only when the spec's `auth.signUp` names a role:
 * `POST <basePath>/sign-ups { email, password, name }` answers 202 `{}` whatever the address, and
 * `POST <basePath>/sign-ups/verify { token }` opens the account and signs in.
 *
 * A new address gets a 24-hour link that checks it; the link carries the name and the argon2id hash
 * of the password (never the password), and the account is made only when the link is followed, so
 * nobody can hold an address they cannot read. A taken address gets a note to its owner instead.
 * Both cost the same work — the password is hashed either way, one job is written either way — so
 * neither the answer nor its time tells whether an address has an account. Shape, address, name,
 * password policy and `signUpDomains` answer 422 alike for new and taken addresses.
 */
import { API_PATHS, type Model, isBlank, isEmail } from '@ninefold/model';
import { type FastifyInstance } from 'fastify';
import { recordAuthEvent, requestOrigin } from '../audit/auth-events.js';
import { type Database } from '../db/open.js';
import { ApiError, type FieldIssue } from '../http/errors.js';
import { apiPath } from '../http/paths.js';
import { type MailSettings } from '../mail/settings.js';
import { enqueueLinkMail, enqueueMail, signUpTakenMail } from './identity-mail.js';
import { readTexts } from './identity-input.js';
import { IdentityLimiter } from './identity-limiter.js';
import { type CounterStore } from '../limits/counters.js';
import { openAccount } from './link-accounts.js';
import { createLink, publicBase, useLink } from './links.js';
import { hashPassword } from './password.js';
import { checkNewPassword } from './password-policy.js';
import { sessionCacheOf } from './session-cache.js';
import { secondStepChallenge } from './mfa/policy.js';
import { startSession } from './session-routes.js';
import { normalizeEmail, usersTable } from './users.js';

/** What a sign-up link carries besides the address: never the password itself. */
interface SignUpPayload {
  readonly name: string;
  readonly passwordHash: string;
}

/** The longest name a sign-up may give. */
const MAX_NAME = 200;

/**
 * Registers the sign-up routes, when the spec lets people sign up.
 *
 * @example registerSignUpRoutes(api, { model, database, now, settings });
 */
export function registerSignUpRoutes(
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
  const role = model.auth.signUp;
  if (role === null) return;
  const limiter = new IdentityLimiter('sign-up', now, context.counters);
  const path = apiPath(model, API_PATHS.signUps);

  api.post(path, async (request, reply) => {
    const body = readTexts(request.body, { email: 'Email', password: 'Password', name: 'Name' }, 'a sign-up');
    const email = normalizeEmail(body.email);
    await limiter.attempt({ address: request.ip, email });
    const name = body.name.trim();
    const issues: FieldIssue[] = [
      ...(isEmail(email)
        ? checkDomain(model, email)
        : [
            {
              field: 'email',
              code: 'E_FORMAT' as const,
              params: { field: 'Email', expected: 'an email address' },
            },
          ]),
      ...(isBlank(name) ? [{ field: 'name', code: 'E_REQUIRED' as const, params: { field: 'Name' } }] : []),
      ...([...name].length > MAX_NAME
        ? [{ field: 'name', code: 'E_TOO_LONG' as const, params: { field: 'Name', max: MAX_NAME } }]
        : []),
      ...checkNewPassword(body.password, 'password', { productName: model.product.name, email, name }),
    ];
    if (issues.length > 0) throw new ApiError('E_VALIDATION', {}, { errors: issues });
    const base = publicBase(settings, request);
    // hashed whatever the address: a taken one costs the same time as a new one
    const passwordHash = await hashPassword(body.password);
    const at = now();
    await database.db.transaction().execute(async (tx) => {
      const taken = await tx
        .selectFrom(usersTable(model))
        .select('id')
        .where('email', '=', email)
        .executeTakeFirst();
      if (taken === undefined) {
        const payload: SignUpPayload = { name, passwordHash };
        const link = await createLink(tx, { purpose: 'sign-up', userId: null, email, payload }, at);
        await enqueueLinkMail(tx, { link: link.id, base }, at);
      } else {
        await enqueueMail(tx, signUpTakenMail(model, email, base), at);
      }
      await recordAuthEvent(tx, {
        kind: 'sign-up-requested',
        at,
        userId: taken === undefined ? null : String(taken['id']),
        email,
        ...requestOrigin(request),
        detail: { address: taken === undefined ? 'new' : 'taken' },
      });
    });
    return reply.code(202).send({});
  });

  api.post(`${path}/verify`, async (request, reply) => {
    const { token } = readTexts(request.body, { token: 'Token' }, 'an e-mail check');
    const at = now();
    const user = await database.db.transaction().execute(async (tx) => {
      const link = await useLink(tx, token, 'sign-up', at);
      const payload = link.payload as SignUpPayload;
      const taken = await tx
        .selectFrom(usersTable(model))
        .select('id')
        .where('email', '=', link.email)
        .executeTakeFirst();
      // the address got an account meanwhile (an invitation, another sign-up checked first)
      if (taken !== undefined) throw new ApiError('E_LINK_USED');
      const opened = await openAccount(
        tx,
        model,
        database.dialect,
        { email: link.email, name: payload.name, roles: [role], passwordHash: payload.passwordHash },
        at,
      );
      await recordAuthEvent(tx, {
        kind: 'sign-up-verified',
        at,
        userId: opened.id,
        email: opened.email,
        ...requestOrigin(request),
      });
      return opened;
    });
    sessionCacheOf(database).forgetUser(user.id);
    // a role the spec requires the second factor of turns it on before the first session
    const challenge = await secondStepChallenge(context, user, 'sign-up');
    if (challenge !== null) return reply.code(202).send(challenge);
    return reply.send(await startSession(context, request, reply, user, 'sign-up'));
  });
}

/** E_EMAIL_DOMAIN when `auth.signUpDomains` lists domains and the address is at none of them. */
function checkDomain(model: Model, email: string): FieldIssue[] {
  const domains = model.auth.signUpDomains;
  if (domains.length === 0) return [];
  const domain = email.slice(email.lastIndexOf('@') + 1);
  if (domains.includes(domain)) return [];
  return [{ field: 'email', code: 'E_EMAIL_DOMAIN', params: { values: domains.join(', ') } }];
}
