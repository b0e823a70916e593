/**
 * Taking in a lead, the one use case behind every door (the API, the company's web forms): it
 * validates the submission, lets the door hold a valid one back (the forms' minimum fill time),
 * and stores it unless its idempotency key was used before or the same lead came in the last 24
 * hours, which the store decides atomically. Every end is a typed outcome, a store that cannot be
 * reached included: the API turns outcomes into problem documents, the forms into words.
 */
import { requestHash, toLeadRecord, type Receipt, type SubmissionMeta } from './lead.ts';
import { answerBy, type CallBackPromise } from './next-step.ts';
import type { ServiceArea } from './service-area.ts';
import { CommitOutcomeUnknownError, StoreUnavailableError, type LeadIntake } from './store.ts';
import { dateWindow, validateLead, type FieldError, type ValidLead } from './validate.ts';

/** Seconds a caller is asked to wait when the lead store cannot take a lead. */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 30;

/** A submission offered for intake. */
export interface LeadOffer {
  /** The submission, as the door read it (a JSON body, or a form's answers in the API's names). */
  body: unknown;
  meta: SubmissionMeta;
  /**
   * The `Idempotency-Key` and what it is bound to (a second use with anything else is refused);
   * read once the lead is valid, so that a malformed key is refused after the lead's own problems.
   */
  idempotency?: () => { key: string; boundTo: unknown } | undefined;
  /** A last word of the door on a valid lead before it is stored: `false` holds it back. */
  admit?: (lead: ValidLead) => boolean;
  /**
   * The company's promise (its time zone, where preferred dates count from today, and the answer-by
   * instant stored with the lead), and the ZIP codes it serves.
   */
  business: { promise: CallBackPromise; serviceArea: ServiceArea };
  /** The reference the sender was already given (a submission the office released from suspected spam). */
  reference?: string;
}

/** The ways the customer allowed, when they gave limits. */
type Asked = { allowedContact?: string[] };

/** What became of an offered lead. */
export type IntakeOutcome =
  | { kind: 'invalid'; errors: FieldError[]; consentMissing: boolean }
  | { kind: 'held' }
  /**
   * `answerBy`: the stored lead's answer-by instant, which its `whatHappensNext` names, with the
   * customer's limits (`allowedContact`, the same on a replay and a duplicate, whose body they are part of).
   */
  | ({ kind: 'created'; receipt: Receipt; answerBy?: string } & Asked)
  | ({ kind: 'replayed'; receipt: Receipt; answerBy?: string } & Asked)
  | { kind: 'key_reused' }
  /** `inServiceArea` as the first lead's, which had the same ZIP code. */
  | ({ kind: 'duplicate'; leadId: string; reference: string; receivedAt: string; inServiceArea?: boolean; answerBy?: string } & Asked)
  /** The store could not take it; `maybeStored` when the commit's outcome is unknown. */
  | { kind: 'unavailable'; maybeStored: boolean; cause: StoreUnavailableError };

/** Takes in `offer` through `store`; only an unexpected failure (a bug) is thrown. */
export async function takeLead(store: Pick<LeadIntake, 'submit'>, offer: LeadOffer): Promise<IntakeOutcome> {
  const validation = validateLead(offer.body, dateWindow(offer.meta.now, offer.business.promise.timeZone));
  if (!validation.ok) return { kind: 'invalid', errors: validation.errors, consentMissing: validation.consentMissing };
  if (offer.admit && !offer.admit(validation.lead)) return { kind: 'held' };
  const idempotency = offer.idempotency?.();
  const record = {
    ...toLeadRecord(validation.lead, offer.meta, offer.business.serviceArea),
    ...(offer.reference && { reference: offer.reference }),
    answerBy: answerBy(offer.meta.now, offer.business.promise).toISOString(),
  };
  try {
    const outcome = await store.submit(record, idempotency && { key: idempotency.key, requestHash: requestHash(idempotency.boundTo) });
    const allowed = record.fields.allowedContact;
    const asked = Array.isArray(allowed) && outcome.kind !== 'key_reused' ? { allowedContact: allowed } : {};
    return outcome.kind === 'duplicate' && record.inServiceArea !== undefined
      ? { ...outcome, ...asked, inServiceArea: record.inServiceArea }
      : { ...outcome, ...asked };
  } catch (err) {
    if (err instanceof StoreUnavailableError) return { kind: 'unavailable', maybeStored: err instanceof CommitOutcomeUnknownError, cause: err };
    throw err;
  }
}
