/**
 * The second factor's routes (decision 0041): the signed-in user's own (`GET`, `POST`, `DELETE`
 * `<basePath>/account/mfa`, `POST …/confirm`, `POST …/recovery-codes`) and a sign-in's second step
 * (`POST <basePath>/session/mfa`), and, for a user the spec's `auth.mfa` requires it of who has none
 * yet, the enrolment that sign-in must begin with (`POST <basePath>/session/mfa/enrol`, confirmed by
 * the first code at `session/mfa`, which answers the recovery codes with the session). Every change asks for the current password again (ASVS 5.0
 * 7.5.1), and wrong passwords and wrong codes count in the sign-in limiter, as a wrong password at
 * sign-in does: a stolen password alone does not buy unlimited guesses at the code.
 */
import {
  API_PATHS,
  type EnrolledSessionAnswer,
  type MfaEnrolment,
  type MfaStatus,
  type Model,
  RETRY_AFTER_HEADER,
  type RecoveryCodesAnswer,
} from '@ninefold/model';
import { type FastifyInstance, type FastifyRequest } from 'fastify';
import { recordAuthEvent, requestOrigin } from '../../audit/auth-events.js';
import { type Database } from '../../db/open.js';
import { ApiError, type FieldIssue } from '../../http/errors.js';
import { apiPath } from '../../http/paths.js';
import { PASSWORD_HASH_COLUMN } from '../../schema/names.js';
import { endSessions } from '../end-sessions.js';
import { type LoginClient, type LoginLimiter, loginLimiterOf } from '../login-limiter.js';
import { verifyPassword } from '../password.js';
import { requireUser } from '../request-auth.js';
import { startSession } from '../session-routes.js';
import { type UserSummary, toSummary, usersTable } from '../users.js';
import { type OpenChallenge, failChallenge, finishChallenge, openChallenge } from './challenges.js';
import { type StoredFactor, acceptCode, enrol, readFactor, removeFactor } from './factor.js';
import { requiredBecause } from './policy.js';
import { recoveryCodesLeft, replaceRecoveryCodes, useRecoveryCode } from './recovery-codes.js';
import { totpEnrolment } from './totp.js';
import { type CounterStore } from '../../limits/counters.js';

type Context = {
  readonly model: Model;
  readonly database: Database;
  readonly now: () => Date;
  readonly counters: CounterStore;
};

/**
 * Registers the routes, counting failures in the app's sign-in limiter (`loginLimiterOf`).
 *
 * @example registerMfaRoutes(api, context);
 */
