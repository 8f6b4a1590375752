/**
 * The stream's cursor handed with every read of records, lists and dashboards (decisions 0056 and
 * 0060): `Ninefold-Event-Cursor` on the answer, taken before the read begins, so that the app opens
 * its stream from it (`?since=`) and learns of every change the read may have missed — at least
 * once — without reading everything again when its stream opens.
 *
 * Taken in the route's own `onRequest` hook, after the session and the rate limit, before the
 * handler reads. The hub keeps its cursor in memory, so a read costs no query for it; the first
 * read of a process starts the hub (two small queries, once), as the first stream would. Were the
 * header left out until a stream had started the hub, every first page after a start, and every
 * page read on an instance that holds no stream (behind a load balancer), would cost the reading
 * again that the cursor is there to spare. A hub that cannot start (the database away) leaves the
 * header out, and the app then reads again once its stream is open, as it would without it.
 */
import { API_PATHS, EVENT_CURSOR_HEADER, type Model } from '@ninefold/model';
import { type FastifyInstance, type onRequestHookHandler } from 'fastify';
import { apiPath } from '../http/paths.js';
import { addRouteOnRequest } from '../http/route-hooks.js';
import { resourcePath } from '../resources/resource.js';
import { type EventHub } from './hub.js';

/**
 * Gives the reads registered after it the header: every `GET` under an entity's path and the
 * dashboards'.
 *
 * @example installEventCursorHeader(api, model, hub, onError); registerResources(api, context);
 */
export function installEventCursorHeader(
  app: FastifyInstance,
  model: Model,
  hub: EventHub,
  onError: (error: unknown) => void,
): void {
  const prefixes = [
    ...Object.values(model.entities).map((entity) => resourcePath(model, entity)),
    apiPath(model, API_PATHS.dashboards),
  ];
  const isRead = (url: string) => prefixes.some((prefix) => url === prefix || url.startsWith(`${prefix}/`));
  // a callback hook: an async one costs a promise per request, for one header
  const handCursor: onRequestHookHandler = (_request, reply, done) => {
    if (hub.ready) {
      reply.header(EVENT_CURSOR_HEADER, hub.cursor());
      return done();
    }
    hub.start().then(
      () => {
        if (hub.ready) reply.header(EVENT_CURSOR_HEADER, hub.cursor());
        done();
      },
      (error: unknown) => {
        onError(error);
        done();
      },
    );
  };
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (methods.includes('GET') && isRead(route.url)) addRouteOnRequest(route, handCursor);
  });
}
