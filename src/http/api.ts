/**
 * The one catch point of the API: known problems become problem documents, a store that cannot be
 * reached becomes 503, anything else is logged once with the request id and becomes a bare 500.
 */
import { Problem, problemResponse } from '../problems/problem.ts';
import { isStoreUnavailable } from '../store/lead-store.ts';
import type { ApiContext } from './context.ts';

/** Seconds a caller is asked to wait when the lead store is unavailable. */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 30;

/** Runs a handler, turning any failure into a problem response; `headers` go on every response. */
export async function withProblemDetails(ctx: ApiContext, headers: Headers, handler: () => Promise<Response>): Promise<Response> {
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
  if (isStoreUnavailable(err)) {
    log.error({ reqId: ctx.request.id, err: { name: (err as Error).name, message: (err as Error).message } }, 'lead store unavailable');
    return new Problem('service_unavailable', 'The lead store cannot be reached at the moment; nothing was stored.', {}, {
      'Retry-After': String(UNAVAILABLE_RETRY_AFTER_SECONDS),
    });
  }
  log.error({ reqId: ctx.request.id, err: err instanceof Error ? { name: err.name, message: err.message, stack: err.stack } : String(err) }, 'unexpected error');
  return new Problem('internal_error', 'An unexpected failure happened on the server; nothing was stored.');
}

/**
 * Answers a method the path does not support: 204 with `Allow` for OPTIONS, 405 `method_not_allowed`
 * otherwise. Returns undefined when the method is allowed.
 */
export function checkMethod(request: Request, allowed: readonly string[]): Response | undefined {
  if (allowed.includes(request.method)) return undefined;
  const allow = allowed.join(', ');
  if (request.method === 'OPTIONS') return new Response(null, { status: 204, headers: { Allow: `${allow}, OPTIONS`, 'Cache-Control': 'no-store' } });
  throw new Problem('method_not_allowed', `${request.method} is not supported on this path; use ${allow}.`, {}, { Allow: `${allow}, OPTIONS` });
}
