/**
 * Requests per minute by role (`limits.requestsPerMinute`): `guest` for anonymous clients, keyed
 * by address; for a signed-in user the highest limit among their roles (`default` when none of
 * them has one), keyed by user.
 */
import rateLimit from '@fastify/rate-limit';
import { type Model } from '@ninefold/spec/model';
import { type FastifyInstance } from 'fastify';
import { type UserSummary } from '../auth/users.js';
import { ApiError } from './errors.js';

/**
 * A user's request limit per minute.
 *
 * @example requestsPerMinute(model, null) // model.limits.requestsPerMinute.guest
 */
export function requestsPerMinute(model: Model, user: UserSummary | null): number {
  const limits = model.limits.requestsPerMinute;
  const fallback = limits['default'] ?? 600;
  if (user === null) return limits['guest'] ?? fallback;
  const byRole = user.roles.map((role) => limits[role]).filter((n): n is number => n !== undefined);
  return byRole.length > 0 ? Math.max(...byRole) : fallback;
}

/**
 * Registers @fastify/rate-limit for every route that does not opt out with `config.rateLimit: false`.
 *
 * @example await installRateLimit(app, model);
 */
export async function installRateLimit(app: FastifyInstance, model: Model): Promise<void> {
  await app.register(rateLimit, {
    global: true,
    timeWindow: 60_000,
    max: (request) => requestsPerMinute(model, request.auth.user),
    keyGenerator: (request) =>
      request.auth.user === null ? `address:${request.ip}` : `user:${request.auth.user.id}`,
    addHeadersOnExceeding: {
      'x-ratelimit-limit': true,
      'x-ratelimit-remaining': true,
      'x-ratelimit-reset': true,
    },
    errorResponseBuilder: (_request, context) => {
      const error = new ApiError('E_RATE_LIMITED', {
        retryAfter: Math.max(1, Math.ceil(context.ttl / 1000)),
      });
      error.statusCode = context.statusCode;
      return error;
    },
  });
}
