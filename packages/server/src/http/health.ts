/**
 * `/health` (the process is alive: no database work) and `/ready` (the database answers and can
 * serve the model — every table and column it needs is there, decision 0059 — and the server is not
 * draining). A `/ready` that fails names the database and why: unreachable (with Retry-After), or
 * not migrated to this spec, naming what is missing.
 */
import { type Model } from '@ninefold/model';
import { type FastifyInstance } from 'fastify';
import { isConnectionFailure } from '../db/connection-failure.js';
import { type Database } from '../db/open.js';
import { compatibilityCheck } from '../schema/compatibility.js';
import { ApiError, databaseUnavailable } from './errors.js';

/**
 * @example registerHealthRoutes(app, { model, database, isDraining: () => false });
 */
export function registerHealthRoutes(
  app: FastifyInstance,
  context: { readonly model: Model; readonly database: Database; readonly isDraining: () => boolean },
): void {
  // the verdict is kept per recorded migration: a poll reads the last migration's id, no more
  const compatibility = compatibilityCheck(context.database, context.model);
  // probes are never rate-limited: an orchestrator polling them must not lock itself out
  const config = { rateLimit: false } as const;

  app.get('/health', { config }, async () => ({ status: 'ok' }));

  app.get('/ready', { config }, async () => {
    if (context.isDraining())
      throw new ApiError('E_UNAVAILABLE', {}, { detail: 'The server is shutting down.' });
    const { problems } = await compatibility().catch((error: unknown) => {
      if (isConnectionFailure(error))
        throw databaseUnavailable(`The ${context.database.label} cannot be reached.`);
      throw new ApiError('E_UNAVAILABLE', {}, { detail: `The ${context.database.label} cannot be read.` });
    });
    if (problems.length > 0) {
      const named =
        problems.slice(0, 3).join('; ') + (problems.length > 3 ? `; and ${problems.length - 3} more` : '');
      throw new ApiError(
        'E_UNAVAILABLE',
        {},
        { detail: `The ${context.database.label} is not migrated to this spec: ${named}.` },
      );
    }
    return { status: 'ready' };
  });
}
