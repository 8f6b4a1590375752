/**
 * `GET <basePath>/events` (decision 0056): the signed-in user's live stream of record changes, as
 * Server-Sent Events (`streams.ts`). Absent when the spec says `calls.realtime: false` (404). A
 * guest is refused (401) like on every route of the API; the connect counts against the user's
 * request limit like any request, and a user holds at most `MAX_STREAMS_PER_USER` at once (429).
 * The route takes the raw response over (`reply.hijack()`): Fastify's hooks never see the stream,
 * so none can buffer it; the app's closing ends every stream at once instead of waiting for them.
 */
import { type UserContext } from '@ninefold/engine';
import { API_PATHS, EVENT_RETRY_MS, EVENT_SINCE_PARAM, RETRY_AFTER_HEADER } from '@ninefold/model';
import { type FastifyInstance, type FastifyRequest } from 'fastify';
import { readToken } from '../auth/api-tokens.js';
import { requireUserContext } from '../auth/request-auth.js';
import { lookupSession } from '../auth/sessions.js';
import { ApiError } from '../http/errors.js';
import { apiPath } from '../http/paths.js';
import { type ResourceContext } from '../resources/resource.js';
import { eventAccess } from './access.js';
import { installEventCursorHeader } from './cursor-header.js';
import { EventHub } from './hub.js';
import { LiveStreams } from './streams.js';

/** How many streams one user may hold open at once (tabs, devices). */
export const MAX_STREAMS_PER_USER = 10;

/**
 * Registers the events stream, unless the spec turned it off, and hands its cursor with the reads
 * registered after it (`cursor-header.ts`): call it before the resources and the dashboards.
 *
 * @example registerEventRoutes(api, context);
 */
export function registerEventRoutes(app: FastifyInstance, context: ResourceContext): void {
  const { model, database } = context;
  if (!model.calls.realtime) return;
  const onError = (error: unknown) => app.log.error({ err: error }, 'live events');
  const hub = new EventHub(database, context.now, onError);
  const streams = new LiveStreams(hub, eventAccess(context), onError);
  installEventCursorHeader(app, model, hub, onError);
  // before the server stops listening: an open stream would hold `close` until its client left
  app.addHook('preClose', async () => streams.closeAll());
  app.addHook('onClose', async () => hub.close());

  app.get(apiPath(model, API_PATHS.events), async (request, reply) => {
    const user = requireUserContext(request);
    const userId = request.auth.user?.id ?? user.id;
    // started first: from the count to the stream's place among them, nothing else runs
    await hub.start();
    if (streams.countOf(userId) >= MAX_STREAMS_PER_USER) {
      const retryAfter = Math.ceil(EVENT_RETRY_MS / 1000);
      throw new ApiError(
        'E_RATE_LIMITED',
        { retryAfter },
        { headers: { [RETRY_AFTER_HEADER]: String(retryAfter) } },
      );
    }
    // the browser's own reconnection sends Last-Event-ID; a stream opened anew, the reads' cursor
    const lastEventId = request.headers['last-event-id'] ?? sinceOf(request);
    reply.hijack();
    const response = reply.raw;
    // the headers the hooks set so far (the rate limit's) go out with the stream's own
    for (const [name, value] of Object.entries(reply.getHeaders()))
      if (value !== undefined) response.setHeader(name, value);
    response.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'private, no-store',
      'x-content-type-options': 'nosniff',
      // a proxy that buffers responses (nginx) passes this one through as it comes
      'x-accel-buffering': 'no',
    });
    try {
      await streams.open({
        userId,
        user,
        response,
        lastEventId: typeof lastEventId === 'string' ? lastEventId : undefined,
        check: checkOf(context, request),
      });
    } catch (error) {
      onError(error);
      response.end();
    }
  });
}

/** The `?since=` a stream was opened with: any other form of it is a cursor that is not ours (resync). */
function sinceOf(request: FastifyRequest): string | undefined {
  const query = request.query as Record<string, unknown> | undefined;
  const since = query?.[EVENT_SINCE_PARAM];
  if (since === undefined) return undefined;
  return typeof since === 'string' ? since : '';
}

/** How a stream learns whether its session (or token) still holds, and with which roles. */
function checkOf(context: ResourceContext, request: FastifyRequest): () => Promise<UserContext | null> {
  const { database, model, now } = context;
  const { tokenId, sessionId } = request.auth;
  if (tokenId !== null) {
    const token = (request.headers.authorization ?? '').slice(7).trim();
    return async () => {
      const found = await readToken(database, model, token, now());
      return found.status === 'active' ? found.context : null;
    };
  }
  if (sessionId === null) return async () => null;
  return async () => {
    const found = await lookupSession(database, model, sessionId, now());
    return found.status === 'active' ? found.context : null;
  };
}
