/**
 * Authentication: every API request gets `request.auth` (the signed-in user, from the session
 * cookie or a personal API token sent as `Authorization: Bearer`) before anything else looks at it
 * (the request rate limit keys on it). It reads nothing else: a route reads its own records.
 */
import { type UserContext } from '@ninefold/engine';
import { type Model, RETRY_AFTER_HEADER, SESSION_COOKIE } from '@ninefold/model';
import { type CookieSerializeOptions } from '@fastify/cookie';
import { type FastifyInstance, type FastifyRequest, type onRequestHookHandler } from 'fastify';
import { type Database } from '../db/open.js';
import { ApiError } from '../http/errors.js';
import { apiPath } from '../http/paths.js';
import { requestsPerMinute } from '../http/rate-limit.js';
import { addRouteOnRequest } from '../http/route-hooks.js';
import { WINDOW_MS } from '../http/windows.js';
import { type CounterStore, secondsLeft } from '../limits/counters.js';
import { type TokenLookup, readToken } from './api-tokens.js';
import { type SessionLookup, cachedSession, readSession } from './sessions.js';
import { type UserSummary } from './users.js';

export interface RequestAuth {
  /** The signed-in user, or null. */
  readonly user: UserSummary | null;
  /** The session id from the cookie, if the cookie named a session. */
  readonly sessionId: string | null;
  /** True when the cookie named a session that has expired. */
  readonly expired: boolean;
  /** The signed-in user as the engine sees them (their User record, id and roles); null when signed out. */
  readonly context: UserContext | null;
  /**
   * The personal API token the request was authenticated by (its id), or null for a session: a
   * token acts on the data as its user, with its own roles, but manages no account (decision 0038).
   */
  readonly tokenId: string | null;
  /**
   * When the session's user last proved a factor (milliseconds since the epoch), or null: never for
   * a token (decision 0042).
   */
  readonly authenticatedAt: number | null;
}

/** What authentication reads: the refused tokens count in the app's counter store. */
interface AuthContext {
  readonly model: Model;
  readonly database: Database;
  readonly now: () => Date;
  readonly counters: CounterStore;
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
  tokenId: null,
  authenticatedAt: null,
};

/**
 * Authentication: resolves the bearer token or else the session cookie of every request under
 * `calls.basePath` into `request.auth` (who is signed in, nothing else; other routes of the scope,
 * the probes and the API description, get an anonymous one). A callback hook, so that a request
 * without a session, or with a cached one (`SessionCache`), costs no promise.
 *
 * @example installAuthentication(app, { model, database, now: () => new Date(), counters });
 */
export function installAuthentication(app: FastifyInstance, context: AuthContext): void {
  app.decorateRequest('auth', null as unknown as RequestAuth);
  const apiPrefix = apiPath(context.model, '');
  const session = sessionHook(context);
  app.addHook('onRoute', (route) => {
    addRouteOnRequest(route, route.url.startsWith(apiPrefix) ? session : anonymous);
  });
}

const anonymous: onRequestHookHandler = (request, _reply, done) => {
  request.auth = ANONYMOUS;
  done();
};

function sessionHook(context: AuthContext): onRequestHookHandler {
  const { database, model } = context;
  const refusals = new TokenRefusals(context.counters, requestsPerMinute(model, null));
  return (request, _reply, done) => {
    request.auth = ANONYMOUS;
    // one property read for a browser's request: only a script's pays for the token's branch
    const authorization = request.headers.authorization;
    if (authorization !== undefined && isBearer(authorization)) {
      bearer(context, refusals, request, authorization).then(() => done(), done);
      return;
    }
    const id = request.cookies[SESSION_COOKIE];
    if (id === undefined || id === '') return done();
    const now = context.now();
    // a cached session is answered at once, and the request goes on in this tick
    const cached = cachedSession(database, model, id, now);
    if (cached !== undefined) {
      request.auth = authOf(cached, id);
      return done();
    }
    readSession(database, model, id, now).then((found) => {
      request.auth = authOf(found, id);
      done();
    }, done);
  };
}

/** `request.auth` of a session lookup's answer for the cookie's id. */
function authOf(found: SessionLookup, id: string): RequestAuth {
  if (found.status === 'active')
    return {
      user: found.user,
      sessionId: id,
      expired: false,
      context: found.context,
      tokenId: null,
      authenticatedAt: found.authenticatedAt,
    };
  return found.status === 'expired' ? EXPIRED : ANONYMOUS;
}

const EXPIRED: RequestAuth = { ...ANONYMOUS, expired: true };

