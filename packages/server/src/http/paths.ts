/**
 * Where the API lives: every route of the product (resources, the session, the model) sits under
 * the spec's `calls.basePath`; only the probes, `/openapi.json` and `/docs` stay at the root.
 */
import { type Model } from '@ninefold/model';

/**
 * A path under the model's base path.
 *
 * @example apiPath(model, 'session') // '/api/v1/session' when calls.basePath is /api/v1
 */
export function apiPath(model: Model, name: string): string {
  return `${model.calls.basePath.replace(/\/+$/, '')}/${name}`;
}
