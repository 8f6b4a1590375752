/**
 * The OpenAPI 3.1 description of a model's API, generated from the model: every route, a schema
 * per entity from its field types, the list query parameters, and for every operation the
 * problem responses with the catalogue codes it can return.
 */
import { rulesFor } from '@ninefold/engine';
import {
  ACTIONS_KEY,
  API_PATHS,
  CSRF_HEADER,
  CSRF_HEADER_VALUE,
  type Entity,
  FIELD_TYPE_INFO,
  FILTER_OPERATORS,
  type Field,
  IDEMPOTENCY_KEY_HEADER,
  MAX_PROBLEM_ERRORS,
  type Model,
  PROBLEM_MEDIA_TYPE,
  SESSION_COOKIE,
} from '@ninefold/model';
import { apiPath } from '../http/paths.js';
import { JOB_STATES } from '../jobs/job.js';
import { MAX_JOBS_LISTED } from '../jobs/admin.js';
import { resourcePath } from '../resources/routes.js';
import { describeWebhookDeliveries } from './webhooks.js';
import { notificationPaths } from './notification-paths.js';

type Json = Record<string, unknown>;

const PROBLEM = PROBLEM_MEDIA_TYPE;

/** Codes any request may meet; E_UNAVAILABLE when its database connection fails (decision 0023). */
const ANY_REQUEST = ['E_RATE_LIMITED', 'E_INTERNAL', 'E_BAD_REQUEST', 'E_UNAVAILABLE'];
/** Codes of any request that needs a session. */
const SIGNED_IN = [...ANY_REQUEST, 'E_UNAUTHENTICATED', 'E_SESSION_EXPIRED'];
/** Codes of any request that changes data. */
const CHANGING = [...SIGNED_IN, 'E_CSRF', 'E_PAYLOAD_TOO_LARGE'];
/** Codes of a change to a resource, which may carry an Idempotency-Key. */
const WRITING = [...CHANGING, 'E_IDEMPOTENCY_KEY_REUSED'];
/** Codes of a request for one record by its id: no such record, or an id too long to route. */
const BY_ID = ['E_NOT_FOUND', 'E_URI_TOO_LONG'];

/**
 * The OpenAPI document of a model.
 *
 * @example const doc = openApiDocument(model); doc.paths['/api/claims'].get
 */
