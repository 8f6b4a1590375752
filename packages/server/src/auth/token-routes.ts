/**
 * The signed-in user's personal API tokens (decision 0038): `POST <basePath>/tokens` makes one and
 * answers its secret this once, `GET` lists them (never the secret), `DELETE tokens/<id>` revokes
 * one. Only a user holding a role of `auth.tokens` may make one, with some of those roles; a token
 * cannot make another (a leaked one cannot outlive its revocation). Making one asks for a recent
 * authentication (E_REAUTH_REQUIRED, decision 0042).
 */
import {
  API_PATHS,
  IDENTITY_LIFETIMES,
  type Model,
  type NewTokenAnswer,
  type WireToken,
} from '@ninefold/model';
import { type FastifyInstance } from 'fastify';
import { recordAuthEvent, requestOrigin } from '../audit/auth-events.js';
import { type Database } from '../db/open.js';
import { unstorable } from '../db/storable-text.js';
import { ApiError, type FieldIssue } from '../http/errors.js';
import { apiPath } from '../http/paths.js';
import { isRecordId, newId } from '../ids.js';
import { TABLES } from '../schema/names.js';
import { hashToken, newTokenSecret, wireToken } from './api-tokens.js';
import { requireRecentAuthentication } from './recent-authentication.js';
import { requireUser } from './request-auth.js';
import { type UserSummary } from './users.js';

/** The longest name a token may have. */
export const MAX_TOKEN_NAME = 100;

const DAY_MS = 86_400_000;
const TOKEN_FIELDS = ['name', 'roles', 'expiresAt'] as const;

/**
 * Registers the token routes.
 *
 * @example registerTokenRoutes(api, { model, database, now: () => new Date() });
 */
export function registerTokenRoutes(
  api: FastifyInstance,
  context: { readonly model: Model; readonly database: Database; readonly now: () => Date },
): void {
  const { model, database, now } = context;
  const path = apiPath(model, API_PATHS.tokens);

  api.post(path, async (request, reply) => {
    const user = requireUser(request);
    if (request.auth.tokenId !== null)
      throw new ApiError(
        'E_FORBIDDEN',
        {},
        { detail: 'An API token cannot make tokens: sign in to make one.' },
      );
    const allowed = tokenRoles(model, user);
    if (allowed.length === 0)
      throw new ApiError('E_FORBIDDEN', {}, { detail: 'None of your roles may hold API tokens.' });
    const at = now();
    // a stolen session must not buy a credential that outlives it (decision 0042)
    requireRecentAuthentication(request, at);
    const input = readNewToken(request.body, allowed, at);
    const secret = newTokenSecret();
    const row = {
      id: newId(),
      token_hash: hashToken(secret),
      user_id: user.id,
      name: input.name,
      roles: JSON.stringify(input.roles),
      created_at: at.toISOString(),
      expires_at: input.expiresAt.toISOString(),
      last_used_at: null,
      revoked_at: null,
    };
    await database.db.transaction().execute(async (tx) => {
      await tx.insertInto(TABLES.apiTokens).values(row).execute();
      await recordAuthEvent(tx, {
        kind: 'token-created',
        at,
        userId: user.id,
        detail: { token: row.id, name: input.name, roles: input.roles.join(', ') },
        ...requestOrigin(request),
      });
    });
    const answer: NewTokenAnswer = { ...wireToken(row), token: secret };
    return reply.code(201).send(answer);
  });

  api.get(path, async (request): Promise<{ data: WireToken[] }> => {
    const user = requireUser(request);
    // revoked ones are gone from the user's sight; expired ones stay, to say why a script stopped
    const rows = await database.db
      .selectFrom(TABLES.apiTokens)
      .select(['id', 'name', 'roles', 'created_at', 'expires_at', 'last_used_at'])
      .where('user_id', '=', user.id)
      .where('revoked_at', 'is', null)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
    return { data: rows.map(wireToken) };
  });

  api.delete(`${path}/:id`, async (request, reply) => {
    const user = requireUser(request);
    const { id } = request.params as { id: string };
    const at = now();
    // an id-shaped text only: no other text reaches the database (a NUL is no PostgreSQL text)
    const revoked = !isRecordId(id)
      ? false
      : await database.db.transaction().execute(async (tx) => {
          const row = await tx
            .selectFrom(TABLES.apiTokens)
            .select(['id', 'name'])
            .where('id', '=', id)
            .where('user_id', '=', user.id)
            .where('revoked_at', 'is', null)
            .executeTakeFirst();
          if (row === undefined) return false;
          await tx
            .updateTable(TABLES.apiTokens)
            .set({ revoked_at: at.toISOString() })
            .where('id', '=', id)
            .execute();
          await recordAuthEvent(tx, {
            kind: 'token-revoked',
            at,
            userId: user.id,
            detail: { token: id, name: String(row['name']) },
            ...requestOrigin(request),
          });
          return true;
        });
    // someone else's token is as unknown as one that never was
    if (!revoked) throw new ApiError('E_NOT_FOUND', { entity: 'API token' });
    return reply.code(204).send();
  });
}

