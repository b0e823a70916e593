/**
 * What a web-form submission (a form POST to its page with `?_action=`, or the page script's call
 * to `/_actions/<name>`) passes before Astro's actions runtime reads it, once the front door has
 * spent the client's submission budget: the same-origin check, the media type, and a body read
 * within a limit that parses as form data.
 *
 * Why here: Astro's runtime parses the body itself, reads up to 1 MiB, answers a truncated JSON or
 * multipart body with a 500 and a logged stack trace, and counts nothing. Here every refusal is the
 * status the API gives the same bytes (403, 413, 415, 400, 408, 429), in a sentence a person can
 * act on (the page's script shows it as the form's message), and every submission, refused or
 * not, is one of the client's submissions a minute.
 */
import type { ApiContext } from './context.ts';
import { rateLimitHeaders } from './headers.ts';
import { readBodyBytes } from './read-body.ts';
import { Problem } from '../problems/problem.ts';
import { fromSiteOrigin } from './same-origin.ts';
import { siteOrigins } from '../config/site-origins.ts';
import { outcomeMessage } from '../web-forms/submit.ts';

/**
 * The most a form's answers take on the wire: every field at its longest, in any script, encoded
 * (a 5,000-character note of 3-byte characters is 45,000 bytes percent-encoded).
 */
export const FORM_BODY_LIMIT = 64 * 1024;

const FORM_MEDIA_TYPES = new Set(['application/x-www-form-urlencoded', 'multipart/form-data']);

const AGAIN = 'Nothing was sent. Go back to the form, reload the page and send it again.';

/** What a person reads for each refusal, by the problem code the API would give. */
const REFUSALS = {
  unsupported_media_type: `This address only takes the company's own quote and contact forms. ${AGAIN}`,
  payload_too_large: `The form's answers are longer than the form accepts. Nothing was sent. Shorten the longest answer and send it again.`,
  bad_request: `The form's answers did not arrive complete. ${AGAIN}`,
  request_timeout: 'The form stopped arriving before it was complete. Nothing was sent. Check your connection and send it again.',
} as const;

/** What a person reads when a form was sent from another address than the site's (`origins`, the first said). */
export const foreignOriginWords = (origins: readonly string[], what: string, undone: string) =>
  `${what} can only be sent from this site, at ${origins[0]}. ${undone} Open ${origins[0]} in your browser and send it again from there.`;

export const STATUS: Record<keyof typeof REFUSALS | 'forbidden' | 'rate_limited', number> = {
  forbidden: 403,
  unsupported_media_type: 415,
  payload_too_large: 413,
  bad_request: 400,
  request_timeout: 408,
  rate_limited: 429,
};

/**
 * Checks a web-form submission whose budget the front door spent (`locals.budget`): `undefined`
 * when it may go on to its action, or the answer that refuses it.
 */
export async function guardFormSubmission(request: Request, locals: ApiContext): Promise<Response | undefined> {
  const { services, budget } = locals;
  if (!budget) throw new Error('a web form submission reached its guard without its budget');
  const refuse = (reason: keyof typeof STATUS, text: string) =>
    new Response(`${text}\n`, { status: STATUS[reason], headers: { 'Content-Type': 'text/plain; charset=utf-8', ...rateLimitHeaders(budget) } });
  // A refusal writes no line of its own: the request's one log line (its path, status and a foreign origin) says it.
  const origins = siteOrigins(services.config);
  const fromSite = fromSiteOrigin(request, locals.request, origins);
  // A refused client learns that first, whatever it sent, as on the API: one answer, which our
  // server's edge gives without Astro (docs/decisions/0032).
  if (!budget.allowed) return refuse('rate_limited', outcomeMessage({ kind: 'rate_limited', retryAfterSeconds: budget.resetSeconds }, {}));
  if (!fromSite) return refuse('forbidden', foreignOriginWords(origins, 'This form', 'Nothing was sent.'));
  const problem = await formBodyProblem(request);
  if (problem) return refuse(problem, REFUSALS[problem]);
  return undefined;
}

/** Why the body cannot be a form's answers (of at most `limit` bytes), or `undefined` when it can. Reads a copy: the action reads the request. */
export async function formBodyProblem(request: Request, limit = FORM_BODY_LIMIT): Promise<Exclude<keyof typeof REFUSALS, 'forbidden'> | undefined> {
  const contentType = request.headers.get('content-type') ?? '';
  if (!FORM_MEDIA_TYPES.has(contentType.split(';', 1)[0]!.trim().toLowerCase())) return 'unsupported_media_type';
  let bytes: Buffer;
  try {
    bytes = await readBodyBytes(request.clone(), limit);
  } catch (err) {
    if (err instanceof Problem && (err.code === 'payload_too_large' || err.code === 'request_timeout')) return err.code;
    return 'bad_request';
  }
  try {
    await new Response(new Uint8Array(bytes), { headers: { 'Content-Type': contentType } }).formData();
  } catch {
    return 'bad_request';
  }
  return undefined;
}
