/**
 * The Fastify application of a model: health, the model, sessions, and the guards every request
 * passes (CSRF, session, rate limit, error handling). It does not listen; the command line (`ninefold start`) does.
 */
import cookie from '@fastify/cookie';
import { type Model } from '@ninefold/model';
import Fastify, { type FastifyInstance, type FastifyServerOptions, LogController } from 'fastify';
import { randomUUID } from 'node:crypto';
import { installAuthentication } from './auth/request-auth.js';
import { registerSessionRoutes } from './auth/session-routes.js';
import { type Database } from './db/open.js';
import { installCsrfCheck } from './http/csrf.js';
import { type NotFoundFallback, registerClient } from './http/client.js';
import { type PrepaintModule } from './http/prepaint.js';
import { installErrorHandling } from './http/errors.js';
import { registerHealthRoutes } from './http/health.js';
import { apiPath } from './http/paths.js';
import { publicModel } from './http/public-model.js';
import { installRateLimit } from './http/rate-limit.js';
import { registerOpenApiRoutes } from './openapi/routes.js';
import { registerResources } from './resources/routes.js';

export interface AppOptions {
  readonly model: Model;
  /** An open, migrated database (see `openDatabase` and `migrate`). */
  readonly database: Database;
  /** Fastify's logger option: `false` (the default), `true`, or pino options. */
  readonly logger?: FastifyServerOptions['logger'];
  /** Demo mode: the server was seeded with one account per role. */
  readonly demo?: boolean;
  /** Trust X-Forwarded-* headers (behind a reverse proxy). */
  readonly trustProxy?: boolean;
  /** The clock; tests move it instead of sleeping. */
  readonly now?: () => Date;
  /** Serve the built client from this folder on the same port (`packages/client/dist`). */
  readonly clientDir?: string;
  /**
   * What draws a list's first rows into the page (decision 0018): by default the client's server
   * build beside `clientDir` (`dist-ssr`) when there is one; `false`, never.
   */
  readonly prepaint?: PrepaintModule | false;
}

/** What the server knows about itself, on `app.ninefold`. */
export interface AppState {
  readonly model: Model;
  readonly demo: boolean;
  /** True from the moment shutdown begins: `/ready` answers 503. */
  draining: boolean;
  /** When the client is served: the page for a browser's navigation that no route matched. */
  notFoundFallback: NotFoundFallback | null;
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
    trustProxy: options.trustProxy ?? false,
    bodyLimit: model.limits.maxBodyBytes,
    genReqId: () => randomUUID(),
    // every log line of a request carries the id that its problem response shows
    logController: new LogController({ requestIdLogLabel: 'correlationId' }),
    // keep serving requests already on an open connection while draining; /ready says 503
    return503OnClosing: false,
    ajv: {
      // unknown fields are refused by the resources, never silently dropped; "12" is not 12
      customOptions: { removeAdditional: false, coerceTypes: false, useDefaults: false },
    },
  });
  const state: AppState = { model, demo: options.demo ?? false, draining: false, notFoundFallback: null };
  app.decorate('ninefold', state);
  app.addHook('preClose', async () => {
    state.draining = true;
  });

  // only JSON bodies: a text/plain POST is a classic cross-site form trick
  app.removeContentTypeParser('text/plain');
  installErrorHandling(app, model);
  // a callback hook: an async one costs a promise per request, for one header
  app.addHook('onSend', (_request, reply, payload, done) => {
    reply.header('x-content-type-options', 'nosniff');
    done(null, payload);
  });

  const context = { model, database, now };
  void app.register(cookie);
  void app.register(async (api) => {
    installCsrfCheck(api);
    installAuthentication(api, context);
    installRateLimit(api, model, now);
    registerHealthRoutes(api, { model, database, isDraining: () => state.draining });
    api.get(apiPath(model, 'model'), async () => publicModel(model));
    registerSessionRoutes(api, context);
    registerResources(api, context);
    registerOpenApiRoutes(api, model);
  });
  const clientDir = options.clientDir;
  if (clientDir !== undefined) {
    void app.register(async (site) => {
      state.notFoundFallback = await registerClient(site, model, {
        dir: clientDir,
        drawWith: app,
        ...(options.prepaint === undefined ? {} : { prepaint: options.prepaint }),
      });
    });
  }
  return app;
}
