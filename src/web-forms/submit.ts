/**
 * A submission of the company's own web form: the same rate-limit budget, validation, lead service,
 * store, idempotency and duplicate rules as the API, answered in words for a person. Only the
 * web forms have spam traps (a hidden field and a minimum fill time), and what they catch is
 * answered like a success and kept aside as suspected spam, never as a lead.
 */
import { randomUUID } from 'node:crypto';
import { toE164UsPhone } from '../leads/phone.ts';
import type { SpamReason } from '../office/store.ts';
import type { PublicServices, RequestInfo } from '../roles/index.ts';
import { fieldOf, personMessage } from '../leads/fields.ts';
import { MAX_LENGTH } from '../leads/schema.ts';
import { newReference } from '../leads/reference.ts';
import { takeLead, UNAVAILABLE_RETRY_AFTER_SECONDS, type IntakeOutcome } from '../leads/intake.ts';
import { answerBy, keptPromise, whatHappensNext } from '../leads/next-step.ts';
import type { RateLimitState } from '../limiter/rate-limiter.ts';
import { issueFormToken, readFormToken } from './token.ts';
import { apiMembers, FORM_FIELDS, typedValues, WAYS_SHOWN } from './answers.ts';
import { countProblem } from './choices.ts';
import { WEB_FORMS, type WebForm } from '../site/forms.ts';
import type { FormWords } from '../site/form-words.ts';

/** The least time a person takes to fill in a form; anything faster is a program. */
export const MIN_FILL_MS = 3_000;

/** The hidden field people never see or fill in. */
export const HONEYPOT_FIELD = 'website';

/** Where a field stands on its form's page (the consent box last): the error summary lists errors in that order. */
const pageOrder = (form: WebForm, field: string) => {
  const at = (FORM_FIELDS[form] as readonly string[]).indexOf(field);
  return at === -1 ? FORM_FIELDS[form].length : at;
};

/** A field problem as the form shows it: beside the field, and in the summary after the field's `label`. */
export interface FieldMessage {
  field: string;
  label: string;
  message: string;
}

/** The name in the summary of a field whose label is not a name (the consent box's label is its whole wording). */
const CONSENT_LABEL = 'Permission to contact you';

/** What became of a submission, and what to tell the person. */
export type FormOutcome =
  /**
   * `nextStep`: the sentence agents receive as `whatHappensNext`, from the company's promise and
   * hours; `inServiceArea` when a ZIP code was given: whether the company serves it.
   */
  | { kind: 'received'; reference: string; nextStep: string; inServiceArea?: boolean }
  | { kind: 'duplicate'; reference: string; nextStep: string; inServiceArea?: boolean }
  | { kind: 'invalid'; errors: FieldMessage[] }
  | { kind: 'rate_limited'; retryAfterSeconds: number }
  | { kind: 'unavailable'; retryAfterSeconds: number; maybeStored: boolean }
  | { kind: 'already_sent' }
  | { kind: 'page_changed'; consentText?: string } // the new wording, its `{ways}` to be said as ticked
  | { kind: 'failed' };

/**
 * An outcome with the message to show and, for anything but a success, what to keep in the form:
 * the values, the consent box, and the token for the next try (the same start time, so that a
 * person correcting one answer is not taken for a program; the same key unless it was used up).
 */
export type FormResult = FormOutcome & { message: string; values: Record<string, string>; consent: boolean; token?: string };

let caught = 0;

/** What a person whose home is in the area reads of it (the next step says when it is not, and what then). */
const areaWords = (inServiceArea: boolean | undefined) => (inServiceArea ? ' Your home is in the area we clean.' : '');

