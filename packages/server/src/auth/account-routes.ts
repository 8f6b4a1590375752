/**
 * The signed-in user's own account (decision 0038): `PUT <basePath>/account/password` changes their
 * password (the current one required, guesses counted by the login limiter, their other sessions
 * ended), `GET <basePath>/account/sessions` lists their sessions, `DELETE account/sessions/<id>`
 * ends one and `DELETE account/sessions` ends all but this one. A session's public id is the SHA-256
 * the table keeps, never the cookie. `PUT <basePath>/account/email` changes their e-mail address
 * and mails a note to the old one. These are the person's, not a script's: a request made with an
 * API token is refused (E_FORBIDDEN). Ending another session and changing the e-mail ask for a
 * recent authentication (E_REAUTH_REQUIRED, decision 0042).
 */
import {
  API_PATHS,
  isEmail,
  type Model,
  RETRY_AFTER_HEADER,
  type SessionAnswer,
  type SessionMethod,
  type WireSession,
} from '@ninefold/model';
import { type UserContext, type WireRecord, can, writableFields } from '@ninefold/engine';
import { type FastifyInstance, type FastifyRequest } from 'fastify';
import { recordAuthEvent, requestOrigin } from '../audit/auth-events.js';
import { recordHistory } from '../audit/history.js';
import { decodeInteger, isUniqueViolation } from '../db/dialect.js';
import { type Database } from '../db/open.js';
import { ApiError, type FieldIssue } from '../http/errors.js';
import { apiPath } from '../http/paths.js';
import { LOCALE_COLUMN, PASSWORD_HASH_COLUMN, TABLES } from '../schema/names.js';
import { readTexts } from './identity-input.js';
import { loginLimiterOf } from './login-limiter.js';
import { dummyHash, hashPassword, verifyPassword } from './password.js';
import { checkNewPassword } from './password-policy.js';
import { emailChangedMail, enqueueMail } from './identity-mail.js';
import { requireRecentAuthentication } from './recent-authentication.js';
import { requireUser, requireUserContext } from './request-auth.js';
import { sessionCacheOf } from './session-cache.js';
import { hashSessionId, isExpired } from './sessions.js';
import { type UserSummary, normalizeEmail, usersTable } from './users.js';
import { type CounterStore } from '../limits/counters.js';

const PASSWORD_FIELDS = ['currentPassword', 'password'] as const;

/** A session's public id: the SHA-256 of its cookie, in hex. */
const SESSION_HASH = /^[0-9a-f]{64}$/;

/**
 * Registers the own-account routes.
 *
 * @example registerAccountRoutes(api, { model, database, now: () => new Date() });
 */
