/**
 * The office's ports: what its page and commands need of the store, as roles of their own (the
 * routes' intake and the mail job's outbox cannot reach them). The stores under `src/store/`
 * implement them beside the lead roles; this module imports only the lead domain.
 */
import type { LeadRecord } from '../leads/lead.ts';
import type { FormType } from '../leads/schema.ts';
import type { OfficeClock } from './figures-clock.ts';
import type { GivenLead, OpenedLead, TeamInboxQuery, TeamLoadRead } from './team-load.ts';
export type { OfficeClock } from './figures-clock.ts';

/** Where the office stands with a lead. */
export const LEAD_STATUSES = ['new', 'contacted', 'done'] as const;
export type LeadStatus = (typeof LEAD_STATUSES)[number];

export { ACCOUNT_ID, OFFICE_ROLES, SEARCHES_KEPT } from './staff-store.ts';
export type { HeldChange, HoldRules, OfficeAccounts, OfficeRole, OfficeSessions, OfficeUser, SignedInAccount } from './staff-store.ts';
import type { OfficeAccounts, OfficeSessions } from './staff-store.ts';
import type { AuditEntry } from './audit-entry.ts';
export type { AuditEntry } from './audit-entry.ts';
import type { AttemptsSoFar, OfficeAttempts } from './attempts.ts';
import type { SpamFolder, SuspectedSpam } from './spam-store.ts';
export type { SpamFolder, SpamQuery, SpamReason, SpamRelease, SuspectedSpam } from './spam-store.ts';

/** A note on a lead: who wrote it, when, and what was said on the call (kept with the lead, erased with it). */
export interface LeadNote {
  at: Date;
  by: string;
  text: string;
}

/** The longest note kept: a call's worth. */
export const NOTE_MAX_LENGTH = 2000;

/** A lead as the office's inbox shows it: the record, and where the office stands with it. */
export interface InboxLead extends GivenLead {
  lead: LeadRecord;
  /** The member of staff who took it, if anyone has. */
  owner: string | undefined;
  /** Its notes, oldest first. */
  notes: LeadNote[];
  status: LeadStatus;
  /** Who set the status, and when (none while it is `new` as it came). */
  statusBy: string | undefined;
  statusAt: Date | undefined;
  /** The first contact: who first moved it on from `new`, and when (none before, nor on a lead moved before it was recorded). */
  firstContact?: { at: Date; by: string };
  /** Its attempts that reached nobody (`attempts.ts`): how many, and the last; none before the first. Not a first contact. */
  attempts?: AttemptsSoFar;
}

/** What the inbox shows: newest first, each condition optional. */
export interface InboxQuery extends TeamInboxQuery {
  /** A name, e-mail, phone (its digits) or reference, or part of one. */
  search?: string;
  form?: FormType;
  status?: LeadStatus;
  since?: Date;
  until?: Date;
  /** The home's 5-digit ZIP code. */
  postalCode?: string;
  /** Leads taken by this account (by its e-mail, or by its opaque id as an address names it), or taken by nobody. */
  owner?: { email: string } | { id: string } | 'nobody';
  /** The lead with this reference alone. */
  reference?: string;
  /** Leads that name a preferred date from `from` to `to` (`YYYY-MM-DD`, both included). */
  visitBetween?: { from: string; to: string };
  /** The waiting leads (`new`) alone, by their answer-by instant, most urgent first: not newest first. */
  urgent?: boolean;
  /** Leads whose answer-by is from `from` (included) to `before` (excluded; without it, none too): a group of the waiting (`waitingGroups`). */
  due?: { from?: Date; before?: Date };
  /** At most this many, and how many newer ones to skip. */
  limit: number;
  offset: number;
}

/** What one form of a lead changes: each part given is one change, with its line in the audit trail. */
export interface LeadWork {
  status?: { to: LeadStatus; by: string; at: Date; audit: (from: LeadStatus) => AuditEntry };
  /**
   * The account (its e-mail) that has it from now on; `undefined`: nobody. With `onlyFrom`, made only while the lead is
   * nobody's or that account's: otherwise nothing of the form is written, and the answer names who has it.
   */
  owner?: { to: string | undefined; audit: AuditEntry; onlyFrom?: string };
  note?: { note: LeadNote; audit: AuditEntry };
}

/** Which parts of `work` change `lead`: a status or an owner (nobody too) it has already changes nothing, and has no audit line. */
export const changesOf = (work: LeadWork, lead: { status: LeadStatus; owner: string | null }) => ({
  status: work.status !== undefined && work.status.to !== lead.status,
  owner: work.owner !== undefined && (work.owner.to ?? null) !== lead.owner,
});

/** Whether `work` changes who has a lead only from nobody or from one account, and another account has it (`holder`). */
export const takenByAnother = (work: LeadWork, holder: string | null): boolean =>
  work.owner?.onlyFrom !== undefined && holder !== null && holder !== work.owner.onlyFrom;

/** A lead or a caught submission of the same person as another lead: same e-mail address or same phone number. */
export interface PersonMatch {
  kind: 'lead' | 'spam';
  reference: string;
  formType: FormType;
  receivedAt: Date;
  emailNormalised: string;
  phoneE164: string;
  /** A lead's status and who has it (an account's e-mail; absent: nobody); a caught submission has neither. */
  status?: LeadStatus;
  owner?: string;
}