/** The message a person reads for an outcome. */
export function outcomeMessage(outcome: FormOutcome, words: Partial<Pick<FormWords, 'form' | 'facts'>>): string {
  const what = words.form === 'support' ? 'message' : 'request';
  const call = words.facts ? `call the office on ${words.facts.phone}` : 'call the office';
  switch (outcome.kind) {
    case 'received':
      return `Thank you: your ${what} is received. ${outcome.nextStep}${areaWords(outcome.inServiceArea)}`;
    case 'duplicate':
      return (
        `The office already has this ${what}, received earlier: its reference is ${outcome.reference}. There is no need to send it again. ` +
        `${outcome.nextStep}${areaWords(outcome.inServiceArea)}`
      );
    case 'invalid':
      return outcome.errors.length === 1
        ? `One answer needs your attention before the ${what} can be sent.`
        : `${outcome.errors.length} answers need your attention before the ${what} can be sent.`;
    case 'rate_limited':
      return (
        `Too many requests were sent from your connection in the last minute. Nothing was saved. Please try again in ` +
        `${outcome.retryAfterSeconds} seconds, or ${call}.`
      );
    case 'unavailable':
      return outcome.maybeStored
        ? `We could not confirm that your ${what} was saved. Please send it again in a moment: if it was saved, it will ` +
            `not be saved twice. If it keeps failing, ${call}.`
        : `We could not save your ${what} just now: nothing was saved. Please try again in ${outcome.retryAfterSeconds} seconds, or ${call}.`;
    case 'already_sent':
      return `This form was already sent, with other answers. To send a new ${what}, reload the page and fill it in again.`;
    case 'page_changed':
      return 'The wording of this form changed while you were filling it in. Please read it again, tick the box if you agree, and send it.';
    case 'failed':
      return `Something went wrong on our side and nothing was saved. Please try again, or ${call}.`;
  }
}

/**
 * What a trap caught, each answer cut to the longest the form takes (`MAX_LENGTH`; 200 characters
 * for anything else): it is kept unchecked, and must not make the office's page heavy.
 */
function bounded(body: Record<string, unknown>): Record<string, unknown> {
  const longest = (name: string) => (MAX_LENGTH as Record<string, number>)[name] ?? 200;
  return Object.fromEntries(Object.entries(body).map(([name, value]) => [name, typeof value === 'string' ? value.slice(0, longest(name)) : value]));
}

/** A field as typed (the consent box, the hidden fields). */
const text = (data: FormData, name: string) => {
  const value = data.get(name);
  return typeof value === 'string' ? value : '';
};

