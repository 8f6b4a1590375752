/**
 * The prerender of a list's first rows (decision 0018): the client's own components, built for
 * Node (`@ninefold/client/prerender`), render the list screen a signed-in navigation names, their
 * API requests answered in process by the app's own routes as that user, so that the page arrives
 * with the rows the user may read, masked as every answer is, already rendered.
 */
import type * as ClientPrerender from '@ninefold/client/prerender';
import {
  CSRF_HEADER,
  CSRF_HEADER_VALUE,
  DEVICE_SETTINGS_COOKIE,
  EVENT_CURSOR_HEADER,
  SESSION_COOKIE,
  acceptedLanguages,
} from '@ninefold/model';
import { type FastifyInstance, type FastifyRequest } from 'fastify';

/** What renders a screen: the client's prerender module, or a stand-in with its signature. */
export type PrerenderModule = Pick<typeof ClientPrerender, 'prerender'>;

/**
 * The installed client's prerender (`@ninefold/client/prerender`, its `vite build --ssr`), or null
 * when the client's server build is not there: the page is then sent without prerenders.
 */
export async function loadPrerender(): Promise<PrerenderModule | null> {
  try {
    return await import('@ninefold/client/prerender');
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'ERR_MODULE_NOT_FOUND' || code === 'ERR_PACKAGE_PATH_NOT_EXPORTED') return null;
    throw error;
  }
}

/**
 * Prerenders the screen `request` navigates to, or answers null: no session cookie, a device whose
 * settings the server cannot see, nothing to prerender (see the client's `prerender`), a failure,
 * or no answer within `timeoutMs` — the page then comes without it, as it always could.
 *
 * @example const prerendered = await prerenderFor(app, module, request, 1500);
 */
export async function prerenderFor(
  app: FastifyInstance,
  module: PrerenderModule,
  request: FastifyRequest,
  timeoutMs: number,
): Promise<ClientPrerender.Prerender | null> {
  const cookie = request.headers.cookie;
  if (cookie === undefined || request.cookies[SESSION_COOKIE] === undefined) return null;
  if (request.cookies[DEVICE_SETTINGS_COOKIE] !== undefined) return null;
  const asUser: typeof fetch = async (input) => {
    const target = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const address = new URL(target, 'http://app.invalid');
    const answer = await app.inject({
      method: 'GET',
      url: address.pathname + address.search,
      headers: { cookie, accept: 'application/json', [CSRF_HEADER]: CSRF_HEADER_VALUE },
      remoteAddress: request.ip,
    });
    const cursor = answer.headers[EVENT_CURSOR_HEADER];
    return new Response(answer.payload === '' ? null : answer.payload, {
      status: answer.statusCode,
      headers: {
        'content-type': String(answer.headers['content-type'] ?? 'application/json'),
        // the live stream's cursor of the read: the app opens its stream from it
        ...(typeof cursor === 'string' ? { [EVENT_CURSOR_HEADER]: cursor } : {}),
      },
    });
  };
  let timer: ReturnType<typeof setTimeout> | undefined;
  // however long the API takes to answer it, the page does not wait longer for its prerender
  const late = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), timeoutMs)));
  try {
    return await Promise.race([
      module.prerender({
        model: app.ninefold.model,
        url: request.url,
        fetch: asUser,
        timeoutMs,
        languages: acceptedLanguages(request.headers['accept-language']),
      }),
      late,
    ]);
  } catch (error) {
    request.log.warn({ err: error }, 'The first rows could not be prerendered; the page goes without them.');
    return null;
  } finally {
    clearTimeout(timer);
  }
}
