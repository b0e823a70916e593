/**
 * What every request under `/office` passes before its page: a signed-in session (else the
 * sign-in page, which shows nothing), and for a change (a POST) a browser on this site and a form
 * body within a small limit, refused as the web forms' are (403, 415, 413, 400, 408), in words, and
 * one of the account's changes a minute (signing out is none: it always ends the session and
 * removes its cookie). A change sent after the session ended is held through the sign-in
 * (`office/held-change.ts`), and shown by a GET alone. The inbox's address keeps checked values
 * alone (`office/inbox-filters.ts`). Every answer is kept out of caches and search engines.
 */
import type { OfficePowers } from '../roles/index.ts';
import type { ApiContext } from './context.ts';
import { foreignOriginWords, formBodyProblem, STATUS } from './form-guard.ts';
import { fromSiteOrigin } from './same-origin.ts';
import { siteOrigins } from '../config/site-origins.ts';
import { sessionToken, sessionUser, spendAction } from '../office/session.ts';
import { plural } from '../lib/text.ts';
import { mayOpen, ownersOnly } from '../office/roles.ts';
import { UNAVAILABLE_RETRY_AFTER_SECONDS } from '../leads/intake.ts';
import { HELD_PATH, heldCookie, holdChange, isHeldPath, opensHeldChange } from '../office/held-change.ts';
import { inboxAddress } from '../office/inbox-filters.ts';
import type { RateLimitState } from '../limiter/rate-limiter.ts';
import { refusalHtml } from '../office/refusal-page.ts';

/** The office's forms are short: a status, a search, an e-mail and a password. */
const OFFICE_BODY_LIMIT = 8 * 1024;

export const OFFICE_HEADERS = { 'Cache-Control': 'no-store', 'X-Robots-Tag': 'noindex, nofollow' } as const;

const REFUSALS = {
  unsupported_media_type: 'This address only takes the office page’s own forms. Nothing was changed.',
  payload_too_large: 'What was sent is longer than the office page’s forms take. Nothing was changed.',
  bad_request: 'What was sent did not arrive complete. Nothing was changed. Go back, reload the page and try again.',
  request_timeout: 'What was sent stopped arriving before it was complete. Nothing was changed. Check the connection and try again.',
} as const;

/** The company's name as the office guard last saw it (`content/company.yaml`, one a server), which heads a refusal's page. */
let company: string | undefined;

/**
 * An answer of the office in words, for a person: a refusal here or of the office's own endpoints
 * (4xx) is a page in the office's look with a way back to the inbox (`office/refusal-page.ts`);
 * a failure (503), the words alone.
 */
export function officeText(status: number, words: string, headers: Record<string, string> = {}): Response {
  if (status >= 500) return new Response(`${words}\n`, { status, headers: { 'Content-Type': 'text/plain; charset=utf-8', ...headers } });
  return new Response(refusalHtml(status, words, company), { status, headers: { 'Content-Type': 'text/html; charset=utf-8', ...headers } });
}

/** Whether `path` is the office's. */
export const isOfficePath = (path: string) => path === '/office' || path.startsWith('/office/');

export const SIGN_IN_PATH = '/office/sign-in';
/** Signing out: never refused by a limit, and reached without a session too, so that its cookie always goes. */
export const SIGN_OUT_PATH = '/office/sign-out';

/**
 * Lets a request under `/office` through, handing the page the office's powers (`locals.office`)
 * once the session is checked, or on the sign-in page only what signing in needs; or the answer
 * that stands instead of the page.
 */
