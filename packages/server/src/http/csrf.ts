/**
 * CSRF defence for a cookie-authenticated API: a state-changing request must carry a custom header
 * (which a cross-site form or image cannot send) and, when the browser names its Origin, come from
 * this host. A request authenticated by a bearer token needs neither (decision 0038): a cross-site
 * page cannot send an Authorization header without CORS, which the server does not answer, and such
 * a request ignores the cookie, so nothing the browser adds by itself can act for anyone.
 */
import { CSRF_HEADER, CSRF_HEADER_VALUE } from '@ninefold/model';
import { type FastifyInstance, type FastifyRequest } from 'fastify';
import { isBearer } from '../auth/request-auth.js';
import { ApiError } from './errors.js';

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Refuses state-changing requests without `X-Ninefold-Csrf: 1` or with a foreign Origin (E_CSRF).
 *
 * @example installCsrfCheck(app);
 */
export function installCsrfCheck(app: FastifyInstance): void {
  // a callback hook: the check is synchronous, and an async hook costs a promise per request
  app.addHook('onRequest', (request, _reply, done) => {
    done(csrfProblem(request));
  });
}

function csrfProblem(request: FastifyRequest): ApiError | undefined {
  if (!STATE_CHANGING.has(request.method)) return undefined;
  // authenticated by its token or refused (auth/request-auth.ts): never by the cookie
  const authorization = request.headers.authorization;
  if (authorization !== undefined && isBearer(authorization)) return undefined;
  if (request.headers[CSRF_HEADER] !== CSRF_HEADER_VALUE) {
    return new ApiError(
      'E_CSRF',
      {},
      { detail: 'A request that changes data must carry the header X-Ninefold-Csrf: 1.' },
    );
  }
  const origin = request.headers.origin;
  if (origin !== undefined && !isSameHost(origin, request)) {
    return new ApiError('E_CSRF', {}, { detail: 'The Origin of the request is not this site.' });
  }
  return undefined;
}

/** Compares hosts only: behind a TLS proxy without trustProxy the scheme seen here is not the browser's. */
function isSameHost(origin: string, request: FastifyRequest): boolean {
  let url: URL;
  try {
    url = new URL(origin); // "null" (a sandboxed frame, a file) does not parse: refused
  } catch {
    return false;
  }
  return normalizeHost(url.host, url.protocol) === normalizeHost(request.host, url.protocol);
}

function normalizeHost(host: string, protocol: string): string {
  const lower = host.toLowerCase();
  const defaultPort = protocol === 'https:' ? ':443' : ':80';
  return lower.endsWith(defaultPort) ? lower.slice(0, -defaultPort.length) : lower;
}
