/**
 * No lost work: a change the office sends after its session ended (idle an hour, or twelve hours
 * old) is held on the server through the sign-in, under a handle only the sending browser has (a
 * cookie), for the account of the session that ended and for `HELD_CHANGE_MS`; then it is shown to
 * that account again, once, for one tap, by a GET a person opened (never a HEAD or a prefetch).
 * Without the cookie of a session that ended at most `HELD_CHANGE_MS` ago, nothing is held; holding
 * one is a change of its account (the change limit), and an account holds at most
 * `HELD_PER_ACCOUNT`. It is never made on its own: the tap is a fresh form POST, checked as every
 * office change is (same site, signed in, the account's role, the change limit). A held deletion is
 * held as its search alone: the tap shows what it would delete again, all ticked, before anything
 * is deleted. A deletion on request forgets every held change.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { HeldChange, OfficeSessions } from './store.ts';
import { STATUS_WORDS } from './audit-words.ts';
import { ATTEMPT_WORDS, isAttemptWay, type AttemptWay } from './attempts.ts';
import { spendAction, tokenHash } from './session.ts';
import { SESSION_IDLE_MS, SESSION_MAX_MS } from '../leads/retention.ts';
import type { RateLimiter, RateLimitState } from '../limiter/rate-limiter.ts';

export type { HeldChange } from './store.ts';

export const HELD_CHANGE_COOKIE = 'office_held';
/** How long a held change waits for its sign-in. */
export const HELD_CHANGE_MS = 15 * 60 * 1000;
/** The most held for one account (its oldest forgotten first when one more is held), and across the office, the last bound. */
export const HELD_PER_ACCOUNT = 20;
export const HELD_CHANGES_MAX = 500;

/** A lead's form (status, who has it, a note) in words: each change it makes, as the single forms say it. */
function workWords(f: (name: string) => string): string {
  const reference = f('reference');
  const owner = f('owner');
  const changes = [
    f('status') !== '' && f('status') !== f('was-status') && HELD['/office/status']!(f),
    owner !== '' &&
      owner !== f('was-owner') &&
      (owner === 'me' || owner === 'nobody'
        ? HELD['/office/take']!((name) => (name === 'take' ? (owner === 'me' ? 'yes' : 'no') : f(name)))
        : `Give ${reference} to the colleague you chose.`),
    f('note').trim() !== '' && `Add this note to ${reference}: “${f('note').trim()}”`,
  ].filter(Boolean);
  return changes.length === 0 ? `Save ${reference} as it is (nothing to change).` : changes.join(' ');
}

/** The office's changes that are held when the session has ended, each told in words for its confirmation. */
const HELD: Record<string, (field: (name: string) => string) => string> = {
  '/office/status': (f) => `Mark ${f('reference')} as “${STATUS_WORDS[f('status') as keyof typeof STATUS_WORDS] ?? f('status')}”.`,
  '/office/note': (f) => `Add this note to ${f('reference')}: “${f('note')}”`,
  '/office/take': (f) => (f('take') === 'yes' ? `Take ${f('reference')} (“I’ll handle it”).` : `Let ${f('reference')} go, for someone else to take.`),
  '/office/work': workWords,
  '/office/attempt': (f) =>
    `Record on ${f('reference')}: ${isAttemptWay(f('way')) ? ATTEMPT_WORDS[f('way') as AttemptWay].button.toLowerCase() : 'tried, no answer'}.`,
  '/office/search': (f) => `Search for “${f('q')}”.`,
  '/office/spam': (f) =>
    f('do') === 'not-a-customer'
      ? 'Mark a submission that was caught as spam “Not a customer”.'
      : f('do') === 'put-back'
        ? 'Put a submission marked “Not a customer” back among the suspected spam that waits for review.'
        : 'Move a submission that was caught as spam into the inbox.',
  '/office/delete': (f) => `Look up what is kept for ${f('person')} again, to delete it on request (you will see it all before anything is deleted).`,
};

/** The fields kept of a change to `path`: a deletion keeps its search alone, so that its tap shows the list again. */
const KEPT_FIELDS: Record<string, readonly string[]> = { '/office/delete': ['person'] };

/** Whether a change sent to `path` is held when its session has ended. */
export const isHeldPath = (path: string) => Object.hasOwn(HELD, path);

/** What the held change does, in the office's words. */
export function heldChangeWords(change: HeldChange): string {
  const field = (name: string) => change.fields.find(([n]) => n === name)?.[1] ?? '';
  return HELD[change.path]?.(field) ?? 'Send the form you were sending.';
}

