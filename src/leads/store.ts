/**
 * The lead domain's port: what the lead service needs of any database behind it, and the 24-hour
 * rule it holds them to. The stores under `src/store/` implement it; this module imports nothing
 * from them.
 */
import type { LeadRecord, Receipt } from './lead.ts';
import type { FormType } from './schema.ts';

/** How long an `Idempotency-Key` is remembered, and how far back a duplicate is looked for. */
export const REPLAY_WINDOW_HOURS = 24;
export const REPLAY_WINDOW_MS = REPLAY_WINDOW_HOURS * 60 * 60 * 1000;

/** An Idempotency-Key and the hash of the body it was first sent with. */
export interface IdempotencyClaim {
  key: string;
  requestHash: string;
}

/** What storing one submission came to; `answerBy` is the stored lead's (absent on a lead stored before it was kept). */
export type SubmitOutcome =
  | { kind: 'created'; receipt: Receipt; answerBy?: string }
  | { kind: 'replayed'; receipt: Receipt; answerBy?: string }
  | { kind: 'key_reused' }
  | { kind: 'duplicate'; leadId: string; reference: string; receivedAt: string; answerBy?: string };

/** The first answer to an idempotency key, as a store keeps it for a replay: the receipt, and the answer-by instant its sentence named. */
export const answerToKeep = (receipt: Receipt, lead: Pick<LeadRecord, 'answerBy'>) => JSON.stringify({ ...receipt, answerBy: lead.answerBy });

/** A kept first answer, read back: its receipt (the 201's body), and its answer-by instant when one was kept. */
export function storedAnswer(kept: string | (Receipt & { answerBy?: string })): { receipt: Receipt; answerBy?: string } {
  const { answerBy, ...receipt } = typeof kept === 'string' ? (JSON.parse(kept) as Receipt & { answerBy?: string }) : kept;
  return { receipt, ...(answerBy && { answerBy }) };
}

/**
 * Thrown when the store cannot be reached, is busy beyond its timeout, or cannot write (a full
 * disk, an I/O error): nothing was stored. Answered with 503.
 */
export class StoreUnavailableError extends Error {
  override name = 'StoreUnavailableError';
}

/**
 * Thrown when the connection failed after the commit was sent and before its answer came back:
 * the lead may have been stored. Answered with 503; a retry with the same Idempotency-Key (or the
 * same body, by the duplicate rule) cannot store it twice.
 */
export class CommitOutcomeUnknownError extends StoreUnavailableError {
  override name = 'CommitOutcomeUnknownError';
}

/** The leads an export selects: received from `since` (inclusive) until `until` (exclusive), of one form. */
export interface LeadFilter {
  since?: Date;
  until?: Date;
  form?: FormType;
}

/** A person, by what every lead stores normalised: the e-mail in lower case, or the phone in E.164. */
export type PersonMatch = { kind: 'email'; value: string } | { kind: 'phone'; value: string };

/** What removing a person's data removed, or would remove. */
export interface Removed {
  leads: number;
  /** Idempotency records that pointed at those leads. */
  idempotencyKeys: number;
  /** Duplicate fingerprints of those leads (PostgreSQL keeps them apart; SQLite on the lead). */
  fingerprints: number;
  /**
   * The ids of those leads the office was e-mailed about (their notification was sent): the
   * messages are in the office's mailbox, out of the store's reach, and are deleted there by hand.
   */
  officeEmails: string[];
  /** Submissions of the person that the spam traps caught and the office had not released. */
  suspectedSpam: number;
  /** Of a deletion that removed only those chosen (`Chosen`): the person's leads and caught submissions left as they were. */
  kept?: { leads: number; suspectedSpam: number };
}

/**
 * Which of a person's rows a deletion removes, by id: the office ticks them (two people may share a
 * phone number); the person's others are kept. An id that is not the person's is never removed.
 */
export interface Chosen {
  leads: readonly string[];
  suspectedSpam: readonly string[];
}

/**
 * The proof that a deletion request was served, without the person's data: by which kind of
 * identifier, when, and how many leads it removed. It keeps no identifier, hashed or not: a phone
 * number's hash, keyed or not, is undone by trying the numbers of one area code, and a key kept
 * beside it is in every backup. Kept `DELETION_RECORD_DAYS`, then purged.
 */
export interface DeletionRecord {
  kind: PersonMatch['kind'];
  deletedAt: Date;
  leads: number;
}

/** What one purge step may remove: everything older than each cutoff, at most `limit` rows of each kind. */
export interface PurgeStep {
  leadsBefore: Date;
  replayBefore: Date;
  deletionRecordsBefore: Date;
  /** Suspected spam caught before this is removed; the office's audit trail is kept as long as deletion records. */
  spamBefore: Date;
  /** Office sessions not seen since this have ended. */
  sessionsBefore: Date;
  limit: number;
}

/** What a purge step removed (zeros when nothing was left). */
export interface Purged {
  leads: number;
  idempotencyKeys: number;
  fingerprints: number;
  deletionRecords: number;
  suspectedSpam: number;
  auditEntries: number;
  sessions: number;
}

/**
 * A new lead's e-mail to the office, as the outbox holds it: written in the lead's own transaction
 * (when the store was opened with `outbox: true`), claimed by one sender at a time, kept as sent.
 */
