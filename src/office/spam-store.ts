/**
 * The office's port to suspected spam: what the forms' traps caught, kept aside from the leads,
 * listed, marked "not a customer", released to the inbox or left to expire. Re-exported by `store.ts`.
 */
import type { LeadRecord, SubmissionMeta } from '../leads/lead.ts';
import type { FormType } from '../leads/schema.ts';
import type { AuditEntry } from './audit-entry.ts';

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
  /** Marked "not a customer" (who, when): no longer waiting for review, kept until its time to be removed as the rest. */
  notACustomer?: { by: string; at: Date };
}

/** Which caught submissions to list: one search, as the inbox's, and a page. */
export interface SpamQuery {
  search?: string;
  /** Only those marked "not a customer" (`true`), only those still waiting (`false`), or all (absent). */
  notACustomer?: boolean;
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
  /**
   * Marks the caught submission `id` "not a customer" (`mark`: who, when; out of the waiting count), or takes the mark off
   * (`undefined`: put back), with `audit`'s line for its reference, in one transaction; no line when it already was so
   * (`changed: false`). `undefined` when it is no longer kept.
   */
  markNotACustomer(
    id: string,
    mark: { by: string; at: Date } | undefined,
    audit: (reference: string) => AuditEntry,
  ): Promise<{ reference: string; changed: boolean } | undefined>;
}

/** A released submission: a new lead, or the one it duplicates; with the reference the inbox shows. */
export type SpamRelease = { kind: 'created'; reference: string } | { kind: 'duplicate'; reference: string };
