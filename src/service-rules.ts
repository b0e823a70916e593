/**
 * What a caller must do, a sentence per rule, written once here and placed as it is in every
 * document that states the rule (`{{ruleRetry}}` in `spec/openapi.yaml`, `<Fact name="ruleRetry" />`
 * on a page, `/llms.txt`, the problem registry): a test finds each sentence identical wherever it is.
 * Plain words, no markup, so that it reads the same in every document.
 */
import { REPLAY_WINDOW_HOURS } from './leads/store.ts';
import { NOT_SURE, PREFERRED_DATES_DAYS_AHEAD } from './leads/fields.ts';
import type { PriceGuide } from './prices.ts';

export const RULES = {
  retry:
    'After a 429 or a 5xx answer, send the same body with the same Idempotency-Key once the seconds in Retry-After ' +
    'have passed; after a 422, send the body corrected as its errors say, with a new Idempotency-Key.',
  idempotencyKey:
    'Send a new Idempotency-Key, a random UUID, with each new submission, quoted as a Structured Field string ' +
    '("5f0b8e1c-7a3d-4c29-9e64-2b7d1f08a3c5"); the same UUID sent bare is the same key.',
  duplicate:
    'A lead of the same form with the same name, e-mail address, phone number and content as one accepted in the ' +
    `last ${REPLAY_WINDOW_HOURS} hours is a duplicate: it is not stored again, and gets 409 duplicate_submission with the ` +
    "first lead's leadId, reference and whatHappensNext.",
  consent:
    'Set communicationsConsent to true only when the customer agreed that the company may call, text and e-mail ' +
    'them about this request: it is required on a quote request, and optional on a contact message.',
  consentTimestamp:
    'consentTimestamp is the moment the customer gave that consent: send it in UTC (Z), such as 2026-11-22T17:03:00Z ' +
    '(a date-time with an offset, such as 2026-11-22T09:03:00-08:00, is also accepted, and stored in UTC); leave it ' +
    'out if you do not know it.',
  notSure: `Ask the customer for the number of bedrooms and bathrooms; if they do not know, send "${NOT_SURE}", and never invent a number.`,
  bathrooms: 'A bathroom with a shower or a bath counts as 1, and one with only a toilet and a basin as 0.5.',
  serviceArea:
    'Send postalCode, the ZIP code of the home to be cleaned, whenever the customer gives it: a ZIP code outside the ' +
    'service area is not refused, and the receipt says inServiceArea false and what the office will do.',
  preferredDates:
    `Send preferredDates only as days the customer named, from today in the company's time zone to ${PREFERRED_DATES_DAYS_AHEAD} days ahead; ` +
    'preferredContact is how the customer would rather be reached first, and never replaces communicationsConsent.',
} as const;

/** The rules as facts a text may name: `ruleRetry`, `ruleDuplicate`, … */
export const RULE_FACTS = Object.fromEntries(Object.entries(RULES).map(([name, text]) => [`rule${name[0]!.toUpperCase()}${name.slice(1)}`, text])) as {
  [K in keyof typeof RULES as `rule${Capitalize<K>}`]: string;
};

/** What a deployment is for, as every document says it (`environment` in `GET /api/v1`; `ENVIRONMENT`). */
export const ENVIRONMENT_RULE = {
  production: "This deployment is the company's own: it takes real leads, and only leads a customer asked for.",
  test:
    'This is a test deployment of the service (its address does not begin with https://): it is not a sandbox, and ' +
    "takes no leads, neither real customers' details nor trial leads.",
} as const;

/**
 * What the company offers, as its editors list it on the web forms (`content/forms/`): published
 * to agents in the OpenAPI description, /llms.txt, /developers and `GET /api/v1`, so that `service`
 * and `helpWith` are not guessed. Both fields stay free text, as the specification says.
 */
export interface Offer {
  /** The kinds of cleaning on the quote form. */
  services: readonly string[];
  /** What a contact message can be about, on the contact form. */
  contactTopics: readonly string[];
  /** The quote form's consent disclosure, with the company's name in it. */
  consentText: string;
  /** The starting prices of the cleanings, by size of home, when the company publishes them. */
  prices?: PriceGuide;
}

/**
 * What an agent must know that the field names do not say, by the field it is about, in every
 * document an agent reads. `{consent}` is the quote form's disclosure.
 */
export const AGENT_GUIDANCE = {
  formType:
    'Send a quote request (formType absent or "quote") when the customer wants a price for, or a visit to, clean ' +
    'their home; send a contact message (formType "support") for anything else, including a question before ' +
    'booking, rescheduling or cancelling a visit, and feedback. A follow-up about a lead sent earlier (a question ' +
    "about a quote, a change to it) is a contact message that quotes the earlier lead's reference in message; " +
    'never send the quote request again. If unsure, ask the customer.',
  communicationsConsent: `${RULES.consent} The company's own quote form asks it in these words: "{consent}" It covers this request only, not marketing.`,
  bedrooms: `${RULES.notSure} A studio has "0" bedrooms.`,
  bathrooms: `${RULES.notSure} ${RULES.bathrooms}`,
  consentTimestamp: RULES.consentTimestamp,
  pageUrl: 'The web page the customer was on when they asked, if there was one. Leave it out when there is no page (a chat, a call, an app).',
  service: "One of the services the company offers (listed with this field), or the customer's own words when none fits.",
  notes:
    "Everything about the home and the visit that has no field of its own, in the customer's words: the size of the " +
    'home (square feet, floors), add-ons (such as the inside of the oven or the fridge, or windows), times of day, ' +
    'pets, how to get in. It may be empty.',
  postalCode: RULES.serviceArea,
  preferredDates: RULES.preferredDates,
  helpWith: "What the message is about: one of the contact form's topics (listed with this field), or the customer's own words.",
  message: "The customer's message, in their words. In a follow-up, quote the reference of the earlier lead (such as Q-7K3M-4P), which its 201 gave.",
} as const;

/** `AGENT_GUIDANCE` with the offer's words in place. */
export function agentGuidance(offer: Offer): Record<keyof typeof AGENT_GUIDANCE, string> {
  return Object.fromEntries(Object.entries(AGENT_GUIDANCE).map(([field, text]) => [field, text.replace('{consent}', () => offer.consentText)])) as Record<
    keyof typeof AGENT_GUIDANCE,
    string
  >;
}