/** The roles a user may give a token: theirs that `auth.tokens` lists. */
function tokenRoles(model: Model, user: UserSummary): string[] {
  return user.roles.filter((role) => model.auth.tokens.includes(role));
}

interface NewToken {
  readonly name: string;
  readonly roles: readonly string[];
  readonly expiresAt: Date;
}

/**
 * A new token's body: `name` (required, at most `MAX_TOKEN_NAME` characters), `roles` (some of
 * `allowed`; all of them when absent), `expiresAt` (in the future, at most `tokenMaxDays` ahead;
 * `tokenDefaultDays` when absent); nothing else.
 */
function readNewToken(body: unknown, allowed: readonly string[], now: Date): NewToken {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new ApiError('E_BAD_REQUEST', { reason: 'the body must be a JSON object with a name' });
  const record = body as Record<string, unknown>;
  const issues: FieldIssue[] = [];
  for (const field of Object.keys(record)) {
    if (!(TOKEN_FIELDS as readonly string[]).includes(field))
      issues.push({ field, code: 'E_UNKNOWN_FIELD', params: { field, entity: 'an API token' } });
  }
  const name = readName(record['name'], issues);
  const roles = readRoles(record['roles'], allowed, issues);
  const expiresAt = readExpiry(record['expiresAt'], now, issues);
  if (issues.length > 0) throw new ApiError('E_VALIDATION', {}, { errors: issues });
  return { name, roles, expiresAt };
}

function readName(value: unknown, issues: FieldIssue[]): string {
  const field = 'name';
  const label = 'Name';
  if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) {
    issues.push({ field, code: 'E_REQUIRED', params: { field: label } });
  } else if (typeof value !== 'string') {
    issues.push({ field, code: 'E_TYPE', params: { field: label, expected: 'text' } });
  } else if (unstorable(value) !== null) {
    issues.push({ field, code: 'E_FORMAT', params: { field: label, expected: unstorable(value) } });
  } else if ([...value.trim()].length > MAX_TOKEN_NAME) {
    issues.push({ field, code: 'E_TOO_LONG', params: { field: label, max: MAX_TOKEN_NAME } });
  } else {
    return value.trim();
  }
  return '';
}

function readRoles(value: unknown, allowed: readonly string[], issues: FieldIssue[]): string[] {
  const field = 'roles';
  const label = 'Roles';
  if (value === undefined) return [...allowed];
  if (!Array.isArray(value) || value.some((role) => typeof role !== 'string')) {
    issues.push({ field, code: 'E_TYPE', params: { field: label, expected: 'a list of role names' } });
    return [];
  }
  const roles = [...new Set(value as string[])];
  if (roles.length === 0) {
    issues.push({ field, code: 'E_REQUIRED', params: { field: label } });
    return [];
  }
  const refused = roles.filter((role) => !allowed.includes(role));
  if (refused.length > 0) {
    issues.push({
      field,
      code: 'E_NOT_ONE_OF',
      params: { field: label, value: refused.join(', '), values: allowed.join(', ') },
    });
  }
  return roles;
}

function readExpiry(value: unknown, now: Date, issues: FieldIssue[]): Date {
  const field = 'expiresAt';
  const label = 'Expires at';
  const latest = new Date(now.getTime() + IDENTITY_LIFETIMES.tokenMaxDays * DAY_MS);
  if (value === undefined || value === null)
    return new Date(now.getTime() + IDENTITY_LIFETIMES.tokenDefaultDays * DAY_MS);
  const time = typeof value === 'string' && ISO_DATE_TIME.test(value) ? Date.parse(value) : NaN;
  if (Number.isNaN(time)) {
    issues.push({
      field,
      code: 'E_FORMAT',
      params: { field: label, expected: 'a date and time such as 2026-12-31T23:59:59Z' },
    });
  } else if (time <= now.getTime()) {
    issues.push({ field, code: 'E_TOO_SMALL', params: { field: label, min: now.toISOString() } });
  } else if (time > latest.getTime()) {
    issues.push({ field, code: 'E_TOO_LARGE', params: { field: label, max: latest.toISOString() } });
  }
  return new Date(time);
}

/** An RFC 3339 date and time with its offset: what `expiresAt` must be. */
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;
