/**
 * The OpenAPI 3.1 description of a model's API, generated from the model: every route, a schema
 * per entity from its field types, the list query parameters, and for every operation the
 * problem responses with the catalogue codes it can return. This module lays out the routes; the
 * schemas are built in `schemas.ts` and each operation's problem responses in `operations.ts`.
 */
import {
  API_PATHS,
  CSRF_HEADER,
  CSRF_HEADER_VALUE,
  IDEMPOTENCY_KEY_HEADER,
  REFERENCES_PATH,
  type Model,
  SESSION_COOKIE,
  TOKEN_PREFIX,
} from '@ninefold/model';
import { apiPath } from '../http/paths.js';
import { MAX_JOBS_LISTED } from '../jobs/admin.js';
import { JOB_STATES } from '../jobs/job.js';
import { resourcePath } from '../resources/routes.js';
import { describeWebhookDeliveries } from './webhooks.js';
import { accountPaths } from './account-paths.js';
import { linkPaths } from './link-paths.js';
import { notificationPaths } from './notification-paths.js';
import { eventPaths } from './event-paths.js';
import { dashboardPaths } from './dashboard-paths.js';
import { filePaths } from './file-paths.js';
import { MFA_CHALLENGE_SCHEMA, mfaPaths } from './mfa-paths.js';
import { ssoPaths } from './sso-paths.js';
import {
  ANY_REQUEST,
  BY_ID,
  CHANGING,
  type Json,
  SIGNED_IN,
  WRITING,
  operation,
  statusSchema,
} from './operations.js';
import {
  etagHeader,
  historySchema,
  inputSchema,
  jobSchema,
  listParameters,
  problemSchema,
  recordSchema,
  parentRuleCodes,
  referencesSchema,
  ruleCodes,
  schemaName,
} from './schemas.js';

/**
 * The OpenAPI document of a model.
 *
 * @example const doc = openApiDocument(model); doc.paths['/api/claims'].get
 */
