/**
 * Whether a navigation comes from a signed-in browser: the page carries the whole model only then,
 * and the signed-out model otherwise (decision 0027). The API decides, as for any of its answers:
 * its session route is asked in process with the request's cookie.
 */
import { API_PATHS, SESSION_COOKIE } from '@ninefold/model';
import { apiPath } from '@ninefold/server';
import { type FastifyInstance, type FastifyRequest } from 'fastify';

/**
 * True when the request's session cookie names a session the API accepts.
 *
 * @example const page = (await isSignedIn(app, request)) ? wholePage : signedOutPage;
 */
export async function isSignedIn(app: FastifyInstance, request: FastifyRequest): Promise<boolean> {
  const cookie = request.headers.cookie;
  const id = request.cookies[SESSION_COOKIE];
  if (cookie === undefined || id === undefined || id === '') return false;
  const answer = await app.inject({
    method: 'GET',
    url: apiPath(app.ninefold.model, API_PATHS.session),
    headers: { cookie, accept: 'application/json' },
    remoteAddress: request.ip,
  });
  return answer.statusCode === 200;
}
