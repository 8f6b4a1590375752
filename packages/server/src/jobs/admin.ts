/**
 * What admins see of the jobs, and the one thing they may do: `GET <basePath>/admin/jobs` lists
 * them newest first (filtered by state), and `POST <basePath>/admin/jobs/<id>/retry` gives a dead
 * job its attempts back. The path sits under `admin/` so that no resource of a spec (a `jobs`
 * entity) can take it.
 *
 * An admin is someone with a role that may change every user's roles (`isAdmin` of the engine's
 * grants, the one definition the client shows the admin pages by too; `http/admin-lists.ts`).
 */
import { API_PATHS, type Model, type WireJob } from '@ninefold/model';
import { type FastifyInstance } from 'fastify';
import { type Database } from '../db/open.js';
import { listFilter, listLimit, requireAdmin } from '../http/admin-lists.js';
import { ApiError } from '../http/errors.js';
import { apiPath } from '../http/paths.js';
import { TABLES } from '../schema/names.js';
import { JOB_STATES, type Job, jobOf } from './job.js';

/** The most jobs one answer lists. */
export const MAX_JOBS_LISTED = 500;

/** Registers the admin's job routes. */
export function registerJobRoutes(
  api: FastifyInstance,
  context: { model: Model; database: Database; now: () => Date },
): void {
  const { model, database, now } = context;
  const path = apiPath(model, API_PATHS.jobs);

  api.get(path, async (request) => {
    requireAdmin(model, request);
    const state = listFilter(request.query, 'state', JOB_STATES);
    const limit = listLimit(request.query, MAX_JOBS_LISTED);
    let select = database.db.selectFrom(TABLES.jobs).selectAll();
    if (state !== undefined) select = select.where('state', '=', state);
    const rows = await select.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
    return { data: rows.map((row) => wireJob(jobOf(row))) };
  });

  api.post(`${path}/:id/retry`, async (request) => {
    requireAdmin(model, request);
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
