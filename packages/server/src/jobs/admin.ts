/**
 * What admins see of the jobs, and the one thing they may do: `GET <basePath>/admin/jobs` lists
 * them newest first (filtered by state), and `POST <basePath>/admin/jobs/<id>/retry` gives a dead
 * job its attempts back. The path sits under `admin/` so that no resource of a spec (a `jobs`
 * entity) can take it.
 *
 * An admin is someone with a role that may change every user's roles (`isAdmin` of the engine's
 * grants, the one definition the client shows the admin pages by too).
 */
import { isAdmin } from '@ninefold/engine/grants';
import { API_PATHS, type Model, type WireJob } from '@ninefold/model';
import { type FastifyInstance, type FastifyRequest } from 'fastify';
import { type Database } from '../db/open.js';
import { requireUser } from '../auth/request-auth.js';
import { ApiError } from '../http/errors.js';
import { apiPath } from '../http/paths.js';
import { TABLES } from '../schema/names.js';
import { JOB_STATES, type Job, type JobState, jobOf } from './job.js';

/** The most jobs one answer lists. */
export const MAX_JOBS_LISTED = 500;
const DEFAULT_JOBS_LISTED = 100;

// the admin routes of notifications and webhooks guard with it too
export { isAdmin };

/** Registers the admin's job routes. */
export function registerJobRoutes(
  api: FastifyInstance,
  context: { model: Model; database: Database; now: () => Date },
): void {
  const { model, database, now } = context;
  const path = apiPath(model, API_PATHS.jobs);
  const admin = (request: FastifyRequest) => {
    const user = requireUser(request);
    if (!isAdmin(model, user.roles)) throw new ApiError('E_FORBIDDEN');
  };

  api.get(path, async (request) => {
    admin(request);
    const query = request.query as Record<string, unknown>;
    const state = query['state'];
    if (state !== undefined && !JOB_STATES.includes(state as JobState))
      throw new ApiError('E_INVALID_QUERY', { reason: `state must be one of ${JOB_STATES.join(', ')}` });
    const limitText = query['limit'];
    const limit = limitText === undefined ? DEFAULT_JOBS_LISTED : Number(limitText);
    if (typeof limitText === 'object' || !Number.isInteger(limit) || limit < 1 || limit > MAX_JOBS_LISTED)
      throw new ApiError('E_INVALID_QUERY', {
        reason: `limit must be a whole number from 1 to ${MAX_JOBS_LISTED}`,
      });
    let select = database.db.selectFrom(TABLES.jobs).selectAll();
    if (state !== undefined) select = select.where('state', '=', state);
    const rows = await select.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
    return { data: rows.map((row) => wireJob(jobOf(row))) };
  });

  api.post(`${path}/:id/retry`, async (request) => {
    admin(request);
    const { id } = request.params as { id: string };
    const at = now();
    const updated = await database.db
      .updateTable(TABLES.jobs)
      .set({ state: 'pending', attempts: 0, run_at: at.getTime(), updated_at: at.toISOString() })
      .where('id', '=', id)
      .where('state', '=', 'dead')
      .returningAll()
      .executeTakeFirst();
    if (updated !== undefined) return wireJob(jobOf(updated));
    const exists = await database.db
      .selectFrom(TABLES.jobs)
      .select('state')
      .where('id', '=', id)
      .executeTakeFirst();
    // not there, or no longer dead: someone retried it first, or it was never dead
    throw exists === undefined ? new ApiError('E_NOT_FOUND', { entity: 'job' }) : new ApiError('E_CONFLICT');
  });
}

function wireJob(job: Job): WireJob {
  return {
    id: job.id,
    kind: job.kind,
    payload: job.payload,
    state: job.state,
    attempts: job.attempts,
    maxAttempts: job.maxAttempts,
    runAt: job.runAt.toISOString(),
    lockedUntil: job.lockedUntil?.toISOString() ?? null,
    lastError: job.lastError,
    key: job.key,
    createdAt: job.createdAt,
    updatedAt: job.updatedAt,
  };
}
