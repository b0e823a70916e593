/**
 * Facts about the service that the API, the problem registry, the discovery documents and the
 * pages all state: each is written here once, and every text that mentions it interpolates it.
 */
import { CONSENT_CLOCK_SKEW_MS } from './leads/schema.ts';
import { MAX_WINDOW_DAYS, PREFERRED_DATES_DAYS_AHEAD } from './leads/fields.ts';
import { US_PHONE_RULE } from './leads/phone.ts';
import { DELETION_RECORD_TEXT, SPAM_KEEP_DAYS } from './leads/retention.ts';
import { REPLAY_WINDOW_HOURS } from './leads/store.ts';
import { REFERENCE_PATTERN } from './leads/reference.ts';
import { RULE_FACTS } from './service-rules.ts';
import { AGENT_PRICE_NOTE } from './prices.ts';

export { AGENT_GUIDANCE, agentGuidance, ENVIRONMENT_RULE, RULES, type Offer } from './service-rules.ts';

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
  preferredDatesDaysAhead: String(PREFERRED_DATES_DAYS_AHEAD),
  maxWindowDays: String(MAX_WINDOW_DAYS),
  bodyIdleTimeoutSeconds: String(BODY_IDLE_TIMEOUT_SECONDS),
  deletionRecordMonths: DELETION_RECORD_TEXT.split(' ')[0]!,
  spamKeepDays: String(SPAM_KEEP_DAYS),
  statusPath: API_PATHS.status,
  leadsPath: API_PATHS.leads,
  deprecatedLeadsPath: API_PATHS.deprecatedLeads,
  referencePattern: REFERENCE_PATTERN.source,
  priceNote: AGENT_PRICE_NOTE,
  phoneRule: US_PHONE_RULE,
  ...RULE_FACTS,
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

/** Where the request body's JSON Schema is published, a document of its own (JSON Schema 2020-12), and its media type. */
export const LEAD_SCHEMA_PATH = '/schemas/lead-submission.json';
export const SCHEMA_MEDIA_TYPE = 'application/schema+json';

/** The media type of `/.well-known/api-catalog` (RFC 9727). */
export const API_CATALOG_MEDIA_TYPE = 'application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"';

/** Absolute URLs of everything the service publishes, built from `SITE_URL` alone. */
export function serviceLinks(siteUrl: string) {
  return {
    status: `${siteUrl}${API_PATHS.status}`,
    leads: `${siteUrl}${API_PATHS.leads}`,
    deprecatedLeads: `${siteUrl}${API_PATHS.deprecatedLeads}`,
    openapi: `${siteUrl}/openapi.json`,
    leadSchema: `${siteUrl}${LEAD_SCHEMA_PATH}`,
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
