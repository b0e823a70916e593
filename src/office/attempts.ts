/**
 * Attempts: a call, a text or an e-mail that reached nobody, recorded in one tap with who tried,
 * when and how. An attempt is not a first contact (the contract's definitions): the lead keeps its
 * status (a waiting lead stays New, and its promise runs on); it is kept with the lead, erased with
 * it, and written in the audit trail in one transaction.
 */
import type { AuditEntry } from './audit-entry.ts';
import { CONTACT_WAYS } from '../leads/fields.ts';
import { shortTime } from './local-time.ts';
import { textList } from './lead-words.ts';

/** How the customer was tried: the ways a customer may allow. */
export const ATTEMPT_WAYS = CONTACT_WAYS;
export type AttemptWay = (typeof ATTEMPT_WAYS)[number];

/** One attempt: who tried, when and how. */
export interface LeadAttempt {
  at: Date;
  by: string;
  way: AttemptWay;
}

/** A lead's attempts as the inbox shows them: how many, and the last. */
export interface AttemptsSoFar {
  count: number;
  last: LeadAttempt;
}

/** The store's role: an attempt kept with its lead. */
export interface OfficeAttempts {
  /** Keeps `attempt` on the lead with `reference`, with `audit`'s line, in one transaction; `false` (nothing written): no such lead. */
  recordAttempt(reference: string, attempt: LeadAttempt, audit: AuditEntry): Promise<boolean>;
}

/** Each way in the office's words: the one-tap button, the audit line's verb, and the row's "Tried by …". */
export const ATTEMPT_WORDS: Record<AttemptWay, { button: string; did: string; by: string }> = {
  call: { button: 'Called, no answer', did: 'Called', by: 'phone' },
  text: { button: 'Texted, no answer', did: 'Texted', by: 'text' },
  email: { button: 'E-mailed, no answer', did: 'E-mailed', by: 'e-mail' },
};

/** The ways the one-tap form offers for a lead: those the customer allowed (`allowedContact`), every way when they set no limit. */
export function offeredWays(allowedContact: unknown): AttemptWay[] {
  const allowed = textList(allowedContact);
  return allowed.length === 0 ? [...ATTEMPT_WAYS] : ATTEMPT_WAYS.filter((w) => allowed.includes(w));
}

export const isAttemptWay = (value: string): value is AttemptWay => (ATTEMPT_WAYS as readonly string[]).includes(value);

/** The last attempt in a sentence, its time as the office's pages show one: `Tried by text, <time>, by ann@example.com; nobody answered (2 tries so far).` */
export function lastAttemptWords(attempts: AttemptsSoFar, timeZone: string): string {
  const { last, count } = attempts;
  const so = count > 1 ? ` (${count} tries so far)` : '';
  return `Tried by ${ATTEMPT_WORDS[last.way].by}, ${shortTime(last.at, timeZone)}, by ${last.by}; nobody answered${so}.`;
}

export type AttemptOutcome = { kind: 'recorded' } | { kind: 'no such lead' };

/** Records that `actor` tried the lead with `reference` by `way` and reached nobody: its status stays as it is. */
export async function recordAttempt(attempts: OfficeAttempts, reference: string, way: AttemptWay, actor: string, now = new Date()): Promise<AttemptOutcome> {
  const audit: AuditEntry = { at: now, actor, action: 'recorded an attempt', detail: `${ATTEMPT_WORDS[way].did} ${reference}: no answer.` };
  return (await attempts.recordAttempt(reference, { at: now, by: actor, way }, audit)) ? { kind: 'recorded' } : { kind: 'no such lead' };
}
