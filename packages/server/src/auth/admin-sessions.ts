/**
 * Admins end sessions (ASVS 5.0 7.4.5, decision 0041): `DELETE <basePath>/admin/sessions?user=<id>`
 * ends every session of one user, `?all=true` every session but the one asking, so that the admin
 * stays signed in to see the result. Sign-ins waiting for their second step end too. Recorded in
 * the audit trail as `sessions-ended-by-admin`.
 */
import { API_PATHS, type Model, type SessionsEndedAnswer } from '@ninefold/model';
import { type FastifyInstance } from 'fastify';
import { recordAuthEvent, requestOrigin } from '../audit/auth-events.js';
import { type Database } from '../db/open.js';
import { requireAdmin } from '../http/admin-lists.js';
import { ApiError } from '../http/errors.js';
import { apiPath } from '../http/paths.js';
import { isRecordId } from '../ids.js';
import { endSessions } from './end-sessions.js';
import { requireUser } from './request-auth.js';
import { usersTable } from './users.js';

/**
 * Registers the route.
 *
 * @example registerAdminSessionRoutes(api, { model, database, now });
 */
export function registerAdminSessionRoutes(
  api: FastifyInstance,
  context: { readonly model: Model; readonly database: Database; readonly now: () => Date },
): void {
  const { model, database, now } = context;
  api.delete(apiPath(model, API_PATHS.adminSessions), async (request) => {
    requireAdmin(model, request);
    const admin = requireUser(request);
    const which = whoseSessions(request.query);
    if (which.userId !== undefined) {
      const known = isRecordId(which.userId)
        ? await database.db
            .selectFrom(usersTable(model))
            .select('id')
            .where('id', '=', which.userId)
            .executeTakeFirst()
        : undefined;
      if (known === undefined) throw new ApiError('E_NOT_FOUND', { entity: 'user' });
    }
    const ended = await endSessions(
      database,
      which.userId === undefined ? { except: request.auth.sessionId ?? undefined } : { userId: which.userId },
    );
    await recordAuthEvent(database.db, {
      kind: 'sessions-ended-by-admin',
      at: now(),
      userId: which.userId ?? null,
      actorId: admin.id,
      ...requestOrigin(request),
      detail: { scope: which.userId === undefined ? 'all' : 'user', ended: String(ended) },
    });
    const answer: SessionsEndedAnswer = { ended };
    return answer;
  });
}

/** The query: `user=<id>` or `all=true`, exactly one of them. */
function whoseSessions(query: unknown): { userId?: string } {
  const { user, all, ...rest } = query as Record<string, unknown>;
  const extra = Object.keys(rest);
  if (extra.length > 0)
    throw new ApiError('E_INVALID_QUERY', {
      reason: `${extra[0]} is not a parameter here; give user or all`,
    });
  if (user !== undefined && all === undefined && typeof user === 'string' && user !== '')
    return { userId: user };
  if (all === 'true' && user === undefined) return {};
  throw new ApiError('E_INVALID_QUERY', {
    reason: 'give user=<a user’s id> to end one user’s sessions, or all=true to end everyone’s but yours',
  });
}