export function registerAccountRoutes(
  api: FastifyInstance,
  context: {
    readonly model: Model;
    readonly database: Database;
    readonly now: () => Date;
    readonly counters: CounterStore;
  },
): void {
  const { model, database, now } = context;
  const limiter = loginLimiterOf(context);
  const sessions = apiPath(model, API_PATHS.sessions);

  api.put(apiPath(model, API_PATHS.password), async (request, reply) => {
    const { user, sessionHash } = requirePerson(request);
    const input = readPasswordChange(request.body);
    const client = { account: normalizeEmail(user.email), address: request.ip };
    const decision = await limiter.attempt(client);
    if (!decision.allowed) {
      throw new ApiError(
        'E_RATE_LIMITED',
        { retryAfter: decision.retryAfterSeconds },
        { headers: { [RETRY_AFTER_HEADER]: String(decision.retryAfterSeconds) } },
      );
    }
    const table = usersTable(model);
    const row = await database.db
      .selectFrom(table)
      .select([PASSWORD_HASH_COLUMN, 'version'])
      .where('id', '=', user.id)
      .executeTakeFirst();
    const stored = row?.[PASSWORD_HASH_COLUMN];
    // without a password of their own (invited, single sign-on) the answer and its time are a wrong one's
    const matches = await verifyPassword(
      typeof stored === 'string' ? stored : await dummyHash(),
      input.currentPassword,
    );
    if (!matches || typeof stored !== 'string' || row === undefined) {
      await limiter.failed(client);
      throw new ApiError(
        'E_VALIDATION',
        {},
        { errors: [{ field: 'currentPassword', code: 'E_WRONG_PASSWORD', params: {} }] },
      );
    }
    await limiter.succeeded(client);
    const issues = checkNewPassword(input.password);
    if (issues.length > 0) throw new ApiError('E_VALIDATION', {}, { errors: issues });
    const passwordHash = await hashPassword(input.password);
    const at = now();
    await database.db.transaction().execute(async (tx) => {
      await tx
        .updateTable(table)
        .set({
          [PASSWORD_HASH_COLUMN]: passwordHash,
          updatedAt: at.toISOString(),
          version: decodeInteger(row['version']) + 1,
        })
        .where('id', '=', user.id)
        .execute();
      // the user's other sessions end; this one goes on (ASVS 5.0 7.4.3)
      await tx
        .deleteFrom(TABLES.sessions)
        .where('user_id', '=', user.id)
        .where('id_hash', '!=', sessionHash)
        .execute();
      await recordHistory(tx, {
        entity: 'User',
        recordId: user.id,
        at,
        by: user.id,
        action: 'update',
        // the history says that the password changed, never what it is
        changes: { password: { from: null, to: '(changed)' } },
      });
      await recordAuthEvent(tx, { kind: 'password-changed', at, userId: user.id, ...requestOrigin(request) });
    });
    // the cache knows sessions by the cookie, which the server does not keep: all of the user's go
    sessionCacheOf(database).forgetUser(user.id);
    return reply.code(204).send();
  });

  api.get(sessions, async (request): Promise<{ data: WireSession[] }> => {
    const { user, sessionHash } = requirePerson(request);
    const time = now().getTime();
    const rows = await database.db
      .selectFrom(TABLES.sessions)
      .select(['id_hash', 'created_at', 'last_seen_at', 'user_agent', 'address', 'method'])
      .where('user_id', '=', user.id)
      .orderBy('last_seen_at', 'desc')
      .orderBy('id_hash')
      .execute();
    const data = rows
      // a session past its lifetime is over, though its row waits for its next lookup to go
      .filter(
        (row) =>
          !isExpired(
            model.limits,
            Date.parse(String(row['created_at'])),
            Date.parse(String(row['last_seen_at'])),
            time,
          ),
      )
      .map((row) => wireSession(row, sessionHash));
    return { data };
  });

  api.delete(`${sessions}/:id`, async (request, reply) => {
    const { user, sessionHash } = requirePerson(request);
    const { id } = request.params as { id: string };
    const at = now();
    // ending this very session is signing out, which never asks
    if (id !== sessionHash) requireRecentAuthentication(request, at);
    // a hash-shaped text only: no other text reaches the database (a NUL is no PostgreSQL text)
    const ended = !SESSION_HASH.test(id)
      ? false
      : await database.db.transaction().execute(async (tx) => {
          const result = await tx
            .deleteFrom(TABLES.sessions)
            .where('id_hash', '=', id)
            .where('user_id', '=', user.id)
            .executeTakeFirst();
          if (Number(result.numDeletedRows) === 0) return false;
          await recordAuthEvent(tx, {
            kind: 'session-ended',
            at,
            userId: user.id,
            detail: { sessions: id === sessionHash ? 'this one' : '1' },
            ...requestOrigin(request),
          });
          return true;
        });
    // someone else's session is as unknown as one that never was
    if (!ended) throw new ApiError('E_NOT_FOUND', { entity: 'session' });
    sessionCacheOf(database).forgetUser(user.id);
    return reply.code(204).send();
  });

  api.delete(sessions, async (request, reply) => {
    const { user, sessionHash } = requirePerson(request);
    const at = now();
    requireRecentAuthentication(request, at);
    await database.db.transaction().execute(async (tx) => {
      const result = await tx
        .deleteFrom(TABLES.sessions)
        .where('user_id', '=', user.id)
        .where('id_hash', '!=', sessionHash)
        .executeTakeFirst();
      await recordAuthEvent(tx, {
        kind: 'session-ended',
        at,
        userId: user.id,
        detail: { sessions: String(result.numDeletedRows), kept: 'this one' },
        ...requestOrigin(request),
      });
    });
    sessionCacheOf(database).forgetUser(user.id);
    return reply.code(204).send();
  });

  // the language the user picked in the app (decision 0067): theirs on every device they sign in on
  api.put(apiPath(model, API_PATHS.accountLocale), async (request, reply) => {
    const { user } = requirePerson(request);
    const locale = readLocale(model, request.body);
    await database.db
      .updateTable(usersTable(model))
      .set({ [LOCALE_COLUMN]: locale })
      .where('id', '=', user.id)
      .execute();
    // every session of the user carries it: they are read afresh
    sessionCacheOf(database).forgetUser(user.id);
    const { id, email, name, roles } = user;
    const answer: SessionAnswer = {
      user: { id, email, name, roles, locale, context: requireUserContext(request) },
    };
    return reply.send(answer);
  });

  api.put(apiPath(model, API_PATHS.accountEmail), async (request, reply) => {
    const { user } = requirePerson(request);
    const at = now();
    if (!mayChangeOwnEmail(model, requireUserContext(request), at))
      throw new ApiError(
        'E_FORBIDDEN',
        {},
        { detail: 'Your role may not change your e-mail address: ask an administrator.' },
      );
    requireRecentAuthentication(request, at);
    const email = readEmail(request.body);
    if (email === normalizeEmail(user.email)) return reply.code(204).send();
    const table = usersTable(model);
    try {
      await database.db.transaction().execute(async (tx) => {
        const row = await tx
          .selectFrom(table)
          .select(['email', 'version'])
          .where('id', '=', user.id)
          .executeTakeFirst();
        if (row === undefined) throw new ApiError('E_UNAUTHENTICATED');
        const old = String(row['email']);
        await tx
          .updateTable(table)
          .set({ email, updatedAt: at.toISOString(), version: decodeInteger(row['version']) + 1 })
          .where('id', '=', user.id)
          .execute();
        await recordHistory(tx, {
          entity: 'User',
          recordId: user.id,
          at,
          by: user.id,
          action: 'update',
          changes: { email: { from: old, to: email } },
        });
        await recordAuthEvent(tx, {
          kind: 'email-changed',
          at,
          userId: user.id,
          detail: { from: old, to: email },
          ...requestOrigin(request),
        });
        // the old address's owner learns of it, whoever made it: no link, no secret (ASVS 5.0 6.3.7)
        await enqueueMail(tx, emailChangedMail(model, old, email), at);
      });
    } catch (error) {
      if (isUniqueViolation(error))
        throw new ApiError(
          'E_UNIQUE',
          { field: 'Email' },
          { errors: [{ field: 'email', code: 'E_UNIQUE', params: { field: 'Email' } }] },
        );
      throw error;
    }
    // every session of the user carries their e-mail: they are read afresh
    sessionCacheOf(database).forgetUser(user.id);
    return reply.code(204).send();
  });
}