/** Handles a submission of `words.form`: `data` as the browser sent it, `ctx` the request's services and facts. */
export async function submitWebForm(
  data: FormData,
  words: FormWords,
  ctx: { services: PublicServices; request: RequestInfo; userAgent: string | null; budget: RateLimitState | undefined },
  now = new Date(),
): Promise<FormResult> {
  const { form } = words;
  const { services, request } = ctx;
  // Kept whole, however long (the body is at most MAX_FORM_BODY_BYTES): what is refused is shown again as typed, never cut.
  const values = typedValues(form, data);
  const consent = text(data, 'communicationsConsent') !== '';
  // A person never sees the hidden field, and always has the page's token.
  const token = readFormToken(services.formTokenKey, text(data, 'formToken'));
  const nextToken = (fresh: boolean) =>
    token && issueFormToken(services.formTokenKey, form, words.disclosure?.version, token.renderedAt, fresh ? undefined : token.idempotencyKey);
  const result = (outcome: FormOutcome, next = nextToken(false)): FormResult => ({
    ...outcome,
    message: outcomeMessage(outcome, words),
    values,
    consent,
    ...(next && { token: next }),
  });

  // What happens next, as agents are told it: the promise stored with the lead (or given with a caught submission).
  const next = (lead: { receivedAt: string; inServiceArea?: boolean; answerBy?: string; allowedContact?: string[] }) => ({
    nextStep: whatHappensNext(new Date(lead.receivedAt), services.promise, { outsideArea: lead.inServiceArea === false, ...keptPromise(lead) }),
  });

  // The same budget as the API: a form submission is one of the client's submissions a minute,
  // spent once, by the front door (`src/http/front-door.ts`).
  const limit = ctx.budget;
  if (!limit) throw new Error('a web form submission reached its action without its budget');
  if (!limit.allowed) return result({ kind: 'rate_limited', retryAfterSeconds: limit.resetSeconds });

  const pageUrl = new URL(WEB_FORMS[form].path, services.config.siteUrl).href;
  const members = apiMembers(values, text(data, WAYS_SHOWN) !== '');
  const body: Record<string, unknown> =
    form === 'quote'
      ? { ...members, communicationsConsent: consent, ...(consent && { consentTimestamp: now.toISOString() }), pageUrl }
      : { formType: 'support', ...members };
  // The consent the lead keeps: the sentence with the ways the person ticked, as the page showed it with JavaScript.
  const asked = members.allowedContact as string[] | undefined;
  const disclosure = words.disclosureFor?.(asked);
  const meta = {
    receivedVia: WEB_FORMS[form].path,
    channel: 'web-form' as const,
    ...(disclosure && { disclosure }),
    clientAddress: request.clientAddress,
    userAgent: ctx.userAgent,
    now,
  };

  // What a trap catches is answered like a success (a program learns nothing) and kept aside as
  // suspected spam, where the office can release a real person caught by mistake.
  const caughtBy = async (reason: SpamReason) => {
    caught++;
    const reference = newReference(form);
    // The consent's wording is evidence only for a sender who had this form's page (a valid token).
    const { now: at, disclosure: kept, ...how } = meta;
    // The promise the sender is given, kept with the submission: a release later keeps it.
    const promised = answerBy(at, services.promise).toISOString();
    const sawWording = kept !== undefined && token?.form === form && token.disclosureVersion === words.disclosure?.version;
    const person = { emailNormalised: values.email!.trim().toLowerCase(), phoneE164: toE164UsPhone(values.phone!.trim()) ?? '' };
    try {
      const spamMeta = { ...how, ...(sawWording && { disclosure: kept }), answerBy: promised };
      await services.spamFolder.keepSpam({ id: randomUUID(), reference, formType: form, receivedAt: at, reason, body: bounded(body), meta: spamMeta }, person);
      services.logger.info(
        { form, trap: reason, caughtSinceStart: caught },
        'web form submission caught by a spam trap; answered as received, kept as suspected spam',
      );
    } catch (err) {
      services.logger.error({ reqId: request.id, form, trap: reason, err }, 'web form submission caught by a spam trap could not be kept as suspected spam');
    }
    return result({ kind: 'received', reference, ...next({ receivedAt: now.toISOString(), answerBy: promised, allowedContact: asked }) });
  };
  if (text(data, HONEYPOT_FIELD) !== '') return caughtBy('hidden field filled in');
  if (!token || token.form !== form) return caughtBy('no valid form token');
  // The wording changed since the page was drawn: the answer carries the new wording, and the box
  // is unticked, so that a consent is only ever recorded for the words on the person's screen.
  if (words.disclosure && token.disclosureVersion !== words.disclosure.version)
    return { ...result({ kind: 'page_changed', consentText: words.consentTemplate }), consent: false };
  // Checked once the answers are valid, so that a person who sends an empty form at once reads what is missing.
  const tooFast = now.getTime() - token.renderedAt < MIN_FILL_MS;
  let outcome: IntakeOutcome;
  try {
    outcome = await takeLead(services.intake, {
      body,
      meta,
      business: { promise: services.promise, serviceArea: services.serviceArea },
      // The key is bound to what the person typed (and ticked), not to the time of the submission.
      idempotency: () => ({ key: `web-form:${token.idempotencyKey}`, boundTo: { form, ...values, consent } }),
      admit: () => !tooFast,
    });
  } catch (err) {
    services.logger.error({ reqId: request.id, form, err }, 'unexpected error in a web form submission');
    return result({ kind: 'failed' });
  }
  switch (outcome.kind) {
    case 'invalid': {
      const errors = outcome.errors
        .map((e) => {
          const field = fieldOf(e) ?? 'form';
          const label = field === 'communicationsConsent' ? CONSENT_LABEL : (words.fields[field]?.label ?? '');
          const message =
            countProblem(field, values[field] ?? '') ??
            personMessage(e, { maxLength: MAX_LENGTH[field as keyof typeof MAX_LENGTH], length: values[field]?.length });
          return { field, label, message };
        })
        .sort((a, b) => pageOrder(form, a.field) - pageOrder(form, b.field));
      return result({ kind: 'invalid', errors });
    }
    case 'held':
      return caughtBy('sent faster than a person fills it in');
    case 'created':
    case 'replayed': {
      const { reference, inServiceArea } = outcome.receipt;
      return result({ kind: 'received', reference, inServiceArea, ...next({ ...outcome.receipt, ...outcome }) });
    }
    case 'duplicate':
      return result({ kind: 'duplicate', reference: outcome.reference, inServiceArea: outcome.inServiceArea, ...next(outcome) });
    case 'key_reused':
      return result({ kind: 'already_sent' }, nextToken(true));
    case 'unavailable':
      services.logger.error({ reqId: request.id, form, err: outcome.cause }, 'lead store unavailable for a web form submission');
      return result({ kind: 'unavailable', retryAfterSeconds: UNAVAILABLE_RETRY_AFTER_SECONDS, maybeStored: outcome.maybeStored });
  }
}
