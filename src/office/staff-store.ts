/**
 * The office's accounts and sessions, as the store keeps them (`./store.ts` gathers every office
 * role): made on the command line, checked at sign-in, shared by every instance.
 */
import type { AuditEntry } from './audit-entry.ts';

/**
 * What an account may do: staff work the leads (search, status, spam review and release); an owner
 * also exports, deletes people on request and reads the audit trail.
 */
export const OFFICE_ROLES = ['owner', 'staff'] as const;
export type OfficeRole = (typeof OFFICE_ROLES)[number];

/** A signed-in account, as its session knows it. */
export interface SignedInAccount {
  email: string;
  role: OfficeRole;
}

/**
 * An account's opaque id, as an address names it (never by its e-mail): 12 random characters of the
 * base32 alphabet, drawn by the store when the account is made (migration 17 for the older ones).
 */
export const ACCOUNT_ID = /^[a-z2-7]{12}$/;

/** A member of the office's staff, as the operator created them (no password, not even hashed). */
export interface OfficeUser {
  /** Its opaque id (`ACCOUNT_ID`). */
  id: string;
  email: string;
  role: OfficeRole;
  createdAt: Date;
  lastSignInAt: Date | undefined;
}

/** The staff's accounts: made and removed by the operator's command, checked at sign-in. */
export interface OfficeAccounts {
  /**
   * Creates the account, or sets a new password on it (`audit` says which); resolves `true` when it
   * is new. `role`: a new account's (an owner when not given), or an existing one's new role (kept when not given).
   */
  saveUser(email: string, passwordHash: string, at: Date, audit?: (created: boolean) => AuditEntry, role?: OfficeRole): Promise<boolean>;
  /** Removes the account and ends its sessions; resolves `false` when there was none (and records nothing). */
  removeUser(email: string, audit?: AuditEntry): Promise<boolean>;
  listUsers(): Promise<OfficeUser[]>;
  /** The stored hash of the account's password, if the account exists. */
  passwordHash(email: string): Promise<string | undefined>;
}

/** Sessions of signed-in staff, shared by every instance: only a hash of each cookie's token is kept. */
export interface OfficeSessions {
  /**
   * Starts a session for `email` (whose sign-in time is recorded), only if its password is still the
   * one `passwordHash` names: a password changed while the sign-in was checked starts nothing.
   * Resolves whether it started.
   */
  startSession(tokenHash: string, email: string, passwordHash: string, at: Date, audit: AuditEntry): Promise<boolean>;
  /**
   * The session's account and its role if it was seen after `since.seenSince` and began after `since.startedSince` (then marks it
   * seen at `now`); `undefined` for a session that ended, expired or never was.
   */
  touchSession(tokenHash: string, since: { seenSince: Date; startedSince: Date }, now: Date): Promise<SignedInAccount | undefined>;
  endSession(tokenHash: string, audit?: AuditEntry): Promise<void>;
  /**
   * Keeps what the session searched for under a new random handle, so that the search text is never
   * in a URL (only the handle is); the session's newest `SEARCHES_KEPT` are kept, and all end with it.
   */
  rememberSearch(tokenHash: string, text: string, at: Date): Promise<string>;
  /** The text the session kept under `handle`; `undefined` when it is not the session's or has ended. */
  recallSearch(tokenHash: string, handle: string): Promise<string | undefined>;
  /**
   * Holds a change sent after its session ended, under the hash of a handle only its browser has, for the account of that session
   * (`sessionHash`, its cookie token's hash) if it was seen since `rules.seenSince` and began since `rules.startedSince` (it ended
   * lately), once `rules.allow` let that account make one more change. Held changes made before `rules.keepSince` go first, then the
   * account's oldest past `rules.perAccount`. Resolves `false` (nothing kept) without such a session, when `allow` refused, or when
   * the office holds `rules.max` changes.
   */
  holdChange(handleHash: string, sessionHash: string, change: HeldChange, at: Date, rules: HoldRules): Promise<boolean>;
  /** The change held under `handleHash` since `keepSince` for `email`'s account, removed as it is read (shown once); another's is removed, unseen. */
  takeHeldChange(handleHash: string, keepSince: Date, email: string): Promise<HeldChange | undefined>;
}

/** A change of the office's page as its form sent it: the address it was sent to, and the form's fields. */
export interface HeldChange {
  path: string;
  fields: Array<[string, string]>;
}

/** Which ended sessions may hold a change, how long and how many are held, and the account's change limit (`allow`). */
export type HoldRules = { seenSince: Date; startedSince: Date; keepSince: Date; perAccount: number; max: number; allow(email: string): Promise<boolean> };

/** How many searches a session keeps for its back button and bookmarks. */
export const SEARCHES_KEPT = 50;
