/** The lead store's interface: what the service needs of any database behind it. */
import type { LeadRecord, Receipt } from '../leads/lead.ts';

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

/** How long idempotency keys are kept and how far back duplicates are looked for. */
export const RETENTION_WINDOW_MS = 24 * 60 * 60 * 1000;

/** Thrown when the store cannot be reached or is busy beyond its timeout: answered with 503. */
export class StoreUnavailableError extends Error {
  override name = 'StoreUnavailableError';
}

/**
 * Whether `err` is a `StoreUnavailableError`. Checked by name, not `instanceof`: the store is
 * loaded by the server process and the handlers by Astro's bundle, each with its own copy of
 * the class (see docs/decisions/0001-own-http-server.md).
 */
export function isStoreUnavailable(err: unknown): boolean {
  return err instanceof Error && err.name === 'StoreUnavailableError';
}

/**
 * A durable lead store. `submit` checks the idempotency key, then duplicates, then inserts, as one
 * atomic step, and resolves only after the insert is committed to stable storage.
 */
export interface LeadStore {
  readonly kind: 'sqlite' | 'postgres';
  submit(lead: LeadRecord, claim: IdempotencyClaim | undefined): Promise<SubmitOutcome>;
  /** Resolves when the store answers; rejects with `StoreUnavailableError` when it does not. */
  ping(): Promise<void>;
  /** Every stored lead, oldest first. */
  exportLeads(): AsyncIterable<LeadRecord>;
  /** When `value` was first announced under `name`, if it was: how notice periods survive restarts. */
  announcedAt(name: string, value: string): Promise<Date | undefined>;
  /** Remembers that `value` is announced under `name` from `at` on, replacing an earlier value. */
  recordAnnouncement(name: string, value: string, at: Date): Promise<void>;
  close(): Promise<void>;
}