export function registerMfaRoutes(app: FastifyInstance, context: Context): void {
  const { model, database, now } = context;
  const limiter = loginLimiterOf(context);
  const db = database.db;
  const mfa = apiPath(model, API_PATHS.mfa);

  /** The signed-in user, once their current password is checked (and counted when wrong). */
  const reauthenticate = async (request: FastifyRequest, password: string): Promise<UserSummary> => {
    const user = requireUser(request);
    const client: LoginClient = { account: user.email, address: request.ip };
    await admit(limiter, client);
    const stored = await passwordHashOf(context, user.id);
    if (stored === null) throw new ApiError('E_MFA_STATE', { reason: NO_PASSWORD });
    if (!(await verifyPassword(stored, password))) {
      await limiter.failed(client);
      throw new ApiError('E_WRONG_PASSWORD');
    }
    return user;
  };

  app.get(mfa, async (request) => {
    const user = requireUser(request);
    const factor = await readFactor(db, user.id);
    const enabled = factor?.enabled === true;
    const status: MfaStatus = {
      enabled,
      recoveryCodesLeft: enabled ? await recoveryCodesLeft(db, user.id) : 0,
      available: (await passwordHashOf(context, user.id)) !== null,
      required: requiredBecause(model, user.roles) !== null,
    };
    return status;
  });

  app.post(mfa, async (request) => {
    const body = readBody(request.body, { currentPassword: 'text' }, 'an enrolment');
    const user = await reauthenticate(request, body.currentPassword);
    if ((await readFactor(db, user.id))?.enabled === true)
      throw new ApiError('E_MFA_STATE', { reason: 'it is on already; turn it off first to use another app' });
    const secret = await enrol(db, user.id, now());
    const enrolment: MfaEnrolment = totpEnrolment(secret, model.product.name, user.email);
    return enrolment;
  });

  app.post(apiPath(model, API_PATHS.mfaConfirm), async (request) => {
    const body = readBody(request.body, { code: 'text', endOtherSessions: 'flag?' }, 'a confirmation');
    const user = requireUser(request);
    const factor = await readFactor(db, user.id);
    if (factor === null || factor.enabled)
      throw new ApiError('E_MFA_STATE', {
        reason: factor === null ? 'nothing is waiting to be confirmed; start again' : 'it is on already',
      });
    const answer: RecoveryCodesAnswer = {
      // the factor goes on with its recovery codes and its event, or not at all
      recoveryCodes: await db.transaction().execute(async (tx) => {
        if (!(await acceptCode(tx, user.id, factor.secret, body.code, now(), true)))
          throw new ApiError('E_MFA_CODE');
        const codes = await replaceRecoveryCodes(tx, user.id, now());
        await recordAuthEvent(tx, {
          kind: 'mfa-enabled',
          at: now(),
          userId: user.id,
          ...requestOrigin(request),
        });
        return codes;
      }),
    };
    if (body.endOtherSessions === true) await endOthers(request, user);
    return answer;
  });

  app.delete(mfa, async (request, reply) => {
    const body = readBody(
      request.body,
      { currentPassword: 'text', endOtherSessions: 'flag?' },
      'turning two-step sign-in off',
    );
    const user = await reauthenticate(request, body.currentPassword);
    if ((await readFactor(db, user.id))?.enabled !== true)
      throw new ApiError('E_MFA_STATE', { reason: 'it is not on' });
    const required = requiredBecause(model, user.roles);
    if (required !== null) throw new ApiError('E_MFA_REQUIRED', { reason: required });
    await db.transaction().execute(async (tx) => {
      await removeFactor(tx, user.id);
      await recordAuthEvent(tx, {
        kind: 'mfa-disabled',
        at: now(),
        userId: user.id,
        ...requestOrigin(request),
      });
    });
    if (body.endOtherSessions === true) await endOthers(request, user);
    return reply.code(204).send();
  });

  app.post(apiPath(model, API_PATHS.recoveryCodes), async (request) => {
    const body = readBody(request.body, { currentPassword: 'text' }, 'new recovery codes');
    const user = await reauthenticate(request, body.currentPassword);
    if ((await readFactor(db, user.id))?.enabled !== true)
      throw new ApiError('E_MFA_STATE', {
        reason: 'it is not on, so there are no recovery codes to replace',
      });
    const answer: RecoveryCodesAnswer = {
      recoveryCodes: await db.transaction().execute(async (tx) => {
        const codes = await replaceRecoveryCodes(tx, user.id, now());
        await recordAuthEvent(tx, {
          kind: 'recovery-codes-replaced',
          at: now(),
          userId: user.id,
          ...requestOrigin(request),
        });
        return codes;
      }),
    };
    return answer;
  });

  /** The live challenge of a body and its user, or E_MFA_CHALLENGE. */
  const challengeOf = async (challenge: string): Promise<{ open: OpenChallenge; user: UserSummary }> => {
    const open = await openChallenge(db, challenge, now());
    const user = open === null ? null : await userOf(context, open.userId);
    if (open === null || user === null || user.disabled) throw new ApiError('E_MFA_CHALLENGE');
    return { open, user };
  };

  /** Whether a challenge's user must turn the factor on before their session (`auth.mfa`). */
  const mustEnrol = (user: UserSummary, factor: StoredFactor | null) =>
    factor?.enabled !== true && requiredBecause(model, user.roles) !== null;

  app.post(apiPath(model, API_PATHS.mfaEnrolSignIn), async (request) => {
    const body = readBody(request.body, { challenge: 'text' }, 'an enrolment at sign-in');
    const { user } = await challengeOf(body.challenge);
    // the challenge proves the password; only a user who must enrol and has not may start one here
    if (!mustEnrol(user, await readFactor(db, user.id)))
      throw new ApiError('E_MFA_STATE', { reason: 'this sign-in asks for a code, not a new app' });
    const secret = await enrol(db, user.id, now());
    const enrolment: MfaEnrolment = totpEnrolment(secret, model.product.name, user.email);
    return enrolment;
  });

  app.post(apiPath(model, API_PATHS.mfaSignIn), async (request, reply) => {
    const body = readBody(request.body, { challenge: 'text', code: 'text' }, 'a second step');
    const { open, user } = await challengeOf(body.challenge);
    const client: LoginClient = { account: user.email, address: request.ip };
    await admit(limiter, client);
    const factor = await readFactor(db, user.id);
    const enrolling = mustEnrol(user, factor);
    // the required enrolment's first code turns the factor on, uses the challenge and makes the
    // recovery codes, with its event, in one transaction; null when the code is wrong
    const recoveryCodes =
      enrolling && factor !== null
        ? await db.transaction().execute(async (tx) => {
            if (!(await acceptCode(tx, user.id, factor.secret, body.code, now(), true))) return null;
            if (!(await finishChallenge(tx, open))) throw new ApiError('E_MFA_CHALLENGE');
            const codes = await replaceRecoveryCodes(tx, user.id, now());
            await recordAuthEvent(tx, {
              kind: 'mfa-enabled',
              at: now(),
              userId: user.id,
              ...requestOrigin(request),
            });
            return codes;
          })
        : null;
    // the factor may have been turned off meanwhile: then no code is right and the challenge dies
    const right = enrolling
      ? recoveryCodes !== null
      : factor?.enabled === true &&
        ((await acceptCode(db, user.id, factor.secret, body.code, now())) ||
          (await useRecoveryCode(db, user.id, body.code, now())));
    if (!right) {
      await limiter.failed(client);
      await failChallenge(db, open);
      await recordAuthEvent(db, {
        kind: 'mfa-failed',
        at: now(),
        userId: user.id,
        ...requestOrigin(request),
      });
      throw new ApiError('E_MFA_CODE');
    }
    if (!enrolling && !(await finishChallenge(db, open))) throw new ApiError('E_MFA_CHALLENGE');
    await limiter.succeeded(client);
    const session = await startSession(context, request, reply, user, open.method);
    const answer: EnrolledSessionAnswer = recoveryCodes === null ? session : { ...session, recoveryCodes };
    await recordAuthEvent(db, {
      kind: 'sign-in',
      at: now(),
      userId: user.id,
      detail: { secondFactor: 'yes' },
      ...requestOrigin(request),
    });
    return reply.send(answer);
  });

  /** Ends the user's sessions but this request's (ASVS 5.0 7.4.3: offered after a factor changes). */
  const endOthers = (request: FastifyRequest, user: UserSummary) =>
    endSessions(database, { userId: user.id, except: request.auth.sessionId ?? undefined });
}