export interface Notification {
  lead: LeadRecord;
  /** Attempts made before this one. */
  attempts: number;
}

/** A sender's claim on due notifications: nobody else takes them until `until`. */
export interface OutboxClaim {
  owner: string;
  now: Date;
  until: Date;
  limit: number;
}

/** A notification not yet sent, as the office's `outbox` command lists it: no personal data. */
export interface OutboxEntry {
  leadId: string;
  formType: FormType;
  receivedAt: Date;
  attempts: number;
  nextAttemptAt: Date;
  /** What the last attempt came to (an error code, the mail server's reply code): never a field's value. */
  lastError: string | null;
}

/** How the outbox stands: what is waiting, and how much of it has failed at least once. */
export interface OutboxStatus {
  waiting: number;
  failing: number;
  oldestWaiting: Date | undefined;
}

/**
 * Taking in leads: `submit` checks the idempotency key, then duplicates (both within
 * `REPLAY_WINDOW_MS` of the lead's receipt), then inserts (the lead, and its notification when the
 * office is told of new leads), as one atomic step, and resolves only after the insert is
 * committed to stable storage. A lead whose reference another lead already has is stored under a
 * fresh one (`newReference`), and its receipt says which.
 */
export interface LeadIntake {
  submit(lead: LeadRecord, claim: IdempotencyClaim | undefined): Promise<SubmitOutcome>;
  /** Resolves when the store answers; rejects with `StoreUnavailableError` when it does not. */
  ping(): Promise<void>;
}

/**
 * A line of the office's audit trail (`AuditEntry` in `src/office/store.ts`), written by a change
 * in the change's own transaction: the change and its record stand or fall together.
 */
export interface AuditNote {
  at: Date;
  actor: string;
  action: string;
  /** What it was done to, without personal data: a reference, a count, a period. */
  detail: string;
}

/** The stored leads as the office and the privacy rules reach them: export, deletion on request, retention. */
export interface LeadRecords {
  /** The stored leads `filter` selects (every one by default), oldest first, with the disclosure its consent names. */
  exportLeads(filter?: LeadFilter): AsyncIterable<LeadRecord>;
  /** What `deletePerson` would remove for `match`. */
  countPerson(match: PersonMatch): Promise<Removed>;
  /**
   * Removes, in one transaction, every lead of `match` with its idempotency records, fingerprints
   * and notifications, and the person's suspected spam (or, given `chosen`, only those of them it
   * names, saying how many were kept), and writes `record` with the number of leads removed, and
   * `audit`'s line for what was removed.
   */
  deletePerson(match: PersonMatch, record: Omit<DeletionRecord, 'leads'>, audit?: (removed: Removed) => AuditNote, chosen?: Chosen): Promise<Removed>;
  /** Every deletion record, oldest first: the proof that requests were served. */
  deletionRecords(): Promise<DeletionRecord[]>;
  /**
   * One purge step, in short transactions: at most `step.limit` of each kind of expired row. By the
   * end of the purge's last step (`isLastPurgeStep`) no byte of what the purge removed is left.
   */
  purgeStep(step: PurgeStep): Promise<Purged>;
  /**
   * Gives each lead stored before answer-by instants were kept its instant, `answerOf` its receipt
   * time (the promise as the content says it on the day of the upgrade); resolves with how many.
   */
  keepAnswerBy(answerOf: (receivedAt: Date) => Date): Promise<number>;
}

/** The outbox of the office's e-mail about each new lead, as its sender and the office's command reach it. */
export interface Outbox {
  /** Claims due notifications (next attempt reached, not sent, not claimed by a live claim), oldest first. */
  claimNotifications(claim: OutboxClaim): Promise<Notification[]>;
  /** Records that the mail server accepted the lead's notification. */
  notificationSent(leadId: string, at: Date): Promise<void>;
  /** Records a failed attempt of `owner`'s claim and when to try again, and releases the claim. */
  notificationFailed(leadId: string, owner: string, retry: { at: Date; error: string }): Promise<void>;
  outboxStatus(): Promise<OutboxStatus>;
  /** The notifications not yet sent, oldest first, at most `limit`. */
  waitingNotifications(limit: number): Promise<OutboxEntry[]>;
}

/** What the service keeps about itself in the store, shared by every instance and across restarts. */
export interface ServiceKeys {
  /** A random 32-byte key kept under `name`, made on first use (the web forms' tokens are signed with one). */
  secret(name: string): Promise<Buffer>;
  /** When `value` was first announced under `name`, if it was: how notice periods survive restarts. */
  announcedAt(name: string, value: string): Promise<Date | undefined>;
  /** Remembers that `value` is announced under `name` from `at` on, replacing an earlier value. */
  recordAnnouncement(name: string, value: string, at: Date): Promise<void>;
}

/**
 * A durable lead store: every role above, on one database. The composition opens it once and
 * hands each consumer only the role it needs. Removing a lead removes its notification.
 */
export interface LeadStore extends LeadIntake, LeadRecords, Outbox, ServiceKeys {
  readonly kind: 'sqlite' | 'postgres';
  close(): Promise<void>;
}
