/**
 * The Fastify application of a model: health, the model, sessions, and the guards every request
 * passes (CSRF, session, rate limit, error handling). It does not listen; the command line (`ninefold start`) does.
 * It is only the API: the web app is a plugin of its own (`@ninefold/web`) that the command line
 * registers beside it, answering what is not the API's (`isApiPath`); a route no one has is a
 * 404 problem.
 */
import cookie from '@fastify/cookie';
import { API_PATHS, type Model } from '@ninefold/model';
import Fastify, { type FastifyInstance, type FastifyServerOptions, LogController } from 'fastify';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { registerAdminSessionRoutes } from './auth/admin-sessions.js';
import { registerMfaRoutes } from './auth/mfa/routes.js';
import { installAuthentication } from './auth/request-auth.js';
import { hearSessionChanges } from './auth/session-invalidation.js';
import { registerAccountRoutes } from './auth/account-routes.js';
import { registerRecentAuthenticationRoutes } from './auth/recent-authentication.js';
import { registerOidcRoutes } from './auth/oidc-routes.js';
import { registerIdentityRoutes } from './auth/identity-routes.js';
import { registerSessionRoutes } from './auth/session-routes.js';
import { registerTokenRoutes } from './auth/token-routes.js';
import { registerAuthEventRoutes } from './audit/auth-event-routes.js';
import { lookupSession } from './auth/sessions.js';
import { type Database } from './db/open.js';
import { diskFileStore } from './files/disk-store.js';
import { registerFileRoutes } from './files/routes.js';
import { type FileStore } from './files/store.js';
import { countersFor } from './limits/choose.js';
import { type CounterStore } from './limits/counters.js';
import { installPrivateCaching } from './http/cache-control.js';
import { installCsrfCheck } from './http/csrf.js';
import { earlyErrorOptions, refuseUndecodableQueries } from './http/early-errors.js';
import { installErrorHandling } from './http/errors.js';
import { registerHealthRoutes } from './http/health.js';
import { installJsonBodies } from './http/json-body.js';
import { apiPath } from './http/paths.js';
import { publicModel, signedOutModel } from './http/public-model.js';
import { installRateLimit } from './http/rate-limit.js';
import { installReadRetry } from './http/read-retry.js';
import { registerOpenApiRoutes } from './openapi/routes.js';
import { registerJobRoutes } from './jobs/admin.js';
import { registerWebhookRoutes } from './webhooks/routes.js';
import { registerMailOutboxRoutes } from './mail/outbox-routes.js';
import { registerNotificationRoutes } from './notifications/routes.js';
import { registerResources } from './resources/routes.js';
import { registerDashboardRoutes } from './dashboards/routes.js';
import { registerEventRoutes } from './events/routes.js';
import { type Env } from './webhooks/resolve.js';

export interface AppOptions {
  readonly model: Model;
  /** An open, migrated database (see `openDatabase` and `migrate`). */
  readonly database: Database;
  /** Fastify's logger option: `false` (the default), `true`, or pino options. */
  readonly logger?: FastifyServerOptions['logger'];
  /**
   * Which proxies' X-Forwarded-For, -Proto and -Host to believe (Fastify's `trustProxy`): the
   * proxies' addresses and CIDR ranges, or the number of proxies in front of the server (hops).
   * Unset, they are ignored: the address is the connection's, the protocol its own. It decides the
   * address the sign-in and guest limits count by, and whether the session cookie is `Secure`
   * (decision 0027).
   */
  readonly trustProxy?: TrustProxy;
  /** The clock; tests move it instead of sleeping. */
  readonly now?: () => Date;
  /**
   * Where the server reads its settings at start: the mail settings (`SMTP_URL`, `MAIL_FROM`,
   * `NINEFOLD_PUBLIC_URL`) that identity's mail uses, and the `${NAME}`s of `auth.oidc`. Default
   * the process's environment; tests give their own.
   */
  readonly env?: Env;
  /**
   * Where uploaded files' bytes go (decision 0050): `diskFileStore(<data dir>/files)` or
   * `s3FileStore(STORAGE_URL)` from the command line. Default: a disk store in a new temporary
   * directory, which lives as long as the process.
   */
  readonly files?: FileStore;
  /**
   * Where the request, sign-in and identity limits count (decision 0057): `openRedisCounters(REDIS_URL)`
   * from the command line. Default: the database's (`countersFor`): the `ninefold_limits` table on a
   * PostgreSQL server, shared by every instance; this process's memory on SQLite and PGlite. The app
   * does not close a store it was given.
   */
  readonly counters?: CounterStore;
}

/**
 * Whom to trust for X-Forwarded-*: the proxies' addresses and ranges, a number of hops (the nearest
 * that many are proxies), or `true` (anyone).
 */
export type TrustProxy = boolean | number | readonly string[];

/** What the server knows about itself, on `app.ninefold`. */
export interface AppState {
  readonly model: Model;
  /** True from the moment shutdown begins: `/ready` answers 503. */
  draining: boolean;
  /**
   * Whether a session cookie's value names a live session: for the web app's page, which carries
   * the whole model only to a signed-in browser (decision 0027), asked in process, so that a
   * navigation costs no request of its own (no log line, nothing against the user's rate limit).
   */
  isSignedIn(sessionId: string): Promise<boolean>;
}

