/**
 * The identity audit trail, for admins (decision 0038): `GET <basePath>/admin/auth-events` lists its
 * entries newest first, as `{ data }` like the other admin lists (`http/admin-lists.ts`: admins
 * only, anyone else gets E_FORBIDDEN), narrowed by `kind`, `user` (a user's id) and `before` (the id
 * of the last entry of the page before), at most `limit` (500).
 */
import {
  API_PATHS,
  AUTH_EVENT_KINDS,
  type AuthEventKind,
  type Model,
  type WireAuthEvent,
} from '@ninefold/model';
import { type FastifyInstance } from 'fastify';
import { type Database } from '../db/open.js';
import { listFilter, listLimit, requireAdmin } from '../http/admin-lists.js';
import { ApiError } from '../http/errors.js';
import { apiPath } from '../http/paths.js';
import { isRecordId } from '../ids.js';
import { TABLES } from '../schema/names.js';

/** The most entries one answer lists. */
export const MAX_AUTH_EVENTS_LISTED = 500;

/**
 * Registers the audit trail's route.
 *
 * @example registerAuthEventRoutes(api, { model, database });
 */
export function registerAuthEventRoutes(
  api: FastifyInstance,
  context: { readonly model: Model; readonly database: Database },
): void {
  const { model, database } = context;
  const db = database.db;
  api.get(apiPath(model, API_PATHS.authEvents), async (request): Promise<{ data: WireAuthEvent[] }> => {
    requireAdmin(model, request);
    const query = request.query as Record<string, unknown>;
    const limit = listLimit(query, MAX_AUTH_EVENTS_LISTED);
    const kind = listFilter(query, 'kind', AUTH_EVENT_KINDS);
    const user = idParameter(query, 'user', 'a user’s id');
    const before = idParameter(query, 'before', 'the id of an entry of the trail');
    let select = db.selectFrom(TABLES.authEvents).selectAll();
    if (kind !== undefined) select = select.where('kind', '=', kind);
    if (user !== undefined) select = select.where('user_id', '=', user);
    if (before !== undefined) {
      const cursor = await db
        .selectFrom(TABLES.authEvents)
        .select(['at', 'id'])
        .where('id', '=', before)
        .executeTakeFirst();
      if (cursor === undefined)
        throw new ApiError('E_INVALID_QUERY', { reason: 'before must be the id of an entry of the trail' });
      select = select.where((eb) =>
        eb.or([eb('at', '<', cursor.at), eb.and([eb('at', '=', cursor.at), eb('id', '<', cursor.id)])]),
      );
    }
    const rows = await select.orderBy('at', 'desc').orderBy('id', 'desc').limit(limit).execute();
    return { data: rows.map(wireAuthEvent) };
  });
}

/** An id-shaped query parameter, or undefined: no other text reaches the database. */
function idParameter(query: Record<string, unknown>, name: string, expected: string): string | undefined {
  const value = query[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !isRecordId(value))
    throw new ApiError('E_INVALID_QUERY', { reason: `${name} must be ${expected}` });
  return value;
}

function wireAuthEvent(row: Readonly<Record<string, unknown>>): WireAuthEvent {
  const text = (value: unknown) => (value === null || value === undefined ? null : String(value));
  return {
    id: String(row['id']),
    at: String(row['at']),
    kind: String(row['kind']) as AuthEventKind,
    userId: text(row['user_id']),
    email: text(row['email']),
    actorId: text(row['actor_id']),
    address: text(row['address']),
    userAgent: text(row['user_agent']),
    detail: parseDetail(row['detail']),
  };
}

function parseDetail(raw: unknown): Readonly<Record<string, string>> | null {
  if (raw === null || raw === undefined) return null;
  try {
    const value = typeof raw === 'string' ? (JSON.parse(raw) as unknown) : raw;
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, string>)
      : null;
  } catch {
    return null;
  }
}
