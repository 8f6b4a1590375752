/**
 * `POST <basePath>/session` (sign in), `GET` (who am I), `DELETE` (sign out), under the spec's
 * `calls.basePath` like the resources. A user with the second factor on, or whom the spec's
 * `auth.mfa` requires to turn it on, gets a challenge (202) instead of a session, and finishes at
 * `POST <basePath>/session/mfa` (`mfa/routes.ts`, `mfa/policy.ts`).
 */
import { type UserContext } from '@ninefold/engine';
import {
  API_PATHS,
  type Model,
  RETRY_AFTER_HEADER,
  SESSION_COOKIE,
  type SessionAnswer,
  type SessionMethod,
  type SessionUser,
} from '@ninefold/model';
import { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { type Database } from '../db/open.js';
import { unstorable } from '../db/storable-text.js';
import { ApiError, type FieldIssue } from '../http/errors.js';
import { apiPath } from '../http/paths.js';
import { userContext } from '../resources/records.js';
import { LOCALE_COLUMN, PASSWORD_HASH_COLUMN } from '../schema/names.js';
import { recordAuthEvent, requestOrigin } from '../audit/auth-events.js';
import { loginLimiterOf } from './login-limiter.js';
import { secondStepChallenge } from './mfa/policy.js';
import { dummyHash, verifyPassword } from './password.js';
import { requireUser, requireUserContext, sessionCookieOptions } from './request-auth.js';
import { createSession, endSession } from './sessions.js';
import { type UserSummary, normalizeEmail, toSummary, usersTable } from './users.js';
import { type CounterStore } from '../limits/counters.js';

const LOGIN_FIELDS = ['email', 'password'] as const;

/**
 * Registers the session routes.
 *
 * @example registerSessionRoutes(app, { model, database, now: () => new Date() });
 */
export function registerSessionRoutes(
  app: FastifyInstance,
  context: {
    readonly model: Model;
    readonly database: Database;
    readonly now: () => Date;
    readonly counters: CounterStore;
  },
): void {
  const { model, database, now } = context;
  const limiter = loginLimiterOf(context);
  const path = apiPath(model, API_PATHS.session);
  void dummyHash(); // computed ahead, so the first unknown email costs no more than later ones

  app.post(path, async (request, reply) => {
    const { email, password } = readCredentials(request.body);
    const client = { account: normalizeEmail(email), address: request.ip };
    const decision = await limiter.attempt(client);
    if (!decision.allowed) {
      throw new ApiError(
        'E_RATE_LIMITED',
        { retryAfter: decision.retryAfterSeconds },
        { headers: { [RETRY_AFTER_HEADER]: String(decision.retryAfterSeconds) } },
      );
    }
    const row = await database.db
      .selectFrom(usersTable(model))
      .select(['id', 'email', 'name', 'roles', 'disabled', PASSWORD_HASH_COLUMN, LOCALE_COLUMN])
      .where('email', '=', normalizeEmail(email))
      .executeTakeFirst();
    const stored = row?.[PASSWORD_HASH_COLUMN];
    // an unknown email pays for one hash check too: its answer and its time match a wrong password's
    const matches = await verifyPassword(typeof stored === 'string' ? stored : await dummyHash(), password);
    const user = row === undefined ? null : toSummary(row);
    if (user === null || !matches || user.disabled || typeof stored !== 'string') {
      await limiter.failed(client);
      await recordAuthEvent(database.db, {
        kind: 'sign-in-failed',
        at: now(),
        userId: user?.id ?? null,
        email: client.account,
        ...requestOrigin(request),
      });
      throw new ApiError('E_INVALID_CREDENTIALS');
    }
    const challenge = await secondStepChallenge(context, user, 'password');
    // no session yet, and the pair's failures stay until the code is right (decision 0041)
    if (challenge !== null) return reply.code(202).send(challenge);
    await limiter.succeeded(client);
    const answer = await startSession(context, request, reply, user, 'password');
    await recordAuthEvent(database.db, {
      kind: 'sign-in',
      at: now(),
      userId: user.id,
      ...requestOrigin(request),
    });
    return reply.send(answer);
  });

  app.get(path, async (request, reply) => {
    if (request.auth.expired) clearCookie(request, reply, model);
    const user = requireUser(request);
    // authentication read the user's record with the session
    const answer: SessionAnswer = { user: summaryWith(user, requireUserContext(request)) };
    return reply.send(answer);
  });

  app.delete(path, async (request: FastifyRequest, reply: FastifyReply) => {
    const id = request.cookies[SESSION_COOKIE];
    if (id !== undefined && id !== '') await endSession(database, id);
    const user = request.auth.user;
    if (user !== null && request.auth.sessionId !== null)
      await recordAuthEvent(database.db, {
        kind: 'sign-out',
        at: now(),
        userId: user.id,
        ...requestOrigin(request),
      });
    clearCookie(request, reply, model);
    return reply.code(204).send();
  });
}

/**
 * Signs a user in on this request: ends the session its cookie named (a new id at every sign-in, so
 * that a session id planted before it is worth nothing after), starts one recording where and how it
 * began, sets the cookie, and answers who is signed in. Every way in (a password, an invitation, a
 * checked sign-up, a reset, single sign-on) ends here.
 *
 * @example return reply.send(await startSession(context, request, reply, user, 'invitation'));
 */
export async function startSession(
  context: { readonly model: Model; readonly database: Database; readonly now: () => Date },
  request: FastifyRequest,
  reply: FastifyReply,
  user: UserSummary,
  method: SessionMethod,
): Promise<SessionAnswer> {
  const { model, database } = context;
  const previous = request.cookies[SESSION_COOKIE];
  if (previous !== undefined && previous !== '') await endSession(database, previous);
  const id = await createSession(database, user.id, context.now(), {
    userAgent: request.headers['user-agent'] ?? null,
    address: request.ip,
    method,
  });
  reply.setCookie(SESSION_COOKIE, id, sessionCookieOptions(request, model));
  return { user: await sessionUser(model, database, user) };
}

async function sessionUser(model: Model, database: Database, user: UserSummary): Promise<SessionUser> {
  return summaryWith(user, await userContext(model, database.db, user, database.dialect));
}

function summaryWith(user: UserSummary, context: UserContext): SessionUser {
  const locale = user.locale ?? null;
  return { id: user.id, email: user.email, name: user.name, roles: user.roles, locale, context };
}

function clearCookie(request: FastifyRequest, reply: FastifyReply, model: Model): void {
  const { maxAge: _maxAge, ...options } = sessionCookieOptions(request, model);
  reply.clearCookie(SESSION_COOKIE, options);
}

/** The login body: `{ email, password }`, both strings, nothing else; an email both databases can hold. */
function readCredentials(body: unknown): { email: string; password: string } {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new ApiError('E_BAD_REQUEST', {
      reason: 'the body must be a JSON object with an email and a password',
    });
  }
  const record = body as Record<string, unknown>;
  const issues: FieldIssue[] = [];
  for (const name of Object.keys(record)) {
    if (!(LOGIN_FIELDS as readonly string[]).includes(name)) {
      issues.push({ field: name, code: 'E_UNKNOWN_FIELD', params: { field: name, entity: 'a sign-in' } });
    }
  }
  for (const name of LOGIN_FIELDS) {
    const label = name === 'email' ? 'Email' : 'Password';
    const value = record[name];
    if (value === undefined || value === null || value === '') {
      issues.push({ field: name, code: 'E_REQUIRED', params: { field: label } });
    } else if (typeof value !== 'string') {
      issues.push({ field: name, code: 'E_TYPE', params: { field: label, expected: 'text' } });
    } else if (name === 'email' && unstorable(value) !== null) {
      // the email is looked up; the password is only hashed, so any text will do
      issues.push({ field: name, code: 'E_FORMAT', params: { field: label, expected: unstorable(value) } });
    }
  }
  if (issues.length > 0) throw new ApiError('E_VALIDATION', {}, { errors: issues });
  return { email: record['email'] as string, password: record['password'] as string };
}
