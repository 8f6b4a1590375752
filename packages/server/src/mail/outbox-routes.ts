/**
 * The development mail outbox, for admins: `GET <basePath>/admin/mail` lists the mail kept while no
 * `SMTP_URL` is set, newest first (`limit`, at most 500), as `{ data }` like the other admin lists
 * (`http/admin-lists.ts`: admins only, anyone else gets E_FORBIDDEN).
 */
import { API_PATHS, type Model, type WireMail } from '@ninefold/model';
import { type FastifyInstance } from 'fastify';
import { type Database } from '../db/open.js';
import { listLimit, requireAdmin } from '../http/admin-lists.js';
import { apiPath } from '../http/paths.js';
import { TABLES } from '../schema/names.js';

/** The most mails one answer lists. */
export const MAX_MAIL_LISTED = 500;

/**
 * Registers the outbox's route.
 *
 * @example registerMailOutboxRoutes(api, { model, database });
 */
export function registerMailOutboxRoutes(
  api: FastifyInstance,
  context: { model: Model; database: Database },
): void {
  const { model, database } = context;
  api.get(apiPath(model, API_PATHS.mailOutbox), async (request): Promise<{ data: WireMail[] }> => {
    requireAdmin(model, request);
    const limit = listLimit(request.query, MAX_MAIL_LISTED);
    const rows = await database.db
      .selectFrom(TABLES.mailOutbox)
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
    return {
      data: rows.map((row) => ({
        id: String(row['id']),
        to: String(row['to_address']),
        subject: String(row['subject']),
        text: String(row['text']),
        html: String(row['html']),
        createdAt: String(row['created_at']),
      })),
    };
  });
}
