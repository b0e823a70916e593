/**
 * Signing the office's staff in and out. A session is a random 32-byte token in an `HttpOnly`,
 * `SameSite=Strict` cookie (`Secure` under HTTPS) scoped to `/office`; the store keeps only its
 * SHA-256, so that a copy of the store opens no session. A sign-in always makes a new token (the
 * old cookie is worth nothing after it), and a session unused for `SESSION_IDLE_MS` has ended.
 * Attempts are throttled per account and per client, counted in the limiter the lead budget uses
 * (in process, or Redis for every instance). A session also ends `SESSION_MAX_MS` after its sign-in.
 */
import { createHash, randomBytes } from 'node:crypto';
import { SESSION_IDLE_MS, SESSION_MAX_MS } from '../leads/retention.ts';
import type { RateLimiter } from '../limiter/rate-limiter.ts';
import { rateLimitKey } from '../limiter/submissions.ts';
import { checkPassword, nobodysHash } from './passwords.ts';
import type { AuditTrail, OfficeAccounts, OfficeSessions } from './store.ts';

export const SESSION_COOKIE = 'office_session';

/** Sign-in attempts allowed per account, and per client (an address, or an IPv6 /64), in 15 minutes. */
export const SIGN_IN_LIMITS = { account: { points: 5, windowSeconds: 15 * 60 }, client: { points: 20, windowSeconds: 15 * 60 } } as const;

export interface SignInDeps {
  accounts: Pick<OfficeAccounts, 'passwordHash'>;
  sessions: OfficeSessions;
  audit: Pick<AuditTrail, 'record'>;
  limits: { account: RateLimiter; client: RateLimiter };
}

export type SignInOutcome = { kind: 'signed_in'; email: string; token: string } | { kind: 'refused' } | { kind: 'throttled'; retryAfterSeconds: number };

const tokenHash = (token: string) => createHash('sha256').update(token).digest('base64url');

/** An account's e-mail as the store keys it. */
export const accountKey = (email: string) => email.trim().toLowerCase();

/** Checks an e-mail and password; on success starts a new session and says its token. */
export async function signIn(deps: SignInDeps, given: { email: string; password: string; client: string }, now = new Date()): Promise<SignInOutcome> {
  const email = accountKey(given.email);
  // Every attempt is counted before the password is checked: attempts sent all at once cannot
  // slip in before the first of them is counted.
  const [account, client] = await Promise.all([deps.limits.account.consume(email), deps.limits.client.consume(rateLimitKey(given.client))]);
  if (!account.allowed || !client.allowed) return { kind: 'throttled', retryAfterSeconds: Math.max(account.resetSeconds, client.resetSeconds) };
  const stored = await deps.accounts.passwordHash(email);
  // An unknown e-mail takes as long as a wrong password: the answer does not tell which accounts exist.
  const matches = await checkPassword(given.password, stored ?? (await nobodysHash()));
  if (!stored || !matches) return { kind: 'refused' };
  const token = randomBytes(32).toString('base64url');
  await deps.sessions.startSession(tokenHash(token), email, now);
  await deps.audit.record({ at: now, actor: email, action: 'signed in', detail: '' });
  return { kind: 'signed_in', email, token };
}

/** The signed-in account of a session token, or `undefined` (no token, ended, or idle too long). */
export async function sessionUser(sessions: Pick<OfficeSessions, 'touchSession'>, token: string | undefined, now = new Date()): Promise<string | undefined> {
  if (!token || !/^[A-Za-z0-9_-]{43}$/.test(token)) return undefined;
  return sessions.touchSession(
    tokenHash(token),
    { seenSince: new Date(now.getTime() - SESSION_IDLE_MS), startedSince: new Date(now.getTime() - SESSION_MAX_MS) },
    now,
  );
}

export async function signOut(deps: Pick<SignInDeps, 'sessions' | 'audit'>, token: string, email: string, now = new Date()): Promise<void> {
  await deps.sessions.endSession(tokenHash(token));
  await deps.audit.record({ at: now, actor: email, action: 'signed out', detail: '' });
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