const NO_PASSWORD =
  'your account signs in with single sign-on only, and your provider asks for the second step';

/** Refuses a client the limiter holds back (E_RATE_LIMITED with Retry-After); counts it otherwise. */
async function admit(limiter: LoginLimiter, client: LoginClient): Promise<void> {
  const decision = await limiter.attempt(client);
  if (!decision.allowed) {
    throw new ApiError(
      'E_RATE_LIMITED',
      { retryAfter: decision.retryAfterSeconds },
      { headers: { [RETRY_AFTER_HEADER]: String(decision.retryAfterSeconds) } },
    );
  }
}

async function passwordHashOf(context: Context, userId: string): Promise<string | null> {
  const row = await context.database.db
    .selectFrom(usersTable(context.model))
    .select([PASSWORD_HASH_COLUMN])
    .where('id', '=', userId)
    .executeTakeFirst();
  const stored = row?.[PASSWORD_HASH_COLUMN];
  return typeof stored === 'string' ? stored : null;
}

async function userOf(context: Context, userId: string): Promise<UserSummary | null> {
  const row = await context.database.db
    .selectFrom(usersTable(context.model))
    .select(['id', 'email', 'name', 'roles', 'disabled'])
    .where('id', '=', userId)
    .executeTakeFirst();
  return row === undefined ? null : toSummary(row);
}

/** What a body's field must be: text (required, non-empty), or an optional flag. */
type FieldKind = 'text' | 'flag?';
type BodyOf<F extends Record<string, FieldKind>> = {
  [K in keyof F]: F[K] extends 'text' ? string : boolean | undefined;
};

/**
 * A body of exactly these fields (no others: no mass assignment), or E_BAD_REQUEST / E_VALIDATION.
 *
 * @example readBody(request.body, { currentPassword: 'text' }, 'an enrolment') // { currentPassword: '…' }
 */
function readBody<F extends Record<string, FieldKind>>(body: unknown, fields: F, what: string): BodyOf<F> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new ApiError('E_BAD_REQUEST', {
      reason: `the body must be a JSON object with ${Object.keys(fields).join(', ')}`,
    });
  }
  const record = body as Record<string, unknown>;
  const issues: FieldIssue[] = [];
  for (const name of Object.keys(record)) {
    if (!(name in fields))
      issues.push({ field: name, code: 'E_UNKNOWN_FIELD', params: { field: name, entity: what } });
  }
  for (const [name, kind] of Object.entries(fields)) {
    const value = record[name];
    if (kind === 'text') {
      if (value === undefined || value === null || value === '')
        issues.push({ field: name, code: 'E_REQUIRED', params: { field: name } });
      else if (typeof value !== 'string')
        issues.push({ field: name, code: 'E_TYPE', params: { field: name, expected: 'text' } });
    } else if (value !== undefined && typeof value !== 'boolean') {
      issues.push({ field: name, code: 'E_TYPE', params: { field: name, expected: 'true or false' } });
    }
  }
  if (issues.length > 0) throw new ApiError('E_VALIDATION', {}, { errors: issues });
  return record as BodyOf<F>;
}
