/**
 * `/health` (the process is alive: no database work) and `/ready` (the database answers and holds
 * the model's schema, and the server is not draining). A `/ready` that fails names the database and
 * why: unreachable (with Retry-After), or not migrated.
 */
import { type Model } from '@ninefold/model';
import { type FastifyInstance } from 'fastify';
import { isConnectionFailure } from '../db/connection-failure.js';
import { type Database } from '../db/open.js';
import { desiredSchema } from '../schema/desired.js';
import { isMigrated } from '../schema/migrate.js';
import { schemaHash } from '../schema/schema.js';
import { ApiError, databaseUnavailable } from './errors.js';

/**
 * @example registerHealthRoutes(app, { model, database, isDraining: () => false });
 */
export function registerHealthRoutes(
  app: FastifyInstance,
  context: { readonly model: Model; readonly database: Database; readonly isDraining: () => boolean },
): void {
  const hash = schemaHash(desiredSchema(context.model));
  // probes are never rate-limited: an orchestrator polling them must not lock itself out
  const config = { rateLimit: false } as const;

  app.get('/health', { config }, async () => ({ status: 'ok' }));

  app.get('/ready', { config }, async () => {
    if (context.isDraining())
      throw new ApiError('E_UNAVAILABLE', {}, { detail: 'The server is shutting down.' });
    const migrated = await isMigrated(context.database, hash).catch((error: unknown) => {
      if (isConnectionFailure(error))
        throw databaseUnavailable(`The ${context.database.label} cannot be reached.`);
      throw new ApiError('E_UNAVAILABLE', {}, { detail: `The ${context.database.label} cannot be read.` });
    });
    if (!migrated) {
      throw new ApiError(
        'E_UNAVAILABLE',
        {},
        { detail: `The ${context.database.label} is not migrated to this spec.` },
      );
    }
    return { status: 'ready' };
  });
}
