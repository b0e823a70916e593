/**
 * Facts about the service that the API, the problem registry, the discovery documents and the
 * pages all state: each is written here once, and every text that mentions it interpolates it.
 */
import { CONSENT_CLOCK_SKEW_MS } from './leads/schema.ts';
import { DELETION_RECORD_DAYS, SPAM_KEEP_DAYS } from './leads/retention.ts';
import { REPLAY_WINDOW_HOURS } from './leads/store.ts';
import { REFERENCE_PATTERN } from './leads/reference.ts';

export const SERVICE_NAME = 'Lead Intake API';
export const API_VERSION = '1.0.0';

/** The largest lead body, in bytes (spec section 8). */
export const MAX_BODY_BYTES = 20_000;
/**
 * The largest web-form body: URL encoding can triple a character, so a form at the API's field
 * limits may take more bytes than its JSON would.
 */
export const MAX_FORM_BODY_BYTES = 64 * 1024;

/** `MAX_BODY_BYTES` as people write it: "20,000". */
export const MAX_BODY_TEXT = MAX_BODY_BYTES.toLocaleString('en-US');

/** How long a request body may stop arriving, while it is read, before the request is answered 408. */
export const BODY_IDLE_TIMEOUT_SECONDS = 10;

/** The lead rate limit: this many submissions per window per client, over both lead paths together. */
export const RATE_LIMIT = { points: 10, windowSeconds: 60 } as const;

/** The rate-limit policy in the draft-ietf-httpapi-ratelimit-headers form sent as `RateLimit-Policy`. */
export const RATE_LIMIT_POLICY = `${RATE_LIMIT.points};w=${RATE_LIMIT.windowSeconds}`;

/** "24 hours": how long idempotency keys are remembered and duplicates looked for. */
export const REPLAY_WINDOW_TEXT = `${REPLAY_WINDOW_HOURS} hours`;

/** Minimum notice, in days, between announcing a sunset and the removal itself (spec section 9). */
export const SUNSET_NOTICE_DAYS = 365;

/** The API's paths, relative to `SITE_URL`. The route table (`src/http/routes.ts`) serves them. */
export const API_PATHS = {
  status: '/api/v1',
  leads: '/api/v1/leads',
  deprecatedLeads: '/api/leads',
} as const;

/**
 * The facts a text may name, as they are written in it: `{{name}}` in `spec/openapi.yaml`,
 * `<Fact name="…" />` in a page under `content/`. An unknown name fails the build.
 */
export const FACTS = {
  serviceName: SERVICE_NAME,
  apiVersion: API_VERSION,
  maxBodyBytes: MAX_BODY_TEXT,
  rateLimit: String(RATE_LIMIT.points),
  rateLimitWindowSeconds: String(RATE_LIMIT.windowSeconds),
  rateLimitPolicy: RATE_LIMIT_POLICY,
  replayWindow: REPLAY_WINDOW_TEXT,
  sunsetNoticeDays: String(SUNSET_NOTICE_DAYS),
  consentClockSkewMinutes: String(CONSENT_CLOCK_SKEW_MS / 60_000),
  bodyIdleTimeoutSeconds: String(BODY_IDLE_TIMEOUT_SECONDS),
  deletionRecordMonths: String(Math.round(DELETION_RECORD_DAYS / 30.4)),
  spamKeepDays: String(SPAM_KEEP_DAYS),
  statusPath: API_PATHS.status,
  leadsPath: API_PATHS.leads,
  deprecatedLeadsPath: API_PATHS.deprecatedLeads,
  referencePattern: REFERENCE_PATTERN.source,
} as const satisfies Record<string, string>;
export type FactName = keyof typeof FACTS;

/** The value of a fact named in a text; throws, naming the known facts, for a name that is none. */
export function fact(name: string, where: string): string {
  if (Object.hasOwn(FACTS, name)) return FACTS[name as FactName];
  throw new Error(`${where} names the fact "${name}", which does not exist; the facts are: ${Object.keys(FACTS).join(', ')}`);
}

