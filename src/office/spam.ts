/**
 * Releasing a submission from suspected spam: it is taken in as the lead it would have been, at
 * the time it came and under the reference its sender was shown, through the same intake as every
 * lead (so the office's e-mail about it goes out), and then leaves the spam folder.
 */
import { takeLead } from '../leads/intake.ts';
import type { LeadIntake } from '../leads/store.ts';
import { fieldOf, personMessage } from '../leads/fields.ts';
import type { AuditTrail, SpamFolder } from './store.ts';

export type Release =
  | { kind: 'released'; reference: string }
  | { kind: 'already_a_lead'; reference: string }
  | { kind: 'incomplete'; problems: string[] }
  | { kind: 'gone' }
  | { kind: 'unavailable' };

export async function releaseSpam(
  deps: { spam: Pick<SpamFolder, 'findSpam' | 'dropSpam'>; intake: Pick<LeadIntake, 'submit'>; audit: Pick<AuditTrail, 'record'> },
  id: string,
  actor: string,
  now = new Date(),
): Promise<Release> {
  const spam = await deps.spam.findSpam(id);
  if (!spam) return { kind: 'gone' };
  const outcome = await takeLead(deps.intake, { body: spam.body, meta: { ...spam.meta, now: spam.receivedAt }, reference: spam.reference });
  switch (outcome.kind) {
    case 'invalid':
      return { kind: 'incomplete', problems: outcome.errors.map((e) => `${fieldOf(e) ?? 'The form'}: ${personMessage(e, {})}`) };
    case 'unavailable':
      return { kind: 'unavailable' };
    case 'held':
    case 'key_reused':
      throw new Error(`a release cannot be ${outcome.kind}`);
    case 'created':
    case 'replayed':
    case 'duplicate': {
      await deps.spam.dropSpam(id);
      const reference = outcome.kind === 'duplicate' ? outcome.reference : outcome.receipt.reference;
      const detail = reference === spam.reference ? `${reference} to the inbox` : `${spam.reference} to the inbox, where it was already ${reference}`;
      await deps.audit.record({ at: now, actor, action: 'released from spam', detail });
      return outcome.kind === 'duplicate' ? { kind: 'already_a_lead', reference } : { kind: 'released', reference };
    }
  }
}
