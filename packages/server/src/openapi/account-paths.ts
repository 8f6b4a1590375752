/**
 * The OpenAPI description of a user's personal API tokens (`auth/token-routes.ts`), their own
 * password, e-mail and sessions (`auth/account-routes.ts`), a session's confirmation
 * (`auth/recent-authentication.ts`, decision 0042) and the admins' identity audit trail
 * (`audit/auth-event-routes.ts`), added to the document by `openApiDocument` (decision 0038).
 */
import { API_PATHS, AUTH_EVENT_KINDS, IDENTITY_LIFETIMES, type Model, TOKEN_PREFIX } from '@ninefold/model';
import { MAX_AUTH_EVENTS_LISTED } from '../audit/auth-event-routes.js';
import { MAX_TOKEN_NAME } from '../auth/token-routes.js';
import { apiPath } from '../http/paths.js';
import { type DocumentParts } from './notification-paths.js';

type Json = Record<string, unknown>;

/** What only a signed-in person may do, not a script: the session cookie is the only scheme. */
const SESSION_ONLY = [{ session: [] }];

/**
 * The paths and schemas of tokens, the own account and the audit trail.
 *
 * @example const { paths, schemas } = accountPaths(model, { op, signedIn, changing });
 */
export function accountPaths(
  model: Model,
  parts: DocumentParts,
): { paths: Record<string, Record<string, Json>>; schemas: Record<string, Json> } {
  const { op, signedIn, changing } = parts;
  const json = (schema: Json) => ({ 'application/json': { schema } });
  const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
  const listOf = (name: string) =>
    json({
      type: 'object',
      required: ['data'],
      additionalProperties: false,
      properties: { data: { type: 'array', items: ref(name) } },
    });
  const csrf = { $ref: '#/components/parameters/Csrf' };
  const idParam = { name: 'id', in: 'path', required: true, schema: { type: 'string' } };
  const tokens = apiPath(model, API_PATHS.tokens);
  const sessions = apiPath(model, API_PATHS.sessions);
  const paths: Record<string, Record<string, Json>> = {};

  paths[tokens] = {
    get: op(signedIn, {
      operationId: 'listTokens',
      tags: ['account'],
      summary: 'Your personal API tokens that are not revoked, newest first; never the token itself.',
      responses: { '200': { description: 'Your tokens.', content: listOf('ninefold.Token') } },
    }),
    post: op([...changing, 'E_FORBIDDEN', 'E_VALIDATION', 'E_REAUTH_REQUIRED'], {
      operationId: 'createToken',
      tags: ['account'],
      summary:
        `A personal API token, answered this once: send it as \`Authorization: Bearer ${TOKEN_PREFIX}…\`. ` +
        'For a user holding a role of the spec’s `auth.tokens`; its roles are some of those (all of ' +
        `them by default), its expiry at most ${IDENTITY_LIFETIMES.tokenMaxDays} days ahead ` +
        `(${IDENTITY_LIFETIMES.tokenDefaultDays} by default). A token cannot make another. Needs a ` +
        'recent authentication (E_REAUTH_REQUIRED: see `POST session/confirm`).',
      security: SESSION_ONLY,
      parameters: [csrf],
      requestBody: {
        required: true,
        content: json({
          type: 'object',
          required: ['name'],
          additionalProperties: false,
          properties: {
            name: { type: 'string', minLength: 1, maxLength: MAX_TOKEN_NAME },
            roles: { type: 'array', items: { type: 'string' }, minItems: 1 },
            expiresAt: { type: 'string', format: 'date-time' },
          },
        }),
      },
      responses: { '201': { description: 'The token, this once.', content: json(ref('ninefold.NewToken')) } },
    }),
  };
  paths[`${tokens}/{id}`] = {
    delete: op([...changing, 'E_NOT_FOUND', 'E_URI_TOO_LONG'], {
      operationId: 'revokeToken',
      tags: ['account'],
      summary: 'Revokes one of your tokens at once; someone else’s is E_NOT_FOUND.',
      parameters: [idParam, csrf],
      responses: { '204': { description: 'Revoked.' } },
    }),
  };
  paths[apiPath(model, API_PATHS.password)] = {
    put: op([...changing, 'E_FORBIDDEN', 'E_VALIDATION'], {
      operationId: 'changePassword',
      tags: ['account'],
      summary:
        'Changes your password: the current one is required (a wrong one counts as a failed sign-in), ' +
        'your other sessions end, this one goes on.',
      security: SESSION_ONLY,
      parameters: [csrf],
      requestBody: {
        required: true,
        content: json({
          type: 'object',
          required: ['currentPassword', 'password'],
          additionalProperties: false,
          properties: { currentPassword: { type: 'string' }, password: { type: 'string' } },
        }),
      },
      responses: { '204': { description: 'Changed.' } },
    }),
  };
  paths[sessions] = {
    get: op([...signedIn, 'E_FORBIDDEN'], {
      operationId: 'listSessions',
      tags: ['account'],
      summary: 'Your sessions, most recently used first; `current` marks this one.',
      security: SESSION_ONLY,
      responses: { '200': { description: 'Your sessions.', content: listOf('ninefold.Session') } },
    }),
    delete: op([...changing, 'E_FORBIDDEN', 'E_REAUTH_REQUIRED'], {
      operationId: 'endOtherSessions',
      tags: ['account'],
      summary: 'Ends all your sessions but this one. Needs a recent authentication (E_REAUTH_REQUIRED).',
      security: SESSION_ONLY,
      parameters: [csrf],
      responses: { '204': { description: 'Ended.' } },
    }),
  };
  paths[`${sessions}/{id}`] = {
    delete: op([...changing, 'E_FORBIDDEN', 'E_NOT_FOUND', 'E_URI_TOO_LONG', 'E_REAUTH_REQUIRED'], {
      operationId: 'endSession',
      tags: ['account'],
      summary:
        'Ends one of your sessions (this one too); someone else’s is E_NOT_FOUND. Ending another ' +
        'needs a recent authentication (E_REAUTH_REQUIRED); ending this one is signing out.',
      security: SESSION_ONLY,
      parameters: [idParam, csrf],
      responses: { '204': { description: 'Ended.' } },
    }),
  };
  paths[apiPath(model, API_PATHS.accountLocale)] = {
    put: op([...changing, 'E_FORBIDDEN', 'E_VALIDATION'], {
      operationId: 'chooseLocale',
      tags: ['account'],
      summary:
        'Saves the language you picked in the app, one of the product’s locales (E_VALIDATION ' +
        'otherwise), or forgets it (null): the app follows it on every device you sign in on.',
      security: SESSION_ONLY,
      parameters: [csrf],
      requestBody: {
        required: true,
        content: json({
          type: 'object',
          required: ['locale'],
          additionalProperties: false,
          properties: {
            locale: { type: ['string', 'null'], enum: [...model.product.locales, null] },
          },
        }),
      },
      responses: {
        '200': { description: 'Your session, with the locale.', content: json(ref('SessionUser')) },
      },
    }),
  };
  paths[apiPath(model, API_PATHS.accountEmail)] = {
    put: op([...changing, 'E_FORBIDDEN', 'E_VALIDATION', 'E_UNIQUE', 'E_REAUTH_REQUIRED'], {
      operationId: 'changeEmail',
      tags: ['account'],
      summary:
        'Changes your e-mail address (trimmed, lower case; E_UNIQUE when another account has it) and ' +
        'mails a note to the old one. Needs a recent authentication (E_REAUTH_REQUIRED). Your own ' +
        'e-mail changes only here: through the User resource it is E_OWN_EMAIL.',
      security: SESSION_ONLY,
      parameters: [csrf],
      requestBody: {
        required: true,
        content: json({
          type: 'object',
          required: ['email'],
          additionalProperties: false,
          properties: { email: { type: 'string', description: 'An e-mail address.' } },
        }),
      },
      responses: { '204': { description: 'Changed (or the same already).' } },
    }),
  };
  paths[apiPath(model, API_PATHS.sessionConfirm)] = {
    post: op([...changing, 'E_FORBIDDEN', 'E_VALIDATION', 'E_WRONG_PASSWORD', 'E_MFA_CODE'], {
      operationId: 'confirmSession',
      tags: ['account'],
      summary:
        'Proves a factor again on this session, for the changes that ask for a recent authentication ' +
        '(within 10 minutes): your password, or a code of your authenticator app (or an unused ' +
        'recovery code) when two-step sign-in is on. A wrong one counts as a failed sign-in. Without ' +
        'a password (single sign-on), sign in again instead: a new session is recent.',
      security: SESSION_ONLY,
      parameters: [csrf],
      requestBody: {
        required: true,
        content: json({
          oneOf: [
            {
              type: 'object',
              required: ['password'],
              additionalProperties: false,
              properties: { password: { type: 'string', minLength: 1 } },
            },
            {
              type: 'object',
              required: ['code'],
              additionalProperties: false,
              properties: { code: { type: 'string', minLength: 1 } },
            },
          ],
        }),
      },
      responses: { '204': { description: 'This session is recent again.' } },
    }),
  };
  paths[apiPath(model, API_PATHS.authEvents)] = {
    get: op([...signedIn, 'E_FORBIDDEN', 'E_INVALID_QUERY'], {
      operationId: 'listAuthEvents',
      tags: ['account'],
      summary: 'The identity audit trail (sign-ins, passwords, sessions, tokens…), newest first; for admins.',
      parameters: [
        { name: 'kind', in: 'query', required: false, schema: { enum: [...AUTH_EVENT_KINDS] } },
        {
          name: 'user',
          in: 'query',
          required: false,
          description: 'Only the entries about this user (their id).',
          schema: { type: 'string' },
        },
        {
          name: 'before',
          in: 'query',
          required: false,
          description: 'The id of the last entry of the page before.',
          schema: { type: 'string' },
        },
        {
          name: 'limit',
          in: 'query',
          required: false,
          schema: { type: 'integer', minimum: 1, maximum: MAX_AUTH_EVENTS_LISTED, default: 100 },
        },
      ],
      responses: { '200': { description: 'The newest entries.', content: listOf('ninefold.AuthEvent') } },
    }),
  };
  return { paths, schemas: schemas() };
}

