/**
 * Signing the office's staff in and out. A session is a random 32-byte token in an `HttpOnly`,
 * `SameSite=Strict` cookie (`Secure` under HTTPS) scoped to `/office`; the store keeps only its
 * SHA-256, so that a copy of the store opens no session. A sign-in always makes a new token (the
 * old cookie is worth nothing after it), and a session unused for `SESSION_IDLE_MS` has ended.
 * Attempts are throttled per client, per account from that client, and per account from anywhere,
 * counted in the limiter the lead budget uses (in process, or Redis for every instance). A session
 * also ends `SESSION_MAX_MS` after its sign-in.
 */
import { createHash, randomBytes } from 'node:crypto';
import { SESSION_IDLE_MS, SESSION_MAX_MS } from '../leads/retention.ts';
import type { RateLimiter } from '../limiter/rate-limiter.ts';
import { rateLimitKey } from '../limiter/submissions.ts';
import { checkPassword, nobodysHash } from './passwords.ts';
import type { AuditTrail, OfficeAccounts, OfficeSessions, SignedInAccount } from './store.ts';

export const SESSION_COOKIE = 'office_session';

/**
 * Sign-in attempts allowed in 15 minutes: per client (an address, or an IPv6 /64), per account from
 * one client, and per account from every client together. Each is counted only once the ones
 * before it allowed the attempt: a client over its own limit spends nothing of an account's, and a
 * client guessing one account's password slows that account from that client alone, while guesses
 * spread over many clients still meet the account's own limit.
 */
export const SIGN_IN_LIMITS = {
  client: { points: 20, windowSeconds: 15 * 60 },
  accountFromClient: { points: 5, windowSeconds: 15 * 60 },
  account: { points: 50, windowSeconds: 15 * 60 },
} as const;

export interface SignInDeps {
  accounts: Pick<OfficeAccounts, 'passwordHash'>;
  sessions: OfficeSessions;
  audit: Pick<AuditTrail, 'record'>;
  limits: Record<keyof typeof SIGN_IN_LIMITS, RateLimiter>;
}

export type SignInOutcome = { kind: 'signed_in'; email: string; token: string } | { kind: 'refused' } | { kind: 'throttled'; retryAfterSeconds: number };

/** What the store keeps of a session's token: its SHA-256. */
export const tokenHash = (token: string) => createHash('sha256').update(token).digest('base64url');

/** An account's e-mail as the store keys it. */
export const accountKey = (email: string) => email.trim().toLowerCase();

/** Checks an e-mail and password; on success starts a new session and says its token. */
export async function signIn(deps: SignInDeps, given: { email: string; password: string; client: string }, now = new Date()): Promise<SignInOutcome> {
  const email = accountKey(given.email);
  const client = rateLimitKey(given.client);
  // Every attempt is counted before the password is checked, so that attempts sent all at once
  // cannot slip in before the first of them is counted; each limit in turn, so that one refusal
  // spends nothing further.
  for (const [limit, key] of [
    [deps.limits.client, client],
    [deps.limits.accountFromClient, `${email} ${client}`],
    [deps.limits.account, email],
  ] as const) {
    const state = await limit.consume(key);
    if (!state.allowed) return { kind: 'throttled', retryAfterSeconds: state.resetSeconds };
  }
  const stored = await deps.accounts.passwordHash(email);
  // An unknown e-mail takes as long as a wrong password: the answer does not tell which accounts exist.
  const matches = await checkPassword(given.password, stored ?? (await nobodysHash()));
  const token = randomBytes(32).toString('base64url');
  // The session starts only if the password is still the one just checked (not changed meanwhile).
  const signedIn = { at: now, actor: email, action: 'signed in', detail: 'Signed in.' } as const;
  if (!stored || !matches || !(await deps.sessions.startSession(tokenHash(token), email, stored, now, signedIn))) {
    // Who tried which account from where, never what was typed as the password.
    await deps.audit.record({
      at: now,
      actor: email,
      action: 'sign-in refused',
      detail: `Refused a sign-in from ${given.client}: a wrong password, or no such account.`,
    });
    return { kind: 'refused' };
  }
  return { kind: 'signed_in', email, token };
}

/** The signed-in account of a session token, with its role, or `undefined` (no token, ended, or idle too long). */
export async function sessionUser(
  sessions: Pick<OfficeSessions, 'touchSession'>,
  token: string | undefined,
  now = new Date(),
): Promise<SignedInAccount | undefined> {
  if (!token || !/^[A-Za-z0-9_-]{43}$/.test(token)) return undefined;
  return sessions.touchSession(
    tokenHash(token),
    { seenSince: new Date(now.getTime() - SESSION_IDLE_MS), startedSince: new Date(now.getTime() - SESSION_MAX_MS) },
    now,
  );
}

/** Ends the session of `token`, with its line in the audit trail. */
export async function signOut(sessions: Pick<OfficeSessions, 'endSession'>, token: string, email: string, now = new Date()): Promise<void> {
  await sessions.endSession(tokenHash(token), { at: now, actor: email, action: 'signed out', detail: 'Signed out.' });
}

/** The `Set-Cookie` value that holds `token` (or, with `undefined`, removes the cookie). */
export function sessionCookie(token: string | undefined, secure: boolean): string {
  const attributes = ['Path=/office', 'HttpOnly', 'SameSite=Strict', ...(secure ? ['Secure'] : [])];
  return token === undefined ? [`${SESSION_COOKIE}=`, 'Max-Age=0', ...attributes].join('; ') : [`${SESSION_COOKIE}=${token}`, ...attributes].join('; ');
}

/** The session token a request's `Cookie` header carries. */
export function sessionToken(cookieHeader: string | null): string | undefined {
  for (const part of (cookieHeader ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === SESSION_COOKIE) return value.join('=');
  }
  return undefined;
}

/**
 * Spends one of the account's changes a minute (`OFFICE_ACTIONS_PER_MINUTE`): counted per person, whatever the number of
 * sessions (signing in again gives no fresh allowance), under a hash of the account's e-mail.
 */
export function spendAction(limit: RateLimiter, email: string) {
  return limit.consume(`account ${createHash('sha256').update(accountKey(email)).digest('base64url')}`);
}

/** Keeps `text` as a search of the session of `token`; resolves with the handle that stands for it in URLs. */
export function rememberSearch(sessions: Pick<OfficeSessions, 'rememberSearch'>, token: string, text: string, now = new Date()): Promise<string> {
  return sessions.rememberSearch(tokenHash(token), text, now);
}

/** The search text the session of `token` kept under `handle`; `undefined` for a handle that is not one of its own. */
export async function recallSearch(sessions: Pick<OfficeSessions, 'recallSearch'>, token: string, handle: string): Promise<string | undefined> {
  return /^[A-Za-z0-9_-]{16}$/.test(handle) ? sessions.recallSearch(tokenHash(token), handle) : undefined;
}