const handleHash = (handle: string) => createHash('sha256').update(handle).digest('base64url');

/** What holding a change came to: held (the handle for the browser's cookie), not held, or past the account's change limit. */
export type HoldOutcome = { kind: 'held'; handle: string } | { kind: 'not held' } | { kind: 'limited'; spent: RateLimitState };

/**
 * Holds the change a form sent to `path` after the session of `sessionToken` ended, if it ended at most `HELD_CHANGE_MS` ago;
 * holding it spends one of the account's changes a minute (`limit`), as any change does. The account holds at most
 * `HELD_PER_ACCOUNT` (its oldest forgotten first), the office `HELD_CHANGES_MAX`.
 */
export async function holdChange(
  sessions: Pick<OfficeSessions, 'holdChange'>,
  limit: RateLimiter,
  sessionToken: string | undefined,
  path: string,
  form: FormData,
  now = new Date(),
): Promise<HoldOutcome> {
  if (!sessionToken) return { kind: 'not held' };
  const kept = KEPT_FIELDS[path];
  const fields = [...form].filter((entry): entry is [string, string] => typeof entry[1] === 'string' && (!kept || kept.includes(entry[0])));
  const handle = randomBytes(24).toString('base64url');
  let spent: RateLimitState | undefined;
  const ago = (ms: number) => new Date(now.getTime() - ms);
  const held = await sessions.holdChange(handleHash(handle), tokenHash(sessionToken), { path, fields }, now, {
    // A session ended an hour after it was last seen, or twelve hours after it began: it may hold changes for 15 minutes more.
    seenSince: ago(SESSION_IDLE_MS + HELD_CHANGE_MS),
    startedSince: ago(SESSION_MAX_MS + HELD_CHANGE_MS),
    keepSince: ago(HELD_CHANGE_MS),
    perAccount: HELD_PER_ACCOUNT,
    max: HELD_CHANGES_MAX,
    allow: async (email) => (spent = await spendAction(limit, email)).allowed,
  });
  if (held) return { kind: 'held', handle };
  return spent && !spent.allowed ? { kind: 'limited', spent } : { kind: 'not held' };
}

/** The change held for `email` under the handle of `cookieHeader`'s cookie, if it is still held: taken, so shown once. */
export async function takeHeldChange(
  sessions: Pick<OfficeSessions, 'takeHeldChange'>,
  cookieHeader: string | null,
  email: string,
  now = new Date(),
): Promise<HeldChange | undefined> {
  const handle = heldHandle(cookieHeader);
  if (!handle) return undefined;
  const change = await sessions.takeHeldChange(handleHash(handle), new Date(now.getTime() - HELD_CHANGE_MS), email);
  return change && isHeldPath(change.path) ? change : undefined;
}

/** The page that shows a held change, after the sign-in. */
export const HELD_PATH = '/office/held';

/**
 * Whether a request for the held page may show (and so use) the held change: a GET a person opened. A HEAD (a link checker)
 * or a prefetch (`Sec-Purpose: prefetch`, the older `Purpose: prefetch` or `X-Moz: prefetch`: a browser guessing) uses nothing.
 */
export function opensHeldChange(request: Pick<Request, 'method' | 'headers'>): boolean {
  const prefetch = (name: string) => /(^|,)\s*prefetch\s*(;|,|$)/i.test(request.headers.get(name) ?? '');
  return request.method === 'GET' && !prefetch('sec-purpose') && !prefetch('purpose') && !prefetch('x-moz');
}

/** The handle a request's `Cookie` header carries, if it is one of ours. */
export function heldHandle(cookieHeader: string | null): string | undefined {
  for (const part of (cookieHeader ?? '').split(';')) {
    const [name, value] = part.trim().split('=');
    if (name === HELD_CHANGE_COOKIE && value && /^[A-Za-z0-9_-]{32}$/.test(value)) return value;
  }
  return undefined;
}

/** The `Set-Cookie` value that holds `handle` for as long as its change is held (or, with `undefined`, removes it). */
export function heldCookie(handle: string | undefined, secure: boolean): string {
  const attributes = ['Path=/office', 'HttpOnly', 'SameSite=Strict', ...(secure ? ['Secure'] : [])];
  return [`${HELD_CHANGE_COOKIE}=${handle ?? ''}`, `Max-Age=${handle ? HELD_CHANGE_MS / 1000 : 0}`, ...attributes].join('; ');
}
