/**
 * The front door of every answer rendered on demand: what the Astro middleware does, as a plain
 * `Request -> Response` function, so that `astro dev`, our server, another adapter and the
 * in-process tests all pass through the same one. In order:
 * - the security headers of the answer's class, and its request id when the transport sent none;
 * - under `/office`, the office guard (a session, or the sign-in page), which alone hands a page
 *   the office's powers; a store that is busy or unreachable there becomes the office's 503;
 * - a submission (a lead POST, a web form) spends one of the client's budget, here and nowhere
 *   else; a web form's body is checked before its action reads it;
 * - no body reads on past its answer: a HEAD's is cancelled unread, any other is read only as fast
 *   as the client takes it (`response-body.ts`).
 */
import type { OfficePowers } from '../roles/index.ts';
import { StoreUnavailableError } from '../leads/store.ts';
import { spendSubmission } from '../limiter/submissions.ts';
import { isFormSubmission } from './same-origin.ts';
import type { ApiContext } from './context.ts';
import { guardFormSubmission } from './form-guard.ts';
import { guardOffice, isOfficePath, OFFICE_HEADERS, officeUnavailable } from './office-guard.ts';
import { paced, withHeaders, withoutBody } from './response-body.ts';
import { findApiRoute, isApiPath } from './routes.ts';
import { serveRoute } from './api.ts';
import type { RateLimitState } from '../limiter/rate-limiter.ts';
import { securityHeaders } from './security-headers.ts';

const NO_STORE = { 'Cache-Control': 'no-store' } as const;

/** Answers `request` (at `url`) through `next`, the route; `locals` are the route's, `office` the powers the office guard may hand out. */
export async function answerOnDemand(
  request: Request,
  url: URL,
  locals: ApiContext,
  office: OfficePowers,
  next: () => Promise<Response>,
  options: { requestIdSent: boolean },
): Promise<Response> {
  const path = url.pathname;
  const set = answerHeaders(path, locals, options);
  if (isOfficePath(path)) {
    Object.assign(set, OFFICE_HEADERS);
    let response: Response;
    try {
      response = (await guardOffice(request, url, locals, office)) ?? (await next());
    } catch (err) {
      if (!(err instanceof StoreUnavailableError)) throw err;
      locals.services.logger.warn({ reqId: locals.request.id, err }, 'office page: the lead store is busy or cannot be reached');
      return withHeaders(officeUnavailable(), set);
    }
    return finish(request, path, locals, response, set);
  }
  if (isSubmission(request.method, url)) locals.budget = await spendSubmission(locals.services.limiter, locals.request.clientAddress);
  return answerPublic(request, url, locals, next, set);
}

/**
 * The answer of a submission whose client the transport found refused (`locals.budget`, read with
 * `refusedSubmission`, spending nothing): what `answerOnDemand` answers it, without Astro (our
 * server's edge). A refused budget ends at the lead handler's or the form guard's 429, never later.
 */
export function answerRefusedSubmission(request: Request, url: URL, locals: ApiContext & { budget: RateLimitState }): Promise<Response> {
  const route = findApiRoute(url.pathname);
  const next = () => (route ? serveRoute(route, request.method, request, locals) : Promise.reject(new Error('a refused form submission reached its action')));
  return answerPublic(request, url, locals, next, answerHeaders(url.pathname, locals, { requestIdSent: true }));
}

/** Whether a request is a submission, which spends one of the client's budget: a lead POST, or a web form's. */
export function isSubmission(method: string, url: URL): boolean {
  return isApiPath(url.pathname) ? method === 'POST' && findApiRoute(url.pathname)?.rateLimited === true : isFormSubmission(method, url);
}

/** The headers every answer at `path` gets: the security headers of its class, and its request id when the transport sent none. */
function answerHeaders(path: string, locals: ApiContext, options: { requestIdSent: boolean }): Record<string, string> {
  const api = isApiPath(path);
  const actions = path.startsWith('/_actions/');
  const headers = securityHeaders(locals.services.config);
  // Action answers echo what the person typed: never cached, like the pages that show them.
  const set: Record<string, string> = { ...(api || actions ? headers.api : headers.onDemandPage), ...(actions && NO_STORE) };
  if (!options.requestIdSent) set['X-Request-Id'] = locals.request.id;
  return set;
}

/** Everything but the office: a web form's body is checked before its action reads it (its budget already spent), then the route. */
async function answerPublic(request: Request, url: URL, locals: ApiContext, next: () => Promise<Response>, set: Record<string, string>): Promise<Response> {
  if (!isApiPath(url.pathname) && isFormSubmission(request.method, url)) {
    const gate = await guardFormSubmission(request, locals);
    if (gate) return withHeaders(gate, { ...set, ...NO_STORE });
  }
  return finish(request, url.pathname, locals, await next(), set);
}

/** What every answer gets last: no body for HEAD, a body read only as fast as the client takes it, and `set`. */
function finish(request: Request, path: string, locals: ApiContext, answer: Response, set: Record<string, string>): Response {
  let response = answer;
  if (request.method === 'HEAD') response = withoutBody(response);
  else if (locals.request.drained && !isApiPath(path)) response = paced(response, locals.request.drained);
  // Astro sends pages as bare text/html; the pages are UTF-8.
  if (response.headers.get('content-type') === 'text/html') set['Content-Type'] = 'text/html; charset=utf-8';
  return withHeaders(response, set);
}
