/**
 * A read whose database connection broke is tried once more (decision 0023): a GET or HEAD changes
 * nothing, so running its handler again on a fresh connection is safe, and the client is spared a
 * 503 for a connection the database ended a moment before (a restart, an idle timeout). A write is
 * never tried again here: its transaction rolled back, and its 503 lets the client repeat it with
 * its Idempotency-Key.
 */
import { type FastifyInstance, type RouteHandlerMethod } from 'fastify';
import { isConnectionFailure } from '../db/connection-failure.js';

const READS = new Set(['GET', 'HEAD']);

/** Handlers already wrapped: a GET's HEAD twin may be registered with the GET's. */
const wrapped = new WeakSet<RouteHandlerMethod>();

/**
 * Wraps the handler of every read route registered after it.
 *
 * @example installReadRetry(app); // before the routes
 */
export function installReadRetry(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    if (![route.method].flat().every((method) => READS.has(method))) return;
    const handler: RouteHandlerMethod = route.handler;
    if (wrapped.has(handler)) return;
    const retried: RouteHandlerMethod = async function (request, reply) {
      try {
        return await handler.call(this, request, reply);
      } catch (error) {
        if (!isConnectionFailure(error) || reply.sent) throw error;
        request.log.warn({ correlationId: request.id }, 'database connection failed: reading again');
        return handler.call(this, request, reply);
      }
    };
    wrapped.add(retried);
    route.handler = retried;
  });
}
