/**
 * Releasing a submission from suspected spam: it is taken in as the lead it would have been, at
 * the time it came and under the reference its sender was shown, through the same intake as every
 * lead (so the office's e-mail about it goes out), and then leaves the spam folder.
 */
import { toLeadRecord } from '../leads/lead.ts';
import { StoreUnavailableError } from '../leads/store.ts';
import { fieldOf, personMessage } from '../leads/fields.ts';
import { validateLead } from '../leads/validate.ts';
import type { ServiceArea } from '../leads/service-area.ts';
import { answerBy, type CallBackPromise } from '../leads/next-step.ts';
import type { SpamFolder } from './store.ts';

export type Release =
  /** `wordingShown`: whether the consent's wording is evidenced (the sender had the form's page); without it the lead records none. */
  | { kind: 'released'; reference: string; wordingShown: boolean }
  | { kind: 'already_a_lead'; reference: string }
  | { kind: 'incomplete'; problems: string[] }
  | { kind: 'gone' }
  | { kind: 'unavailable' };

/**
 * Takes caught submission `id` in: validated as any lead, then stored (or found a duplicate),
 * removed from the spam folder and recorded in the audit trail, in one transaction.
 */
export async function releaseSpam(
  spamFolder: Pick<SpamFolder, 'findSpam' | 'releaseSpam'>,
  id: string,
  actor: string,
  area: ServiceArea,
  now = new Date(),
  promise?: CallBackPromise,
): Promise<Release> {
  const spam = await spamFolder.findSpam(id);
  if (!spam) return { kind: 'gone' };
  // Only a sender who had the form's page saw its consent wording: without a valid form token
  // (kept before the traps said so, too), the lead records consent with no wording.
  const { disclosure, answerBy: promised, ...how } = spam.meta;
  const wordingShown = disclosure !== undefined && spam.reason !== 'no valid form token';
  const validation = validateLead(spam.body);
  if (!validation.ok) return { kind: 'incomplete', problems: validation.errors.map((e) => `${fieldOf(e) ?? 'The form'}: ${personMessage(e, {})}`) };
  // The sender was promised an answer when the submission was caught: the released lead keeps that instant.
  const answer = promised ?? (promise && answerBy(spam.receivedAt, promise).toISOString());
  const lead = {
    ...toLeadRecord(validation.lead, { ...how, ...(wordingShown && { disclosure }), now: spam.receivedAt }, area),
    reference: spam.reference,
    ...(answer && { answerBy: answer }),
  };
  try {
    const taken = await spamFolder.releaseSpam(id, lead, (t) => ({
      at: now,
      actor,
      action: 'released from spam',
      detail:
        t.kind === 'created'
          ? `Moved ${t.reference} from suspected spam to the inbox.`
          : `Removed ${spam.reference} from suspected spam: the inbox already had it as ${t.reference}.`,
    }));
    if (taken.kind === 'gone') return taken;
    return taken.kind === 'duplicate' ? { kind: 'already_a_lead', reference: taken.reference } : { kind: 'released', reference: taken.reference, wordingShown };
  } catch (err) {
    if (err instanceof StoreUnavailableError) return { kind: 'unavailable' };
    throw err;
  }
}

/** What a mark "not a customer", or its undo ("Put back"), did. */
export type Marking = { kind: 'marked' | 'put back' | 'already'; reference: string } | { kind: 'gone' } | { kind: 'unavailable' };

/**
 * Marks the caught submission `id` "not a customer" (`notACustomer`: out of the waiting count, into
 * the folded list) or puts it back among those waiting, by `actor`, with one line in the audit trail
 * (none when it already was so). It stays until its time to be removed, as every caught submission.
 */
export async function markNotACustomer(
  spamFolder: Pick<SpamFolder, 'markNotACustomer'>,
  id: string,
  notACustomer: boolean,
  actor: string,
  now = new Date(),
): Promise<Marking> {
  try {
    const done = await spamFolder.markNotACustomer(id, notACustomer ? { by: actor, at: now } : undefined, (reference) =>
      notACustomer
        ? { at: now, actor, action: 'marked not a customer', detail: `Marked ${reference} in suspected spam as not a customer.` }
        : { at: now, actor, action: 'put back in spam', detail: `Put ${reference} back among the suspected spam that waits for review.` },
    );
    if (!done) return { kind: 'gone' };
    return { kind: done.changed ? (notACustomer ? 'marked' : 'put back') : 'already', reference: done.reference };
  } catch (err) {
    if (err instanceof StoreUnavailableError) return { kind: 'unavailable' };
    throw err;
  }
}
