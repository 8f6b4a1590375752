/**
 * The OpenAPI description of the second factor (`auth/mfa/routes.ts`) and of the admins' ending of
 * sessions (`auth/admin-sessions.ts`), added to the document by `openApiDocument` (decision 0041).
 */
import { API_PATHS, MFA_CHALLENGE, type Model, RECOVERY_CODE_COUNT } from '@ninefold/model';
import { apiPath } from '../http/paths.js';
import { type DocumentParts } from './notification-paths.js';

type Json = Record<string, unknown>;

const recoveryCodeList = {
  type: 'array',
  items: { type: 'string' },
  minItems: RECOVERY_CODE_COUNT,
  maxItems: RECOVERY_CODE_COUNT,
};

/** The schema of the 202 a sign-in answers when its second step is due. */
export const MFA_CHALLENGE_SCHEMA = 'ninefold.MfaChallenge';

/**
 * The paths and schemas of the second factor and of ending sessions.
 *
 * @example const { paths, schemas } = mfaPaths(model, { op, signedIn, changing });
 */
export function mfaPaths(
  model: Model,
  parts: DocumentParts,
): { paths: Record<string, Record<string, Json>>; schemas: Record<string, Json> } {
  const { op, signedIn, changing } = parts;
  const json = (schema: Json) => ({ 'application/json': { schema } });
  const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
  const csrf = { $ref: '#/components/parameters/Csrf' };
  const body = (properties: Record<string, Json>, required: readonly string[]) => ({
    required: true,
    content: json({ type: 'object', required, additionalProperties: false, properties }),
  });
  const text = { type: 'string', minLength: 1 };
  const endOtherSessions = {
    type: 'boolean',
    description: 'Also end your other sessions (signed in elsewhere); this one stays.',
  };
  const reauthenticated = [...changing, 'E_VALIDATION', 'E_WRONG_PASSWORD', 'E_MFA_STATE'];
  const codes = {
    '200': { description: 'The recovery codes, this once.', content: json(ref('ninefold.RecoveryCodes')) },
  };
  const paths: Record<string, Record<string, Json>> = {};
  paths[apiPath(model, API_PATHS.mfa)] = {
    get: op(signedIn, {
      operationId: 'getMfa',
      tags: ['account'],
      summary: 'Whether your two-step sign-in is on, and how many recovery codes are unused.',
      responses: { '200': { description: 'Its state.', content: json(ref('ninefold.MfaStatus')) } },
    }),
    post: op(reauthenticated, {
      operationId: 'enrolMfa',
      tags: ['account'],
      summary:
        'Starts two-step sign-in: a new authenticator app secret, off until confirmed. Needs your password; E_MFA_STATE when it is on already or you have no password (single sign-on).',
      parameters: [csrf],
      requestBody: body({ currentPassword: text }, ['currentPassword']),
      responses: {
        '200': { description: 'The secret to add to an app.', content: json(ref('ninefold.MfaEnrolment')) },
      },
    }),
    delete: op([...reauthenticated, 'E_MFA_REQUIRED'], {
      operationId: 'disableMfa',
      tags: ['account'],
      summary:
        'Turns two-step sign-in off, with its recovery codes. Needs your password; E_MFA_REQUIRED when the spec’s `auth.mfa` requires it of you.',
      parameters: [csrf],
      requestBody: body({ currentPassword: text, endOtherSessions }, ['currentPassword']),
      responses: { '204': { description: 'Off.' } },
    }),
  };
  paths[apiPath(model, API_PATHS.mfaConfirm)] = {
    post: op([...changing, 'E_VALIDATION', 'E_MFA_CODE', 'E_MFA_STATE'], {
      operationId: 'confirmMfa',
      tags: ['account'],
      summary: `Turns two-step sign-in on with a code from the app; answers ${RECOVERY_CODE_COUNT} recovery codes, once.`,
      parameters: [csrf],
      requestBody: body({ code: text, endOtherSessions }, ['code']),
      responses: codes,
    }),
  };
  paths[apiPath(model, API_PATHS.recoveryCodes)] = {
    post: op(reauthenticated, {
      operationId: 'replaceRecoveryCodes',
      tags: ['account'],
      summary: 'New recovery codes; the old ones stop working. Needs your password.',
      parameters: [csrf],
      requestBody: body({ currentPassword: text }, ['currentPassword']),
      responses: codes,
    }),
  };
  paths[apiPath(model, API_PATHS.mfaSignIn)] = {
    post: op(
      [
        ...changing.filter((c) => !c.startsWith('E_UNAUTH') && c !== 'E_SESSION_EXPIRED'),
        'E_VALIDATION',
        'E_MFA_CODE',
        'E_MFA_CHALLENGE',
      ],
      {
        operationId: 'loginSecondStep',
        tags: ['session'],
        summary: `A sign-in's second step: the challenge of its 202 and a code from the app, or a recovery code. Each code works once; a challenge lives ${MFA_CHALLENGE.minutes} minutes and ${MFA_CHALLENGE.attempts} wrong codes. For a challenge with \`enrol: true\`, the first code of the app just enrolled turns the factor on, and the answer carries its ${RECOVERY_CODE_COUNT} recovery codes, once. Sets the session cookie.`,
        security: [],
        parameters: [csrf],
        requestBody: body({ challenge: text, code: text }, ['challenge', 'code']),
        responses: {
          '200': {
            description: 'Signed in; `recoveryCodes` only after a required enrolment.',
            content: json({
              allOf: [
                ref('SessionUser'),
                {
                  type: 'object',
                  properties: { recoveryCodes: recoveryCodeList },
                },
              ],
            }),
          },
        },
      },
    ),
  };
  paths[apiPath(model, API_PATHS.mfaEnrolSignIn)] = {
    post: op(
      [
        ...changing.filter((c) => !c.startsWith('E_UNAUTH') && c !== 'E_SESSION_EXPIRED'),
        'E_VALIDATION',
        'E_MFA_CHALLENGE',
        'E_MFA_STATE',
      ],
      {
        operationId: 'enrolMfaAtSignIn',
        tags: ['session'],
        summary: `For a sign-in whose 202 said \`enrol: true\` (the spec’s \`auth.mfa\` requires two-step sign-in of this user, who has none): a new authenticator app secret; asking again replaces it. Its first code goes to \`POST ${apiPath(model, API_PATHS.mfaSignIn)}\` with the challenge. E_MFA_STATE for any other challenge.`,
        security: [],
        parameters: [csrf],
        requestBody: body({ challenge: text }, ['challenge']),
        responses: {
          '200': { description: 'The secret to add to an app.', content: json(ref('ninefold.MfaEnrolment')) },
        },
      },
    ),
  };
  paths[apiPath(model, API_PATHS.adminSessions)] = {
    delete: op([...changing, 'E_FORBIDDEN', 'E_INVALID_QUERY', 'E_NOT_FOUND'], {
      operationId: 'endSessions',
      tags: ['sessions'],
      summary:
        'Ends one user’s sessions (`user`), or everyone’s but yours (`all=true`); for admins. Exactly one of the two.',
      parameters: [
        { name: 'user', in: 'query', required: false, schema: { type: 'string' } },
        { name: 'all', in: 'query', required: false, schema: { const: 'true' } },
        csrf,
      ],
      responses: {
        '200': {
          description: 'How many sessions ended.',
          content: json({
            type: 'object',
            required: ['ended'],
            additionalProperties: false,
            properties: { ended: { type: 'integer', minimum: 0 } },
          }),
        },
      },
    }),
  };
  return { paths, schemas: schemas() };
}

