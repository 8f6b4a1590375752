/**
 * Hooks given to each route as it is registered (from an `onRoute` hook) rather than to the whole
 * instance: what a hook needs from the route's config is then read once, at registration, instead of
 * through `request.routeOptions`, which builds a fresh object of a dozen keys at every call. A
 * route's own hooks run after the instance's, in the order they were added.
 */
import { type onRequestHookHandler, type RouteOptions } from 'fastify';

/**
 * Appends an `onRequest` hook to a route being registered.
 *
 * @example app.addHook('onRoute', (route) => addRouteOnRequest(route, hook));
 */
export function addRouteOnRequest(route: RouteOptions, hook: onRequestHookHandler): void {
  const existing = route.onRequest;
  // a new array: a route's options may share theirs with another route (its HEAD twin, say)
  route.onRequest =
    existing === undefined ? [hook] : [...(Array.isArray(existing) ? existing : [existing]), hook];
}
