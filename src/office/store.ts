/**
 * The office's ports: what its page and commands need of the store, as roles of their own (the
 * routes' intake and the mail job's outbox cannot reach them). The stores under `src/store/`
 * implement them beside the lead roles; this module imports only the lead domain.
 */
import type { LeadRecord, SubmissionMeta } from '../leads/lead.ts';
import type { AuditNote } from '../leads/store.ts';
import type { FormType } from '../leads/schema.ts';

/** Where the office stands with a lead. */
export const LEAD_STATUSES = ['new', 'contacted', 'done'] as const;
export type LeadStatus = (typeof LEAD_STATUSES)[number];

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

/** A member of the office's staff, as the operator created them (no password, not even hashed). */
export interface OfficeUser {
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

/** A note on a lead: who wrote it, when, and what was said on the call (kept with the lead, erased with it). */
export interface LeadNote {
  at: Date;
  by: string;
  text: string;
}

/** The longest note kept: a call's worth. */
export const NOTE_MAX_LENGTH = 2000;

/** A lead as the office's inbox shows it: the record, and where the office stands with it. */
export interface InboxLead {
  lead: LeadRecord;
  /** The member of staff who took it, if anyone has. */
  owner: string | undefined;
  /** Its notes, oldest first. */
  notes: LeadNote[];
  status: LeadStatus;
  /** Who set the status, and when (none while it is `new` as it came). */
  statusBy: string | undefined;
  statusAt: Date | undefined;
}

/** What the inbox shows: newest first, each condition optional. */
export interface InboxQuery {
  /** A name, e-mail, phone (its digits) or reference, or part of one. */
  search?: string;
  form?: FormType;
  status?: LeadStatus;
  since?: Date;
  until?: Date;
  /** The home's 5-digit ZIP code. */
  postalCode?: string;
  /** Leads taken by this account (`{ email }`), or taken by nobody. */
  owner?: { email: string } | 'nobody';
  /** Leads that name a preferred date from `from` to `to` (`YYYY-MM-DD`, both included). */
  visitBetween?: { from: string; to: string };
  /** At most this many, and how many newer ones to skip. */
  limit: number;
  offset: number;
}

/** What the inbox shows, without its paging: what a download of "these leads" selects. */
export type InboxFilter = Omit<InboxQuery, 'limit' | 'offset'>;

/** The office's view of the stored leads. */
export interface OfficeInbox {
  inbox(query: InboxQuery): Promise<InboxLead[]>;
  /**
   * Sets the status of the lead with `reference`, with `audit`'s line, and says what it was;
   * `undefined` (nothing written) when there is no such lead.
   */
  setStatus(reference: string, status: LeadStatus, by: string, at: Date, audit: (from: LeadStatus) => AuditEntry): Promise<{ from: LeadStatus } | undefined>;
  /** Adds `note` to the lead with `reference`, with `audit`'s line; `false` (nothing written) when there is no such lead. */
  addNote(reference: string, note: LeadNote, audit: AuditEntry): Promise<boolean>;
  /** Makes `owner` the lead's owner (`undefined`: nobody's), with `audit`'s line; `false` when there is no such lead. */
  setOwner(reference: string, owner: string | undefined, audit: AuditEntry): Promise<boolean>;
  /** The leads of one person (by normalised e-mail or phone), newest first: what a deletion would remove. */
  personLeads(match: { kind: 'email' | 'phone'; value: string }): Promise<LeadRecord[]>;
  /** The caught submissions of one person (by normalised e-mail or phone), newest first: listed beside their leads by a deletion. */
  personSpam(match: { kind: 'email' | 'phone'; value: string }): Promise<SuspectedSpam[]>;
  /**
   * The leads `filter` selects, as the inbox shows them (status, owner, notes), oldest first, read a
   * page at a time as the reader takes them: the office's spreadsheet.
   */
  exportInbox(filter: InboxFilter): AsyncIterable<InboxLead>;
}

/** Which trap caught a submission. */
export type SpamReason = 'hidden field filled in' | 'no valid form token' | 'sent faster than a person fills it in';

/** A web-form submission the spam traps caught: kept aside, as it came, to be released or to expire. */
export interface SuspectedSpam {
  id: string;
  /** The reference the sender was shown, which a released lead keeps. */
  reference: string;
  formType: FormType;
  receivedAt: Date;
  reason: SpamReason;
  /** The answers as sent (the API's names) and how they came. */
  body: Record<string, unknown>;
  meta: Omit<SubmissionMeta, 'now'>;
}

/** Which caught submissions to list: one search, as the inbox's, and a page. */
export interface SpamQuery {
  search?: string;
  limit: number;
  offset: number;
}

/** Suspected spam, kept aside from the leads: no office e-mail, not counted, removed after `SPAM_KEEP_DAYS`. */
export interface SpamFolder {
  /** Keeps a caught submission; `emailNormalised` and `phoneE164` let a deletion on request find it. */
  keepSpam(spam: SuspectedSpam, person: { emailNormalised: string; phoneE164: string }): Promise<void>;
  /** What `query` selects, newest first (the inbox's search: name, e-mail, phone digits, reference). */
  listSpam(query: SpamQuery): Promise<SuspectedSpam[]>;
  findSpam(id: string): Promise<SuspectedSpam | undefined>;
  /**
   * Takes the caught submission `id` in as `lead`, in one transaction: stored as the intake stores
   * a lead (or found to be a duplicate of one taken in the last 24 hours), removed from suspected
   * spam, with `audit`'s line. `gone` when it is no longer kept (released meanwhile, or expired).
   */
  releaseSpam(id: string, lead: LeadRecord, audit: (taken: SpamRelease) => AuditEntry): Promise<SpamRelease | { kind: 'gone' }>;
}

/** A released submission: a new lead, or the one it duplicates; with the reference the inbox shows. */
export type SpamRelease = { kind: 'created'; reference: string } | { kind: 'duplicate'; reference: string };

/** One thing the office did, as the audit trail keeps it: who, when, what, never a customer's details. */
export interface AuditEntry extends AuditNote {
  action:
    | 'signed in'
    | 'sign-in refused'
    | 'signed out'
    | 'exported'
    | 'deleted on request'
    | 'set a status'
    | 'released from spam'
    | 'added a note'
    | 'set the owner'
    | 'account added'
    | 'account removed';
}

export interface AuditTrail {
  record(entry: AuditEntry): Promise<void>;
  /** The newest entries first, at most `limit`. */
  recent(limit: number): Promise<AuditEntry[]>;
}

/** How many leads have each status, and how many came in from a moment on (today's start). */
export type StatusCounts = Record<LeadStatus, number> & { since: number };

/** How many leads of one form (and, for a quote, one of the services asked for) came in in one week. */
export interface WeekCount {
  /** The week's place in the weeks asked for, from 0. */
  week: number;
  form: FormType;
  /** One of the services asked for; `undefined` for any other (and for a contact message). */
  service: string | undefined;
  count: number;
}

/** The inbox at a glance: counts, and leads per week. Each reads an index, never every lead's row. */
export interface OfficeOverview {
  /** How many leads `query` selects, its page aside. */
  inboxCount(query: Omit<InboxQuery, 'limit' | 'offset'>): Promise<number>;
  /** Leads by status, all of them, and how many were received from `since` on. */
  statusCounts(since: Date): Promise<StatusCounts>;
  /** Leads received in each week from `weeks[i]` to `weeks[i + 1]`, by form and service (one of `services`, or another); no row for none. */
  leadsPerWeek(weeks: readonly Date[], services: readonly string[]): Promise<WeekCount[]>;
}

/** Every office role, as one store holds them. */
export interface OfficeStore extends OfficeAccounts, OfficeSessions, OfficeInbox, OfficeOverview, SpamFolder, AuditTrail {}