export function openApiDocument(model: Model): Json & { paths: Record<string, Record<string, Json>> } {
  const schemas: Record<string, Json> = {
    Problem: problemSchema(),
    HistoryPage: historySchema(),
    ReferencesAnswer: referencesSchema(),
    SessionUser: {
      type: 'object',
      required: ['user'],
      properties: {
        user: {
          type: 'object',
          required: ['id', 'email', 'name', 'roles', 'locale', 'context'],
          properties: {
            id: { type: 'string' },
            email: { type: 'string' },
            name: { type: 'string' },
            roles: { type: 'array', items: { type: 'string' } },
            locale: {
              type: ['string', 'null'],
              description: 'The language the user picked in the app (one of the product’s locales), or null.',
            },
            context: {
              type: 'object',
              description: 'The user as rules see them: their own User record, id and roles.',
              required: ['id', 'roles'],
            },
          },
        },
      },
    },
  };
  const paths: Record<string, Record<string, Json>> = {};
  const op = (codes: readonly string[], extra: Json) => operation(model, codes, extra);
  const json = (schema: Json) => ({ 'application/json': { schema } });
  const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
  const csrf = { $ref: '#/components/parameters/Csrf' };
  const idempotency = { $ref: '#/components/parameters/IdempotencyKey' };

  paths['/health'] = {
    get: op(['E_INTERNAL'], {
      operationId: 'health',
      tags: ['server'],
      summary: 'The process is alive.',
      security: [],
      responses: { '200': { description: 'Alive.', content: json(statusSchema('ok')) } },
    }),
  };
  paths['/ready'] = {
    get: op(['E_INTERNAL', 'E_UNAVAILABLE'], {
      operationId: 'ready',
      tags: ['server'],
      summary: 'The database answers and holds this spec’s schema.',
      security: [],
      responses: { '200': { description: 'Ready.', content: json(statusSchema('ready')) } },
    }),
  };
  paths[apiPath(model, API_PATHS.model)] = {
    get: op(ANY_REQUEST, {
      operationId: 'getModel',
      tags: ['server'],
      summary: 'The compiled model the client renders; signed out, only what the pages before sign-in need.',
      security: [],
      responses: { '200': { description: 'The model.', content: json({ type: 'object' }) } },
    }),
  };
  paths[apiPath(model, API_PATHS.session)] = {
    post: op([...ANY_REQUEST, 'E_CSRF', 'E_PAYLOAD_TOO_LARGE', 'E_VALIDATION', 'E_INVALID_CREDENTIALS'], {
      operationId: 'login',
      tags: ['session'],
      summary: 'Sign in; sets the session cookie.',
      security: [],
      parameters: [csrf],
      requestBody: {
        required: true,
        content: json({
          type: 'object',
          required: ['email', 'password'],
          additionalProperties: false,
          properties: { email: { type: 'string' }, password: { type: 'string' } },
        }),
      },
      responses: {
        '200': { description: 'Signed in.', content: json(ref('SessionUser')) },
        '202': {
          description: `The password is right and two-step sign-in is on, or required (\`auth.mfa\`) and not yet on (\`enrol: true\`): no session yet. To enrol, get a secret from \`POST ${apiPath(model, API_PATHS.mfaEnrolSignIn)}\`; then send the challenge and a code to \`POST ${apiPath(model, API_PATHS.mfaSignIn)}\`.`,
          content: json(ref(MFA_CHALLENGE_SCHEMA)),
        },
      },
    }),
    get: op(SIGNED_IN, {
      operationId: 'getSession',
      tags: ['session'],
      summary: 'Who is signed in.',
      responses: { '200': { description: 'The signed-in user.', content: json(ref('SessionUser')) } },
    }),
    delete: op([...ANY_REQUEST, 'E_CSRF'], {
      operationId: 'logout',
      tags: ['session'],
      summary: 'Sign out; ends the session on the server.',
      parameters: [csrf],
      responses: { '204': { description: 'Signed out.' } },
    }),
  };
  // single sign-on, when the spec has a provider (decision 0039)
  Object.assign(paths, ssoPaths(model, { op, anyRequest: ANY_REQUEST }));

  // the jobs, for admins (jobs/admin.ts, decision 0028)
  schemas['Job'] = jobSchema();
  const jobs = apiPath(model, API_PATHS.jobs);
  paths[jobs] = {
    get: op([...SIGNED_IN, 'E_FORBIDDEN', 'E_INVALID_QUERY'], {
      operationId: 'listJobs',
      tags: ['jobs'],
      summary: 'The jobs (timers, notifications, deliveries), newest first; for admins.',
      parameters: [
        { name: 'state', in: 'query', required: false, schema: { enum: [...JOB_STATES] } },
        {
          name: 'limit',
          in: 'query',
          required: false,
          schema: { type: 'integer', minimum: 1, maximum: MAX_JOBS_LISTED, default: 100 },
        },
      ],
      responses: {
        '200': {
          description: 'The newest jobs.',
          content: json({
            type: 'object',
            required: ['data'],
            additionalProperties: false,
            properties: { data: { type: 'array', items: ref('Job') } },
          }),
        },
      },
    }),
  };
  paths[`${jobs}/{id}/retry`] = {
    post: op([...CHANGING, 'E_FORBIDDEN', ...BY_ID, 'E_CONFLICT'], {
      operationId: 'retryJob',
      tags: ['jobs'],
      summary:
        'A dead job back to pending, with its attempts anew; for admins. E_CONFLICT when it is not dead.',
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }, csrf],
      responses: { '200': { description: 'The job, pending.', content: json(ref('Job')) } },
    }),
  };

  // the webhook deliveries, for admins (webhooks/routes.ts, decision 0032)
  describeWebhookDeliveries(model, schemas, paths, {
    op,
    json,
    ref,
    csrf,
    signedIn: SIGNED_IN,
    changing: CHANGING,
  });
  // a user's notifications and settings, and the admins' mail outbox (decision 0031)
  const notifications = notificationPaths(model, { op, signedIn: SIGNED_IN, changing: CHANGING });
  Object.assign(paths, notifications.paths);
  Object.assign(schemas, notifications.schemas);
  // personal API tokens, the own account and the identity audit trail (decision 0038)
  const account = accountPaths(model, { op, signedIn: SIGNED_IN, changing: CHANGING });
  Object.assign(paths, account.paths);
  Object.assign(schemas, account.schemas);
  // the second factor and the admins' ending of sessions (decision 0041)
  const mfa = mfaPaths(model, { op, signedIn: SIGNED_IN, changing: CHANGING });
  Object.assign(paths, mfa.paths);
  Object.assign(schemas, mfa.schemas);
  // the figures of dashboard screens (decision 0046)
  const dashboards = dashboardPaths(model, { op, signedIn: SIGNED_IN, changing: CHANGING });
  Object.assign(paths, dashboards.paths);
  Object.assign(schemas, dashboards.schemas);
  // uploads and downloads of files (decision 0050)
  const files = filePaths(model, { op, signedIn: SIGNED_IN, changing: CHANGING });
  Object.assign(paths, files.paths);
  Object.assign(schemas, files.schemas);
  // the live events stream (decision 0056)
  const events = eventPaths(model, { op, signedIn: SIGNED_IN });
  Object.assign(paths, events.paths);
  Object.assign(schemas, events.schemas);

  for (const entity of Object.values(model.entities)) {
    const name = schemaName(entity);
    schemas[name] = recordSchema(model, entity);
    schemas[`${name}Input`] = inputSchema(entity);
    schemas[`${name}Page`] = {
      type: 'object',
      required: ['data', 'nextCursor'],
      additionalProperties: false,
      properties: {
        data: { type: 'array', items: ref(name) },
        nextCursor: { type: ['string', 'null'], description: 'Pass as `cursor` for the next page.' },
        total: { type: 'integer', minimum: 0, description: 'With `total=true`: the rows you may read.' },
      },
    };
    const path = resourcePath(model, entity);
    const tag = entity.pluralLabel;
    const idParam = { name: 'id', in: 'path', required: true, schema: { type: 'string' } };
    const ifMatch = (required: boolean) => ({
      name: 'If-Match',
      in: 'header',
      required,
      description: 'The version the change is based on, as the ETag gave it: "3".',
      schema: { type: 'string' },
    });
    const record = { description: `The ${entity.label}.`, headers: etagHeader(), content: json(ref(name)) };
    const createCodes = ruleCodes(model, entity, 'create');
    const updateCodes = ruleCodes(model, entity, 'update');
    // one's own e-mail changes on the account page only (decision 0042)
    const writeCodes = [
      'E_FORBIDDEN',
      'E_VALIDATION',
      'E_UNIQUE',
      ...(entity.name === 'User' ? ['E_OWN_EMAIL'] : []),
    ];

    paths[path] = {
      get: op([...SIGNED_IN, 'E_FORBIDDEN', 'E_INVALID_QUERY'], {
        operationId: `list${name}`,
        tags: [tag],
        summary: `List the ${entity.pluralLabel} you may read.`,
        parameters: listParameters(model, entity),
        responses: {
          '200': {
            description:
              'A page; with `format=csv` or `format=csv-raw`, every matching row as a CSV download.',
            content: {
              ...json(ref(`${name}Page`)),
              'text/csv': { schema: { type: 'string' } },
            },
          },
        },
      }),
      // E_CONFLICT: a ref's record deleted while the create was in flight (decision 0043)
      post: op([...WRITING, ...writeCodes, 'E_CONFLICT', ...createCodes], {
        operationId: `create${name}`,
        tags: [tag],
        summary: `Create a ${entity.label}.`,
        parameters: [csrf, idempotency],
        requestBody: { required: true, content: json(ref(`${name}Input`)) },
        responses: { '201': record },
      }),
    };
    paths[`${path}/{id}`] = {
      get: op([...SIGNED_IN, ...BY_ID], {
        operationId: `get${name}`,
        tags: [tag],
        summary: `A ${entity.label}.`,
        parameters: [idParam],
        responses: { '200': record },
      }),
      patch: op(
        [...WRITING, ...writeCodes, ...BY_ID, 'E_CONFLICT', 'E_PRECONDITION_REQUIRED', ...updateCodes],
        {
          operationId: `update${name}`,
          tags: [tag],
          summary: `Change fields of a ${entity.label}.`,
          parameters: [idParam, ifMatch(true), csrf, idempotency],
          requestBody: { required: true, content: json(ref(`${name}Input`)) },
          responses: { '200': record },
        },
      ),
      delete: op(
        [
          ...WRITING,
          'E_FORBIDDEN',
          ...BY_ID,
          'E_CONFLICT',
          'E_REFERENCED',
          ...parentRuleCodes(model, entity),
        ],
        {
          operationId: `delete${name}`,
          tags: [tag],
          summary: `Delete a ${entity.label}, and what its references' \`onDelete\` says: refused while a \`restrict\` ref holds it, with the records \`cascade\` reaches, emptying \`setNull\` refs.`,
          parameters: [idParam, ifMatch(false), csrf, idempotency],
          responses: { '204': { description: 'Deleted.' } },
        },
      ),
    };
    paths[`${path}/{id}/${REFERENCES_PATH}`] = {
      get: op([...SIGNED_IN, ...BY_ID], {
        operationId: `references${name}`,
        tags: [tag],
        summary: `The records that refer to the ${entity.label}, counted by entity and ref field, and whether it may be deleted.`,
        parameters: [idParam],
        responses: {
          '200': { description: 'In the model’s order.', content: json(ref('ReferencesAnswer')) },
        },
      }),
    };
    paths[`${path}/{id}/history`] = {
      get: op([...SIGNED_IN, ...BY_ID], {
        operationId: `history${name}`,
        tags: [tag],
        summary: `Who changed the ${entity.label}, when, and how; once it is deleted too, for those who could read it then.`,
        parameters: [idParam],
        responses: { '200': { description: 'Oldest first.', content: json(ref('HistoryPage')) } },
      }),
    };
    const machine = model.states[entity.name];
    for (const transition of Object.values(machine?.transitions ?? {})) {
      const codes = ruleCodes(model, entity, { transition: transition.name });
      paths[`${path}/{id}/transitions/${transition.name}`] = {
        post: op(
          [
            ...WRITING,
            ...writeCodes,
            ...BY_ID,
            'E_CONFLICT',
            'E_PRECONDITION_REQUIRED',
            'E_TRANSITION_NOT_ALLOWED',
            transition.error ?? 'E_TRANSITION_GUARD',
            ...codes,
          ],
          {
            operationId: `${transition.name}${name}`,
            tags: [tag],
            summary: `${transition.label}: ${transition.from.join(', ')} → ${transition.to}.`,
            parameters: [idParam, ifMatch(true), csrf, idempotency],
            requestBody: {
              required: false,
              content: json({
                ...inputSchema(entity),
                description: `Fields to set with the transition${
                  transition.require.length > 0 ? `; it requires ${transition.require.join(', ')}` : ''
                }.`,
              }),
            },
            responses: { '200': record },
          },
        ),
      };
    }
  }

  // one-time links: invitations (and the User's create), sign-up, password reset (decision 0037)
  const links = linkPaths(model, { op, signedIn: SIGNED_IN, changing: CHANGING }, schemas, paths);
  Object.assign(paths, links.paths);
  Object.assign(schemas, links.schemas);

  return {
    openapi: '3.1.0',
    info: {
      title: model.product.name,
      version: '1.0.0',
      description: model.product.summary,
    },
    servers: [{ url: '/' }],
    // either one: a browser's session cookie, or a script's personal API token
    security: [{ session: [] }, { bearer: [] }],
    paths,
    components: {
      schemas,
      securitySchemes: {
        session: {
          type: 'apiKey',
          in: 'cookie',
          name: SESSION_COOKIE,
          description: `The session cookie that \`POST ${apiPath(model, API_PATHS.session)}\` sets.`,
        },
        bearer: {
          type: 'http',
          scheme: 'bearer',
          description:
            `A personal API token (\`${TOKEN_PREFIX}…\`) that \`POST ${apiPath(model, API_PATHS.tokens)}\` made: ` +
            'the request acts as its user with the token’s roles, needs no CSRF header and ignores any cookie.',
        },
      },
      parameters: {
        Csrf: {
          name: CSRF_HEADER,
          in: 'header',
          required: true,
          description: 'Every request that changes data carries it (CSRF defence).',
          schema: { type: 'string', const: CSRF_HEADER_VALUE },
        },
        IdempotencyKey: {
          name: IDEMPOTENCY_KEY_HEADER,
          in: 'header',
          required: false,
          description:
            'A key of the client’s choosing (a UUID): the change is done once whatever the number of ' +
            'times it is sent with that key in 24 hours; a repeat answers the first outcome with ' +
            '`Idempotent-Replayed: true`. The same key with another change is E_IDEMPOTENCY_KEY_REUSED.',
          schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7E]+$' },
        },
      },
    },
  };
}
