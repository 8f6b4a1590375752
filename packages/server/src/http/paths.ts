/**
 * Where the API lives: every route of the product (resources, the session, the model) sits under
 * the spec's `calls.basePath`; only the probes, `/openapi.json` and `/docs` stay at the root.
 */
import { type Model, SERVER_PATHS } from '@ninefold/model';

/**
 * A path under the model's base path.
 *
 * @example apiPath(model, 'session') // '/api/v1/session' when calls.basePath is /api/v1
 */
export function apiPath(model: Model, name: string): string {
  return `${model.calls.basePath.replace(/\/+$/, '')}/${name}`;
}

/**
 * Whether a path (without its query) is the API's: the base path, anything under it, or one of
 * {@link SERVER_PATHS} and anything under those. Whatever else a server answers (a web app's pages)
 * must leave these to the API, whose unknown routes are 404 problems.
 *
 * @example isApiPath(model, '/api/claims') // true; isApiPath(model, '/claims') // false
 */
export function isApiPath(model: Model, path: string): boolean {
  const base = model.calls.basePath.replace(/\/+$/, '');
  return (
    path === base ||
    path.startsWith(`${base}/`) ||
    SERVER_PATHS.some((p) => path === p || path.startsWith(`${p}/`))
  );
}