/**
 * Whether the spec lets a user change their own e-mail: their role may update their User record
 * and its `email` (deny by default: without a User entity, no one may).
 *
 * @example mayChangeOwnEmail(model, requireUserContext(request), now()) // true for an admin of PEOPLE
 */
export function mayChangeOwnEmail(model: Model, user: UserContext, now: Date): boolean {
  if (model.entities['User'] === undefined) return false;
  const record = user as unknown as WireRecord;
  if (!can(model, user, 'update', 'User', record, { now })) return false;
  const writable = writableFields(model, user, 'User', 'update', record, { now });
  return writable === null || writable.includes('email');
}

/** The body of an e-mail change: `{ email }`, an address, normalised as every other path stores it. */
/**
 * The locale of a language choice: one of the spec's `product.locales` (as the spec spells it), or
 * null to forget the choice.
 */
function readLocale(model: Model, body: unknown): string | null {
  const value =
    typeof body === 'object' && body !== null ? (body as Record<string, unknown>)['locale'] : undefined;
  if (value === null) return null;
  const offered = model.product.locales;
  const locale =
    typeof value === 'string' ? offered.find((tag) => tag.toLowerCase() === value.toLowerCase()) : undefined;
  if (locale !== undefined) return locale;
  throw new ApiError(
    'E_VALIDATION',
    {},
    {
      errors: [
        {
          field: 'locale',
          code: 'E_NOT_ONE_OF',
          params: {
            field: 'Language',
            value: typeof value === 'string' ? value : '',
            allowed: offered.join(', '),
          },
        },
      ],
    },
  );
}

