/**
 * Who is asking: every API request gets `request.auth` from its session cookie before anything
 * else looks at it (the request rate limit keys on it).
 */
import { type UserContext } from '@ninefold/engine';
import { type Model, SESSION_COOKIE } from '@ninefold/model';
import { type CookieSerializeOptions } from '@fastify/cookie';
import {
  type FastifyContextConfig,
  type FastifyInstance,
  type FastifyRequest,
  type onRequestHookHandler,
} from 'fastify';
import { type Database } from '../db/open.js';
import { ApiError } from '../http/errors.js';
import { apiPath } from '../http/paths.js';
import { addRouteOnRequest } from '../http/route-hooks.js';
import { type EntityTable } from '../resources/records.js';
import { type RecordRead, type SessionLookup, keptSession, readSession } from './sessions.js';
import { type UserSummary } from './users.js';

export interface RequestAuth {
  /** The signed-in user, or null. */
  readonly user: UserSummary | null;
  /** The session id from the cookie, if the cookie named a session. */
  readonly sessionId: string | null;
  /** True when the cookie named a session that has expired. */
  readonly expired: boolean;
  /** The signed-in user's record as the engine sees it, read with the session (null: load it). */
  readonly context?: UserContext | null;
  /** The record of the route's `:id`, read with the session when the route asks for it (`READ_BY_ID`). */
  readonly record?: RecordRead | undefined;
}

/**
 * The route config key under which a route names the table whose record its `:id` reads: the
 * session lookup then reads that record too, in the same statement (`readSession`'s `withRecord`).
 */
export const READ_BY_ID = 'ninefoldReadById';

declare module 'fastify' {
  interface FastifyContextConfig {
    [READ_BY_ID]?: EntityTable;
  }
}

declare module 'fastify' {
  interface FastifyRequest {
    auth: RequestAuth;
  }
}

// every RequestAuth has the same keys, so that reading one is a monomorphic property load
const ANONYMOUS: RequestAuth = {
  user: null,
  sessionId: null,
  expired: false,
  context: null,
  record: undefined,
};

/**
 * Resolves the session of every request under `calls.basePath` into `request.auth` (other routes of
 * the scope, the probes and the API description, get an anonymous one). Each route gets its own
 * hook, which knows whether the route reads a record by id (`READ_BY_ID`): the session lookup then
 * reads that record too.
 *
 * @example installRequestAuth(app, { model, database, now: () => new Date() });
 */
export function installRequestAuth(
  app: FastifyInstance,
  context: { readonly model: Model; readonly database: Database; readonly now: () => Date },
): void {
  app.decorateRequest('auth', null as unknown as RequestAuth);
  const apiPrefix = apiPath(context.model, '');
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith(apiPrefix)) return addRouteOnRequest(route, anonymous);
    const table = (route.config as FastifyContextConfig | undefined)?.[READ_BY_ID];
    addRouteOnRequest(route, sessionHook(context, table));
  });
}

const anonymous: onRequestHookHandler = (request, _reply, done) => {
  request.auth = ANONYMOUS;
  done();
};

/**
 * The hook of an API route: a callback hook, so that a request without a session, or with a kept
 * one, costs no promise.
 */
function sessionHook(
  context: { readonly model: Model; readonly database: Database; readonly now: () => Date },
  table: EntityTable | undefined,
): onRequestHookHandler {
  const { database, model } = context;
  return (request, _reply, done) => {
    request.auth = ANONYMOUS;
    const id = request.cookies[SESSION_COOKIE];
    if (id === undefined || id === '') return done();
    const recordId = table === undefined ? undefined : (request.params as { id?: unknown }).id;
    const withRecord =
      table !== undefined && typeof recordId === 'string' && recordId !== ''
        ? { table, id: recordId }
        : undefined;
    const now = context.now();
    // a kept session is answered at once, and the request goes on in this tick
    const kept = keptSession(database, model, id, now, withRecord);
    if (kept !== undefined) {
      request.auth = authOf(kept, id);
      return done();
    }
    readSession(database, model, id, now, withRecord).then((found) => {
      request.auth = authOf(found, id);
      done();
    }, done);
  };
}

/** `request.auth` of a session lookup's answer for the cookie's id. */
function authOf(found: SessionLookup, id: string): RequestAuth {
  if (found.status === 'active') {
    return { user: found.user, sessionId: id, expired: false, context: found.context, record: found.record };
  }
  const expired = found.status === 'expired';
  return { user: null, sessionId: null, expired, context: null, record: undefined };
}

/**
 * The signed-in user, or E_UNAUTHENTICATED (E_SESSION_EXPIRED when the session ran out).
 *
 * @example const user = requireUser(request);
 */
export function requireUser(request: FastifyRequest): UserSummary {
  if (request.auth.user !== null) return request.auth.user;
  throw new ApiError(request.auth.expired ? 'E_SESSION_EXPIRED' : 'E_UNAUTHENTICATED');
}

/** The session cookie's attributes: Secure when the request came over HTTPS. */
export function sessionCookieOptions(request: FastifyRequest, model: Model): CookieSerializeOptions {
  return {
    httpOnly: true,
    sameSite: 'lax',
    path: '/',
    // request.protocol honours X-Forwarded-Proto only when trustProxy is set
    secure: request.protocol === 'https',
    maxAge: model.limits.sessionAbsoluteHours * 3600,
  };
}