/** Named `ninefold.…`: an entity's name has no dot, so no entity's schema can take theirs. */
function schemas(): Record<string, Json> {
  const text = { type: 'string' };
  const textOrNull = { type: ['string', 'null'] };
  const time = { type: 'string', format: 'date-time' };
  const object = (properties: Record<string, Json>): Json => ({
    type: 'object',
    required: Object.keys(properties),
    additionalProperties: false,
    properties,
  });
  const token = {
    id: text,
    name: text,
    roles: { type: 'array', items: text },
    createdAt: time,
    expiresAt: time,
    lastUsedAt: { type: ['string', 'null'], format: 'date-time' },
  };
  return {
    'ninefold.Token': object(token),
    'ninefold.NewToken': object({
      ...token,
      token: { type: 'string', pattern: `^${TOKEN_PREFIX}`, description: 'Shown this once.' },
    }),
    'ninefold.Session': object({
      id: text,
      createdAt: time,
      lastSeenAt: time,
      current: { type: 'boolean' },
      userAgent: textOrNull,
      address: textOrNull,
      method: { enum: ['password', 'invitation', 'sign-up', 'password-reset', 'sso', null] },
    }),
    'ninefold.AuthEvent': object({
      id: text,
      at: time,
      kind: { enum: [...AUTH_EVENT_KINDS] },
      userId: textOrNull,
      email: textOrNull,
      actorId: textOrNull,
      address: textOrNull,
      userAgent: textOrNull,
      detail: { type: ['object', 'null'], additionalProperties: { type: 'string' } },
    }),
  };
}
