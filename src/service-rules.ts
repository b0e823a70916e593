/**
 * What a caller must do, a sentence per rule, written once here and placed as it is in every
 * document that states the rule (`{{ruleRetry}}` in `spec/openapi.yaml`, `<Fact name="ruleRetry" />`
 * on a page, `/llms.txt`, the problem registry): a test finds each sentence identical wherever it is.
 * Plain words, no markup, so that it reads the same in every document.
 */
import { REPLAY_WINDOW_HOURS } from './leads/store.ts';
import { FREQUENCIES, NOT_SURE } from './leads/fields.ts';
import type { PriceGuide } from './prices.ts';

/** How long to wait before the one retry of a 500, which carries no `Retry-After`. */
export const INTERNAL_ERROR_RETRY_SECONDS = 60;

/**
 * What to do after each kind of failed answer, as the retry rule says it and as each problem's
 * `resolution` quotes it (`src/problems/registry.ts`).
 */
export const RETRY_STEPS = {
  /** After a 429 or a 503. */
  afterRetryAfter: 'send the same body with the same Idempotency-Key once the seconds in Retry-After have passed',
  /** After a 500. */
  afterInternalError:
    `send the same body with the same Idempotency-Key once more, after ${INTERNAL_ERROR_RETRY_SECONDS} seconds, and if that ` +
    'fails too, ask the customer to call the office',
  /** After a 422. */
  afterRefusal: 'send the body corrected as its errors say, with a new Idempotency-Key',
} as const;

/** A step of the retry rule as a sentence of its own: "Send the same body ...". */
export const retrySentence = (step: keyof typeof RETRY_STEPS) => `${RETRY_STEPS[step][0]!.toUpperCase()}${RETRY_STEPS[step].slice(1)}.`;

export const RULES = {
  retry:
    `After a 429 or a 503 answer, ${RETRY_STEPS.afterRetryAfter}; after a 500, which carries no Retry-After, ` +
    `${RETRY_STEPS.afterInternalError}; after a 422, ${RETRY_STEPS.afterRefusal}.`,
  idempotencyKey:
    "Send an Idempotency-Key with every submission: a new random UUID for each (never an example's), and the same " +
    'one only to retry the same body; quote it ("" around the UUID), though sent bare it is the same key.',
  duplicate:
    'A lead of the same form with the same name, e-mail address, phone number and content as one accepted in the ' +
    `last ${REPLAY_WINDOW_HOURS} hours is a duplicate: it is not stored again, and gets 409 duplicate_submission with the ` +
    "first lead's leadId, reference and whatHappensNext.",
  whatToQuote:
    'About a stored lead, the customer quotes its reference (such as Q-7K3M-4P) to the office; about an answer that ' +
    'stored nothing, quote its X-Request-Id.',
  valueTypes:
    'Every value is a JSON string, except communicationsConsent, a boolean; preferredDates and allowedContact, arrays ' +
    'of strings; and preferredWindow, an object of two: a number of bedrooms is sent as "3", never 3.',
  whoseDetails:
    'name, phone and email are those of the person the office answers, the customer who asked; when the home is ' +
    "someone else's (a tenant's, a parent's), notes says whose, and that person's details are sent only with their " +
    'agreement.',
  consent:
    'Set communicationsConsent to true only when the customer agreed that the company may contact them about this ' +
    'request by the ways they allow (those in allowedContact, else call, text and e-mail): it is required on a quote ' +
    'request, and optional on a contact message.',
  contactLimits: 'The only ways the customer allows ("texts only", "no texts"): the consent covers those alone, and the office keeps to them.',
  consentTimestamp:
    'consentTimestamp is the moment the customer gave that consent: send it in UTC (Z), such as 2026-11-22T17:03:00Z ' +
    '(a date-time with an offset, such as 2026-11-22T09:03:00-08:00, is also accepted, and stored in UTC); leave it ' +
    'out if you do not know it.',
  notSure: `Ask the customer for the number of bedrooms and bathrooms; if they do not know, send "${NOT_SURE}", and never invent a number.`,
  bathrooms: 'A bathroom with a shower or a bath counts as 1, and one with only a toilet and a basin as 0.5.',
  serviceArea:
    'Send postalCode, the ZIP code of the home, whenever the customer gives it: a ZIP code outside the service area ' +
    'is taken, and the receipt says inServiceArea false and what the office will do.',
  preferredDays: 'The days the customer would like the visit go in preferredDates, and only days they named; the part of the day in ' + 'timeOfDay.',
  preferredContact:
    'preferredContact is the way the customer would rather be reached first, not the only one (one of allowedContact ' +
    'when sent), and never replaces communicationsConsent.',
  testDeployment:
    'A test deployment (every deployment whose address does not begin with https://, and any other the company ' +
    "marks test) is for the company's own development and setting up, not a sandbox: it answers a lead as the " +
    "company's own deployment does, but callers send it no leads, neither real customers' details nor trial leads.",
} as const;