export function openApiDocument(model: Model): Json & { paths: Record<string, Record<string, Json>> } {
  const schemas: Record<string, Json> = {
    Problem: problemSchema(),
    HistoryPage: historySchema(),
    SessionUser: {
      type: 'object',
      required: ['user'],
      properties: {
        user: {
          type: 'object',
          required: ['id', 'email', 'name', 'roles', 'context'],
          properties: {
            id: { type: 'string' },
            email: { type: 'string' },
            name: { type: 'string' },
            roles: { type: 'array', items: { type: 'string' } },
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
      responses: { '200': { description: 'Signed in.', content: json(ref('SessionUser')) } },
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
    const writeCodes = ['E_FORBIDDEN', 'E_VALIDATION', 'E_UNIQUE'];

    paths[path] = {
      get: op([...SIGNED_IN, 'E_FORBIDDEN', 'E_INVALID_QUERY'], {
        operationId: `list${name}`,
        tags: [tag],
        summary: `List the ${entity.pluralLabel} you may read.`,
        parameters: listParameters(model, entity),
        responses: {
          '200': {
            description: 'A page; with `format=csv`, every matching row as a CSV download.',
            content: {
              ...json(ref(`${name}Page`)),
              'text/csv': { schema: { type: 'string' } },
            },
          },
        },
      }),
      post: op([...WRITING, ...writeCodes, ...createCodes], {
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
      delete: op([...WRITING, 'E_FORBIDDEN', ...BY_ID, 'E_CONFLICT'], {
        operationId: `delete${name}`,
        tags: [tag],
        summary: `Delete a ${entity.label}.`,
        parameters: [idParam, ifMatch(false), csrf, idempotency],
        responses: { '204': { description: 'Deleted.' } },
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

  return {
    openapi: '3.1.0',
    info: {
      title: model.product.name,
      version: '1.0.0',
      description: model.product.summary,
    },
    servers: [{ url: '/' }],
    security: [{ session: [] }],
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

/** The schema name of an entity: its name, made safe for a component key. */
function schemaName(entity: Entity): string {
  return entity.name.replace(/[^A-Za-z0-9._-]/g, '_');
}

/** An operation with its problem responses, one per status, listing the codes of that status. */
function operation(model: Model, codes: readonly string[], extra: Json): Json {
  const byStatus = new Map<number, Set<string>>();
  for (const code of codes) {
    const def = model.errors[code];
    if (def === undefined) continue;
    let set = byStatus.get(def.status);
    if (set === undefined) byStatus.set(def.status, (set = new Set()));
    set.add(code);
  }
  const responses: Record<string, Json> = { ...(extra['responses'] as Record<string, Json>) };
  for (const [status, set] of [...byStatus].sort(([a], [b]) => a - b)) {
    const list = [...set].sort();
    responses[String(status)] = {
      description: list.map((c) => `${c}: ${model.errors[c]?.description ?? ''}`).join('\n'),
      content: {
        [PROBLEM]: {
          schema: {
            allOf: [
              { $ref: '#/components/schemas/Problem' },
              { type: 'object', properties: { code: { enum: list }, status: { const: status } } },
            ],
          },
        },
      },
    };
  }
  return { ...extra, responses };
}

function ruleCodes(model: Model, entity: Entity, operation: Parameters<typeof rulesFor>[2]): string[] {
  return rulesFor(model, entity.name, operation).map((r) => r.error);
}

function etagHeader(): Json {
  return { ETag: { description: 'The record’s version, for If-Match.', schema: { type: 'string' } } };
}

function statusSchema(value: string): Json {
  return {
    type: 'object',
    required: ['status'],
    properties: { status: { const: value } },
  };
}

function problemSchema(): Json {
  return {
    type: 'object',
    description: 'An RFC 9457 problem with the catalogue code and its rendered message.',
    required: ['type', 'title', 'status', 'code', 'message'],
    properties: {
      type: { type: 'string' },
      title: { type: 'string' },
      status: { type: 'integer' },
      code: { type: 'string' },
      message: { type: 'string' },
      detail: { type: 'string' },
      correlationId: { type: 'string' },
      errors: {
        type: 'array',
        description: `The field errors, the first ${MAX_PROBLEM_ERRORS} found.`,
        maxItems: MAX_PROBLEM_ERRORS,
        items: {
          type: 'object',
          required: ['field', 'code', 'message'],
          additionalProperties: false,
          properties: {
            field: { type: ['string', 'null'] },
            code: { type: 'string' },
            message: { type: 'string' },
          },
        },
      },
      moreErrors: {
        type: 'integer',
        minimum: 1,
        description: 'How many field errors were found beyond those `errors` lists.',
      },
    },
  };
}

function jobSchema(): Json {
  const nullableText = { type: ['string', 'null'] };
  return {
    type: 'object',
    required: [
      'id',
      'kind',
      'payload',
      'state',
      'attempts',
      'maxAttempts',
      'runAt',
      'lockedUntil',
      'lastError',
      'key',
      'createdAt',
      'updatedAt',
    ],
    additionalProperties: false,
    properties: {
      id: { type: 'string' },
      kind: { type: 'string' },
      payload: {},
      state: { enum: [...JOB_STATES] },
      attempts: { type: 'integer', minimum: 0 },
      maxAttempts: { type: 'integer', minimum: 1 },
      runAt: { type: 'string', format: 'date-time' },
      lockedUntil: { type: ['string', 'null'], format: 'date-time' },
      lastError: nullableText,
      key: nullableText,
      createdAt: { type: 'string', format: 'date-time' },
      updatedAt: { type: 'string', format: 'date-time' },
    },
  };
}

function historySchema(): Json {
  const nullableText = { type: ['string', 'null'] };
  return {
    type: 'object',
    required: ['data'],
    additionalProperties: false,
    properties: {
      data: {
        type: 'array',
        items: {
          type: 'object',
          required: ['id', 'at', 'by', 'action', 'transition', 'from', 'to', 'changes'],
          additionalProperties: false,
          properties: {
            id: { type: 'string' },
            at: { type: 'string', format: 'date-time' },
            by: nullableText,
            action: { enum: ['create', 'update', 'delete', 'transition'] },
            transition: nullableText,
            from: nullableText,
            to: nullableText,
            changes: {
              type: 'object',
              additionalProperties: {
                type: 'object',
                required: ['from', 'to'],
                properties: { from: {}, to: {} },
              },
            },
          },
        },
      },
    },
  };
}

/** A field's value as JSON Schema; `output` for what the server sends (decimals always strings). */
function fieldSchema(field: Field, output: boolean): Json {
  const item = scalarSchema(field, output);
  const described = (schema: Json) => (field.help === '' ? schema : { ...schema, description: field.help });
  if (field.many) return described({ type: ['array', 'null'], items: item });
  if (FIELD_TYPE_INFO[field.type].json.type === 'any') return described({});
  if ('enum' in item) return described({ enum: [...(item['enum'] as string[]), null] });
  const type = item['type'];
  return described({ ...item, type: Array.isArray(type) ? [...(type as string[]), 'null'] : [type, 'null'] });
}

function scalarSchema(field: Field, output: boolean): Json {
  const { json } = FIELD_TYPE_INFO[field.type];
  if (field.values !== null) return { enum: [...field.values] };
  if (json.acceptsNumber === true && !output) return { type: ['string', 'number'] };
  const schema: Json = { type: json.type === 'any' ? 'string' : json.type };
  if (json.format !== undefined) schema['format'] = json.format;
  if (json.pattern !== undefined) schema['pattern'] = json.pattern;
  if (field.to !== null) schema['description'] = `The id of a ${field.to}.`;
  else if (json.description !== undefined) schema['description'] = json.description;
  return schema;
}

/** A record as the server sends it: masked fields are absent, so only system fields are required. */
function recordSchema(model: Model, entity: Entity): Json {
  const machine = model.states[entity.name];
  const properties: Record<string, Json> = {
    id: { type: 'string' },
    createdAt: { type: 'string', format: 'date-time' },
    updatedAt: { type: 'string', format: 'date-time' },
    createdBy: { type: ['string', 'null'] },
    version: { type: 'integer', minimum: 1 },
  };
  const required = ['id', 'createdAt', 'updatedAt', 'version', ACTIONS_KEY];
  if (machine !== undefined) {
    properties['state'] = { enum: Object.keys(machine.states) };
    required.push('state');
  }
  for (const field of Object.values(entity.fields)) properties[field.name] = fieldSchema(field, true);
  const transitions = Object.keys(machine?.transitions ?? {});
  properties[ACTIONS_KEY] = {
    type: 'array',
    description: 'The transitions you may fire on the record now.',
    ...(transitions.length === 0 ? { maxItems: 0 } : { items: { enum: transitions } }),
  };
  return { type: 'object', required, additionalProperties: false, properties };
}

/** What a create or update may send: the fields that are not read-only; the roles narrow it further. */
function inputSchema(entity: Entity): Json {
  const properties: Record<string, Json> = {};
  for (const field of Object.values(entity.fields)) {
    if (!field.readonly) properties[field.name] = fieldSchema(field, false);
  }
  return { type: 'object', additionalProperties: false, properties };
}

function listParameters(model: Model, entity: Entity): Json[] {
  const params: Json[] = [
    {
      name: 'sort',
      in: 'query',
      description: 'Comma-separated fields, `-` for descending: `-spentOn,title`.',
      schema: { type: 'string' },
    },
    {
      name: 'limit',
      in: 'query',
      description: `Rows per page (default ${model.limits.pageSize}, at most ${model.limits.maxPageSize}).`,
      schema: { type: 'integer', minimum: 1 },
    },
    {
      name: 'cursor',
      in: 'query',
      description: 'The `nextCursor` of the previous page.',
      schema: { type: 'string' },
    },
    {
      name: 'q',
      in: 'query',
      description: `Text search in ${entity.search.join(', ') || 'no field'}.`,
      schema: { type: 'string' },
    },
    { name: 'total', in: 'query', description: 'Also count the rows.', schema: { type: 'boolean' } },
    {
      name: 'format',
      in: 'query',
      description: '`csv`: every row the filters select (not one page), as CSV with the readable columns.',
      schema: { type: 'string', enum: ['json', 'csv'] },
    },
  ];
  const screens = model.screens.filter((s) => s.kind === 'list' && s.entity === entity.name);
  if (screens.length > 0) {
    params.push({
      name: 'screen',
      in: 'query',
      description: "Also apply this list screen's fixed condition (`where`).",
      schema: { type: 'string', enum: screens.map((s) => s.id) },
    });
  }
  const names = ['id', 'createdAt', 'updatedAt', 'createdBy', 'version'];
  if (model.states[entity.name] !== undefined) names.push('state');
  for (const field of Object.values(entity.fields))
    if (FIELD_TYPE_INFO[field.type].operators.length > 0) names.push(field.name);
  params.push({
    name: 'filter',
    in: 'query',
    description: `Filters as \`field=value\` or \`field[op]=value\`, op one of ${FILTER_OPERATORS.join(', ')} (\`in\` takes comma-separated values). Fields: ${names.join(', ')}.`,
    style: 'form',
    explode: true,
    schema: { type: 'object', additionalProperties: { type: 'string' } },
  });
  return params;
}