function schemas(): Record<string, Json> {
  const object = (properties: Record<string, Json>): Json => ({
    type: 'object',
    required: Object.keys(properties),
    additionalProperties: false,
    properties,
  });
  return {
    'ninefold.MfaStatus': object({
      enabled: { type: 'boolean' },
      recoveryCodesLeft: { type: 'integer', minimum: 0 },
      available: { type: 'boolean', description: 'False without a password (single sign-on only).' },
      required: {
        type: 'boolean',
        description: 'The spec’s `auth.mfa` requires it of you: it cannot be turned off.',
      },
    }),
    'ninefold.MfaEnrolment': object({
      secret: { type: 'string', description: 'Base32, for typing into an app.' },
      uri: { type: 'string', description: '`otpauth://totp/…`, what the QR code holds.' },
      qrSvg: { type: 'string', description: 'The URI as a QR code: an SVG document.' },
    }),
    'ninefold.RecoveryCodes': object({ recoveryCodes: recoveryCodeList }),
    [MFA_CHALLENGE_SCHEMA]: object({
      mfa: {
        type: 'object',
        required: ['challenge'],
        additionalProperties: false,
        properties: {
          challenge: {
            type: 'string',
            description: `Send to the second step within ${MFA_CHALLENGE.minutes} minutes.`,
          },
          enrol: {
            const: true,
            description:
              'Two-step sign-in is required of this user and not on: enrol at `session/mfa/enrol` first.',
          },
        },
      },
    }),
  };
}
