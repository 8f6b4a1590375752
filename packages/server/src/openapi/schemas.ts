/**
 * The JSON Schemas of the OpenAPI document: a record and its input per entity from its field
 * types, a list's query parameters, and the fixed ones (a problem, a job, a history page). Kept
 * apart from the routes (`document.ts`), which name these schemas.
 */
import { rulesFor } from '@ninefold/engine';
import {
  computedParents,
  ACTIONS_KEY,
  type Entity,
  FIELD_TYPE_INFO,
  FILTER_OPERATORS,
  type Field,
  MAX_PROBLEM_ERRORS,
  ON_DELETE,
  type Model,
} from '@ninefold/model';
import { JOB_STATES } from '../jobs/job.js';
import { type Json } from './operations.js';

/**
 * The schema name of an entity: its name, made safe for a component key.
 *
 * @example schemaName(model.entities['Claim']!) // 'Claim'
 */
export function schemaName(entity: Entity): string {
  return entity.name.replace(/[^A-Za-z0-9._-]/g, '_');
}

/**
 * The catalogue codes of an entity's rules for an operation.
 *
 * @example ruleCodes(model, entity, 'create') // ['E_CLAIM_LIMIT']
 */
export function ruleCodes(model: Model, entity: Entity, operation: Parameters<typeof rulesFor>[2]): string[] {
  return [...rulesFor(model, entity.name, operation).map((r) => r.error), ...parentRuleCodes(model, entity)];
}

/**
 * The codes of the update rules of every parent whose computed values a write of the entity can
 * change (decision 0045): a line that would take its order's total over a limit is refused with
 * the order's rule.
 *
 * @example parentRuleCodes(model, model.entities['OrderLine']!) // ['E_ORDER_TOO_LARGE']
 */
export function parentRuleCodes(model: Model, entity: Entity, seen = new Set<string>()): string[] {
  const out: string[] = [];
  for (const parent of computedParents(model.entities, entity.name)) {
    if (seen.has(parent.entity)) continue;
    seen.add(parent.entity);
    out.push(...rulesFor(model, parent.entity, 'update').map((r) => r.error));
    const def = model.entities[parent.entity];
    if (def !== undefined) out.push(...parentRuleCodes(model, def, seen));
  }
  return out;
}

/**
 * The ETag header of an answer with one record.
 *
 * @example etagHeader().ETag
 */
export function etagHeader(): Json {
  return { ETag: { description: 'The record’s version, for If-Match.', schema: { type: 'string' } } };
}

/**
 * The problem+json answer.
 *
 * @example problemSchema().required // ['type', 'title', 'status', …]
 */
