import type Koa from 'koa';
import { ROUTES, type RouteName, type RouteSpec } from './route-table';

// Which route-table entry answered a request, from @koa/router's matched layer: metrics label
// requests by the route's template (`/v1/generations/:id`), never by the path, which holds ids.

/** The label of a request no route matched (a 404 for an unknown URL). */
export const UNMATCHED_ROUTE = 'unmatched';

/** A RegExp route (the file server's wildcard) as a template: `/files/*`. */
function templateOf(path: string | RegExp): string {
  return typeof path === 'string' ? path : path.source.replace(/^\^/, '').replace(/\$$/, '').replace('(.+)', '*').replace(/\\\//g, '/');
}

const BY_LAYER = new Map<string, RouteName>((Object.entries(ROUTES) as [RouteName, RouteSpec][]).map(([name, spec]) => [`${spec.method} ${String(spec.path)}`, name]));

/** The route-table entry of the request, once the router has matched it; undefined before or without a match. */
export function routeOfRequest(ctx: Koa.Context | Koa.ParameterizedContext<unknown>): { name: RouteName; template: string; spec: RouteSpec } | undefined {
  const matched = (ctx as { _matchedRoute?: string | RegExp })._matchedRoute;
  if (matched === undefined) return undefined;
  // The router answers HEAD with the GET route.
  const name = BY_LAYER.get(`${ctx.method === 'HEAD' ? 'GET' : ctx.method} ${String(matched)}`);
  if (!name) return undefined;
  const spec: RouteSpec = ROUTES[name];
  return { name, template: templateOf(spec.path), spec };
}