declare module 'fastify' {
  interface FastifyInstance {
    ninefold: AppState;
  }
}

/**
 * Builds the application; call `listen` (or `inject`, in tests) on it.
 *
 * @example
 * const app = buildApp({ model, database });
 * const response = await app.inject({ method: 'GET', url: '/health' });
 */
export function buildApp(options: AppOptions): FastifyInstance {
  const { model, database } = options;
  const now = options.now ?? (() => new Date());
  const app = Fastify({
    logger: options.logger ?? false,
    trustProxy: trustProxyOption(options.trustProxy),
    bodyLimit: model.limits.maxBodyBytes,
    genReqId: () => randomUUID(),
    // every log line of a request carries the id that its problem response shows
    logController: new LogController({ requestIdLogLabel: 'correlationId' }),
    // keep serving requests already on an open connection while draining; /ready says 503
    return503OnClosing: false,
    // an address the router cannot read is a problem too, not Fastify's own JSON
    ajv: {
      // unknown fields are refused by the resources, never silently dropped; "12" is not 12
      customOptions: { removeAdditional: false, coerceTypes: false, useDefaults: false },
    },
    // what Node's parser and the router refuse is a problem too
    ...earlyErrorOptions(model),
  });
  const state: AppState = {
    model,
    draining: false,
    isSignedIn: async (sessionId) =>
      (await lookupSession(database, model, sessionId, now())).status === 'active',
  };
  app.decorate('ninefold', state);
  app.addHook('preClose', async () => {
    state.draining = true;
  });

  // only JSON bodies: a text/plain POST is a classic cross-site form trick
  app.removeContentTypeParser('text/plain');
  // JSON bodies nested no deeper than MAX_JSON_DEPTH
  installJsonBodies(app);
  installErrorHandling(app, model);
  refuseUndecodableQueries(app);
  // an embedded SQLite file has no connection to lose: only a server's reads are tried again
  if (database.dialect !== 'sqlite') installReadRetry(app);
  // a callback hook: an async one costs a promise per request, for one header
  app.addHook('onSend', (_request, reply, payload, done) => {
    reply.header('x-content-type-options', 'nosniff');
    done(null, payload);
  });

  // on a PostgreSQL server, the session changes of every instance reach this one's session cache
  const stopHearing = hearSessionChanges(database, model, (error) =>
    app.log.warn(
      { err: error },
      'Session changes made elsewhere are not heard; sessions are cached for at most a second.',
    ),
  );
  app.addHook('onClose', stopHearing);
  const counters = options.counters ?? countersFor(database);
  const context = { model, database, now, env: options.env ?? process.env, counters };
  const files = options.files ?? temporaryFileStore(app);
  void app.register(cookie);
  void app.register(async (api) => {
    installPrivateCaching(api, model);
    installCsrfCheck(api);
    installAuthentication(api, context);
    installRateLimit(api, model, now, counters);
    registerHealthRoutes(api, { model, database, isDraining: () => state.draining });
    const models = { signedIn: publicModel(model), signedOut: signedOutModel(model) };
    // before sign-in, only what the sign-in, help and about pages need (decision 0027)
    api.get(apiPath(model, API_PATHS.model), async (request) =>
      request.auth.user === null ? models.signedOut : models.signedIn,
    );
    registerSessionRoutes(api, context);
    registerAccountRoutes(api, context);
    registerRecentAuthenticationRoutes(api, context);
    registerTokenRoutes(api, context);
    registerAuthEventRoutes(api, context);
    registerMfaRoutes(api, context);
    registerOidcRoutes(api, context);
    // first: it hands its cursor with the reads registered after it
    registerEventRoutes(api, context);
    registerResources(api, context);
    registerDashboardRoutes(api, context);
    registerJobRoutes(api, context);
    registerWebhookRoutes(api, context);
    registerNotificationRoutes(api, context);
    registerMailOutboxRoutes(api, context);
    registerAdminSessionRoutes(api, context);
    registerIdentityRoutes(api, context);
    registerFileRoutes(api, { ...context, files });
    registerOpenApiRoutes(api, model);
  });
  return app;
}

/** A disk store in a new temporary directory, removed when the app closes. */
function temporaryFileStore(app: FastifyInstance): FileStore {
  const dir = mkdtempSync(join(tmpdir(), 'ninefold-files-'));
  app.addHook('onClose', async () => rmSync(dir, { recursive: true, force: true }));
  return diskFileStore(dir);
}

/**
 * Fastify's form of the option: a list as a fresh array, nothing as `false`, and a hop count as
 * proxy-addr's trust function (`hop < n`, as Express counts hops): Fastify 5 itself refuses a bare
 * number, as it cannot tell a proxy from a client that sends the headers itself. A hop count is for
 * a server that only its proxies can reach; the deployment says so by choosing it.
 */
function trustProxyOption(
  trust: TrustProxy | undefined,
): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (trust === undefined) return false;
  if (typeof trust === 'number') return (_address, hop) => hop < trust;
  return typeof trust === 'object' ? [...trust] : trust;
}