/** The rules as facts a text may name: `ruleRetry`, `ruleDuplicate`, … */
export const RULE_FACTS = Object.fromEntries(Object.entries(RULES).map(([name, text]) => [`rule${name[0]!.toUpperCase()}${name.slice(1)}`, text])) as {
  [K in keyof typeof RULES as `rule${Capitalize<K>}`]: string;
};

/**
 * What a deployment is for, as every document says it (`environment` in `GET /api/v1`; `ENVIRONMENT`):
 * what this one is, then what a test deployment (every `http://` origin) is for: a rule for callers (`RULES.testDeployment`).
 */
export const ENVIRONMENT_RULE = {
  production:
    "This is the company's own deployment: each lead sent to it reaches the office, so send it only leads a customer asked " + `for. ${RULES.testDeployment}`,
  test: `This is a test deployment. ${RULES.testDeployment}`,
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
 * document an agent reads. `{consent}` is the quote form's disclosure; `{frequency}` what
 * `frequency` means with the services offered (`frequencyGuidance`).
 */
export const AGENT_GUIDANCE = {
  formType:
    'Send a quote request (formType absent or "quote") when the customer wants a price for, or a visit to, clean ' +
    'their home, and a contact message (formType "support") for anything else: a question before booking, ' +
    'rescheduling or cancelling a visit, feedback, or a follow-up about a lead sent earlier, which quotes its ' +
    'reference in message (never send the quote request again). If unsure, ask the customer.',
  name: RULES.whoseDetails,
  communicationsConsent: `${RULES.consent} The company's quote form asks it in these words: "{consent}"`,
  bedrooms: `${RULES.notSure} A studio has "0" bedrooms.`,
  bathrooms: `${RULES.bathrooms} A customer who does not know is answered as for bedrooms.`,
  consentTimestamp: RULES.consentTimestamp,
  pageUrl: 'The web page the customer was on when they asked, if there was one. Leave it out when there is no page (a chat, a call, an app).',
  service: "One of the services the company offers (listed with this field), or the customer's own words when none fits.",
  frequency: '{frequency}',
  notes:
    "What has no field of its own, in the customer's words: the size of the home (square feet, floors), add-ons " +
    '(such as the oven, the fridge or windows), an exact time of day, pets, how to get in, and whose home it is ' +
    "when not the customer's. It may be empty.",
  postalCode: RULES.serviceArea,
  preferredDates: RULES.preferredDays,
  preferredContact: RULES.preferredContact,
  allowedContact: `${RULES.contactLimits} Absent: any.`,
  timeOfDay: 'The part of the day that suits ("tomorrow morning": morning).',
  preferredWindow: 'A span of days the customer named ("between the 16th and the 19th"), instead of or beside preferredDates.',
  helpWith: "What the message is about: one of the contact form's topics (listed with this field), or the customer's own words.",
  message: "The customer's message, in their words. In a follow-up, quote the reference of the earlier lead (such as Q-7K3M-4P), which its 201 gave.",
} as const;

/** `frequency`'s values in words: `"once", "weekly", … or "monthly"`. */
const quotedOr = (values: readonly string[]) =>
  `${values
    .slice(0, -1)
    .map((v) => `"${v}"`)
    .join(', ')} or "${values.at(-1)}"`;

/**
 * The service of the offer for regular visits: by the editors' convention (written beside the list in
 * `content/forms/quote.mdx`), the one whose name begins with "Regular".
 */
export const regularService = (offer: Pick<Offer, 'services'>) => offer.services.find((s) => /^regular\b/i.test(s));

/** What `frequency` means, and how a regular visit is asked for and priced, with the services the offer names. */
export function frequencyGuidance(offer: Pick<Offer, 'services' | 'prices'>): string {
  const [once, ...regular] = FREQUENCIES;
  const how =
    `How often the customer wants the cleaning, from the first visit on: "${once}" (or left out) for one visit, ` + `${quotedOr(regular)} for regular visits.`;
  const service = regularService(offer);
  if (!service) return `${how} The office prices regular visits.`;
  const priced = offer.prices?.some((p) => p.service === service) ? `, whose starting prices are per visit at any of them` : '';
  return `${how} Regular visits are service "${service}"${priced}; another service is taken with any frequency, and the office prices it.`;
}

/** `AGENT_GUIDANCE` with the offer's words in place. */
export function agentGuidance(offer: Offer): Record<keyof typeof AGENT_GUIDANCE, string> {
  const frequency = frequencyGuidance(offer);
  return Object.fromEntries(
    Object.entries(AGENT_GUIDANCE).map(([field, text]) => [field, text.replace('{consent}', () => offer.consentText).replace('{frequency}', () => frequency)]),
  ) as Record<keyof typeof AGENT_GUIDANCE, string>;
}
