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
import { installAuthentication } from './auth/request-auth.js';
import { registerSessionRoutes } from './auth/session-routes.js';
import { type Database } from './db/open.js';
import { installCsrfCheck } from './http/csrf.js';
import { frameworkErrors, installErrorHandling } from './http/errors.js';
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
  /** Trust X-Forwarded-* headers (behind a reverse proxy). */
  readonly trustProxy?: boolean;
  /** The clock; tests move it instead of sleeping. */
  readonly now?: () => Date;
}

/** What the server knows about itself, on `app.ninefold`. */
export interface AppState {
  readonly model: Model;
  /** True from the moment shutdown begins: `/ready` answers 503. */
  draining: boolean;
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
    // an address the router cannot read is a problem too, not Fastify's own JSON
    frameworkErrors: frameworkErrors(model),
    ajv: {
      // unknown fields are refused by the resources, never silently dropped; "12" is not 12
      customOptions: { removeAdditional: false, coerceTypes: false, useDefaults: false },
    },
  });
  const state: AppState = { model, draining: false };
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
    api.get(apiPath(model, API_PATHS.model), async () => publicModel(model));
    registerSessionRoutes(api, context);
    registerResources(api, context);
    registerOpenApiRoutes(api, model);
  });
  return app;
}
