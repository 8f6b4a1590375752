/**
 * The OpenAPI description of one-time links (decision 0037): link inspection, invitations, sign-up
 * and password reset (`auth/identity-routes.ts`), and the invitation `POST <basePath>/users` answers
 * under `_invitation`. Added to the document by `openApiDocument`.
 */
import { API_PATHS, INVITATION_KEY, type Model } from '@ninefold/model';
import { apiPath } from '../http/paths.js';
import { MAX_INVITATIONS_LISTED } from '../auth/invitations.js';
import { MFA_CHALLENGE_SCHEMA } from './mfa-paths.js';
import { type DocumentParts } from './notification-paths.js';
import { ANY_REQUEST } from './operations.js';
import { schemaName } from './schemas.js';

type Json = Record<string, unknown>;

const LINK_CODES = ['E_LINK_INVALID', 'E_LINK_EXPIRED', 'E_LINK_USED'];

/**
 * The paths and schemas of one-time links; `paths` and `schemas` are the document's so far (its
 * User's create gains its `_invitation`).
 *
 * @example Object.assign(paths, linkPaths(model, parts, schemas, paths).paths);
 */
export function linkPaths(
  model: Model,
  parts: DocumentParts,
  documentSchemas: Record<string, Json>,
  documentPaths: Record<string, Record<string, Json>>,
): { paths: Record<string, Record<string, Json>>; schemas: Record<string, Json> } {
  const { op, signedIn, changing } = parts;
  const json = (schema: Json) => ({ 'application/json': { schema } });
  const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
  const csrf = { $ref: '#/components/parameters/Csrf' };
  const body = (properties: Record<string, Json>) =>
    json({ type: 'object', required: Object.keys(properties), additionalProperties: false, properties });
  const text = { type: 'string' };
  // before sign-in: no session, but the CSRF header and the body's limits hold
  const open = [...ANY_REQUEST, 'E_CSRF', 'E_PAYLOAD_TOO_LARGE', 'E_VALIDATION'];
  const accepted = {
    '202': {
      description: 'Asked: the same answer whatever the address.',
      content: json(ref('ninefold.Accepted')),
    },
  };
  const signedInNow = {
    '200': { description: 'Signed in; sets the session cookie.', content: json(ref('SessionUser')) },
  };
  // a role `auth.mfa` requires the second factor of turns it on before its first session
  const signedInOrEnrol = {
    ...signedInNow,
    '202': {
      description: `Two-step sign-in is required for this user (\`auth.mfa\`): no session yet; the challenge has \`enrol: true\`: get a secret from \`POST ${apiPath(model, API_PATHS.mfaEnrolSignIn)}\`, then send the challenge and the app's first code to \`POST ${apiPath(model, API_PATHS.mfaSignIn)}\`.`,
      content: json(ref(MFA_CHALLENGE_SCHEMA)),
    },
  };
  const invitations = apiPath(model, API_PATHS.invitations);
  const paths: Record<string, Record<string, Json>> = {};

  paths[apiPath(model, API_PATHS.links)] = {
    post: op([...open, ...LINK_CODES], {
      operationId: 'inspectLink',
      tags: ['identity'],
      summary: 'What a one-time link is for and for whom, or why it no longer works.',
      security: [],
      parameters: [csrf],
      requestBody: { required: true, content: body({ token: text }) },
      responses: { '200': { description: 'The link works.', content: json(ref('ninefold.Link')) } },
    }),
  };
  paths[invitations] = {
    get: op([...signedIn, 'E_FORBIDDEN', 'E_INVALID_QUERY'], {
      operationId: 'listInvitations',
      tags: ['identity'],
      summary: `The invitations, newest first (at most ${MAX_INVITATIONS_LISTED}); for those who may create users.`,
      parameters: [
        {
          name: 'state',
          in: 'query',
          required: false,
          schema: { enum: ['pending', 'accepted', 'revoked', 'expired'] },
        },
      ],
      responses: {
        '200': {
          description: 'The invitations.',
          content: json({
            type: 'object',
            required: ['data'],
            additionalProperties: false,
            properties: { data: { type: 'array', items: ref('ninefold.Invitation') } },
          }),
        },
      },
    }),
    post: op([...changing, 'E_FORBIDDEN', 'E_VALIDATION', 'E_NOT_FOUND', 'E_INVITATION_REFUSED'], {
      operationId: 'inviteUser',
      tags: ['identity'],
      summary:
        'Invites a user who has no password again: the earlier link stops working. E_INVITATION_REFUSED for a user with a password (they reset it) or a disabled one.',
      parameters: [csrf],
      requestBody: {
        required: true,
        content: body({ user: { type: 'string', description: 'The user’s id.' } }),
      },
      responses: {
        '201': {
          description: 'Invited: mailed, or the link shown this once.',
          content: json(ref('ninefold.InvitationAnswer')),
        },
      },
    }),
  };
  paths[`${invitations}/{id}`] = {
    delete: op([...changing, 'E_FORBIDDEN', 'E_NOT_FOUND', 'E_URI_TOO_LONG', 'E_INVITATION_REFUSED'], {
      operationId: 'revokeInvitation',
      tags: ['identity'],
      summary:
        'Revokes a waiting invitation: its link stops working. E_INVITATION_REFUSED when it was accepted.',
      parameters: [{ name: 'id', in: 'path', required: true, schema: text }, csrf],
      responses: { '204': { description: 'Revoked.' } },
    }),
  };
  paths[`${invitations}/accept`] = {
    post: op([...open, ...LINK_CODES], {
      operationId: 'acceptInvitation',
      tags: ['identity'],
      summary:
        'Sets the invitee’s password and signs them in (or, when two-step sign-in is required of them, asks them to turn it on first).',
      security: [],
      parameters: [csrf],
      requestBody: { required: true, content: body({ token: text, password: text }) },
      responses: signedInOrEnrol,
    }),
  };
  if (model.auth.signUp !== null) {
    const signUps = apiPath(model, API_PATHS.signUps);
    paths[signUps] = {
      post: op(open, {
        operationId: 'signUp',
        tags: ['identity'],
        summary:
          'Signs up: a link to confirm the address is mailed to a new one, a note to the owner of a taken one. The same answer either way.',
        security: [],
        parameters: [csrf],
        requestBody: { required: true, content: body({ email: text, password: text, name: text }) },
        responses: accepted,
      }),
    };
    paths[`${signUps}/verify`] = {
      post: op([...open, ...LINK_CODES], {
        operationId: 'verifySignUp',
        tags: ['identity'],
        summary:
          'Confirms the address: opens the account and signs in (or, when two-step sign-in is required of its role, asks to turn it on first).',
        security: [],
        parameters: [csrf],
        requestBody: { required: true, content: body({ token: text }) },
        responses: signedInOrEnrol,
      }),
    };
  }
  if (model.auth.passwordReset) {
    const resets = apiPath(model, API_PATHS.passwordResets);
    paths[resets] = {
      post: op(open, {
        operationId: 'requestPasswordReset',
        tags: ['identity'],
        summary:
          'Asks for a password reset link, mailed to a known address. The same answer whatever the address.',
        security: [],
        parameters: [csrf],
        requestBody: { required: true, content: body({ email: text }) },
        responses: accepted,
      }),
    };
    paths[`${resets}/complete`] = {
      post: op([...open, ...LINK_CODES], {
        operationId: 'completePasswordReset',
        tags: ['identity'],
        summary:
          'Sets the new password, ends every session of the user, and signs in (or, with two-step sign-in on, asks for a code).',
        security: [],
        parameters: [csrf],
        requestBody: { required: true, content: body({ token: text, password: text }) },
        responses: {
          ...signedInNow,
          '202': {
            description: `Two-step sign-in is on, or required and not yet on (\`enrol: true\`, as at sign-in): no session yet; send the challenge and a code to \`POST ${apiPath(model, API_PATHS.mfaSignIn)}\`.`,
            content: json(ref(MFA_CHALLENGE_SCHEMA)),
          },
        },
      }),
    };
  }

  // the User's create answers its invitation too
  const user = model.entities['User'];
  const create = user === undefined ? undefined : documentPaths[apiPath(model, user.resource)]?.['post'];
  const record = user === undefined ? undefined : documentSchemas[schemaName(user)];
  if (user !== undefined && create !== undefined && record !== undefined) {
    const name = `${schemaName(user)}.Created`;
    const properties = record['properties'] as Record<string, Json>;
    documentSchemas[name] = {
      ...record,
      // not required: a replay of the create (Idempotency-Key) answers the User alone
      properties: { ...properties, [INVITATION_KEY]: ref('ninefold.InvitationAnswer') },
    };
    const responses = create['responses'] as Record<string, Json>;
    const created = responses['201'] as Json;
    responses['201'] = {
      ...created,
      description: 'The User, and their invitation: mailed, or its link shown this once.',
      content: json(ref(name)),
    };
  }
  return { paths, schemas: schemas() };
}

