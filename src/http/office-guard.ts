/**
 * What every request under `/office` passes before its page: a signed-in session (else the
 * sign-in page, which shows nothing), and for a change (a POST) a browser on this site and a form
 * body within a small limit, refused as the web forms' are (403, 415, 413, 400, 408), in words.
 * Every answer is kept out of caches and search engines.
 */
import type { ApiContext } from './context.ts';
import { formBodyProblem, STATUS } from './form-guard.ts';
import { sameOrigin } from '../web-forms/origin.ts';
import { sessionToken, sessionUser } from '../office/session.ts';

/** The office's forms are short: a status, a search, an e-mail and a password. */
const OFFICE_BODY_LIMIT = 8 * 1024;

export const OFFICE_HEADERS = { 'Cache-Control': 'no-store', 'X-Robots-Tag': 'noindex, nofollow' } as const;

const REFUSALS = {
  forbidden: 'This change can only be made from the office page on this site. Nothing was changed. Go back, reload the page and try again.',
  unsupported_media_type: 'This address only takes the office page’s own forms. Nothing was changed.',
  payload_too_large: 'What was sent is longer than the office page’s forms take. Nothing was changed.',
  bad_request: 'What was sent did not arrive complete. Nothing was changed. Go back, reload the page and try again.',
  request_timeout: 'What was sent stopped arriving before it was complete. Nothing was changed. Check the connection and try again.',
} as const;

/** Whether `path` is the office's. */
export const isOfficePath = (path: string) => path === '/office' || path.startsWith('/office/');

export const SIGN_IN_PATH = '/office/sign-in';

/** The signed-in account (set on `locals`), or the answer that stands instead of the page. */
export async function guardOffice(request: Request, url: URL, locals: ApiContext): Promise<Response | undefined> {
  const { services } = locals;
  const text = (status: number, body: string) => new Response(`${body}\n`, { status, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
  if (request.method === 'POST') {
    if (!sameOrigin(request.headers, services.config.siteUrl)) return text(STATUS.forbidden, REFUSALS.forbidden);
    const problem = await formBodyProblem(request, OFFICE_BODY_LIMIT);
    if (problem) return text(STATUS[problem], REFUSALS[problem]);
  } else if (request.method !== 'GET' && request.method !== 'HEAD') {
    return new Response('The office page is read with GET and changed with its own forms (POST).\n', {
      status: 405,
      headers: { Allow: 'GET, HEAD, POST', 'Content-Type': 'text/plain; charset=utf-8' },
    });
  }
  const token = sessionToken(request.headers.get('cookie'));
  const user = await sessionUser(services.office.sessions, token);
  if (user) {
    locals.office = { user, token: token! };
    return undefined;
  }
  if (url.pathname === SIGN_IN_PATH) return undefined;
  // Whatever was asked for, without a session the answer is the way to the sign-in page, and nothing
  // else. It comes back to the page asked for, never to its query, which can name a customer.
  const next = request.method === 'GET' ? `?next=${encodeURIComponent(url.pathname)}` : '';
  return new Response(null, { status: 303, headers: { Location: `${SIGN_IN_PATH}${next}` } });
}