export function problemSchema(): Json {
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

/**
 * A job as the admin's job list shows it.
 *
 * @example jobSchema().properties
 */
export function jobSchema(): Json {
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

/**
 * The answer of `GET <resource>/<id>/references` (`ReferencesAnswer`, decision 0043).
 *
 * @example referencesSchema().required // ['data', 'deletable']
 */
export function referencesSchema(): Json {
  return {
    type: 'object',
    required: ['data', 'deletable'],
    additionalProperties: false,
    properties: {
      data: {
        type: 'array',
        items: {
          type: 'object',
          required: ['entity', 'field', 'count', 'onDelete'],
          additionalProperties: false,
          properties: {
            entity: { type: 'string' },
            field: { type: 'string' },
            count: { type: 'integer', minimum: 0 },
            onDelete: { enum: [...ON_DELETE] },
          },
        },
      },
      deletable: { type: 'boolean' },
    },
  };
}

/**
 * A page of a record's history.
 *
 * @example historySchema().properties
 */
export function historySchema(): Json {
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
  // a file is read as its FileInfo and written as its id or `{ id }` (decision 0054)
  if (FIELD_TYPE_INFO[field.type].json.type === 'file') return described(fileFieldSchema(field, output));
  if (field.many) return described({ type: ['array', 'null'], items: item });
  if (FIELD_TYPE_INFO[field.type].json.type === 'any') return described({});
  if ('enum' in item) return described({ enum: [...(item['enum'] as string[]), null] });
  const type = item['type'];
  return described({ ...item, type: Array.isArray(type) ? [...(type as string[]), 'null'] : [type, 'null'] });
}

/**
 * A file as the server sends it (`FileInfo`): its id, the name it was uploaded with, its size in
 * bytes and its sniffed media type.
 *
 * @example fileInfoSchema().required // ['id', 'name', 'size', 'type']
 */
export function fileInfoSchema(): Json {
  return {
    type: 'object',
    required: ['id', 'name', 'size', 'type'],
    properties: {
      id: { type: 'string' },
      name: { type: 'string' },
      size: { type: 'integer', minimum: 0 },
      type: { type: 'string', description: 'The media type sniffed from the content.' },
    },
  };
}

/** A file field: `FileInfo` (a list of them) when read; an id or `{ id }` (a list) when written. */
function fileFieldSchema(field: Field, output: boolean): Json {
  const written = {
    description: 'The id `POST files` answered, or the file as read (only its `id` counts).',
    oneOf: [{ type: 'string' }, { type: 'object', required: ['id'], properties: { id: { type: 'string' } } }],
  };
  const item = output ? fileInfoSchema() : written;
  if (field.many) return { type: ['array', 'null'], items: item };
  return output ? { ...item, type: ['object', 'null'] } : { oneOf: [...written.oneOf, { type: 'null' }] };
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

/**
 * A record as the server sends it: masked fields are absent, so only system fields are required.
 *
 * @example recordSchema(model, entity).required // ['id', 'createdAt', …]
 */
export function recordSchema(model: Model, entity: Entity): Json {
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
  for (const field of Object.values(entity.fields)) {
    const schema = fieldSchema(field, true);
    // kept by the server from the record and its children; never accepted in a write (decision 0045)
    properties[field.name] = field.computed === null ? schema : { ...schema, readOnly: true };
  }
  const transitions = Object.keys(machine?.transitions ?? {});
  properties[ACTIONS_KEY] = {
    type: 'array',
    description: 'The transitions you may fire on the record now.',
    ...(transitions.length === 0 ? { maxItems: 0 } : { items: { enum: transitions } }),
  };
  return { type: 'object', required, additionalProperties: false, properties };
}

/**
 * What a create or update may send: the fields that are not read-only; the roles narrow it further.
 *
 * @example inputSchema(entity).properties
 */
export function inputSchema(entity: Entity): Json {
  const properties: Record<string, Json> = {};
  for (const field of Object.values(entity.fields)) {
    if (!field.readonly) properties[field.name] = fieldSchema(field, false);
  }
  return { type: 'object', additionalProperties: false, properties };
}

/**
 * The query parameters of an entity's list.
 *
 * @example listParameters(model, entity).map((p) => p.name)
 */
export function listParameters(model: Model, entity: Entity): Json[] {
  const params: Json[] = [
    {
      name: 'sort',
      in: 'query',
      description:
        'Comma-separated fields, `-` for descending: `-spentOn,title`. A list of refs (`many: true`) sorts by how many records it lists.',
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
      description:
        '`csv`: every row the filters select (not one page), as CSV with the readable columns in words (labels, names, formatted money and dates); `csv-raw`: the same with the stored values and ids.',
      schema: { type: 'string', enum: ['json', 'csv', 'csv-raw'] },
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
    description: `Filters as \`field=value\` or \`field[op]=value\`, op one of ${FILTER_OPERATORS.join(', ')} (\`in\` takes comma-separated values). A list of refs takes \`field=ID\` or \`field[contains]=ID\` (lists ID), \`field[ne]=ID\`, \`field[in]=a,b\` (lists any) and \`field[isNull]=true\` (lists none). Fields: ${names.join(', ')}.`,
    style: 'form',
    explode: true,
    schema: { type: 'object', additionalProperties: { type: 'string' } },
  });
  return params;
}
