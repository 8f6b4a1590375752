/**
 * `Cache-Control: private, no-store` on every answer of the API under `calls.basePath`: what it
 * sends depends on who is asking (their session), so no shared cache may keep it and no browser
 * may store it on disk, where the next user of the machine would find it. A route that knows
 * better (the health probes, outside the base path) sets its own.
 */
import { type Model } from '@ninefold/model';
import { type FastifyInstance, type onRequestHookHandler } from 'fastify';
import { apiPath } from './paths.js';
import { addRouteOnRequest } from './route-hooks.js';

export const PRIVATE_CACHE_CONTROL = 'private, no-store';

const privateAnswer: onRequestHookHandler = (_request, reply, done) => {
  reply.header('cache-control', PRIVATE_CACHE_CONTROL);
  done();
};

/**
 * Gives every route under the base path the header, first thing, so that a refusal carries it too.
 *
 * @example installPrivateCaching(app, model);
 */
export function installPrivateCaching(app: FastifyInstance, model: Model): void {
  const apiPrefix = apiPath(model, '');
  app.addHook('onRoute', (route) => {
    if (route.url.startsWith(apiPrefix)) addRouteOnRequest(route, privateAnswer);
  });
}
