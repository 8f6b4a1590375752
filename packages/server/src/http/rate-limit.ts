/**
 * Requests per minute by role (`limits.requestsPerMinute`): `guest` for anonymous clients, keyed
 * by address; for a signed-in user the highest limit among their roles (`default` when none of
 * them has one), keyed by user. A fixed one-minute window per key, counted in the app's counter
 * store (decision 0057: shared by the instances on PostgreSQL or Redis, a slice of a window at a
 * time there, `limits/slices.ts`), decided in a callback hook
 * that stays synchronous when the store answers at once (memory): this replaced
 * `@fastify/rate-limit`, whose promise-based hook cost a get by id about a sixth of its CPU time
 * (decision 0017). Every limited response says where its client stands (`x-ratelimit-limit`,
 * `-remaining`, `-reset`); a refused one is E_RATE_LIMITED with Retry-After.
 */
import { type Model, RATE_LIMIT_HEADERS, RETRY_AFTER_HEADER } from '@ninefold/model';
import { type FastifyContextConfig, type FastifyInstance, type onRequestHookHandler } from 'fastify';
import { type UserSummary } from '../auth/users.js';
import { type CounterStore, type Taken, secondsLeft, whenReady } from '../limits/counters.js';
import { requestSlices } from '../limits/slices.js';
import { ApiError } from './errors.js';
import { addRouteOnRequest } from './route-hooks.js';
import { WINDOW_MS } from './windows.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** `false`: the route is not rate-limited (health probes). */
    rateLimit?: false;
  }
}

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
 * Limits every request of the app's scope whose route does not opt out with `config.rateLimit: false`
 * (a request that no route matched is answered by the root's not-found handler, unlimited). Install
 * it after `installAuthentication` and before the routes: it keys on `request.auth`.
 *
 * @example installRateLimit(app, model, () => new Date(), memoryCounters());
 */
export function installRateLimit(
  app: FastifyInstance,
  model: Model,
  now: () => Date,
  counters: CounterStore,
): void {
  // a remote store is claimed from a slice at a time, not asked at every request (decision 0057)
  const slices = requestSlices(counters);
  const guests = requestsPerMinute(model, null);
  const guestsText = String(guests);
  // a user's limit (and its header's text) and key, worked out once per user summary (a cached
  // session's serves many requests)
  const limits = new WeakMap<
    UserSummary,
    { readonly max: number; readonly maxText: string; readonly key: string }
  >();
  const limitOf = (user: UserSummary) => {
    let limit = limits.get(user);
    if (limit === undefined) {
      const max = requestsPerMinute(model, user);
      limit = { max, maxText: String(max), key: `request:user:${user.id}` };
      limits.set(user, limit);
    }
    return limit;
  };
  const limit: onRequestHookHandler = (request, reply, done) => {
    const user = request.auth.user;
    const { max, maxText, key } =
      user === null
        ? { max: guests, maxText: guestsText, key: `request:address:${request.ip}` }
        : limitOf(user);
    const time = now().getTime();
    const answer = ({ counted, window }: Taken) => {
      const reset = secondsLeft(window, time);
      reply.header(RATE_LIMIT_HEADERS.limit, maxText);
      reply.header(RATE_LIMIT_HEADERS.remaining, String(Math.max(0, max - window.count)));
      reply.header(RATE_LIMIT_HEADERS.reset, String(reset));
      if (counted) return done();
      done(
        new ApiError(
          'E_RATE_LIMITED',
          { retryAfter: reset },
          { headers: { [RETRY_AFTER_HEADER]: String(reset) } },
        ),
      );
    };
    // a refusal is not counted: the window stays at its limit until it ends
    whenReady(slices.take(key, max, WINDOW_MS, time), answer, (error: unknown) => done(error as Error));
  };
  // each route that does not opt out gets the hook (after the session's): the probes pay nothing
  app.addHook('onRoute', (route) => {
    if ((route.config as FastifyContextConfig | undefined)?.rateLimit !== false)
      addRouteOnRequest(route, limit);
  });
}
