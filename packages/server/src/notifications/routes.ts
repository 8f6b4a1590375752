/**
 * A user's own notifications over the API: `GET <basePath>/notifications` lists them newest first
 * with the unread count (`limit`, and `before` — the id of the last one of the page before);
 * `POST <basePath>/notifications/<id>/read` marks one read and `POST <basePath>/notifications/read`
 * all of them; `GET` and `PUT <basePath>/notifications/settings` say and change which they get. A
 * user sees and changes only their own: someone else's notification is E_NOT_FOUND, as one that
 * does not exist.
 */
import {
  API_PATHS,
  type Model,
  type NotificationPage,
  type NotificationSetting,
  type WireNotification,
} from '@ninefold/model';
import { type FastifyInstance, type FastifyReply } from 'fastify';
import { requireUser } from '../auth/request-auth.js';
import { decodeBoolean, encodeBoolean } from '../db/dialect.js';
import { type Database } from '../db/open.js';
import { ApiError } from '../http/errors.js';
import { apiPath } from '../http/paths.js';
import { isRecordId, newId } from '../ids.js';
import { TABLES } from '../schema/names.js';

/** The most notifications one page lists. */
export const MAX_NOTIFICATIONS_LISTED = 100;
const DEFAULT_NOTIFICATIONS_LISTED = 20;

/**
 * Registers the notification routes; a spec whose entity takes their path is refused here, with
 * the entity's name, rather than by the router.
 *
 * @example registerNotificationRoutes(api, { model, database, now });
 */
export function registerNotificationRoutes(
  api: FastifyInstance,
  context: { model: Model; database: Database; now: () => Date },
): void {
  const { model, database, now } = context;
  const taken = Object.values(model.entities).find((e) => e.resource === API_PATHS.notifications);
  if (taken !== undefined)
    throw new Error(
      `Entity ${taken.name}'s resource "${taken.resource}" is the path of the notifications API. Rename its resource.`,
    );
  const path = apiPath(model, API_PATHS.notifications);
  const settingsPath = apiPath(model, API_PATHS.notificationSettings);
  const db = database.db;

  api.get(path, async (request): Promise<NotificationPage> => {
    const user = requireUser(request);
    const query = request.query as Record<string, unknown>;
    const limit = limitOf(query['limit']);
    let select = db.selectFrom(TABLES.notifications).selectAll().where('user_id', '=', user.id);
    const before = query['before'];
    if (before !== undefined) {
      // an id-shaped text only: no other text reaches the database (a NUL is no PostgreSQL text)
      const cursor =
        typeof before === 'string' && isRecordId(before)
          ? await db
              .selectFrom(TABLES.notifications)
              .select(['created_at', 'id'])
              .where('id', '=', before)
              .where('user_id', '=', user.id)
              .executeTakeFirst()
          : undefined;
      if (cursor === undefined)
        throw new ApiError('E_INVALID_QUERY', {
          reason: 'before must be the id of one of your notifications',
        });
      select = select.where((eb) =>
        eb.or([
          eb('created_at', '<', cursor.created_at),
          eb.and([eb('created_at', '=', cursor.created_at), eb('id', '<', cursor.id)]),
        ]),
      );
    }
    const rows = await select
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit + 1)
      .execute();
    const unread = await db
      .selectFrom(TABLES.notifications)
      .select((eb) => eb.fn.countAll().as('count'))
      .where('user_id', '=', user.id)
      .where('read_at', 'is', null)
      .executeTakeFirst();
    const items = rows.slice(0, limit).map(wireNotification);
    return {
      items,
      unread: Number(unread?.count ?? 0),
      next: rows.length > limit ? (items.at(-1)?.id ?? null) : null,
    };
  });

  api.post(`${path}/read`, async (request, reply: FastifyReply) => {
    const user = requireUser(request);
    await db
      .updateTable(TABLES.notifications)
      .set({ read_at: now().toISOString() })
      .where('user_id', '=', user.id)
      .where('read_at', 'is', null)
      .execute();
    return reply.code(204).send();
  });

  api.post(`${path}/:id/read`, async (request): Promise<WireNotification> => {
    const user = requireUser(request);
    const { id } = request.params as { id: string };
    if (!isRecordId(id)) throw new ApiError('E_NOT_FOUND', { entity: 'notification' });
    await db
      .updateTable(TABLES.notifications)
      .set({ read_at: now().toISOString() })
      .where('id', '=', id)
      .where('user_id', '=', user.id)
      .where('read_at', 'is', null)
      .execute();
    const row = await db
      .selectFrom(TABLES.notifications)
      .selectAll()
      .where('id', '=', id)
      .where('user_id', '=', user.id)
      .executeTakeFirst();
    if (row === undefined) throw new ApiError('E_NOT_FOUND', { entity: 'notification' });
    return wireNotification(row);
  });

  api.get(settingsPath, async (request): Promise<NotificationSetting[]> => {
    const user = requireUser(request);
    return settingsOf(model, database, user.id);
  });

  api.put(settingsPath, async (request): Promise<NotificationSetting[]> => {
    const user = requireUser(request);
    const changes = settingsBody(model, request.body);
    const at = now().toISOString();
    await db.transaction().execute(async (trx) => {
      for (const { notification, enabled } of changes) {
        const stored = encodeBoolean(enabled, database.dialect);
        await trx
          .insertInto(TABLES.notificationSettings)
          .values({ id: newId(), user_id: user.id, notification, enabled: stored, updated_at: at })
          .onConflict((oc) =>
            oc.columns(['user_id', 'notification']).doUpdateSet({ enabled: stored, updated_at: at }),
          )
          .execute();
      }
    });
    return settingsOf(model, database, user.id);
  });
}

