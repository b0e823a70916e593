/** The lead service: turns a valid submission into a stored lead, honouring idempotency keys and duplicates. */
import type { LeadStore, SubmitOutcome } from './store.ts';
import { requestHash, toLeadRecord, type SubmissionMeta } from './lead.ts';
import type { ValidLead } from './validate.ts';

/**
 * Stores a valid lead unless its idempotency key was used before (replay, or refusal for another
 * body) or the same lead was accepted in the last 24 hours. The store decides all three atomically.
 */
export function submitLead(store: LeadStore, lead: ValidLead, body: unknown, meta: SubmissionMeta, idempotencyKey: string | undefined): Promise<SubmitOutcome> {
  const record = toLeadRecord(lead, meta);
  return store.submit(record, idempotencyKey === undefined ? undefined : { key: idempotencyKey, requestHash: requestHash(body) });
}