/** How many of one person's leads and caught submissions are read for each e-mail address and each phone number. */
export const SAME_PERSON_PER_KEY = 11;

/** What the inbox shows, without its paging: what a download of "these leads" selects. */
export type InboxFilter = Omit<InboxQuery, 'limit' | 'offset'>;

/** The office's view of the stored leads. */
export interface OfficeInbox extends OpenedLead {
  inbox(query: InboxQuery): Promise<InboxLead[]>;
  /**
   * Sets the status of the lead with `reference`, with `audit`'s line (none when it had that status), and says what it was;
   * `undefined` (nothing written) when there is no such lead.
   */
  setStatus(reference: string, status: LeadStatus, by: string, at: Date, audit: (from: LeadStatus) => AuditEntry): Promise<{ from: LeadStatus } | undefined>;
  /** Adds `note` to the lead with `reference`, with `audit`'s line; `false` (nothing written) when there is no such lead. */
  addNote(reference: string, note: LeadNote, audit: AuditEntry): Promise<boolean>;
  /**
   * What one form of the lead with `reference` changes (its status, who has it, a new note: any of them), in one transaction,
   * each change with its own line in the audit trail (none for a part that changes nothing: `changesOf`); says what its status and
   * owner were. `undefined` (nothing written): no such lead; `takenBy` (nothing written): the change has `onlyFrom`, another has it.
   */
  workLead(reference: string, work: LeadWork): Promise<{ from: LeadStatus; owner: string | null; takenBy?: string } | undefined>;
  /**
   * The leads and caught submissions sent with any of `people`'s e-mail addresses or phone numbers (normalised; an empty one
   * matches nothing): for each address and each number, its newest `SAME_PERSON_PER_KEY`, each once, newest first. One query, by index.
   */
  samePerson(people: ReadonlyArray<{ emailNormalised: string; phoneE164: string }>): Promise<PersonMatch[]>;
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

export interface AuditTrail {
  record(entry: AuditEntry): Promise<void>;
  /** The newest entries first, at most `limit`. */
  recent(limit: number): Promise<AuditEntry[]>;
}

/** Leads by status, those received since a moment, and the waiting ones past their answer-by (`late`). */
export type StatusCounts = Record<LeadStatus, number> & { since: number; late: number };

/** How many leads of one form (and, for a quote, one of the services asked for) came in in one week. */
export interface WeekCount {
  /** The week's place in the weeks asked for, from 0. */
  week: number;
  form: FormType;
  /** One of the services asked for; `undefined` for any other (and for a contact message). */
  service: string | undefined;
  count: number;
}

/**
 * How many leads of one week of the promise chart say the same about the promise: first contacted
 * in time or late (after `minutes` working minutes; none where the store could not measure them),
 * or still waiting past their answer-by.
 */
export interface PromiseCount {
  /** The week they were received in: its place in the weeks asked for, from 0. */
  week: number;
  outcome: 'in time' | 'late' | 'waiting';
  minutes?: number;
  count: number;
}

/** The inbox at a glance: counts, and leads per week. Each reads an index, never every lead's row. */
export interface OfficeOverview extends TeamLoadRead {
  /** How many leads `query` selects, its page aside. */
  inboxCount(query: Omit<InboxQuery, 'limit' | 'offset'>): Promise<number>;
  /** Leads by status, all of them, how many were received from `since` on, and how many wait past their answer-by at `now`. */
  statusCounts(since: Date, now: Date): Promise<StatusCounts>;
  /** Leads received in each week from `weeks[i]` to `weeks[i + 1]`, by form and service (one of `services`, or another); no row for none. */
  leadsPerWeek(weeks: readonly Date[], services: readonly string[]): Promise<WeekCount[]>;
  /**
   * The leads received in each week from `weeks[i]` to `weeks[i + 1]` that were first contacted, or
   * that still wait (status `new`, no first contact) past their answer-by at `now`, counted by outcome
   * and working minutes; none for a lead still waiting and not yet due, nor for one moved on before
   * first contacts were recorded. The promise chart's figures.
   */
  promiseCounts(weeks: readonly Date[], now: Date): Promise<PromiseCount[]>;
  /**
   * The waiting leads (`new`) counted by their answer-by between `bounds` (ascending): before the first, from each to the next,
   * and from the last on (with those without an answer-by): `bounds.length + 1` counts. Reads the index of waiting leads alone.
   */
  waitingCounts(bounds: readonly Date[]): Promise<number[]>;
  /** How many caught submissions wait in suspected spam, counted up to `upTo` (a flood of spam costs no more to count than that). */
  spamWaiting(upTo: number): Promise<number>;
}

/** What the overview's figures are kept by, given by the service as it starts (decision 0027). */
export interface OfficeFigures {
  /**
   * Keeps the office's clock and services for the figures; when the time zone or the services changed, or
   * leads were written without them, works those leads out again and counts afresh: resolves with how many.
   */
  keepOfficeClock(clock: OfficeClock): Promise<number>;
}

/** Every office role, as one store holds them. */
export interface OfficeStore extends OfficeAccounts, OfficeSessions, OfficeInbox, OfficeOverview, OfficeFigures, SpamFolder, AuditTrail, OfficeAttempts {}
