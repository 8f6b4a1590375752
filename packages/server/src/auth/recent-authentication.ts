/**
 * Recent authentication, "sudo mode" (decision 0042, ASVS 5.0 7.5.1 and 7.5.2): a session remembers
 * when its user last proved a factor (`ninefold_sessions.authenticated_at`: set when it begins, by
 * any way in, and by `POST <basePath>/session/confirm`). The changes that could lock the owner out
 * or keep a thief in (ending sessions, making an API token, changing one's e-mail) ask for one
 * within `RECENT_AUTHENTICATION_MS`, so that a session left open on a shared computer, or a stolen
 * cookie, cannot make them. A request made with an API token never passes: a script proves nothing.
 */
import { API_PATHS, type Model, RETRY_AFTER_HEADER } from '@ninefold/model';
import { type FastifyInstance, type FastifyRequest } from 'fastify';
import { type Database } from '../db/open.js';
import { ApiError, type FieldIssue } from '../http/errors.js';
import { apiPath } from '../http/paths.js';
import { PASSWORD_HASH_COLUMN, TABLES } from '../schema/names.js';
import { type LoginClient, loginLimiterOf } from './login-limiter.js';
import { acceptCode, readFactor } from './mfa/factor.js';
import { useRecoveryCode } from './mfa/recovery-codes.js';
import { dummyHash, verifyPassword } from './password.js';
import { requireUser } from './request-auth.js';
import { sessionCacheOf } from './session-cache.js';
import { hashSessionId } from './sessions.js';
import { normalizeEmail, usersTable } from './users.js';
import { type CounterStore } from '../limits/counters.js';

/** How long a proved factor counts as recent: 10 minutes. */
export const RECENT_AUTHENTICATION_MS = 10 * 60_000;

/** The longest confirmation text read: a password, a six-digit code or a recovery code. */
const MAX_SECRET = 1_000;

/**
 * Refuses (E_REAUTH_REQUIRED) a request whose session has not proved a factor within
 * `RECENT_AUTHENTICATION_MS` of `now`, and any request made with an API token.
 *
 * @example requireRecentAuthentication(request, now()); // throws, or the change goes on
 */
export function requireRecentAuthentication(request: FastifyRequest, now: Date): void {
  const { tokenId, sessionId, authenticatedAt } = request.auth;
  if (tokenId !== null || sessionId === null) {
    throw new ApiError(
      'E_REAUTH_REQUIRED',
      {},
      { detail: 'An API token cannot confirm who it is: sign in to make this change.' },
    );
  }
  if (authenticatedAt === null || now.getTime() - authenticatedAt >= RECENT_AUTHENTICATION_MS) {
    throw new ApiError('E_REAUTH_REQUIRED');
  }
}

/**
 * Registers `POST <basePath>/session/confirm`: `{ password }`, or `{ code }` (a code of the user's
 * second factor, or an unused recovery code, when the factor is on). Each try counts in the app's
 * login limiter as a sign-in does; a wrong one answers E_WRONG_PASSWORD or E_MFA_CODE, a right one
 * 204, and the session is recent again. A user without a password confirms by signing in again
 * (single sign-on): a new session is recent.
 *
 * @example registerRecentAuthenticationRoutes(api, { model, database, now: () => new Date() });
 */
export function registerRecentAuthenticationRoutes(
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

  api.post(apiPath(model, API_PATHS.sessionConfirm), async (request, reply) => {
    const user = requireUser(request);
    const sessionId = request.auth.sessionId;
    if (request.auth.tokenId !== null || sessionId === null)
      throw new ApiError(
        'E_FORBIDDEN',
        {},
        { detail: 'An API token cannot confirm who it is: sign in to make this change.' },
      );
    const proof = readProof(request.body);
    const client: LoginClient = { account: normalizeEmail(user.email), address: request.ip };
    const decision = await limiter.attempt(client);
    if (!decision.allowed) {
      throw new ApiError(
        'E_RATE_LIMITED',
        { retryAfter: decision.retryAfterSeconds },
        { headers: { [RETRY_AFTER_HEADER]: String(decision.retryAfterSeconds) } },
      );
    }
    const db = database.db;
    if ('password' in proof) {
      const row = await db
        .selectFrom(usersTable(model))
        .select([PASSWORD_HASH_COLUMN])
        .where('id', '=', user.id)
        .executeTakeFirst();
      const stored = row?.[PASSWORD_HASH_COLUMN];
      // without a password of their own (single sign-on) the answer and its time are a wrong one's
      const matches = await verifyPassword(
        typeof stored === 'string' ? stored : await dummyHash(),
        proof.password,
      );
      if (!matches || typeof stored !== 'string') {
        await limiter.failed(client);
        throw new ApiError('E_WRONG_PASSWORD');
      }
    } else {
      const factor = await readFactor(db, user.id);
      const right =
        factor?.enabled === true &&
        ((await acceptCode(db, user.id, factor.secret, proof.code, now())) ||
          (await useRecoveryCode(db, user.id, proof.code, now())));
      if (!right) {
        await limiter.failed(client);
        throw new ApiError('E_MFA_CODE');
      }
    }
    await limiter.succeeded(client);
    await db
      .updateTable(TABLES.sessions)
      .set({ authenticated_at: now().toISOString() })
      .where('id_hash', '=', hashSessionId(sessionId))
      .execute();
    // the cached session still holds the time before: it is read afresh at its next request
    sessionCacheOf(database).forgetSession(sessionId);
    return reply.code(204).send();
  });
}

/** The body of a confirmation: exactly one of `password` and `code`, as text. */
function readProof(body: unknown): { password: string } | { code: string } {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new ApiError('E_BAD_REQUEST', {
      reason: 'the body must be a JSON object with a password, or a code',
    });
  }
  const record = body as Record<string, unknown>;
  const issues: FieldIssue[] = [];
  for (const name of Object.keys(record)) {
    if (name !== 'password' && name !== 'code')
      issues.push({
        field: name,
        code: 'E_UNKNOWN_FIELD',
        params: { field: name, entity: 'a confirmation' },
      });
  }
  const given = (['password', 'code'] as const).filter(
    (name) => record[name] !== undefined && record[name] !== null && record[name] !== '',
  );
  const [name] = given;
  if (given.length !== 1 || name === undefined) {
    issues.push({ field: 'password', code: 'E_REQUIRED', params: { field: 'Password or code' } });
  } else {
    const value = record[name];
    const label = name === 'password' ? 'Password' : 'Code';
    if (typeof value !== 'string')
      issues.push({ field: name, code: 'E_TYPE', params: { field: label, expected: 'text' } });
    else if (value.length > MAX_SECRET)
      issues.push({ field: name, code: 'E_TOO_LONG', params: { field: label, max: MAX_SECRET } });
  }
  if (issues.length > 0 || name === undefined) throw new ApiError('E_VALIDATION', {}, { errors: issues });
  const value = record[name] as string;
  return name === 'password' ? { password: value } : { code: value.trim() };
}
