/**
 * The one route table of the API: each path, the methods it serves and its handler. The route
 * files under `src/pages/api/` hand every request to `serveApiRoute`, which finds the entry by the
 * pattern Astro matched; our server reads the same table for the methods it must answer itself.
 */
import type { APIRoute } from 'astro';
import { API_PATHS } from '../service-facts.ts';
import { notFound, serveRoute } from './api.ts';
import type { ApiRoute } from './context.ts';
import { handleLeadRequest } from './leads-handler.ts';
import { handleStatusRequest } from './status-handler.ts';

export const API_ROUTES: readonly ApiRoute[] = [
  { path: API_PATHS.status, methods: ['GET', 'HEAD'], rateLimited: false, deprecated: false, handle: handleStatusRequest },
  { path: API_PATHS.leads, methods: ['POST'], rateLimited: true, deprecated: false, handle: handleLeadRequest },
  { path: API_PATHS.deprecatedLeads, methods: ['POST'], rateLimited: true, deprecated: true, handle: handleLeadRequest },
];

const byPath = new Map(API_ROUTES.map((route) => [route.path, route]));

/** The route of a path (a trailing slash is ignored, as Astro ignores it), if the API has one. */
export function findApiRoute(path: string): ApiRoute | undefined {
  return byPath.get(path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path);
}

/** Whether a path belongs to the API's namespace (`/api` and everything under it). */
export const isApiPath = (path: string): boolean => path === '/api' || path.startsWith('/api/');

/** The handler of every route file under `src/pages/api/`. */
export const serveApiRoute: APIRoute = ({ request, locals, routePattern, url }) => {
  const route = findApiRoute(routePattern);
  return route ? serveRoute(route, request.method, request, locals) : notFound(url.pathname, locals);
};
