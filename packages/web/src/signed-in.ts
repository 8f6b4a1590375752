/**
 * Whether a navigation comes from a signed-in browser: the page carries the whole model only then,
 * and the signed-out model otherwise (decision 0027). The API decides, as for any of its answers:
 * the server looks the session cookie up in process (`app.ninefold.isSignedIn`), from its session
 * cache when it can, so that a navigation is not a request of the API's own.
 */
import { SESSION_COOKIE } from '@ninefold/model';
import { type FastifyInstance, type FastifyRequest } from 'fastify';

/**
 * True when the request's session cookie names a session the API accepts. A session that cannot be
 * looked up (the database out of reach) is not one: the signed-out page asks the API itself.
 *
 * @example const page = (await isSignedIn(app, request)) ? wholePage : signedOutPage;
 */
export async function isSignedIn(app: FastifyInstance, request: FastifyRequest): Promise<boolean> {
  const id = request.cookies[SESSION_COOKIE];
  if (id === undefined || id === '') return false;
  return app.ninefold.isSignedIn(id).catch(() => false);
}