export async function guardOffice(request: Request, url: URL, locals: ApiContext, powers: OfficePowers): Promise<Response | undefined> {
  const { services } = locals;
  company = services.promise.companyName;
  if (request.method === 'POST') {
    const origins = siteOrigins(services.config);
    if (!fromSiteOrigin(request, locals.request, origins)) {
      return officeText(STATUS.forbidden, foreignOriginWords(origins, 'A change to the office', 'Nothing was changed.'));
    }
    const problem = await formBodyProblem(request, OFFICE_BODY_LIMIT);
    if (problem) return officeText(STATUS[problem], REFUSALS[problem]);
  } else if (request.method !== 'GET' && request.method !== 'HEAD') {
    return officeText(405, 'The office page is read with GET and changed with its own forms (POST).', { Allow: 'GET, HEAD, POST' });
  }
  const token = sessionToken(request.headers.get('cookie'));
  const account = await sessionUser(powers.sessions, token);
  if (account) {
    // The one place where a role is checked: an owner's page (or its action) is refused to staff, in words.
    const may = mayOpen(account.role, url.pathname);
    if (!may.allowed) return officeText(403, ownersOnly(may.what, account.email));
    // The change limit is the account's, whatever the number of its sessions; signing out is no change, and never refused.
    if (request.method === 'POST' && url.pathname !== SIGN_OUT_PATH) {
      const spent = await spendAction(powers.actionLimit, account.email);
      if (!spent.allowed) return tooManyChanges(spent);
    }
    // A held change is shown (and so used) by a GET a person opened alone: a HEAD or a prefetch is answered here, using nothing.
    if (url.pathname === HELD_PATH && !opensHeldChange(request)) {
      if (request.method === 'HEAD') return new Response(null, { status: 200, headers: { 'Content-Type': 'text/html; charset=utf-8' } });
      if (request.method === 'GET') return officeText(503, 'This page is not prefetched: it shows a change held for you once, when you open it.');
    }
    // The inbox's address holds checked values alone: anything else is left out, and the page says what was.
    if ((url.pathname === '/office' || url.pathname === '/office/') && request.method !== 'POST') {
      const checked = inboxAddress(url.searchParams);
      if (checked.toString() !== url.searchParams.toString()) return new Response(null, { status: 303, headers: { Location: `/office?${checked}` } });
    }
    locals.office = { user: account.email, role: account.role, token: token!, powers };
    return undefined;
  }
  if (request.method === 'POST' && url.pathname === SIGN_OUT_PATH) return undefined;
  if (url.pathname === SIGN_IN_PATH) {
    locals.signingIn = { accounts: powers.accounts, sessions: powers.sessions, audit: powers.audit, limits: powers.signInLimits };
    return undefined;
  }
  // A change sent after the session ended is held through the sign-in, to be confirmed after it; never dropped without a word.
  if (request.method === 'POST' && isHeldPath(url.pathname)) {
    const held = await holdChange(powers.sessions, powers.actionLimit, token, url.pathname, await request.formData());
    if (held.kind === 'limited') return tooManyChanges(held.spent);
    const headers: Record<string, string> = { Location: `${SIGN_IN_PATH}?${held.kind === 'held' ? 'held' : 'not-held'}` };
    if (held.kind === 'held') headers['Set-Cookie'] = heldCookie(held.handle, services.config.siteUrl.startsWith('https:'));
    return new Response(null, { status: 303, headers });
  }
  // Whatever was asked for, without a session the answer is the way to the sign-in page, and nothing
  // else. It comes back to the page asked for, never to its query, which can name a customer.
  const next = request.method === 'GET' ? `?next=${encodeURIComponent(url.pathname)}` : '';
  return new Response(null, { status: 303, headers: { Location: `${SIGN_IN_PATH}${next}` } });
}

/** The answer to a change past the account's change limit: a 429 in words, saying how long to wait. */
function tooManyChanges(spent: RateLimitState): Response {
  return officeText(
    429,
    `That is more changes in a minute than the office page takes (${spent.limit}). Nothing was changed. Wait ` +
      `${plural(spent.resetSeconds, 'second')}, then try again.`,
    { 'Retry-After': String(spent.resetSeconds) },
  );
}

/** The answer of any office page or action while the store is busy or cannot be reached: a 503 in words. */
export function officeUnavailable(): Response {
  return officeText(
    503,
    `The inbox is busy or cannot be reached just now. Nothing was changed. Try again in a minute; if it keeps happening, tell whoever runs the server.`,
    { 'Retry-After': String(UNAVAILABLE_RETRY_AFTER_SECONDS) },
  );
}
