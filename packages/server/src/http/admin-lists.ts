/**
 * What the admins' routes share (`admin/jobs`, `admin/webhook-deliveries`, `admin/mail`): who may
 * use them, and how their lists read `limit` and a filter from the query, so that the three answer
 * a bad query alike (E_INVALID_QUERY, naming the parameter).
 *
 * An admin is someone with a role that may change every user's roles (`isAdmin` of the engine's
 * grants, decision 0028): who can make themselves anything is trusted with the product's machinery.
 */
import { isAdmin } from '@ninefold/engine/grants';
import { type Model } from '@ninefold/model';
import { type FastifyRequest } from 'fastify';
import { requireUser } from '../auth/request-auth.js';
import { ApiError } from './errors.js';

/** The rows a list answers when the query names no `limit`. */
export const DEFAULT_ADMIN_LIST = 100;

/**
 * Refuses anyone who is not signed in (E_UNAUTHENTICATED) or not an admin (E_FORBIDDEN).
 *
 * @example api.get(path, async (request) => { requireAdmin(model, request); … });
 */
export function requireAdmin(model: Model, request: FastifyRequest): void {
  const user = requireUser(request);
  if (!isAdmin(model, user.roles)) throw new ApiError('E_FORBIDDEN');
}

/**
 * The query's `limit`: a whole number from 1 to `max`, `DEFAULT_ADMIN_LIST` when absent.
 *
 * @example const limit = listLimit(request.query, MAX_JOBS_LISTED);
 */
export function listLimit(query: unknown, max: number): number {
  const text = (query as Record<string, unknown>)['limit'];
  if (text === undefined) return Math.min(DEFAULT_ADMIN_LIST, max);
  const limit = Number(text);
  if (typeof text === 'object' || !Number.isInteger(limit) || limit < 1 || limit > max)
    throw new ApiError('E_INVALID_QUERY', { reason: `limit must be a whole number from 1 to ${max}` });
  return limit;
}

/**
 * A filter of the query that must be one of `values` when given; undefined when absent.
 *
 * @example const state = listFilter(request.query, 'state', JOB_STATES);
 */
export function listFilter<T extends string>(
  query: unknown,
  name: string,
  values: readonly T[],
): T | undefined {
  const value = (query as Record<string, unknown>)[name];
  if (value === undefined) return undefined;
  if (!values.includes(value as T))
    throw new ApiError('E_INVALID_QUERY', { reason: `${name} must be one of ${values.join(', ')}` });
  return value as T;
}