/** The rules every caller, person or agent, must follow (spec section 1). */
export const USAGE_RULES = [
  'Submit a lead only when the customer has explicitly asked the company to contact them.',
  'Do not submit test, unsolicited, duplicate or fabricated leads.',
  "Do not submit a lead without the customer's authorization; on a quote request, communicationsConsent is true only because the customer said so.",
  'Do not probe or POST to unadvertised registration paths; send no Authorization header, token, API key or password.',
] as const;

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
}

/**
 * What an agent must know that the field names do not say, by the field it is about, in every
 * document an agent reads. `{consent}` is the quote form's disclosure.
 */
export const AGENT_GUIDANCE = {
  formType:
    'Send a quote request (formType absent or "quote") when the customer wants a price for, or a visit to, clean their home; send a contact message (formType "support") for anything else, including a question before booking, rescheduling or cancelling a visit, and feedback. A follow-up about a lead sent earlier (a question about a quote, a change to it) is a contact message that quotes the earlier lead\'s reference in message; never send the quote request again. If unsure, ask the customer.',
  communicationsConsent:
    '`true` (the JSON boolean) means that the customer agreed that the company may call, text and e-mail them about this request, as the company\'s own quote form asks in these words: "{consent}" It covers this request only, not marketing. Required on a quote request; optional on a contact message, which the company answers anyway. Send it only when the customer said so.',
  consentTimestamp:
    'When the customer gave that consent (for an agent: the moment the customer told you to send the request), such as 2026-11-22T17:03:00Z. Leave it out if you do not know it.',
  pageUrl: 'The web page the customer was on when they asked, if there was one. Leave it out when there is no page (a chat, a call, an app).',
  service: "One of the services the company offers (listed with this field), or the customer's own words when none fits.",
  notes:
    "Everything about the home and the visit that has no field of its own, in the customer's words: the size of the home (square feet, floors), add-ons (such as the inside of the oven or the fridge, or windows), preferred days and times, pets, how to get in. It may be empty.",
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

/**
 * The `Idempotency-Key` of each published example request: distinct, so that copying both examples
 * works, and a repeat of one is a replay. Every text that shows one says to make a new one per
 * submission.
 */
export const EXAMPLE_IDEMPOTENCY_KEYS = {
  quote: '5f0b8e1c-7a3d-4c29-9e64-2b7d1f08a3c5',
  support: 'c93e4a70-1d2b-4f8e-a615-8e0f37b9d2a4',
} as const;

/** What the product does not offer (spec sections 1 and 6), stated so that nobody goes looking for it. */
export const NOT_OFFERED = [
  'public sandbox',
  'API-key program',
  'official CLI',
  'SDK',
  'MCP server',
  'webhook product',
  'events or outbound notifications to callers',
  'agent registration',
  'access to customer, cleaner, schedule, payment or third-party field-service records',
] as const;

/** Absolute URLs of everything the service publishes, built from `SITE_URL` alone. */
export function serviceLinks(siteUrl: string) {
  return {
    status: `${siteUrl}${API_PATHS.status}`,
    leads: `${siteUrl}${API_PATHS.leads}`,
    deprecatedLeads: `${siteUrl}${API_PATHS.deprecatedLeads}`,
    openapi: `${siteUrl}/openapi.json`,
    apiDocs: `${siteUrl}/api-docs`,
    apiCatalog: `${siteUrl}/.well-known/api-catalog`,
    llmsTxt: `${siteUrl}/llms.txt`,
    developers: `${siteUrl}/developers`,
    errors: `${siteUrl}/developers/errors`,
    deprecationPolicy: `${siteUrl}/developers#deprecation-policy`,
    terms: `${siteUrl}/terms`,
    privacy: `${siteUrl}/privacy`,
  };
}