/** Named `ninefold.…`: an entity's name has no dot, so no entity's schema can take theirs. */
function schemas(): Record<string, Json> {
  const text = { type: 'string' };
  const time = { type: 'string', format: 'date-time' };
  const nullable = (schema: Json): Json => ({ ...schema, type: [schema['type'], 'null'] });
  const invitation: Record<string, Json> = {
    id: text,
    user: text,
    email: text,
    name: text,
    state: { enum: ['pending', 'accepted', 'revoked', 'expired'] },
    createdAt: time,
    expiresAt: time,
    createdBy: nullable(text),
    acceptedAt: nullable(time),
  };
  const object = (properties: Record<string, Json>): Json => ({
    type: 'object',
    required: Object.keys(properties),
    additionalProperties: false,
    properties,
  });
  return {
    'ninefold.Link': object({
      purpose: { enum: ['invitation', 'sign-up', 'password-reset'] },
      email: text,
      expiresAt: time,
    }),
    'ninefold.Invitation': object(invitation),
    'ninefold.InvitationAnswer': object({
      ...invitation,
      mailed: { type: 'boolean' },
      link: { ...nullable(text), description: 'The link, when it was not mailed: shown this once.' },
    }),
    'ninefold.Accepted': { type: 'object', additionalProperties: false, properties: {} },
  };
}
