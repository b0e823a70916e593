/**
 * Refusals answered at the serving edge (docs/decisions/0032): a submission (a lead POST, a web
 * form's) from a client already refused in its current window is answered here, before Astro's
 * pipeline, with what the front door answers it there: the same 429 from the same functions
 * (`answerRefusedSubmission`), written as Astro writes an answer. The client is the one the
 * endpoint counts (`request.clientAddress`, its /64); the edge only reads the limiter's block
 * (`refusedSubmission`) and spends nothing. Everything else, and a client not refused yet, goes on
 * to Astro; under `astro dev` or another adapter the endpoint answers as ever.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestInfo } from '../http/context.ts';
import { answerRefusedSubmission, isSubmission } from '../http/front-door.ts';
import { isApiPath } from '../http/routes.ts';
import { refusedSubmission } from '../limiter/submissions.ts';
import { WEB_FORMS } from '../site/forms.ts';
import type { PublicServices } from '../roles/index.ts';
import { MAX_BODY_BYTES } from '../service-facts.ts';
import { HeldResponse } from './held-response.ts';
import type { RequestBody } from './request-body.ts';

/** Answers a refused client's submission at the edge; `undefined` when the request is to go on to Astro. */
export type RefuseAtEdge = (
  req: IncomingMessage,
  res: ServerResponse,
  request: RequestInfo,
  target: string,
  body: RequestBody | undefined,
) => Promise<void> | undefined;

export function refuseAtEdge(services: PublicServices): RefuseAtEdge {
  const { siteUrl } = services.config;
  return (req, res, request, target, body) => {
    if (req.method !== 'POST') return undefined;
    const budget = refusedSubmission(services.limiter, request.clientAddress);
    if (!budget) return undefined;
    const url = new URL(target, siteUrl);
    if (!isSubmission('POST', url) || !answeredByTheFrontDoor(url.pathname)) return undefined;
    return answer(req, res, new Request(url, { method: 'POST', headers: webHeaders(req) }), url, { services, request, budget }, body);
  };
}

/** The forms' pages, which answer their own POST with `?_action=` on demand. */
const FORM_PAGES = new Set(Object.values(WEB_FORMS).flatMap(({ path }) => [path, `${path}/`]));

/**
 * Whether a submission's path is one Astro hands to the front door's submission steps: a lead
 * path, a form's page, or an action. A POST with `?_action=` anywhere else is another route's
 * (the office's sign-in, whose guard comes first) or no route at all (Astro's 404), never a refusal.
 */
const answeredByTheFrontDoor = (path: string) => isApiPath(path) || path.startsWith('/_actions/') || FORM_PAGES.has(path);

async function answer(
  req: IncomingMessage,
  res: ServerResponse,
  request: Request,
  url: URL,
  locals: Parameters<typeof answerRefusedSubmission>[2],
  body: RequestBody | undefined,
): Promise<void> {
  // As Astro would have it: a body of announced length within the limit is read first (the rest of
  // any other is left to the server's lingering close, `afterAnswer`), so the connection fares alike.
  if (body && req.headers['transfer-encoding'] === undefined && Number(req.headers['content-length']) <= MAX_BODY_BYTES) await body.whole();
  let response: Response;
  try {
    response = await answerRefusedSubmission(request, url, locals);
  } catch (err) {
    locals.services.logger.error({ reqId: locals.request.id, err }, 'edge refusal failed');
    if (!res.headersSent) res.writeHead(500).end();
    return;
  }
  const bytes = response.body ? Buffer.from(await response.arrayBuffer()) : undefined;
  if (res.headersSent || res.destroyed) return;
  // Written as Astro's adapter writes an answer (head, body, end), so the held response sends it alike.
  if (res instanceof HeldResponse) res.hold();
  res.writeHead(response.status, Object.fromEntries(response.headers));
  res.end(bytes);
}

/** The request's headers as a web `Headers` (what the guard and the handler read: Origin, Content-Type). */
function webHeaders(req: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  return headers;
}
