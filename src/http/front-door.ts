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
  const api = isApiPath(path);
  const actions = path.startsWith('/_actions/');
  const headers = securityHeaders(locals.services.config);
  // Action answers echo what the person typed: never cached, like the pages that show them.
  const set: Record<string, string> = { ...(api || actions ? headers.api : headers.onDemandPage), ...(actions && NO_STORE) };
  if (!options.requestIdSent) set['X-Request-Id'] = locals.request.id;

  let response: Response;
  if (isOfficePath(path)) {
    Object.assign(set, OFFICE_HEADERS);
    try {
      response = (await guardOffice(request, url, locals, office)) ?? (await next());
    } catch (err) {
      if (!(err instanceof StoreUnavailableError)) throw err;
      locals.services.logger.warn({ reqId: locals.request.id, err }, 'office page: the lead store is busy or cannot be reached');
      return withHeaders(officeUnavailable(), set);
    }
  } else {
    const form = !api && isFormSubmission(request.method, url);
    if (form || (api && request.method === 'POST' && findApiRoute(path)?.rateLimited)) {
      locals.budget = await spendSubmission(locals.services.limiter, locals.request.clientAddress);
    }
    if (form) {
      const gate = await guardFormSubmission(request, locals);
      if (gate) return withHeaders(gate, { ...set, ...NO_STORE });
    }
    response = await next();
  }
  if (request.method === 'HEAD') response = withoutBody(response);
  else if (locals.request.drained && !api) response = paced(response, locals.request.drained);
  // Astro sends pages as bare text/html; the pages are UTF-8.
  if (response.headers.get('content-type') === 'text/html') set['Content-Type'] = 'text/html; charset=utf-8';
  return withHeaders(response, set);
}