/** A user's settings: one per notification of the spec, enabled unless they turned it off. */
async function settingsOf(model: Model, database: Database, userId: string): Promise<NotificationSetting[]> {
  const rows = await database.db
    .selectFrom(TABLES.notificationSettings)
    .select(['notification', 'enabled'])
    .where('user_id', '=', userId)
    .execute();
  const off = new Set(
    rows.filter((row) => !decodeBoolean(row.enabled)).map((row) => String(row.notification)),
  );
  return Object.values(model.notifications).map((notification) => ({
    notification: notification.name,
    enabled: notification.mandatory || !off.has(notification.name),
    mandatory: notification.mandatory,
  }));
}

/** The body of a settings change: a list of `{ notification, enabled }`, each naming one the spec has. */
function settingsBody(model: Model, body: unknown): { notification: string; enabled: boolean }[] {
  const shape = 'the body must be a list of { "notification": name, "enabled": true or false }';
  if (!Array.isArray(body)) throw new ApiError('E_BAD_REQUEST', { reason: shape });
  // one change per notification, the last one given: a long list writes no more rows than there are
  const changes = new Map<string, boolean>();
  for (const item of body as unknown[]) {
    if (typeof item !== 'object' || item === null || Array.isArray(item))
      throw new ApiError('E_BAD_REQUEST', { reason: shape });
    const { notification, enabled, ...rest } = item as Record<string, unknown>;
    if (typeof notification !== 'string' || typeof enabled !== 'boolean' || Object.keys(rest).length > 0)
      throw new ApiError('E_BAD_REQUEST', { reason: shape });
    const declared = Object.hasOwn(model.notifications, notification)
      ? model.notifications[notification]
      : undefined;
    if (declared === undefined) throw new ApiError('E_UNKNOWN_NOTIFICATION', { value: notification });
    if (declared.mandatory && !enabled)
      throw new ApiError('E_MANDATORY_NOTIFICATION', { value: notification });
    changes.set(notification, enabled);
  }
  return [...changes].map(([notification, enabled]) => ({ notification, enabled }));
}

function limitOf(text: unknown): number {
  const limit = text === undefined ? DEFAULT_NOTIFICATIONS_LISTED : Number(text);
  if (typeof text === 'object' || !Number.isInteger(limit) || limit < 1 || limit > MAX_NOTIFICATIONS_LISTED)
    throw new ApiError('E_INVALID_QUERY', {
      reason: `limit must be a whole number from 1 to ${MAX_NOTIFICATIONS_LISTED}`,
    });
  return limit;
}

function wireNotification(row: Record<string, unknown>): WireNotification {
  return {
    id: String(row['id']),
    notification: String(row['notification']),
    entity: String(row['entity']),
    recordId: String(row['record_id']),
    subject: String(row['subject']),
    message: String(row['message']),
    createdAt: String(row['created_at']),
    readAt: row['read_at'] === null || row['read_at'] === undefined ? null : String(row['read_at']),
  };
}