function readEmail(body: unknown): string {
  const { email } = readTexts(body, { email: 'Email' }, 'an e-mail change');
  const normalized = normalizeEmail(email);
  if (!isEmail(normalized))
    throw new ApiError(
      'E_VALIDATION',
      {},
      {
        errors: [
          { field: 'email', code: 'E_FORMAT', params: { field: 'Email', expected: 'an email address' } },
        ],
      },
    );
  return normalized;
}

/**
 * The signed-in person and the hash of their session, or E_UNAUTHENTICATED (not signed in) or
 * E_FORBIDDEN (an API token: a script may not manage the account that made it).
 */
function requirePerson(request: FastifyRequest): { user: UserSummary; sessionHash: string } {
  const user = requireUser(request);
  const sessionId = request.auth.sessionId;
  if (request.auth.tokenId !== null || sessionId === null) {
    throw new ApiError(
      'E_FORBIDDEN',
      {},
      { detail: 'An API token cannot manage its account: sign in to change a password or end sessions.' },
    );
  }
  return { user, sessionHash: hashSessionId(sessionId) };
}

function wireSession(row: Readonly<Record<string, unknown>>, currentHash: string): WireSession {
  const text = (value: unknown) => (value === null || value === undefined ? null : String(value));
  return {
    id: String(row['id_hash']),
    createdAt: String(row['created_at']),
    lastSeenAt: String(row['last_seen_at']),
    current: row['id_hash'] === currentHash,
    userAgent: text(row['user_agent']),
    address: text(row['address']),
    method: text(row['method']) as SessionMethod | null,
  };
}

/** The body of a password change: `{ currentPassword, password }`, both text, nothing else. */
function readPasswordChange(body: unknown): { currentPassword: string; password: string } {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new ApiError('E_BAD_REQUEST', {
      reason: 'the body must be a JSON object with a currentPassword and a password',
    });
  }
  const record = body as Record<string, unknown>;
  const issues: FieldIssue[] = [];
  for (const name of Object.keys(record)) {
    if (!(PASSWORD_FIELDS as readonly string[]).includes(name))
      issues.push({
        field: name,
        code: 'E_UNKNOWN_FIELD',
        params: { field: name, entity: 'a password change' },
      });
  }
  for (const name of PASSWORD_FIELDS) {
    const label = name === 'currentPassword' ? 'Current password' : 'New password';
    const value = record[name];
    if (value === undefined || value === null || value === '')
      issues.push({ field: name, code: 'E_REQUIRED', params: { field: label } });
    else if (typeof value !== 'string')
      issues.push({ field: name, code: 'E_TYPE', params: { field: label, expected: 'text' } });
  }
  if (issues.length > 0) throw new ApiError('E_VALIDATION', {}, { errors: issues });
  return { currentPassword: record['currentPassword'] as string, password: record['password'] as string };
}
