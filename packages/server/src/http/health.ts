/**
 * `/health` (the process is alive: no database work) and `/ready` (the database answers and holds
 * the model's schema, and the server is not draining).
 */
import { type Model } from '@ninefold/model';
import { type FastifyInstance } from 'fastify';
import { type Database } from '../db/open.js';
import { desiredSchema } from '../schema/desired.js';
import { isMigrated } from '../schema/migrate.js';
import { schemaHash } from '../schema/schema.js';
import { ApiError } from './errors.js';

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
    const migrated = await isMigrated(context.database, hash).catch(() => false);
    if (!migrated) {
      throw new ApiError(
        'E_UNAVAILABLE',
        {},
        { detail: 'The database is unreachable or not migrated to this spec.' },
      );
    }
    return { status: 'ready' };
  });
}
