/**
 * How every API request is answered, in one place: the route's own headers (deprecation, rate
 * limit) on every answer, 204 for OPTIONS and 405 with `Allow` for a method the route does not
 * serve, then the handler; and the one catch point, where known problems become problem documents,
 * a store that cannot be reached becomes 503, and anything else is logged once and becomes a bare 500.
 */
import { CommitOutcomeUnknownError, StoreUnavailableError } from '../leads/store.ts';
import { Problem, problemResponse } from '../problems/problem.ts';
import { peekSubmissions } from '../limiter/submissions.ts';
import type { ApiContext, ApiRoute } from './context.ts';
import { rateLimitHeaders, setAll } from './headers.ts';
import { unavailable } from './leads-handler.ts';
import { aliasHeaders } from './deprecation.ts';

/** The `Allow` header of a route: its methods and OPTIONS. */
export function allowHeader(route: ApiRoute): string {
  return [...route.methods, 'OPTIONS'].join(', ');
}

/**
 * Answers one request to a route. `request` is absent for a method a web `Request` cannot carry
 * (TRACE, CONNECT), which our server answers without Astro, through this same function.
 */
export function serveRoute(route: ApiRoute, method: string, request: Request | undefined, ctx: ApiContext): Promise<Response> {
  const headers = new Headers(route.deprecated ? aliasHeaders(ctx.services.config) : undefined);
  return respond(ctx, headers, async () => {
    if (request && route.methods.includes(method)) return route.handle(request, ctx, route, headers);
    if (route.rateLimited) setAll(headers, rateLimitHeaders(await peekSubmissions(ctx.services.limiter, ctx.request.clientAddress)));
    const allow = allowHeader(route);
    if (method === 'OPTIONS') return new Response(null, { status: 204, headers: { Allow: allow, 'Cache-Control': 'no-store' } });
    throw new Problem('method_not_allowed', `${method} is not supported on this path; use ${route.methods.join(' or ')}.`, {}, { Allow: allow });
  });
}

/** The answer for a path under `/api/` that no route serves. */
export function notFound(path: string, ctx: ApiContext): Promise<Response> {
  return respond(ctx, new Headers(), async () => {
    throw new Problem('not_found', `There is no API resource at ${path}.`);
  });
}

/** Runs `handler`, turning any failure into a problem response; `headers` go on every response. */
async function respond(ctx: ApiContext, headers: Headers, handler: () => Promise<Response>): Promise<Response> {
  let response: Response;
  try {
    response = await handler();
  } catch (err) {
    response = problemResponse(toProblem(err, ctx), { siteUrl: ctx.services.config.siteUrl, requestId: ctx.request.id });
  }
  headers.forEach((value, name) => response.headers.set(name, value));
  return response;
}

function toProblem(err: unknown, ctx: ApiContext): Problem {
  if (err instanceof Problem) return err;
  const log = ctx.services.logger;
  // A store that fails under any other route is answered as the intake's is.
  if (err instanceof StoreUnavailableError) return unavailable(err instanceof CommitOutcomeUnknownError, err, ctx);
  log.error({ reqId: ctx.request.id, err }, 'unexpected error');
  return new Problem('internal_error', 'An unexpected failure happened on the server; nothing was stored.');
}
