/**
 * The OpenAPI description of the live events stream (`events/routes.ts`, decision 0056), added to
 * the document by `openApiDocument` unless the spec turned it off (`calls.realtime: false`).
 */
import { API_PATHS, EVENT_RETRY_MS, type Model, STREAM_EVENTS } from '@ninefold/model';
import { MAX_STREAMS_PER_USER } from '../events/routes.js';
import { apiPath } from '../http/paths.js';
import { type Json } from './operations.js';

/**
 * The path and schema of the events stream; none when the spec has it off.
 *
 * @example const { paths, schemas } = eventPaths(model, { op, signedIn });
 */
export function eventPaths(
  model: Model,
  parts: {
    readonly op: (codes: readonly string[], extra: Json) => Json;
    readonly signedIn: readonly string[];
  },
): { paths: Record<string, Record<string, Json>>; schemas: Record<string, Json> } {
  if (!model.calls.realtime) return { paths: {}, schemas: {} };
  const change = {
    type: 'object',
    required: ['entity', 'id', 'kind', 'transition', 'version'],
    additionalProperties: false,
    description: `The \`data:\` of a \`${STREAM_EVENTS.record}\` event: which record changed and how, never its values.`,
    properties: {
      entity: { type: 'string', description: 'The entity’s name, as in the model.' },
      id: { type: 'string' },
      kind: { type: 'string', enum: ['created', 'updated', 'transition', 'deleted'] },
      transition: { type: ['string', 'null'], description: 'The transition’s name for `transition`.' },
      version: { type: 'integer', description: 'The version after the change; for `deleted`, the last.' },
    },
  };
  const path = apiPath(model, API_PATHS.events);
  return {
    schemas: { 'ninefold.RecordChangeEvent': change },
    paths: {
      [path]: {
        get: parts.op(parts.signedIn, {
          operationId: 'streamEvents',
          tags: ['events'],
          summary: 'Your live stream of record changes (Server-Sent Events).',
          description: [
            'Stays open. Sends `retry:` and an `id:` at once; then, for each change of a record you may',
            `read, a \`${STREAM_EVENTS.record}\` event (\`data:\` is a RecordChangeEvent, ids only; read the`,
            'record through the API); a comment line as a heartbeat. Send the last `id:` back as',
            'Last-Event-ID to get what you missed, or one `resync` event (`data: {}`) when it cannot',
            'be told: read again what you show. An event may come twice; one whose version you have',
            `can be ignored. At most ${MAX_STREAMS_PER_USER} open streams per user (E_RATE_LIMITED past`,
            `them, Retry-After ${Math.ceil(EVENT_RETRY_MS / 1000)}). Ends when your session ends.`,
          ].join(' '),
          parameters: [
            {
              name: 'Last-Event-ID',
              in: 'header',
              required: false,
              description: 'The last `id:` received: replays the changes since.',
              schema: { type: 'string' },
            },
          ],
          responses: {
            '200': {
              description: 'The stream.',
              content: {
                'text/event-stream': {
                  schema: {
                    type: 'string',
                    description: 'Each `record` event’s `data:` is a ninefold.RecordChangeEvent.',
                  },
                },
              },
            },
          },
        }),
      },
    },
  };
}
