/**
 * The OpenAPI description of the webhook delivery log for admins (`webhooks/routes.ts`, decision
 * 0032): its list and its re-send. Kept beside `document.ts`, which calls it with its helpers, so
 * each part of the API describes itself in a file of its own size.
 */
import { API_PATHS, type Model } from '@ninefold/model';
import { apiPath } from '../http/paths.js';
import { DELIVERY_STATES, MAX_DELIVERIES_LISTED } from '../webhooks/routes.js';

type Json = Record<string, unknown>;

/** What `document.ts` lends: an operation with its problem responses, content, references. */
export interface DocumentHelpers {
  readonly op: (codes: readonly string[], extra: Json) => Json;
  readonly json: (schema: Json) => Json;
  readonly ref: (name: string) => Json;
  readonly csrf: Json;
  /** Codes of any request that needs a session, and of any that changes data. */
  readonly signedIn: readonly string[];
  readonly changing: readonly string[];
}

/**
 * Adds the delivery log's schema and paths to a document's.
 *
 * @example describeWebhookDeliveries(model, schemas, paths, helpers)
 */
export function describeWebhookDeliveries(
  model: Model,
  schemas: Record<string, Json>,
  paths: Record<string, Record<string, Json>>,
  helpers: DocumentHelpers,
): void {
  const { op, json, ref, csrf } = helpers;
  schemas['WebhookDelivery'] = deliverySchema();
  const path = apiPath(model, API_PATHS.webhookDeliveries);
  paths[path] = {
    get: op([...helpers.signedIn, 'E_FORBIDDEN', 'E_INVALID_QUERY'], {
      operationId: 'listWebhookDeliveries',
      tags: ['webhooks'],
      summary:
        'The webhook deliveries, newest first, with their state, attempts and last answer; for admins.',
      parameters: [
        { name: 'state', in: 'query', required: false, schema: { enum: [...DELIVERY_STATES] } },
        { name: 'webhook', in: 'query', required: false, schema: { type: 'string' } },
        {
          name: 'limit',
          in: 'query',
          required: false,
          schema: { type: 'integer', minimum: 1, maximum: MAX_DELIVERIES_LISTED, default: 100 },
        },
      ],
      responses: {
        '200': {
          description: 'The newest deliveries.',
          content: json({
            type: 'object',
            required: ['data'],
            additionalProperties: false,
            properties: { data: { type: 'array', items: ref('WebhookDelivery') } },
          }),
        },
      },
    }),
  };
  paths[`${path}/{id}/resend`] = {
    post: op([...helpers.changing, 'E_FORBIDDEN', 'E_NOT_FOUND', 'E_URI_TOO_LONG'], {
      operationId: 'resendWebhookDelivery',
      tags: ['webhooks'],
      summary: 'Sends a delivery’s message again, as a new delivery with the same webhook-id; for admins.',
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }, csrf],
      responses: {
        '202': { description: 'The new delivery, pending.', content: json(ref('WebhookDelivery')) },
      },
    }),
  };
}

function deliverySchema(): Json {
  const properties = {
    id: { type: 'string' },
    webhook: { type: 'string' },
    event: { type: 'string', description: 'The event as the spec writes it: `Claim.pay`.' },
    entity: { type: 'string' },
    recordId: { type: 'string' },
    state: { enum: [...DELIVERY_STATES] },
    attempts: { type: 'integer', minimum: 0 },
    lastStatus: { type: ['integer', 'null'] },
    lastAnswer: { type: ['string', 'null'] },
    createdAt: { type: 'string', format: 'date-time' },
    updatedAt: { type: 'string', format: 'date-time' },
  };
  return { type: 'object', required: Object.keys(properties), additionalProperties: false, properties };
}
