/**
 * What admins see of the webhook deliveries, and what they may do: `GET <basePath>/admin/webhook-deliveries`
 * lists the delivery log newest first (filtered by state and webhook), and
 * `POST <basePath>/admin/webhook-deliveries/<id>/resend` sends a delivery's message again, as a new
 * delivery of its own (with its own log row and attempts) that keeps the message's `webhook-id`, so a
 * receiver that has the message can tell (decision 0032). Admins are those of the jobs (`isAdmin`).
 */
import { API_PATHS, type DeliveryState, type Model, type WireDelivery } from '@ninefold/model';
import { type FastifyInstance } from 'fastify';
import { decodeInteger } from '../db/dialect.js';
import { type Database } from '../db/open.js';
import { listFilter, listLimit, requireAdmin } from '../http/admin-lists.js';
import { ApiError } from '../http/errors.js';
import { apiPath } from '../http/paths.js';
import { TABLES } from '../schema/names.js';
import { type DeliveryPayload } from './deliver.js';
import { enqueueDelivery } from './enqueue.js';

/** The most deliveries one answer lists. */
export const MAX_DELIVERIES_LISTED = 500;

export const DELIVERY_STATES: readonly DeliveryState[] = ['pending', 'delivered', 'failed'];

/** Registers the admin's webhook delivery routes. */
export function registerWebhookRoutes(
  api: FastifyInstance,
  context: { model: Model; database: Database; now: () => Date },
): void {
  const { model, database, now } = context;
  const path = apiPath(model, API_PATHS.webhookDeliveries);

  api.get(path, async (request) => {
    requireAdmin(model, request);
    const query = request.query as Record<string, unknown>;
    const state = listFilter(request.query, 'state', DELIVERY_STATES);
    const webhook = query['webhook'];
    if (webhook !== undefined && typeof webhook !== 'string')
      throw new ApiError('E_INVALID_QUERY', { reason: 'webhook must be given once' });
    const limit = listLimit(request.query, MAX_DELIVERIES_LISTED);
    let select = database.db.selectFrom(TABLES.webhookDeliveries).selectAll();
    if (state !== undefined) select = select.where('state', '=', state);
    if (webhook !== undefined) select = select.where('webhook', '=', webhook);
    const rows = await select.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
    return { data: rows.map(wireDelivery) };
  });

  api.post(`${path}/:id/resend`, async (request, reply) => {
    requireAdmin(model, request);
    const { id } = request.params as { id: string };
    const at = now();
    const resent = await database.db.transaction().execute(async (tx) => {
      const row = await tx
        .selectFrom(TABLES.webhookDeliveries)
        .select(['id', 'message'])
        .where('id', '=', id)
        .executeTakeFirst();
      if (row === undefined) return undefined;
      const payload = JSON.parse(String(row.message)) as DeliveryPayload;
      // the same message again: its id is the first delivery's, whichever delivery is re-sent
      const message: DeliveryPayload = { ...payload, messageId: payload.messageId ?? String(row.id) };
      const newId = await enqueueDelivery(tx, { name: payload.webhook }, message, at);
      return tx
        .selectFrom(TABLES.webhookDeliveries)
        .selectAll()
        .where('id', '=', newId)
        .executeTakeFirstOrThrow();
    });
    if (resent === undefined) throw new ApiError('E_NOT_FOUND', { entity: 'delivery' });
    return reply.code(202).send(wireDelivery(resent));
  });
}

function wireDelivery(row: Record<string, unknown>): WireDelivery {
  const status = row['last_status'];
  const answer = row['last_answer'];
  return {
    id: String(row['id']),
    webhook: String(row['webhook']),
    event: String(row['event']),
    entity: String(row['entity']),
    recordId: String(row['record_id']),
    state: String(row['state']) as DeliveryState,
    attempts: decodeInteger(row['attempts']),
    lastStatus: status === null || status === undefined ? null : decodeInteger(status),
    lastAnswer: answer === null || answer === undefined ? null : String(answer),
    createdAt: String(row['created_at']),
    updatedAt: String(row['updated_at']),
  };
}
