/**
 * The lead domain's port: what the lead service needs of any database behind it, and the 24-hour
 * rule it holds them to. The stores under `src/store/` implement it; this module imports nothing
 * from them.
 */
import type { LeadRecord, Receipt } from './lead.ts';

/** How long an `Idempotency-Key` is remembered, and how far back a duplicate is looked for. */
export const REPLAY_WINDOW_HOURS = 24;
export const REPLAY_WINDOW_MS = REPLAY_WINDOW_HOURS * 60 * 60 * 1000;

/** An Idempotency-Key and the hash of the body it was first sent with. */
export interface IdempotencyClaim {
  key: string;
  requestHash: string;
}

/** What storing one submission came to. */
export type SubmitOutcome =
  | { kind: 'created'; receipt: Receipt }
  | { kind: 'replayed'; receipt: Receipt }
  | { kind: 'key_reused' }
  | { kind: 'duplicate'; leadId: string };

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

/**
 * A durable lead store. `submit` checks the idempotency key, then duplicates (both within
 * `REPLAY_WINDOW_MS` of the lead's receipt), then inserts, as one atomic step, and resolves only
 * after the insert is committed to stable storage.
 */
export interface LeadStore {
  readonly kind: 'sqlite' | 'postgres';
  submit(lead: LeadRecord, claim: IdempotencyClaim | undefined): Promise<SubmitOutcome>;
  /** Resolves when the store answers; rejects with `StoreUnavailableError` when it does not. */
  ping(): Promise<void>;
  /** Every stored lead, oldest first, with the disclosure its consent names. */
  exportLeads(): AsyncIterable<LeadRecord>;
  /**
   * A random 32-byte key kept in the store under `name`, made on first use: the same for every
   * instance sharing the store and across restarts (web-form tokens, keyed hashes).
   */
  secret(name: string): Promise<Buffer>;
  /** When `value` was first announced under `name`, if it was: how notice periods survive restarts. */
  announcedAt(name: string, value: string): Promise<Date | undefined>;
  /** Remembers that `value` is announced under `name` from `at` on, replacing an earlier value. */
  recordAnnouncement(name: string, value: string, at: Date): Promise<void>;
  close(): Promise<void>;
}
