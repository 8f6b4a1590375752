/**
 * The development mail outbox, for admins: `GET <basePath>/admin/mail` lists the mail kept while no
 * `SMTP_URL` is set, newest first (`limit`, at most 500), as `{ data }` like the other admin lists. Admins are those who may give anyone any
 * role (`isAdmin`, decision 0028); anyone else gets E_FORBIDDEN.
 */
import { API_PATHS, type Model, type WireMail } from '@ninefold/model';
import { type FastifyInstance } from 'fastify';
import { requireUser } from '../auth/request-auth.js';
import { type Database } from '../db/open.js';
import { ApiError } from '../http/errors.js';
import { apiPath } from '../http/paths.js';
import { isAdmin } from '../jobs/admin.js';
import { TABLES } from '../schema/names.js';

/** The most mails one answer lists. */
export const MAX_MAIL_LISTED = 500;
const DEFAULT_MAIL_LISTED = 100;

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
    const user = requireUser(request);
    if (!isAdmin(model, user.roles)) throw new ApiError('E_FORBIDDEN');
    const limitText = (request.query as Record<string, unknown>)['limit'];
    const limit = limitText === undefined ? DEFAULT_MAIL_LISTED : Number(limitText);
    if (typeof limitText === 'object' || !Number.isInteger(limit) || limit < 1 || limit > MAX_MAIL_LISTED)
      throw new ApiError('E_INVALID_QUERY', {
        reason: `limit must be a whole number from 1 to ${MAX_MAIL_LISTED}`,
      });
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