/**
 * Whether an Authorization header uses the Bearer scheme (its name without regard to case, RFC
 * 9110). Another scheme (a proxy's Basic, say) is not ours: the cookie decides, as without it.
 *
 * @example isBearer('Bearer nf_q3V…') // true; isBearer('Basic YW5uOg==') // false
 */
export function isBearer(authorization: string): boolean {
  return authorization.length > 7 && authorization.slice(0, 7).toLowerCase() === 'bearer ';
}

/**
 * Authenticates a request by its bearer token, or refuses it: a request that names a token is
 * never taken for anyone else's, so it ignores any cookie (and forgets it, so that no route reads
 * one), whether or not the token works.
 */
async function bearer(
  context: { readonly model: Model; readonly database: Database; readonly now: () => Date },
  refusals: TokenRefusals,
  request: FastifyRequest,
  authorization: string,
): Promise<void> {
  request.cookies = {};
  const now = context.now();
  await refusals.check(request.ip, now.getTime());
  const found = await readToken(context.database, context.model, authorization.slice(7).trim(), now);
  if (found.status !== 'active') {
    await refusals.count(request.ip, now.getTime());
    throw tokenProblem(found);
  }
  request.auth = {
    user: found.user,
    sessionId: null,
    expired: false,
    context: found.context,
    tokenId: found.tokenId,
    authenticatedAt: null,
  };
}

/**
 * Refused tokens by address, counted in the app's counter store (decision 0057: shared by the
 * instances on PostgreSQL or Redis): a refused token is answered before the request rate limit
 * counts it, and a well-formed one costs a lookup, so past the guests' limit of refusals a minute an
 * address is refused (E_RATE_LIMITED) without a lookup until its window ends.
 *
 * A token that works costs no round trip: the shared count is read only for an address this
 * instance has seen refused in the window, and an address found over the limit is refused from
 * memory until the window ends. So an instance that never refused an address looks up one of its
 * tokens before it learns of the others' count: n instances look up at most the limit plus n − 1
 * (plus those arriving together).
 */
class TokenRefusals {
  // what this instance knows of an address's window: when it ends, and whether it is used up
  readonly #known = new Map<string, { resetAt: number; full: boolean }>();
  #lastSweep = 0;

  constructor(
    private readonly counters: CounterStore,
    private readonly perMinute: number,
  ) {}

  /** Throws E_RATE_LIMITED when the address has used up its refusals of the minute. */
  async check(address: string, now: number): Promise<void> {
    const known = this.#known.get(address);
    if (known === undefined || known.resetAt <= now) return;
    let resetAt = known.resetAt;
    if (!known.full) {
      const [window] = await this.counters.peek([keyOf(address)], now);
      if (window === undefined || window.count < this.perMinute) return;
      resetAt = window.resetAt;
      this.#known.set(address, { resetAt, full: true });
    }
    const retryAfter = secondsLeft({ count: this.perMinute, resetAt }, now);
    throw new ApiError(
      'E_RATE_LIMITED',
      { retryAfter },
      { headers: { [RETRY_AFTER_HEADER]: String(retryAfter) } },
    );
  }

  async count(address: string, now: number): Promise<void> {
    this.#sweep(now);
    const { window } = await this.counters.take(keyOf(address), Infinity, WINDOW_MS, now);
    this.#known.set(address, { resetAt: window.resetAt, full: window.count >= this.perMinute });
  }

  #sweep(now: number): void {
    if (now - this.#lastSweep < WINDOW_MS) return;
    this.#lastSweep = now;
    for (const [address, known] of this.#known) if (known.resetAt <= now) this.#known.delete(address);
  }
}

function keyOf(address: string): string {
  return `token-refusal:address:${address}`;
}

/** A refused token's problem, with the challenge RFC 6750 asks for. */
function tokenProblem(found: Exclude<TokenLookup, { status: 'active' }>): ApiError {
  const headers = { 'www-authenticate': 'Bearer error="invalid_token"' };
  return found.status === 'expired'
    ? new ApiError('E_TOKEN_EXPIRED', {}, { headers })
    : new ApiError('E_UNAUTHENTICATED', {}, { headers });
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

/**
 * The signed-in user as the engine sees them, or E_UNAUTHENTICATED (E_SESSION_EXPIRED when the
 * session ran out).
 *
 * @example const user = requireUserContext(request); // { id, roles, …their User record }
 */
export function requireUserContext(request: FastifyRequest): UserContext {
  const context = request.auth.context;
  if (context !== null) return context;
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
